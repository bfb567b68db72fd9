#include "tools/match/tournament.h"

#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"

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

  // 2. The schedule and its openings.
  Schedule schedule(engineCount, settings.format, settings.gamesPerPairing, settings.sprt);
  std::vector<Opening> openings;
  std::mt19937_64 rng(settings.seed);
  for (int k = 0; k < schedule.openingPairs(); ++k) {
    if (!settings.openings.empty()) {
      openings.push_back(settings.openings[k % settings.openings.size()]);
    } else {
      auto opening = randomOpening(settings.variant, settings.randomPlies, rng,
                                   settings.randomPlies > 0 ? absl::StrCat("random-", k + 1) : "start");
      if (!opening.ok()) return opening.status();
      openings.push_back(*std::move(opening));
    }
  }

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
      {
        std::lock_guard lock(mutex);
        game = schedule.next();
      }
      if (!game) break;
      GameRecord record = playGame(player(game->player1), player(game->player2), openings[game->opening],
                                   settings.game);

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
  return schedule.state();
}

}  // namespace gobblet::match
