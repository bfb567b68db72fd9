#include "search/tactics.h"

#include "engine/movegen.h"

namespace gobblet {

Move winningMove(Board& board) {
  const Variant& v = board.variant();
  const int us = board.sideToMove();
  Mask squares = board.geometry().completionSquares(board.visible(us));
  // A square topped by a largest piece (the opponent's) cannot be taken.
  if (squares) squares &= static_cast<Mask>(~board.sizeMask(v.sizes - 1));
  if (!squares) return Move::none();
  // 1. A placement on a completion square wins: it completes our line and
  // cannot reveal anything. The first in generateMovesTo's order (smallest
  // size, lowest square) is returned, without building the move list.
  if (const unsigned sizes = board.placeableSizes(us)) {
    for (int s = 0; s < v.sizes; ++s)
      if (sizes & (1u << s))
        if (const Mask to = static_cast<Mask>(squares & placementTargets(board, s)))
          return Move::drop(s, std::countr_zero(to));
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

}  // namespace gobblet
