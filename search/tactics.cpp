#include "search/tactics.h"

#include <vector>

#include "engine/movegen.h"

namespace gobblet {

namespace {

std::vector<Mask> buildCompletionTable(int n) {
  const Geometry& g = geometry(n);
  std::vector<Mask> table(size_t{1} << g.squares);
  for (size_t vis = 0; vis < table.size(); ++vis) {
    Mask squares = 0;
    for (int i = 0; i < g.numLines; ++i) {
      const Mask in = static_cast<Mask>(vis & g.lines[i]);
      if (std::popcount(in) == g.n - 1) squares |= static_cast<Mask>(g.lines[i] & ~in);
    }
    table[vis] = squares;
  }
  return table;
}

}  // namespace

const Mask* completionTable(int n) {
  static const std::vector<Mask> t3 = buildCompletionTable(3), t4 = buildCompletionTable(4);
  return n == 3 ? t3.data() : t4.data();
}

void generateMovesTo(const Board& b, Mask targets, MoveList& list) {
  const Variant& v = b.variant();
  const int us = b.sideToMove();
  Mask atLeast[kMaxSizes + 1];
  atLeast[v.sizes] = 0;
  for (int s = v.sizes - 1; s >= 0; --s) atLeast[s] = static_cast<Mask>(atLeast[s + 1] | b.sizeMask(s));
  const Mask empty = static_cast<Mask>(b.geometry().full & ~atLeast[0]);

  // Placements (4x4: on empty squares, or gobbling an opponent piece that is
  // one of three in a line).
  const unsigned sizes = b.placeableSizes(us);
  if (sizes) {
    const Mask gobble = v.stacks ? gobbleTargets(b, us ^ 1) : static_cast<Mask>(b.geometry().full);
    for (int s = 0; s < v.sizes; ++s) {
      if (!(sizes & (1u << s))) continue;
      Mask to = static_cast<Mask>(targets & ~atLeast[s] & (empty | gobble));
      for (; to; to &= to - 1) list.push(Move::drop(s, std::countr_zero(to)));
    }
  }
  // Board moves of visible own pieces onto smaller tops.
  if (!v.moving) return;
  for (int s = 0; s < v.sizes; ++s) {
    const Mask dest = static_cast<Mask>(targets & ~atLeast[s]);
    if (!dest) continue;
    for (Mask own = static_cast<Mask>(b.pieces(us, s) & ~atLeast[s + 1]); own; own &= own - 1) {
      const int from = std::countr_zero(own);
      for (Mask to = dest; to; to &= to - 1) list.push(Move::boardMove(s, from, std::countr_zero(to)));
    }
  }
}

Move winningMove(Board& board) {
  const Variant& v = board.variant();
  const int us = board.sideToMove();
  Mask squares = completionSquares(board.geometry(), board.visible(us));
  // A square topped by a largest piece (the opponent's) cannot be taken.
  if (squares) squares &= static_cast<Mask>(~board.sizeMask(v.sizes - 1));
  if (!squares) return Move::none();
  // 1. A placement on a completion square wins: it completes our line and
  // cannot reveal anything. The first in generateMovesTo's order (smallest
  // size, lowest square) is returned, without building the move list.
  if (const unsigned sizes = board.placeableSizes(us)) {
    const Mask full = board.geometry().full;
    const Mask open = static_cast<Mask>(v.stacks ? (full & ~board.occupied()) | gobbleTargets(board, us ^ 1) : full);
    for (int s = 0; s < v.sizes; ++s)
      if (sizes & (1u << s))
        if (const Mask to = static_cast<Mask>(squares & open & ~board.atLeast(s))) return Move::drop(s, std::countr_zero(to));
  }
  // 2. A board move may reveal an opponent's line under the lifted piece:
  // make it and let winner() decide.
  if (!v.moving) return Move::none();
  MoveList list;
  generateMovesTo(board, squares, list);
  for (Move m : list) {
    if (m.isDrop()) continue;  // none wins, or step 1 had returned it
    board.makeMove(m);
    const bool won = board.winner() == us;
    board.unmakeMove(m);
    if (won) return m;
  }
  return Move::none();
}

bool isLegal(const Board& b, Move m) {
  if (m.isNone()) return false;
  const Variant& v = b.variant();
  const int us = b.sideToMove(), s = m.size(), to = m.to();
  if (s >= v.sizes || to >= v.squares()) return false;
  if (b.atLeast(s) & bit(to)) return false;  // destination top not smaller
  if (m.isDrop()) {
    if (!(b.placeableSizes(us) & (1u << s))) return false;
    if (v.stacks && (b.occupied() & bit(to)) && !(gobbleTargets(b, us ^ 1) & bit(to))) return false;
    return true;
  }
  const int from = m.from();
  if (!v.moving || from >= v.squares() || from == to) return false;
  return (b.pieces(us, s) & bit(from)) && !(b.atLeast(s + 1) & bit(from));
}

}  // namespace gobblet
