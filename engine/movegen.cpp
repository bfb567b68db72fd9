#include "engine/movegen.h"

#include <bit>

namespace gobblet {

Mask gobbleTargets(const Board& board, int opponent) {
  const Geometry& g = board.geometry();
  const Mask vis = board.visible(opponent);
  Mask targets = 0;
  for (int i = 0; i < g.numLines; ++i) {
    const Mask inLine = vis & g.lines[i];
    if (std::popcount(inLine) == 3) targets |= inLine;
  }
  return targets;
}

namespace {

// Calls emit(size, from, to) for each placement (from = -1) and board move.
// Targets come as masks so that counting needs no loop over squares.
template <typename Emit>
inline void forEachTargetSet(const Board& b, Emit&& emit) {
  const Variant& v = b.variant();
  const int us = b.sideToMove();
  const Mask full = b.geometry().full;

  // atLeast[s]: squares whose top is of size >= s.
  Mask atLeast[kMaxSizes + 1];
  atLeast[v.sizes] = 0;
  for (int s = v.sizes - 1; s >= 0; --s) atLeast[s] = atLeast[s + 1] | b.sizeMask(s);
  const Mask empty = static_cast<Mask>(full & ~atLeast[0]);

  // 1. Placements from the supply.
  const unsigned sizes = b.placeableSizes(us);
  if (v.stacks) {
    const Mask gobble = gobbleTargets(b, us ^ 1);
    for (int s = 0; s < v.sizes; ++s)
      if (sizes & (1u << s)) emit(s, -1, static_cast<Mask>(empty | (gobble & ~atLeast[s])));
  } else {
    for (int s = 0; s < v.sizes; ++s)
      if (sizes & (1u << s)) emit(s, -1, static_cast<Mask>(full & ~atLeast[s]));
  }

  // 2. Board moves: the visible piece of size s on `from` may go to any
  // square whose top is smaller than s (never back to `from` itself).
  if (!v.moving) return;
  for (int s = 0; s < v.sizes; ++s) {
    Mask own = static_cast<Mask>(b.pieces(us, s) & ~atLeast[s + 1]);
    const Mask targets = static_cast<Mask>(full & ~atLeast[s]);
    for (; own; own &= own - 1) emit(s, std::countr_zero(own), targets);
  }
}

}  // namespace

void generateMoves(const Board& board, MoveList& list) {
  list.clear();
  if (board.winner() != kNoWinner) return;
  forEachTargetSet(board, [&list](int size, int from, Mask targets) {
    for (; targets; targets &= targets - 1) {
      const int to = std::countr_zero(targets);
      list.push(from < 0 ? Move::drop(size, to) : Move::boardMove(size, from, to));
    }
  });
}

int countMoves(const Board& board) {
  if (board.winner() != kNoWinner) return 0;
  int count = 0;
  forEachTargetSet(board, [&count](int, int, Mask targets) { count += std::popcount(targets); });
  return count;
}

}  // namespace gobblet
