#include "engine/safe_moves.h"

#include "engine/movegen.h"

namespace gobblet {

bool winsAtOnce(Board& board, Move move) {
  const int us = board.sideToMove();
  board.makeMove(move);
  const bool won = board.winner() == us;
  board.unmakeMove(move);
  return won;
}

bool givesAwayLine(Board& board, Move move) {
  const int us = board.sideToMove();
  board.makeMove(move);
  bool givesAway = false;
  if (const int w = board.winner(); w != kNoWinner) {
    givesAway = w != us;
  } else {
    MoveList replies;
    generateMoves(board, replies);
    for (Move reply : replies) {
      if (winsAtOnce(board, reply)) {
        givesAway = true;
        break;
      }
    }
  }
  board.unmakeMove(move);
  return givesAway;
}

void safeMoves(Board& board, MoveList& list) {
  MoveList all;
  generateMoves(board, all);
  for (Move m : all)
    if (!givesAwayLine(board, m)) list.push(m);
}

}  // namespace gobblet
