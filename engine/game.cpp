#include "engine/game.h"

#include <cstddef>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet {

Game::Game(const Board& start) : history_{start}, keys_{start.key()}, current_(start) {}

void Game::play(Move m) {
  current_.makeMove(m);
  history_.push_back(current_);
  keys_.push_back(current_.key());
  moves_.push_back(m);
}

absl::Status Game::play(std::string_view moveText) {
  EndReason why;
  if (const GameResult over = result(&why); over != GameResult::kNone)
    return absl::FailedPreconditionError("the game is already over (" + endReasonText(why, over) + ")");
  auto move = parseMove(current_, moveText);
  if (!move.ok()) return move.status();
  play(*move);
  return absl::OkStatus();
}

int Game::occurrences() const {
  int count = 0;
  for (size_t i = 0; i < history_.size(); ++i)
    if (keys_[i] == current_.key() && history_[i] == current_) ++count;
  return count;
}

std::vector<Board> Game::positionsSinceLastDrop() const {
  size_t first = moves_.size();  // history_[i + 1] is the position after moves_[i]
  while (first > 0 && !moves_[first - 1].isDrop()) --first;
  return std::vector<Board>(history_.begin() + static_cast<std::ptrdiff_t>(first), history_.end() - 1);
}

GameResult Game::result(EndReason* reason) const {
  EndReason why = EndReason::kNone;
  GameResult result = GameResult::kNone;
  const int winner = current_.winner();
  if (winner != kNoWinner) {
    why = EndReason::kLine;
    result = winner == 0 ? GameResult::kPlayer1Wins : GameResult::kPlayer2Wins;
  } else if (countMoves(current_) == 0) {
    why = EndReason::kNoMoves;
    result = GameResult::kDraw;
  } else if (occurrences() >= 3) {
    why = EndReason::kRepetition;
    result = GameResult::kDraw;
  }
  if (reason) *reason = why;
  return result;
}

const char* resultWord(GameResult result) {
  switch (result) {
    case GameResult::kPlayer1Wins:
      return "p1win";
    case GameResult::kPlayer2Wins:
      return "p2win";
    case GameResult::kDraw:
      return "draw";
    case GameResult::kNone:
      break;
  }
  return "none";
}

std::string endReasonText(EndReason reason, GameResult result) {
  switch (reason) {
    case EndReason::kLine:
      return result == GameResult::kPlayer1Wins ? "a line of player 1" : "a line of player 2";
    case EndReason::kNoMoves:
      return "no legal move";
    case EndReason::kRepetition:
      return "threefold repetition";
    case EndReason::kNone:
      break;
  }
  return "none";
}

}  // namespace gobblet
