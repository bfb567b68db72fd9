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
// Every node must be reached from the root. The longest game under the
// certified strategy (in plies) is reported with an acceptance.
#pragma once

#include <cstdint>
#include <istream>
#include <string>

#include "proof/certificate.h"

namespace gobblet::proof {

struct CheckReport {
  bool accepted = false;
  std::string reason;             // why it was rejected (empty when accepted)
  std::string variant, position;  // from the header, when it could be read
  uint8_t winner = 0;             // 0: the side to move at the root; 1: the other side
  uint64_t nodes = 0;
  int plies = 0;  // accepted: the longest game the certified strategy allows
};

CheckReport checkCertificate(std::istream& in, const CertificateLimits& limits = {});
CheckReport checkCertificateFile(const std::string& path, const CertificateLimits& limits = {});

}  // namespace gobblet::proof
