#include "engine/canonical.h"

#include <array>

namespace gobblet {

Board canonicalBoard(const Board& board) {
  // The images' order keys from the masks alone (the side to move, then the
  // masks): only the least image is made a Board.
  using Key = std::array<Mask, 2 * kMaxSizes + 1>;
  const Geometry& g = board.geometry();
  const int sizes = board.variant().sizes;
  Key best{};
  int bestSymmetry = -1;
  bool bestSwapped = false;
  for (int s = 0; s < kSymmetries; ++s)
    for (int swapped = 0; swapped < 2; ++swapped) {
      Key key{};
      key[0] = static_cast<Mask>(board.sideToMove() ^ swapped);
      for (int p = 0; p < 2; ++p)
        for (int size = 0; size < sizes; ++size)
          key[1 + p * kMaxSizes + size] = g.transform(s, board.pieces(p ^ swapped, size));
      if (bestSymmetry < 0 || key < best) {
        best = key;
        bestSymmetry = s;
        bestSwapped = swapped != 0;
      }
    }
  const Board image = board.transformed(bestSymmetry);
  return bestSwapped ? image.colorSwapped() : image;
}

}  // namespace gobblet
