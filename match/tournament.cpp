#include "match/tournament.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/notation.h"
#include "engine/parallel_for.h"
#include "match/replay.h"

namespace gobblet::match {

absl::Status checkTournamentSettings(const TournamentSettings& settings) {
  if (settings.engines.size() < 2) return absl::InvalidArgumentError("a match needs at least two engines");
  if (settings.engines.size() > static_cast<size_t>(kMaxEngines))
    return absl::InvalidArgumentError(
        absl::StrCat(settings.engines.size(), " engines: a match takes at most ", kMaxEngines));
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

GameDealer::GameDealer(const TournamentSettings& settings)
    : settings_(settings),
      schedule_(static_cast<int>(settings.engines.size()), settings.format, settings.gamesPerPairing, settings.sprt),
      openings_(settings.variant, settings.openings, settings.openingFile.get(), settings.randomPlies, settings.seed) {}

absl::StatusOr<std::unique_ptr<GameDealer>> GameDealer::create(const TournamentSettings& settings) {
  if (absl::Status status = checkTournamentSettings(settings); !status.ok()) return status;
  std::unique_ptr<GameDealer> dealer(new GameDealer(settings));
  if (absl::Status status = dealer->resume(settings.resumed); !status.ok()) return status;
  if (auto first = dealer->openings_.at(0); !first.ok()) return first.status();
  return dealer;
}

absl::Status GameDealer::resume(const std::vector<GameRecord>& games) {
  if (games.empty()) return absl::OkStatus();
  std::vector<const GameRecord*> byNumber;
  for (const GameRecord& r : games) byNumber.push_back(&r);
  std::sort(byNumber.begin(), byNumber.end(), [](auto* a, auto* b) { return a->number < b->number; });
  std::vector<int> numbers;
  for (const GameRecord* r : byNumber) {
    const std::string which = absl::StrCat("resumed game ", r->number, ": ");
    if (r->number < 1 || r->number > state().gamesPlanned)
      return absl::InvalidArgumentError(absl::StrCat(which, "this match has games 1 to ", state().gamesPlanned));
    if (!numbers.empty() && numbers.back() == r->number)
      return absl::InvalidArgumentError(absl::StrCat(which, "the record holds it twice"));
    const ScheduledGame game = schedule_.game(r->number);
    const std::string& p1 = settings_.engines[game.player1].name;
    const std::string& p2 = settings_.engines[game.player2].name;
    if (r->player1 != p1 || r->player2 != p2)
      return absl::InvalidArgumentError(absl::StrCat(which, "played by '", r->player1, "' and '", r->player2,
                                                     "', in this match by '", p1, "' and '", p2, "'"));
    if (r->variant != settings_.variant)
      return absl::InvalidArgumentError(
          absl::StrCat(which, "variant ", r->variant.name(), ", this match's is ", settings_.variant.name()));
    auto opening = openings_.at(game.opening);
    if (!opening.ok()) return opening.status();
    // What differs is named: the label, else the start, else the moves (an
    // edited opening keeps its label).
    const std::string hint = " for that game (another --seed, --random-plies or --openings, or an edited record?)";
    if (r->opening != opening->label)
      return absl::InvalidArgumentError(absl::StrCat(which, "its opening '", r->opening,
                                                     "' is not this match's opening '", opening->label, "'", hint));
    if (r->start != positionToString(opening->start))
      return absl::InvalidArgumentError(absl::StrCat(which, "its opening '", r->opening, "' starts from '", r->start,
                                                     "', this match's from '", positionToString(opening->start), "'",
                                                     hint));
    std::vector<std::string> ours;
    for (Move m : opening->moves) ours.push_back(moveToString(m, settings_.variant));
    const std::vector<std::string> theirs(
        r->moves.begin(), r->moves.begin() + std::min<size_t>(r->moves.size(), std::max(r->bookPlies, 0)));
    if (theirs != ours)
      return absl::InvalidArgumentError(absl::StrCat(which, "its opening '", r->opening, "' plays '",
                                                     absl::StrJoin(theirs, " "), "', this match's '",
                                                     absl::StrJoin(ours, " "), "'", hint));
    if (absl::Status status = verifyRecord(*r); !status.ok())
      return absl::InvalidArgumentError(absl::StrCat(which, "does not replay: ", status.message()));
    schedule_.finish(game, r->result);
    numbers.push_back(r->number);
  }
  schedule_.skip(std::move(numbers));
  return openings_.restart();
}

std::optional<DealtGame> GameDealer::next() {
  if (!failure_.ok()) return std::nullopt;
  std::optional<ScheduledGame> game = schedule_.next();
  if (!game) return std::nullopt;
  auto opening = openings_.at(game->opening);
  if (!opening.ok()) {
    failure_ = opening.status();
    return std::nullopt;
  }
  return DealtGame{*game, *std::move(opening)};
}

const TournamentState& GameDealer::finish(const ScheduledGame& game, GameRecord& record) {
  record.number = game.number;  // schedule order: records do not depend on timing
  schedule_.finish(game, record.result);
  return schedule_.state();
}

EnginePlayer& WorkerEngines::player(int engine) {
  auto& slot = players_[engine];
  if (!slot) slot = std::make_unique<EnginePlayer>(settings_.engines[engine], settings_.variant, settings_.timeouts);
  return *slot;
}

GameRecord WorkerEngines::play(const ScheduledGame& game, const Opening& opening) {
  GameRecord record = playGame(player(game.player1), player(game.player2), opening, settings_.game);
  record.number = game.number;
  return record;
}

absl::StatusOr<TournamentState> runTournament(const TournamentSettings& settings, const GameCallback& onGame) {
  // 1. The settings checked, the resumed games counted, the first opening
  // made (the schedule and its openings are made a game at a time).
  auto dealer = GameDealer::create(settings);
  if (!dealer.ok()) return dealer.status();

  // 2. Workers take the next game until none is left, the SPRT decided or
  // an opening could not be made.
  std::mutex mutex;
  auto worker = [&] {
    WorkerEngines engines(settings);
    while (true) {
      std::optional<DealtGame> dealt;
      {
        std::lock_guard lock(mutex);
        dealt = (*dealer)->next();
      }
      if (!dealt) break;
      GameRecord record = engines.play(dealt->game, dealt->opening);

      std::lock_guard lock(mutex);
      const TournamentState& state = (*dealer)->finish(dealt->game, record);
      if (onGame)
        if (absl::Status told = onGame(record, state); !told.ok()) (*dealer)->fail(std::move(told));
    }
  };
  const int workers = std::min<int>(settings.concurrency, (*dealer)->gamesLeft());
  parallelFor(std::max(workers, 0), workers, [&](int, uint64_t) { worker(); });
  if (!(*dealer)->failure().ok()) return (*dealer)->failure();
  return (*dealer)->state();
}

}  // namespace gobblet::match
