// The entries a certificate gives a proof database (proof/database.h): one
// for its root and one for each position its strategy reaches by a drop,
// each with the part of the strategy from it, cut at the drops below it (a
// kDatabaseLeaf naming the entry made for the position there).
//
//   root ──drop──▶ A ──move──▶ B ──drop──▶ C          entries, in order:
//                                                      C: C's strategy
//                                                      A: A, B, then a leaf at C
//                                                      root: a leaf at A
//
// The entries come deepest first (a node's drop children have larger node
// indices, and entries follow the node order backwards), so every database
// leaf names an entry before it. A part of a certificate the checker accepts
// is accepted too: its moves and its leaves are the certificate's, and a
// database leaf follows a drop by construction. Database leaves the
// certificate already had are kept.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "proof/certificate.h"

namespace gobblet::proof {

// InvalidArgument for a certificate whose moves or nodes do not fit its
// position (one the checker would reject).
absl::StatusOr<std::vector<Certificate>> splitAtDrops(const Certificate& certificate);

}  // namespace gobblet::proof
