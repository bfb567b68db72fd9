// Move generation.
//
// generateMoves() lists every legal move of the side to move, each once
// (moves are distinct by their text: two stacks showing the same size give
// one placement). A decided position (Board::winner() != kNoWinner) has no
// moves. countMoves() returns the same number without building the list.
//
// Placement targets for size s: squares whose top is empty or smaller than s
// (3x3), or, from a 4x4 stack, empty squares plus smaller opponent pieces
// that are one of exactly three opponent pieces visible in some line.
// Board moves (if the variant allows moving): each visible own piece to any
// other square whose top is empty or smaller.
#pragma once

#include "engine/board.h"
#include "engine/move.h"

namespace gobblet {

void generateMoves(const Board& board, MoveList& list);
int countMoves(const Board& board);

// The generation modes the search needs, from the same target sets (the
// board must not be decided, Board::winner() == kNoWinner):
//   generateMovesTo - appends the legal moves whose destination is in
//                     `targets`: exactly the subset of generateMoves(), in
//                     its order;
//   isLegal         - is `move` one of generateMoves()' moves (for hash and
//                     killer moves, which may come from another position)?
void generateMovesTo(const Board& board, Mask targets, MoveList& list);
bool isLegal(const Board& board, Move move);

// Where the side to move may place a piece of `size` from its supply (if it
// has one: Board::placeableSizes()).
Mask placementTargets(const Board& board, int size);

// 4x4: opponent-visible squares lying in a line with exactly three visible
// opponent pieces (the squares a stack piece may gobble, size permitting).
inline Mask gobbleTargets(const Board& board, int opponent) {
  return board.geometry().nearLinePieces(board.visible(opponent));
}

}  // namespace gobblet
