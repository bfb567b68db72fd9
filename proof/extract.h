// Reading a certificate back from a ProofTable after a proof.
//
// A depth-first walk from the root over the proved positions: at an OR node
// (the attacker to move) a move that wins at once, else the proved child of
// least distance that does not repeat a position of the walk's path; at an
// AND node every move of the defender. Positions already written are shared
// (a finished node's subgraph is complete and lies off the current path, so
// sharing it can never close a cycle). A position whose proof has left the
// table is proved again by a fresh search from it, with the walk's path as
// its history. With known positions (a proof database), a drop into a
// position known won by the attacker ends the branch there (a
// kDatabaseLeaf): at an OR node such a drop is taken first, after a move
// that wins at once. Nodes are numbered in reverse post-order, so that every
// child comes after its parent, as the file wants.
#pragma once

#include "absl/status/statusor.h"
#include <vector>

#include "dfpn.h"
#include "engine/board.h"
#include "proof/certificate.h"
#include "proof/known_positions.h"
#include "proof_table.h"

namespace gobblet::proof {

// The certificate of `root`, proved in `table` for `attacker`; `budget`
// limits the searches that prove again what the table lost. The certificate
// reaches no position of `history` (the game's positions before the root).
// `known` (may be null): the positions its database leaves name; `plies`
// (may be null) is set to the longest game its strategy allows, the known
// positions' plies included.
absl::StatusOr<Certificate> extractCertificate(const Board& root, int attacker, ProofTable& table, Budget& budget,
                                               int maxDepth, const std::vector<Board>& history = {},
                                               const KnownPositions* known = nullptr, int* plies = nullptr);

}  // namespace gobblet::proof
