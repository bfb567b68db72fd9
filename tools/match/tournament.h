// Tournament: plays the games of a Schedule (schedule.h: pairings, game
// order, scores, SPRT) on parallel workers.
//
// Games are dealt in schedule order to `concurrency` workers; each worker
// owns its own engine processes, so games in parallel never share an engine.
// Once the SPRT (two engines only) decides, no new game starts; the games
// under way finish and are counted, but do not change the verdict.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/match/engine_player.h"
#include "tools/match/game_runner.h"
#include "tools/match/openings.h"
#include "tools/match/schedule.h"
#include "tools/match/stats.h"

namespace gobblet::match {

struct TournamentSettings {
  std::vector<EngineConfig> engines;  // at least two, distinct names
  Format format = Format::kRoundRobin;
  int gamesPerPairing = 2;  // rounded up to an even number
  int concurrency = 1;
  Variant variant;
  GameSettings game;
  PlayerTimeouts timeouts;
  std::vector<Opening> openings;  // cycled through; empty: openingFile, else random openings
  std::shared_ptr<OpeningFile> openingFile;  // cycled through, read one opening at a time
  int randomPlies = 0;            // plies of each random opening (0: the start position)
  uint64_t seed = 1;
  std::optional<SprtParams> sprt;
};

// The most engines a tournament takes (a round robin of them has 499500
// pairings).
inline constexpr int kMaxEngines = 1000;

// Called after every game, one call at a time, with the updated state.
using GameCallback = std::function<void(const GameRecord&, const TournamentState&)>;

// InvalidArgument unless the settings make a playable tournament: two or
// more engines, each with a command, a distinct name and at least one limit
// (clock, move time, depth or nodes: a bare `go` means "think forever"), an
// SPRT only between two engines, positive games and concurrency; at most
// kMaxEngines engines and kMaxScheduledGames games in all (schedule.h).
absl::Status checkTournamentSettings(const TournamentSettings& settings);

// Checks the settings (checkTournamentSettings), then plays the tournament
// and returns the final state. The schedule and the openings are made a game
// at a time (schedule.h, opening_sequence.h). An opening that cannot be made
// (the opening file changed, no random opening leaves the game running)
// starts no further game and is the error returned once the games under way
// have finished.
absl::StatusOr<TournamentState> runTournament(const TournamentSettings& settings, const GameCallback& onGame);

}  // namespace gobblet::match
