#include "engine/board.h"

#include <cassert>

namespace gobblet {

Board::Board(const Variant& variant) : geometry_(&gobblet::geometry(variant.n)), variant_(variant) {}

std::array<int, 5> Board::stackCounts(int player) const {
  std::array<int, 5> counts{};
  int below = 0;  // stacks holding < s pieces
  const int sizes = variant_.sizes;
  for (int s = 0; s < sizes; ++s) {
    const int upTo = placed(player, s);  // stacks holding <= s pieces
    counts[s] = upTo - below;
    below = upTo;
  }
  counts[sizes] = variant_.stackCount() - below;
  return counts;
}

unsigned Board::placeableSizes(int player) const {
  unsigned sizes = 0;
  if (variant_.stacks) {
    const auto counts = stackCounts(player);
    for (int s = 0; s < variant_.sizes; ++s)
      if (counts[s + 1] > 0) sizes |= 1u << s;
  } else {
    for (int s = 0; s < variant_.sizes; ++s)
      if (placed(player, s) < variant_.perSize) sizes |= 1u << s;
  }
  return sizes;
}

// The key changes by the piece's own Zobrist number (the same sum
// computeKey makes), and only if the piece was absent / present: a board
// built piece by piece costs a key update per piece, not a recount.
void Board::addPiece(int player, int size, int square) {
  assert(size >= 0 && size < variant_.sizes && square >= 0 && square < variant_.n * variant_.n);
  if (pieces_[player][size] & bit(square)) return;
  pieces_[player][size] |= bit(square);
  key_ ^= zobrist::kKeys.piece[player][size][square];
}

void Board::removePiece(int player, int size, int square) {
  assert(size >= 0 && size < variant_.sizes && square >= 0 && square < variant_.n * variant_.n);
  if (!(pieces_[player][size] & bit(square))) return;
  pieces_[player][size] &= static_cast<Mask>(~bit(square));
  key_ ^= zobrist::kKeys.piece[player][size][square];
}

void Board::setSideToMove(int player) {
  stm_ = static_cast<uint8_t>(player);
  key_ = computeKey();
}

void Board::clear() {
  pieces_ = {};
  stm_ = 0;
  key_ = 0;
}

Board Board::transformed(int symmetry) const {
  Board b = *this;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < variant_.sizes; ++s) b.pieces_[p][s] = geometry_->transform(symmetry, pieces_[p][s]);
  b.key_ = b.computeKey();
  return b;
}

Board Board::colorSwapped() const {
  Board b = *this;
  std::swap(b.pieces_[0], b.pieces_[1]);
  b.stm_ ^= 1;
  b.key_ = b.computeKey();
  return b;
}

bool Board::countsValid() const {
  for (int p = 0; p < 2; ++p) {
    if (variant_.stacks) {
      // Counts must be non-decreasing with size and at most the stacks' number.
      int previous = 0;
      for (int s = 0; s < variant_.sizes; ++s) {
        const int c = placed(p, s);
        if (c < previous || c > variant_.stackCount()) return false;
        previous = c;
      }
    } else {
      for (int s = 0; s < variant_.sizes; ++s)
        if (placed(p, s) > variant_.perSize) return false;
    }
  }
  return true;
}

uint64_t Board::computeKey() const {
  uint64_t k = stm_ ? zobrist::kKeys.side : 0;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < variant_.sizes; ++s)
      for (Mask m = pieces_[p][s]; m; m &= m - 1) k ^= zobrist::kKeys.piece[p][s][std::countr_zero(m)];
  return k;
}

}  // namespace gobblet
