#include "tools/match/tournament.h"

#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"

namespace gobblet::match {

namespace {

// One scheduled game: which pairing, which opening, and whether the
// pairing's second engine is player 1.
struct GameTask {
  int pairing = 0;
  int opening = 0;
  bool swapped = false;
};

}  // namespace

absl::StatusOr<TournamentState> runTournament(const TournamentSettings& settings, const GameCallback& onGame) {
  // 1. Check the settings.
  const int engineCount = static_cast<int>(settings.engines.size());
  if (engineCount < 2) return absl::InvalidArgumentError("a match needs at least two engines");
  std::set<std::string> names;
  for (const EngineConfig& e : settings.engines) {
    if (e.command.empty()) return absl::InvalidArgumentError(absl::StrCat("engine '", e.name, "' has no cmd="));
    if (!names.insert(e.name).second)
      return absl::InvalidArgumentError(absl::StrCat("two engines are named '", e.name, "'"));
  }
  if (settings.sprt && engineCount != 2) return absl::InvalidArgumentError("an SPRT needs exactly two engines");
  if (settings.concurrency < 1 || settings.gamesPerPairing < 1)
    return absl::InvalidArgumentError("concurrency and games must be positive");

  // 2. Pairings and openings.
  TournamentState state;
  for (int a = 0; a < engineCount; ++a)
    for (int b = a + 1; b < engineCount; ++b)
      if (settings.format == Format::kRoundRobin || a == 0) state.pairings.push_back({a, b, {}});
  const int openingPairs = (settings.gamesPerPairing + 1) / 2;
  std::vector<Opening> openings;
  std::mt19937_64 rng(settings.seed);
  for (int k = 0; k < openingPairs; ++k) {
    if (!settings.openings.empty()) {
      openings.push_back(settings.openings[k % settings.openings.size()]);
    } else {
      auto opening = randomOpening(settings.variant, settings.randomPlies, rng,
                                   settings.randomPlies > 0 ? absl::StrCat("random-", k + 1) : "start");
      if (!opening.ok()) return opening.status();
      openings.push_back(*std::move(opening));
    }
  }
  std::vector<GameTask> tasks;
  for (int k = 0; k < openingPairs; ++k)
    for (int p = 0; p < static_cast<int>(state.pairings.size()); ++p)
      for (bool swapped : {false, true}) tasks.push_back({p, k, swapped});
  state.gamesPlanned = static_cast<int>(tasks.size());

  // 3. Workers take the next task until none is left or the SPRT decided.
  std::mutex mutex;
  size_t nextTask = 0;
  auto worker = [&] {
    std::map<int, std::unique_ptr<EnginePlayer>> players;  // this worker's engines, by index
    auto player = [&](int engine) -> EnginePlayer& {
      auto& slot = players[engine];
      if (!slot) slot = std::make_unique<EnginePlayer>(settings.engines[engine], settings.variant, settings.timeouts);
      return *slot;
    };
    while (true) {
      GameTask task;
      int p1, p2, number;
      {
        std::lock_guard lock(mutex);
        if (nextTask == tasks.size() || state.decision != SprtDecision::kContinue) break;
        number = static_cast<int>(nextTask) + 1;  // schedule order: records do not depend on timing
        task = tasks[nextTask++];
        const PairingScore& pairing = state.pairings[task.pairing];
        p1 = task.swapped ? pairing.second : pairing.first;
        p2 = task.swapped ? pairing.first : pairing.second;
      }
      GameRecord record = playGame(player(p1), player(p2), openings[task.opening], settings.game);

      std::lock_guard lock(mutex);
      record.number = number;
      Score& score = state.pairings[task.pairing].score;
      const GameResult firstWins = task.swapped ? GameResult::kPlayer2Wins : GameResult::kPlayer1Wins;
      if (record.result == GameResult::kDraw) ++score.draws;
      else if (record.result == firstWins) ++score.wins;
      else ++score.losses;
      ++state.gamesPlayed;
      if (settings.sprt) {
        state.llr = sprtLogLikelihoodRatio(score, *settings.sprt);
        state.decision = sprtDecision(state.llr, *settings.sprt);
      }
      if (onGame) onGame(record, state);
    }
  };
  std::vector<std::thread> threads;
  const int workers = std::min<int>(settings.concurrency, state.gamesPlanned);
  for (int i = 0; i < workers; ++i) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  return state;
}

}  // namespace gobblet::match
