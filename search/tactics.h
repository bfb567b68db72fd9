// Tactics: the one-move facts the search needs at every node, computed from
// masks without generating the whole move list. The rules behind them are
// the rules core's: the line tables of Geometry (completion squares) and the
// generation modes of engine/movegen.h (generateMovesTo, isLegal,
// placementTargets).
//
//   winningMove(board)        - a move of the side to move that wins at once
//                               (rules checked by making it: a lift that
//                               reveals an opponent line loses, per winner())
//   opponentThreats(board)    - where the opponent completes a line next move
//   isQuiet(board)            - neither: the quiescence search's static
//                               evaluation stands (Worker::qsearch, steps 2-3)
#pragma once

#include <bit>

#include "engine/board.h"
#include "engine/move.h"
#include "engine/movegen.h"

namespace gobblet {

// A winning move of the side to move, or Move::none(). board is restored.
Move winningMove(Board& board);

// Squares where the opponent of the side to move threatens to complete a
// line next move: its completion squares not topped by a largest piece.
inline Mask opponentThreats(const Board& board) {
  const int them = board.sideToMove() ^ 1;
  const Mask squares = board.geometry().completionSquares(board.visible(them));
  return squares ? static_cast<Mask>(squares & ~board.sizeMask(board.variant().sizes - 1)) : 0;
}

// An undecided position in which the side to move cannot win at once and
// the opponent threatens no line: the positions whose quiescence value is
// the static evaluation (the ones the evaluation is tuned on). board is
// restored.
inline bool isQuiet(Board& board) { return !opponentThreats(board) && winningMove(board).isNone(); }

}  // namespace gobblet
