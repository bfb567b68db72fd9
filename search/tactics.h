// Tactics: the one-move facts the search needs at every node, computed from
// masks without generating the whole move list.
//
//   completionSquares(g, vis) - squares that would complete a line of vis
//                               (lines showing n - 1 of its squares)
//   winningMove(board)        - a move of the side to move that wins at once
//                               (rules checked by making it: a lift that
//                               reveals an opponent line loses, per winner())
//   generateMovesTo(...)      - the legal moves landing on a set of squares,
//                               exactly the subset of generateMoves()
//   isLegal(board, move)      - is this move legal here (for TT and killer
//                               moves, which may come from another position)
#pragma once

#include <bit>

#include "engine/board.h"
#include "engine/move.h"

namespace gobblet {

// completionSquares by table: one entry per mask (65536 for 4x4, 512 for
// 3x3), built at startup, so the per-node threat tests are one load.
const Mask* completionTable(int n);

inline Mask completionSquares(const Geometry& g, Mask vis) { return completionTable(g.n)[vis]; }

// Appends to list every legal move of the side to move whose destination is
// in targets (board must not be decided).
void generateMovesTo(const Board& board, Mask targets, MoveList& list);

// A winning move of the side to move, or Move::none(). board is restored.
Move winningMove(Board& board);

bool isLegal(const Board& board, Move move);

// Squares where the opponent of the side to move threatens to complete a
// line next move: its completion squares not topped by a largest piece.
inline Mask opponentThreats(const Board& board) {
  const int them = board.sideToMove() ^ 1;
  const Mask squares = completionSquares(board.geometry(), board.visible(them));
  return squares ? static_cast<Mask>(squares & ~board.sizeMask(board.variant().sizes - 1)) : 0;
}

}  // namespace gobblet
