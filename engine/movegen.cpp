#include "engine/movegen.h"

#include <bit>

namespace gobblet {

namespace {

// The one statement of where a piece may go, given atLeastS = the squares
// whose top is of its size or larger. From the supply: 3x3, any square with
// a smaller top; 4x4 (stacks), an empty square, or a smaller opponent piece
// one of three in a line (gobble). On the board: any square with a smaller
// top (never its own square, whose top is itself).
inline Mask dropTargets(bool stacks, Mask full, Mask empty, Mask gobble, Mask atLeastS) {
  return static_cast<Mask>(stacks ? empty | (gobble & ~atLeastS) : full & ~atLeastS);
}
inline Mask moveTargets(Mask full, Mask atLeastS) { return static_cast<Mask>(full & ~atLeastS); }

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
  if (sizes) {
    const Mask gobble = v.stacks ? gobbleTargets(b, us ^ 1) : 0;
    for (int s = 0; s < v.sizes; ++s)
      if (sizes & (1u << s)) emit(s, -1, dropTargets(v.stacks, full, empty, gobble, atLeast[s]));
  }

  // 2. Board moves: the visible piece of size s on `from`.
  if (!v.moving) return;
  for (int s = 0; s < v.sizes; ++s) {
    Mask own = static_cast<Mask>(b.pieces(us, s) & ~atLeast[s + 1]);
    const Mask targets = moveTargets(full, atLeast[s]);
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

void generateMovesTo(const Board& board, Mask targets, MoveList& list) {
  forEachTargetSet(board, [&list, targets](int size, int from, Mask to) {
    for (to &= targets; to; to &= to - 1) {
      const int square = std::countr_zero(to);
      list.push(from < 0 ? Move::drop(size, square) : Move::boardMove(size, from, square));
    }
  });
}

Mask placementTargets(const Board& board, int size) {
  const Variant& v = board.variant();
  const Mask full = board.geometry().full;
  const Mask gobble = v.stacks ? gobbleTargets(board, board.sideToMove() ^ 1) : 0;
  return dropTargets(v.stacks, full, static_cast<Mask>(full & ~board.occupied()), gobble, board.atLeast(size));
}

bool isLegal(const Board& board, Move move) {
  if (move.isNone()) return false;
  const Variant& v = board.variant();
  const int us = board.sideToMove(), size = move.size(), to = move.to();
  if (size >= v.sizes || to >= v.squares()) return false;
  if (move.isDrop()) return (board.placeableSizes(us) & (1u << size)) && (placementTargets(board, size) & bit(to));
  const int from = move.from();
  if (!v.moving || from >= v.squares()) return false;
  const bool visibleOwn = (board.pieces(us, size) & bit(from)) && !(board.atLeast(size + 1) & bit(from));
  return visibleOwn && (moveTargets(board.geometry().full, board.atLeast(size)) & bit(to));
}

}  // namespace gobblet
