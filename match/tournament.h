// Tournament: plays the games of a Schedule (schedule.h: pairings, game
// order, scores, SPRT) on parallel workers.
//
// Games are dealt in schedule order to `concurrency` workers; each worker
// owns its own engine processes, so games in parallel never share an engine.
// Once the SPRT (two engines only) decides, no new game starts; the games
// under way finish and are counted, but do not change the verdict.
//
// The pieces are public for the MPI distribution (mpi_distribution.h): a
// GameDealer hands out the games and takes their results in one place (here
// under a mutex, there on the coordinating rank), and WorkerEngines plays
// them wherever the engines run.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "match/engine_player.h"
#include "match/game_runner.h"
#include "match/opening_sequence.h"
#include "match/openings.h"
#include "match/schedule.h"
#include "match/stats.h"

namespace gobblet::match {

struct TournamentSettings {
  std::vector<EngineConfig> engines;  // at least two, distinct names
  Format format = Format::kRoundRobin;
  int gamesPerPairing = 2;  // rounded up to an even number
  int concurrency = 1;
  Variant variant;
  GameSettings game;
  PlayerTimeouts timeouts;
  std::vector<Opening> openings;             // cycled through; empty: openingFile, else random openings
  std::shared_ptr<OpeningFile> openingFile;  // cycled through, read one opening at a time
  std::string openingsPath;                  // the opening file as given (the record's match line, resume.h)
  int randomPlies = 0;                       // plies of each random opening (0: the start position)
  uint64_t seed = 1;
  std::optional<SprtParams> sprt;
  // Games already played (--resume, resume.h): counted in game-number order
  // before any game starts and never played again. Each must be a game of
  // this schedule: its number, players, variant and opening, and it must
  // replay consistently (replay.h).
  std::vector<GameRecord> resumed;
};

// The most engines a tournament takes (a round robin of them has 499500
// pairings).
inline constexpr int kMaxEngines = 1000;

// Called after every game, one call at a time, with the updated state. An
// error (the record could not be written) starts no further game and is
// the error the tournament returns once the games under way have finished.
using GameCallback = std::function<absl::Status(const GameRecord&, const TournamentState&)>;

// InvalidArgument unless the settings make a playable tournament: two or
// more engines, each with a command, a distinct name and at least one limit
// (clock, move time, depth or nodes: a bare `go` means "think forever"), an
// SPRT only between two engines, positive games and concurrency; at most
// kMaxEngines engines and kMaxScheduledGames games in all (schedule.h).
absl::Status checkTournamentSettings(const TournamentSettings& settings);

// Checks the settings (checkTournamentSettings), then plays the tournament
// and returns the final state. The schedule and the openings are made a game
// at a time (schedule.h, opening_sequence.h). An opening that cannot be made
// (the opening file changed, no random opening leaves the game running),
// like an error from onGame, starts no further game and is the error
// returned once the games under way have finished.
absl::StatusOr<TournamentState> runTournament(const TournamentSettings& settings, const GameCallback& onGame);

// A game handed out: its place in the schedule and its opening.
struct DealtGame {
  ScheduledGame game;
  Opening opening;
};

// The bookkeeping of a running tournament: the schedule, its openings, the
// scores and the SPRT. Not thread-safe.
class GameDealer {
 public:
  // Checks the settings (checkTournamentSettings) and the resumed games,
  // counts the resumed games, and makes the first opening to be played (an
  // opening that cannot be made at all is reported before any engine
  // starts).
  static absl::StatusOr<std::unique_ptr<GameDealer>> create(const TournamentSettings& settings);

  // The next game to play, or nothing when every game has been handed out,
  // the SPRT has decided or an opening could not be made (failure()).
  std::optional<DealtGame> next();
  // Counts a finished game that next() handed out; sets its number.
  const TournamentState& finish(const ScheduledGame& game, GameRecord& record);

  const TournamentState& state() const { return schedule_.state(); }
  // Games neither played nor resumed.
  int gamesLeft() const { return state().gamesPlanned - state().gamesPlayed; }
  // An opening that could not be made, or what fail() was told: no further
  // game is handed out.
  const absl::Status& failure() const { return failure_; }
  // Hands out no further game; `why` becomes failure() unless one came first.
  void fail(absl::Status why) {
    if (failure_.ok()) failure_ = std::move(why);
  }

 private:
  explicit GameDealer(const TournamentSettings& settings);
  absl::Status resume(const std::vector<GameRecord>& games);

  const TournamentSettings& settings_;
  Schedule schedule_;
  OpeningSequence openings_;
  absl::Status failure_;
};

// One worker's engines: each started for its first game and kept for the
// worker's later games (a failed engine restarts: engine_player.h).
class WorkerEngines {
 public:
  explicit WorkerEngines(const TournamentSettings& settings) : settings_(settings) {}
  // Plays `game` from `opening`; the record carries the game's number.
  GameRecord play(const ScheduledGame& game, const Opening& opening);

 private:
  EnginePlayer& player(int engine);

  const TournamentSettings& settings_;
  std::map<int, std::unique_ptr<EnginePlayer>> players_;
};

}  // namespace gobblet::match
