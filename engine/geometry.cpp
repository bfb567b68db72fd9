#include "engine/geometry.h"

#include <bit>
#include <cassert>
#include <cstddef>

namespace gobblet {

Geometry::Geometry(int side) : n(side), squares(side * side) {
  full = static_cast<Mask>((1u << squares) - 1);
  // Rows, columns, then the two diagonals.
  for (int r = 0; r < n; ++r) {
    Mask row = 0;
    for (int f = 0; f < n; ++f) row |= bit(r * n + f);
    lines[numLines++] = row;
  }
  for (int f = 0; f < n; ++f) {
    Mask col = 0;
    for (int r = 0; r < n; ++r) col |= bit(r * n + f);
    lines[numLines++] = col;
  }
  Mask diag = 0, anti = 0;
  for (int i = 0; i < n; ++i) {
    diag |= bit(i * n + i);
    anti |= bit(i * n + (n - 1 - i));
  }
  lines[numLines++] = diag;
  lines[numLines++] = anti;

  const std::size_t masks = std::size_t{1} << squares;
  lineTable_.assign(masks, 0);
  completionTable_.assign(masks, 0);
  nearLineTable_.assign(masks, 0);
  for (uint32_t m = 0; m < masks; ++m) {
    for (int i = 0; i < numLines; ++i) {
      const Mask in = static_cast<Mask>(m & lines[i]);
      if (in == lines[i]) lineTable_[m] = 1;
      if (std::popcount(in) == n - 1) {
        completionTable_[m] |= static_cast<Mask>(lines[i] & ~in);
        nearLineTable_[m] |= in;
      }
    }
  }

  for (int s = 0; s < kSymmetries; ++s) {
    for (int sq = 0; sq < squares; ++sq) {
      int f = sq % n, r = sq / n;
      if (s & 4) f = n - 1 - f;
      for (int q = 0; q < (s & 3); ++q) {  // quarter turn: (f, r) -> (n-1-r, f)
        const int nf = n - 1 - r, nr = f;
        f = nf;
        r = nr;
      }
      squareMap_[s][sq] = static_cast<uint8_t>(r * n + f);
    }
    for (int half = 0; half < 2; ++half)
      for (int b = 0; b < 256; ++b) {
        Mask out = 0;
        for (int i = 0; i < 8; ++i) {
          const int sq = half * 8 + i;
          if ((b >> i) & 1 && sq < squares) out |= bit(squareMap_[s][sq]);
        }
        byteMap_[s][half][b] = out;
      }
  }
}

const Geometry& geometry(int n) {
  static const Geometry g3(3), g4(4);
  assert(n == 3 || n == 4);
  return n == 3 ? g3 : g4;
}

}  // namespace gobblet
