// Safe moves: the moves after which the opponent cannot complete a line at
// once, the one skill of the weakest player the levels are measured against
// (`gobblet-fake-engine --mode safe`, docs/search.md "Strength levels").
//
//   winsAtOnce(board, move)       - the move ends the game won for its mover
//   givesAwayLine(board, move)    - after it the opponent has won, or has a
//                                   move that wins at once
//   safeMoves(board, list)        - the legal moves that do not give away a
//                                   line (a move that wins at once among them)
//
// Decided by making the moves and asking Board::winner(), so every rule of
// the variant (a lift that uncovers a line, a line made for both) counts.
// Each function leaves the board as it found it.
#pragma once

#include "engine/board.h"
#include "engine/move.h"

namespace gobblet {

// Whether `move` (legal) wins the game for the side to move at once.
bool winsAtOnce(Board& board, Move move);

// Whether, after `move` (legal), the opponent has won or can win with its
// next move. A move that wins at once gives nothing away.
bool givesAwayLine(Board& board, Move move);

// Appends to `list` the legal moves of the side to move that do not give
// away a line, in generateMoves() order (none when every move does).
void safeMoves(Board& board, MoveList& list);

}  // namespace gobblet
