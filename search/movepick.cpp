#include "movepick.h"

#include <algorithm>
#include <bit>
#include <functional>

#include "engine/movegen.h"
#include "search/search_params.h"
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

constexpr int kBlockSquare = 1 << 22, kBlockGobble = 1 << 21;
// Picks made by selection before the rest is sorted.
constexpr int kSelectionPicks = 3;

}  // namespace

MovePicker::MovePicker(const Board& board, Move ttMove, const OrderingTables& tables, int ply)
    : board_(board), tables_(tables), ttMove_(isLegal(board, ttMove) ? ttMove : Move::none()) {
  for (int i = 0; i < 2; ++i) {
    const Move k = tables.killers[ply][i];
    killers_[i] = k != ttMove_ && isLegal(board, k) ? k : Move::none();
  }
}

void MovePicker::generateAndScore() {
  generateMoves(board_, moves_);
  const Board& b = board_;
  const Geometry& g = b.geometry();
  const int us = b.sideToMove(), them = us ^ 1;
  const Mask visThem = b.visible(them);

  // Opponent's threatening lines: the squares it needs, and its pieces there.
  const Mask needSquares = g.completionSquares(visThem), threatPieces = g.nearLinePieces(visThem);
  const Move k0 = killers_[0], k1 = killers_[1];
  const auto& history = tables_.history[us];
  const int* lines = kLinesThrough.count[g.n];
  const int largest = b.variant().sizes - 1;
  // The ordering scores, read once per generation (they never change during a search).
  const SearchParams& params = searchParams();
  const int orderLines = params.orderLines, orderSize = params.orderSize, orderGobble = params.orderGobble,
            orderUncover = params.orderUncover, orderLargestDrop = params.orderLargestDrop;

  count_ = 0;
  for (int i = 0; i < moves_.size(); ++i) {
    const Move m = moves_[i];
    if (m == ttMove_ || m == k0 || m == k1) continue;
    const int to = m.to();
    int score;
    if (needSquares & bit(to))
      score = kBlockSquare + m.size();
    else if (threatPieces & bit(to))
      score = kBlockGobble + m.size();
    else {
      score = history[m.raw() & 4095] + orderLines * lines[to] + orderSize * m.size();
      if (visThem & bit(to)) score += orderGobble;
      if (!m.isDrop()) {  // lifting uncovers the next piece down
        for (int sz = m.size() - 1; sz >= 0; --sz)
          if (b.sizeMask(sz) & bit(m.from())) {
            if (b.pieces(them, sz) & bit(m.from())) score -= orderUncover;
            break;
          }
      }
      if (m.size() == largest && m.isDrop()) score += orderLargestDrop;
    }
    scored_[count_++] = static_cast<int64_t>(score) << 16 | m.raw();
  }
}

Move MovePicker::next() {
  switch (stage_) {
    case 0:
      stage_ = 1;
      if (!ttMove_.isNone()) return ttMove_;
      [[fallthrough]];
    case 1:
      stage_ = 2;
      if (!killers_[0].isNone()) return killers_[0];
      [[fallthrough]];
    case 2:
      stage_ = 3;
      if (!killers_[1].isNone()) return killers_[1];
      [[fallthrough]];
    case 3:
      generateAndScore();
      stage_ = 4;
      [[fallthrough]];
    default:
      break;
  }
  if (current_ >= count_) return Move::none();
  if (current_ < kSelectionPicks) {
    int best = current_;
    for (int i = current_ + 1; i < count_; ++i)
      if (scored_[i] > scored_[best]) best = i;
    std::swap(scored_[best], scored_[current_]);
    if (current_ + 1 == kSelectionPicks) std::sort(scored_ + current_ + 1, scored_ + count_, std::greater<>());
  }
  return Move::fromRaw(static_cast<uint16_t>(scored_[current_++] & 0xffff));
}

}  // namespace gobblet
