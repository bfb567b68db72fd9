#include "tools/match/tournament.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "tools/match/opening_sequence.h"

namespace gobblet::match {

absl::Status checkTournamentSettings(const TournamentSettings& settings) {
  if (settings.engines.size() < 2) return absl::InvalidArgumentError("a match needs at least two engines");
  if (settings.engines.size() > static_cast<size_t>(kMaxEngines))
    return absl::InvalidArgumentError(absl::StrCat(settings.engines.size(), " engines: a match takes at most ",
                                                   kMaxEngines));
  const int engineCount = static_cast<int>(settings.engines.size());
  std::set<std::string> names;
  for (const EngineConfig& e : settings.engines) {
    if (e.command.empty()) return absl::InvalidArgumentError(absl::StrCat("engine '", e.name, "' has no cmd="));
    if (!names.insert(e.name).second)
      return absl::InvalidArgumentError(absl::StrCat("two engines are named '", e.name, "'"));
    if (e.limits.empty())
      return absl::InvalidArgumentError(
          absl::StrCat("engine '", e.name,
                       "' has no limit: give tc=, movetime=, depth= or nodes= (or --tc, --movetime, --depth, "
                       "--nodes for every engine); a bare 'go' would let it think forever"));
  }
  if (settings.sprt && engineCount != 2) return absl::InvalidArgumentError("an SPRT needs exactly two engines");
  if (settings.concurrency < 1 || settings.gamesPerPairing < 1)
    return absl::InvalidArgumentError("concurrency and games must be positive");
  if (const int64_t games = scheduledGameCount(engineCount, settings.format, settings.gamesPerPairing);
      games > kMaxScheduledGames)
    return absl::InvalidArgumentError(absl::StrCat(games, " games in all (", settings.gamesPerPairing,
                                                   " per pairing): a match plays at most ", kMaxScheduledGames));
  return absl::OkStatus();
}

absl::StatusOr<TournamentState> runTournament(const TournamentSettings& settings, const GameCallback& onGame) {
  // 1. Check the settings.
  if (absl::Status status = checkTournamentSettings(settings); !status.ok()) return status;
  const int engineCount = static_cast<int>(settings.engines.size());

  // 2. The schedule and its openings, both made a game at a time. The first
  // opening is made now, so that an opening that cannot be made at all is
  // reported before any engine starts.
  Schedule schedule(engineCount, settings.format, settings.gamesPerPairing, settings.sprt);
  OpeningSequence openings(settings.variant, settings.openings, settings.openingFile.get(), settings.randomPlies,
                           settings.seed);
  if (auto first = openings.at(0); !first.ok()) return first.status();
  absl::Status failure;  // an opening that could not be made: no further game starts

  // 3. Workers take the next game until none is left or the SPRT decided.
  std::mutex mutex;
  auto worker = [&] {
    std::map<int, std::unique_ptr<EnginePlayer>> players;  // this worker's engines, by index
    auto player = [&](int engine) -> EnginePlayer& {
      auto& slot = players[engine];
      if (!slot) slot = std::make_unique<EnginePlayer>(settings.engines[engine], settings.variant, settings.timeouts);
      return *slot;
    };
    while (true) {
      std::optional<ScheduledGame> game;
      std::optional<Opening> opening;
      {
        std::lock_guard lock(mutex);
        if (!failure.ok()) break;
        game = schedule.next();
        if (!game) break;
        auto made = openings.at(game->opening);
        if (!made.ok()) {
          failure = made.status();
          break;
        }
        opening = *std::move(made);
      }
      GameRecord record = playGame(player(game->player1), player(game->player2), *opening, settings.game);

      std::lock_guard lock(mutex);
      record.number = game->number;  // schedule order: records do not depend on timing
      schedule.finish(*game, record.result);
      if (onGame) onGame(record, schedule.state());
    }
  };
  std::vector<std::thread> threads;
  const int workers = std::min<int>(settings.concurrency, schedule.state().gamesPlanned);
  for (int i = 0; i < workers; ++i) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  if (!failure.ok()) return failure;
  return schedule.state();
}

}  // namespace gobblet::match
