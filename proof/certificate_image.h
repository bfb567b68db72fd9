// A certificate moved onto another image of its root (engine/canonical.h):
// a proof database finds a position by its canonical form, so the entry it
// returns may be proved for a rotated or mirrored image of the position
// asked, the players maybe exchanged. The same strategy, seen through the
// symmetry that maps the stored root onto the position asked, proves that
// position: every move is mapped square by square (an exchange of the
// players changes no move), and each AND node's children are put back in
// the ascending order of the mapped moves' codes, as the file wants.
//
//   stored root R = image of B      certificateAt(stored, B): root B, the
//   OR  node: move m                OR  node: m mapped onto B's board
//   AND node: children by code(m)   AND node: children by code(m mapped)
//
// Node indices, leaves (kWonLeaf, kDatabaseLeaf, kDrawnLeaf) and the winner
// are kept, so the mapped certificate is accepted exactly where the stored
// one is. A not-lost certificate (version 3, whose children may name any
// node) is moved the same way, its nodes reached breadth first.
#pragma once

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "proof/certificate.h"

namespace gobblet::proof {

// The certificate of `board`, made from `certificate`, whose root must be
// an image of `board` (the same position gives a copy). InvalidArgument
// when it is not (another variant, another position), or when the
// certificate does not replay (a node not reached, an AND node whose
// children do not match the legal moves, a move that is not legal).
absl::StatusOr<Certificate> certificateAt(const Certificate& certificate, const Board& board);

}  // namespace gobblet::proof
