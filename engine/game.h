// Game: a position plus the history that led to it, for the rules that need
// history (threefold repetition) and for judging the result of a game.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/move.h"

namespace gobblet {

enum class GameResult { kNone, kPlayer1Wins, kPlayer2Wins, kDraw };
enum class EndReason { kNone, kLine, kNoMoves, kRepetition };

// The words every layer uses for how a game stands (the protocol's `query
// result` and `query reason`, `d`, the compliance checker, the browser board):
//   resultWord:    p1win, p2win, draw; none while the game runs.
//   endReasonText: "a line of player 1" (or 2), "no legal move",
//                  "threefold repetition"; "none" while the game runs.
const char* resultWord(GameResult result);
std::string endReasonText(EndReason reason, GameResult result);

class Game {
 public:
  explicit Game(const Board& start);

  const Board& position() const { return current_; }
  const Board& start() const { return history_.front(); }
  const std::vector<Move>& moves() const { return moves_; }

  // Plays a move that must be legal in position(), in a game that is not
  // over (result() == kNone).
  void play(Move m);
  // Parses, checks and plays a move; on error nothing changes. A game that
  // has ended (a line, no legal move, threefold repetition) takes no more
  // moves: FailedPrecondition, saying how it ended.
  absl::Status play(std::string_view moveText);

  // How many times position() has occurred in this game (including now).
  int occurrences() const;
  // The positions before position() since the last drop, oldest first: the
  // only ones that can occur again (a drop adds a piece to the board for
  // good), so the ones a repetition can repeat.
  std::vector<Board> positionsSinceLastDrop() const;
  // Keys of every position of the game, oldest first (for repetition checks).
  const std::vector<uint64_t>& keys() const { return keys_; }

  GameResult result(EndReason* reason = nullptr) const;

 private:
  std::vector<Board> history_;  // every position, history_.back() == current_
  std::vector<uint64_t> keys_;
  std::vector<Move> moves_;
  Board current_;
};

}  // namespace gobblet
