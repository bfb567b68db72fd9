// Referee: the rules core's judgement of one game between engines.
//
// Holds the Game (start position plus every move, so threefold repetition
// is seen) and a ply limit. Every move an engine sends is parsed and checked
// against the legal moves of the current position; the verdict says whether
// the game is over and why. Forfeits (illegal moves, time, crashes) are
// decided by the game runner, which knows about engines; the referee only
// knows the rules.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/game.h"

namespace gobblet::match {

// Why a game ended. The first four follow from the position; the rest are
// forfeits by one engine.
enum class Termination {
  kNone,          // still running
  kLine,          // a player has a line
  kNoMoves,       // the side to move has no legal move: draw
  kRepetition,    // threefold repetition: draw
  kMaxPlies,      // the ply limit was reached: draw
  kIllegalMove,   // the mover sent an illegal or unreadable move
  kTimeForfeit,   // the mover overstepped its time
  kCrash,         // an engine exited or its pipe broke
  kUnresponsive,  // an engine stopped answering (no ugiok/readyok/bestmove in time)
};
std::string toString(Termination termination);
// Inverse of toString; kNone for unknown text.
Termination parseTermination(const std::string& text);
bool isForfeit(Termination termination);

struct Verdict {
  GameResult result = GameResult::kNone;
  Termination termination = Termination::kNone;
  bool over() const { return termination != Termination::kNone; }
};

class Referee {
 public:
  // maxPlies counts every move from `start` (opening moves included);
  // 0 = no limit.
  Referee(const Board& start, int maxPlies);

  const Game& game() const { return game_; }
  int plies() const { return static_cast<int>(game_.moves().size()); }

  // Plays `text` if it is a legal move of the side to move in a game that is
  // not over; otherwise InvalidArgument saying why, and nothing changes.
  absl::Status play(const std::string& text);

  // Ends by rule in the current position: a line, no moves, threefold
  // repetition, then the ply limit (in that order).
  Verdict verdict() const;

 private:
  Game game_;
  int maxPlies_;
};

// "1-0", "0-1", "1/2-1/2" ("*" for kNone), and back (InvalidArgument).
std::string resultToString(GameResult result);
absl::StatusOr<GameResult> parseResult(const std::string& text);
// The result in which `player` (0 or 1) loses.
GameResult lossFor(int player);

}  // namespace gobblet::match
