// A tablebase state of either family's numbering (Index, Index4) holds, per
// size, a mask of the squares of the side to move's pieces ("ours") and one
// of the other side's. Here: its board, and who has won it.
#pragma once

#include <bit>

#include "engine/board.h"
#include "engine/geometry.h"
#include "engine/variant.h"

namespace gobblet::tb {

// The board of a state: pieces are added size by size, smallest first, so
// that each lies on the smaller ones of its square; player 1 is to move.

template <typename LayerState>
Board boardOfLayers(const Variant& variant, const LayerState& st) {
  Board b(variant);
  for (int s = 0; s < variant.sizes; ++s) {
    for (auto m = st.ours[s]; m; m &= m - 1) b.addPiece(0, s, std::countr_zero(m));
    for (auto m = st.theirs[s]; m; m &= m - 1) b.addPiece(1, s, std::countr_zero(m));
  }
  return b;
}

// The game's outcome for the side to move, as Board::winner() rules it: +1
// if it shows a line (it wins, whether or not the other side does too), -1
// if only the other side does, 0 if the game goes on. A square shows its
// largest piece.
template <typename LayerState>
int outcomeOfLayers(const Variant& variant, const LayerState& st) {
  uint32_t ours = 0, theirs = 0, covered = 0;
  for (int s = variant.sizes - 1; s >= 0; --s) {
    ours |= st.ours[s] & ~covered;
    theirs |= st.theirs[s] & ~covered;
    covered |= st.ours[s] | st.theirs[s];
  }
  const Geometry& g = geometry(variant.n);
  return g.hasLine(static_cast<Mask>(ours)) ? 1 : g.hasLine(static_cast<Mask>(theirs)) ? -1 : 0;
}

}  // namespace gobblet::tb
