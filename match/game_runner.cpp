#include "match/game_runner.h"

#include "absl/strings/str_cat.h"
#include "engine/notation.h"

namespace gobblet::match {

namespace {

// "position startpos moves ..." or "position fen <text> moves ...".
std::string positionLine(const Game& game) {
  const Board& start = game.start();
  std::string line =
      start == Board(start.variant()) ? "position startpos" : absl::StrCat("position fen ", positionToString(start));
  if (!game.moves().empty()) {
    line += " moves";
    for (Move m : game.moves()) absl::StrAppend(&line, " ", moveToString(m, start.variant()));
  }
  return line;
}

Termination failureKind(const absl::Status& status) {
  return absl::IsDeadlineExceeded(status) ? Termination::kUnresponsive : Termination::kCrash;
}

}  // namespace

GameRecord playGame(EnginePlayer& player1, EnginePlayer& player2, const Opening& opening,
                    const GameSettings& settings) {
  EnginePlayer* players[2] = {&player1, &player2};
  const Variant& variant = opening.start.variant();
  GameRecord record;
  record.player1 = player1.config().name;
  record.player2 = player2.config().name;
  record.variant = variant;
  record.opening = opening.label;
  record.start = positionToString(opening.start);
  record.bookPlies = static_cast<int>(opening.moves.size());
  const std::string limits1 = player1.config().limits.describe(), limits2 = player2.config().limits.describe();
  record.timeControl = limits1 == limits2 ? limits1 : absl::StrCat(limits1, " | ", limits2);

  Referee referee(opening.start, settings.maxPlies);
  for (Move m : opening.moves) (void)referee.play(moveToString(m, variant));
  auto finish = [&](GameResult result, Termination termination, std::string detail) {
    for (Move m : referee.game().moves()) record.moves.push_back(moveToString(m, variant));
    record.result = result;
    record.termination = termination;
    record.detail = std::move(detail);
    return record;
  };

  // 1. Both engines ready for a new game.
  for (int p = 0; p < 2; ++p)
    if (auto status = players[p]->newGame(); !status.ok())
      return finish(lossFor(p), failureKind(status), absl::StrCat("player ", p + 1, ": ", status.message()));

  // 2. Clocks for the players that have one.
  GameClocks clocks;
  for (int p = 0; p < 2; ++p)
    if (players[p]->config().limits.hasClock()) {
      clocks.remainingMs[p] = players[p]->config().limits.baseMs;
      clocks.incMs[p] = players[p]->config().limits.incMs;
    }

  // 3. Moves until the referee ends the game.
  while (true) {
    const Verdict verdict = referee.verdict();
    if (verdict.over()) return finish(verdict.result, verdict.termination, "");
    const int mover = referee.game().position().sideToMove();
    EnginePlayer& engine = *players[mover];
    const TimeControl& limits = engine.config().limits;
    const int64_t allowance = moveAllowanceMs(limits, clocks.remainingMs[mover], settings.marginMs, settings.timeoutMs);
    const std::string who = absl::StrCat("player ", mover + 1, ": ");
    // Before the clock starts: a stale bestmove must not answer this move.
    if (auto status = engine.dropStaleOutput(); !status.ok())
      return finish(lossFor(mover), failureKind(status), who + std::string(status.message()));
    const Clock::time_point begin = Clock::now();
    auto reply = engine.think(positionLine(referee.game()), goCommand(limits, clocks, engine.config().protocol),
                              begin + std::chrono::milliseconds(allowance));
    const int64_t elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin).count();
    if (!reply.ok()) {
      const bool timed = limits.hasClock() || limits.moveTimeMs >= 0;
      if (absl::IsDeadlineExceeded(reply.status()) && timed)
        return finish(lossFor(mover), Termination::kTimeForfeit,
                      absl::StrCat(who, "no move within ", allowance, " ms"));
      return finish(lossFor(mover), failureKind(reply.status()), who + std::string(reply.status().message()));
    }
    if (elapsed > allowance) {
      engine.stop();  // a late engine may still be thinking: start it afresh
      return finish(lossFor(mover), Termination::kTimeForfeit,
                    absl::StrCat(who, "took ", elapsed, " ms of ", allowance, " allowed"));
    }
    if (limits.hasClock())
      clocks.remainingMs[mover] = std::max<int64_t>(0, clocks.remainingMs[mover] - elapsed) + clocks.incMs[mover];
    if (auto status = referee.play(*reply); !status.ok()) {
      record.illegalMove = *reply;
      return finish(lossFor(mover), Termination::kIllegalMove,
                    absl::StrCat(who, "illegal move '", *reply, "': ", status.message()));
    }
  }
}

}  // namespace gobblet::match
