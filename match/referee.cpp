#include "match/referee.h"

#include "absl/strings/str_cat.h"
#include "engine/notation.h"

namespace gobblet::match {

namespace {

constexpr const char* kTerminationNames[] = {"none",         "line",         "no-moves", "repetition",  "max-plies",
                                             "illegal-move", "time-forfeit", "crash",    "unresponsive"};

}  // namespace

std::string toString(Termination termination) { return kTerminationNames[static_cast<int>(termination)]; }

Termination parseTermination(const std::string& text) {
  for (int i = 1; i < static_cast<int>(std::size(kTerminationNames)); ++i)
    if (text == kTerminationNames[i]) return static_cast<Termination>(i);
  return Termination::kNone;
}

bool isForfeit(Termination termination) { return termination >= Termination::kIllegalMove; }

Referee::Referee(const Board& start, int maxPlies) : game_(start), maxPlies_(maxPlies) {}

absl::Status Referee::play(const std::string& text) {
  if (verdict().over()) return absl::FailedPreconditionError("the game is already over");
  if (text.empty()) return absl::InvalidArgumentError("no move given");
  auto move = parseMove(game_.position(), text);
  if (!move.ok()) return move.status();
  game_.play(*move);
  return absl::OkStatus();
}

Verdict Referee::verdict() const {
  EndReason reason;
  Verdict v;
  v.result = game_.result(&reason);
  switch (reason) {
    case EndReason::kLine:
      v.termination = Termination::kLine;
      break;
    case EndReason::kNoMoves:
      v.termination = Termination::kNoMoves;
      break;
    case EndReason::kRepetition:
      v.termination = Termination::kRepetition;
      break;
    case EndReason::kNone:
      if (maxPlies_ > 0 && plies() >= maxPlies_) {
        v.result = GameResult::kDraw;
        v.termination = Termination::kMaxPlies;
      }
      break;
  }
  return v;
}

std::string resultToString(GameResult result) {
  switch (result) {
    case GameResult::kPlayer1Wins:
      return "1-0";
    case GameResult::kPlayer2Wins:
      return "0-1";
    case GameResult::kDraw:
      return "1/2-1/2";
    default:
      return "*";
  }
}

absl::StatusOr<GameResult> parseResult(const std::string& text) {
  if (text == "1-0") return GameResult::kPlayer1Wins;
  if (text == "0-1") return GameResult::kPlayer2Wins;
  if (text == "1/2-1/2") return GameResult::kDraw;
  return absl::InvalidArgumentError(absl::StrCat("bad result '", text, "' (expected 1-0, 0-1 or 1/2-1/2)"));
}

GameResult lossFor(int player) { return player == 0 ? GameResult::kPlayer2Wins : GameResult::kPlayer1Wins; }

}  // namespace gobblet::match
