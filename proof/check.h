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
// a kWonLeaf child must be a position the winner has won (Board::winner());
// a kDatabaseLeaf child (a version-2 certificate only) must follow a drop,
// and the position after it must be, canonically, a known position
// (proof/known_positions.h) won by the winner.
// Every node must be reached from the root, and no node's position may be
// one of the game's earlier positions, when they are given. The longest game under the
// certified strategy (in plies, a database leaf's entry's own plies
// included) is reported with an acceptance.
//
// Why a database leaf must follow a drop (the repetition rule): a known
// position was proved with no history, by a strategy that never needs to
// repeat a position (no cycle: the winner can always move nearer a leaf).
// Pieces never leave the board, so after a drop the board holds more
// pieces than at any earlier position of the game: none can recur, and the
// stored strategy wins whatever came before. After a board move an earlier
// position could recur, the stored strategy could reach it, and its third
// occurrence would draw.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "engine/board.h"

#include "proof/certificate.h"
#include "proof/known_positions.h"

namespace gobblet::proof {

struct CheckReport {
  bool accepted = false;
  CertificateKind kind = CertificateKind::kWin;  // from the header, when it could be read
  // Texts fit to print: bytes of the file outside printable ASCII are shown \xNN.
  std::string reason;             // why it was rejected (empty when accepted)
  std::string variant, position;  // from the header, when it could be read
  uint8_t winner = 0;             // (kNotLost: the defender) 0: the side to move at the root; 1: the other side
  uint64_t nodes = 0;
  int plies = 0;  // accepted win: the longest game the certified strategy allows (kNotLost: 0)
};

// `history`: the positions a game had before the certificate's root; a
// certificate for that game must reach none of them (reaching one repeats
// it: the third occurrence is a draw), else it is rejected. `database`:
// what the certificate's database leaves may name (none given: a database
// leaf is rejected).
CheckReport checkCertificate(std::istream& in, const CertificateLimits& limits = {},
                             const std::vector<Board>& history = {}, const KnownPositions* database = nullptr);
CheckReport checkCertificateFile(const std::string& path, const CertificateLimits& limits = {});

// Accepts a not-lost certificate (version 3) only if its defender cannot
// lose the root position, by the rules alone (see above); any other
// certificate is rejected. A database leaf (after any move, the game not
// over) must be a position `database` holds for the defender
// (KnownPositions::holds) or holds won by it (find()); none given: a
// database leaf is rejected. Why after any move: a held position is held
// whatever came before, and a win of the defender's can at worst be
// turned into a draw by a repetition, never into a loss. Memory: the nodes
// read, and a position for each (about 100 bytes a node in all): in
// proportion to the file.
CheckReport checkNotLostCertificate(std::istream& in, const CertificateLimits& limits = {},
                                    const KnownPositions* database = nullptr);
CheckReport checkNotLostCertificateFile(const std::string& path, const CertificateLimits& limits = {});

// The checker the certificate's header names (report.kind says which):
// checkNotLostCertificate for a not-lost certificate, checkCertificate
// for any other (no history; `database` for its database leaves). `in`
// must be seekable: the header is read twice.
CheckReport checkCertificateOfItsKind(std::istream& in, const KnownPositions* database = nullptr,
                                      const CertificateLimits& limits = {});
CheckReport checkCertificateFileOfItsKind(const std::string& path, const KnownPositions* database = nullptr,
                                          const CertificateLimits& limits = {});

}  // namespace gobblet::proof
