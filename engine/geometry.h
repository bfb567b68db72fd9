// Geometry of an n x n board (n = 3 or 4): squares, lines and symmetries.
//
// A set of squares is a Mask with bit (rank * n + file) for each square;
// rank 0 is the bottom rank ("1"), file 0 the left file ("a").
//
//   4x4:  d4 = bit 15          3x3:  c3 = bit 8
//     12 13 14 15                    6 7 8
//      8  9 10 11                    3 4 5
//      4  5  6  7                    0 1 2
//      0  1  2  3
//
// Lines are the n rows, n columns and 2 diagonals. Per-mask tables (512 or
// 65536 entries) answer with one look-up what the rules and the search ask of
// a player's visible pieces m:
//   hasLine(m)            does m contain a complete line?
//   completionSquares(m)  the squares that would complete a line of m (the
//                         missing square of each line holding n - 1 of m)
//   nearLinePieces(m)     the squares of m in lines holding n - 1 of m (4x4:
//                         the pieces a stack piece may gobble)
// The 8 symmetries of the square map masks through per-byte tables.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gobblet {

using Mask = uint16_t;

inline constexpr int kMaxSquares = 16;
inline constexpr int kMaxSizes = 4;
inline constexpr int kMaxLines = 10;
inline constexpr int kSymmetries = 8;

inline constexpr Mask bit(int square) { return static_cast<Mask>(1u << square); }

class Geometry {
 public:
  int n = 0;
  int squares = 0;
  Mask full = 0;
  int numLines = 0;
  std::array<Mask, kMaxLines> lines{};

  bool hasLine(Mask m) const { return lineTable_[m] != 0; }
  Mask completionSquares(Mask m) const { return completionTable_[m]; }
  Mask nearLinePieces(Mask m) const { return nearLineTable_[m]; }

  // Symmetry s in 0..7: (s & 4) mirrors left-right first, then (s & 3)
  // quarter turns counter-clockwise. inverse(s) undoes s.
  int transformSquare(int s, int square) const { return squareMap_[s][square]; }
  Mask transform(int s, Mask m) const { return static_cast<Mask>(byteMap_[s][0][m & 0xff] | byteMap_[s][1][m >> 8]); }
  static int inverse(int s) { return (s & 4) ? s : (4 - s) & 3; }

  explicit Geometry(int side);

 private:
  // Indexed by mask; separate arrays, so that hasLine(), asked at every node,
  // keeps its table small in the cache.
  std::vector<uint8_t> lineTable_;
  std::vector<Mask> completionTable_, nearLineTable_;
  std::array<std::array<uint8_t, kMaxSquares>, kSymmetries> squareMap_{};
  std::array<std::array<std::array<Mask, 256>, 2>, kSymmetries> byteMap_{};
};

// The shared geometry for n = 3 or n = 4.
const Geometry& geometry(int n);

}  // namespace gobblet
