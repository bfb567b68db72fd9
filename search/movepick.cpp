#include "search/movepick.h"

#include <bit>

#include "engine/movegen.h"
#include "search/tactics.h"

namespace gobblet {

namespace {

// Number of lines through each square, per board side.
struct LinesThrough {
  int count[5][kMaxSquares] = {};
  LinesThrough() {
    for (int n = 3; n <= 4; ++n) {
      const Geometry& g = geometry(n);
      for (int l = 0; l < g.numLines; ++l)
        for (Mask m = g.lines[l]; m; m &= m - 1) ++count[n][std::countr_zero(m)];
    }
  }
};
const LinesThrough kLinesThrough;

constexpr int kBlockSquare = 1 << 22, kBlockGobble = 1 << 21, kKiller0 = 1 << 20, kKiller1 = (1 << 20) - 1;

}  // namespace

MovePicker::MovePicker(const Board& board, Move ttMove, const OrderingTables& tables, int ply)
    : board_(board), tables_(tables), ply_(ply), ttMove_(isLegal(board, ttMove) ? ttMove : Move::none()) {
  if (ttMove_.isNone()) stage_ = 1;
}

void MovePicker::generateAndScore() {
  generateMoves(board_, moves_);
  const Board& b = board_;
  const Geometry& g = b.geometry();
  const int us = b.sideToMove(), them = us ^ 1;
  const Mask visThem = b.visible(them);

  // Opponent's threatening lines: the squares it needs, and its pieces there.
  Mask needSquares = 0, threatPieces = 0;
  for (int i = 0; i < g.numLines; ++i) {
    const Mask in = visThem & g.lines[i];
    if (std::popcount(in) == g.n - 1) {
      needSquares |= g.lines[i] & ~in;
      threatPieces |= in;
    }
  }
  const Move k0 = tables_.killers[ply_][0], k1 = tables_.killers[ply_][1];
  const auto& history = tables_.history[us];
  const int* lines = kLinesThrough.count[g.n];
  const int largest = b.variant().sizes - 1;

  count_ = 0;
  for (int i = 0; i < moves_.size(); ++i) {
    const Move m = moves_[i];
    if (m == ttMove_) continue;
    const int to = m.to();
    int score;
    if (needSquares & bit(to))
      score = kBlockSquare + m.size();
    else if (threatPieces & bit(to))
      score = kBlockGobble + m.size();
    else if (m == k0)
      score = kKiller0;
    else if (m == k1)
      score = kKiller1;
    else {
      score = history[m.raw() & 4095] + 32 * lines[to] + 16 * m.size();
      if (visThem & bit(to)) score += 64;                        // gobbles
      if (!m.isDrop()) {  // lifting uncovers the next piece down
        for (int sz = m.size() - 1; sz >= 0; --sz)
          if (b.sizeMask(sz) & bit(m.from())) {
            if (b.pieces(them, sz) & bit(m.from())) score -= 96;
            break;
          }
      }
      if (m.size() == largest && m.isDrop()) score += 8;
    }
    moves_[count_] = m;
    scores_[count_++] = score;
  }
}

Move MovePicker::next() {
  if (stage_ == 0) {
    stage_ = 1;
    return ttMove_;
  }
  if (stage_ == 1) {
    generateAndScore();
    stage_ = 2;
  }
  if (current_ >= count_) return Move::none();
  int best = current_;
  for (int i = current_ + 1; i < count_; ++i)
    if (scores_[i] > scores_[best]) best = i;
  std::swap(scores_[best], scores_[current_]);
  std::swap(moves_[best], moves_[current_]);
  return moves_[current_++];
}

}  // namespace gobblet
