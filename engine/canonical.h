// The canonical form of a position under the game's symmetries: the 8
// symmetries of the square (Board::transformed, Geometry::transform) and
// the exchange of the players (Board::colorSwapped: each player's pieces
// given to the other, the side to move too). The rules treat the players
// alike and every symmetry maps lines to lines and legal moves to legal
// moves, so the 16 images of a position have one value for their side to
// move: whatever is proved of one is proved of all.
#pragma once

#include "engine/board.h"

namespace gobblet {

// The least of the 16 images of `board` (ordered by the side to move, then
// player 1's masks of each size, smallest size first, then player 2's).
// Two positions have the same canonical form exactly when one is an image
// of the other; the canonical form of a canonical form is itself.
Board canonicalBoard(const Board& board);

}  // namespace gobblet
