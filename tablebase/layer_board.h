// The board of a tablebase state, for both families' numberings (Index,
// Index4): a state holds, per size, a mask of the squares of the side to
// move's pieces ("ours") and one of the other side's. Pieces are added size
// by size, smallest first, so that each lies on the smaller ones of its
// square; player 1 is to move.
#pragma once

#include <bit>

#include "engine/board.h"
#include "engine/variant.h"

namespace gobblet::tb {

template <typename LayerState>
Board boardOfLayers(const Variant& variant, const LayerState& st) {
  Board b(variant);
  for (int s = 0; s < variant.sizes; ++s) {
    for (auto m = st.ours[s]; m; m &= m - 1) b.addPiece(0, s, std::countr_zero(m));
    for (auto m = st.theirs[s]; m; m &= m - 1) b.addPiece(1, s, std::countr_zero(m));
  }
  return b;
}

}  // namespace gobblet::tb
