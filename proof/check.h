// The certificate checker: accepts a certificate (proof/certificate.h) only
// if it proves what it claims, by the rules core alone. It shares no code
// with the prover.
//
// Nodes are checked in file order, node 0 at the root position; every
// child index is larger than its parent's (so the graph has no cycle), and
// each node is bound to the position of the first parent that reaches it:
// any other parent must reach the same position. At each node the game must
// not be over, and
//   OR  (the winner to move): the move must be legal;
//   AND (the loser to move):  the loser must have a legal move (else the
//       game is a draw), and the node must give one child per legal move;
// a kWonLeaf child must be a position the winner has won (Board::winner()).
// Every node must be reached from the root, and no node's position may be
// one of the game's earlier positions, when they are given. The longest game under the
// certified strategy (in plies) is reported with an acceptance.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "engine/board.h"

#include "proof/certificate.h"

namespace gobblet::proof {

struct CheckReport {
  bool accepted = false;
  // Texts fit to print: bytes of the file outside printable ASCII are shown \xNN.
  std::string reason;             // why it was rejected (empty when accepted)
  std::string variant, position;  // from the header, when it could be read
  uint8_t winner = 0;             // 0: the side to move at the root; 1: the other side
  uint64_t nodes = 0;
  int plies = 0;  // accepted: the longest game the certified strategy allows
};

// `history`: the positions a game had before the certificate's root; a
// certificate for that game must reach none of them (reaching one repeats
// it: the third occurrence is a draw), else it is rejected.
CheckReport checkCertificate(std::istream& in, const CertificateLimits& limits = {},
                             const std::vector<Board>& history = {});
CheckReport checkCertificateFile(const std::string& path, const CertificateLimits& limits = {});

}  // namespace gobblet::proof
