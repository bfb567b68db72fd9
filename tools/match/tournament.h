// Tournament: schedules the games of a match, round robin or gauntlet, and
// runs them on parallel workers.
//
// Pairings: a round robin pairs every two engines, a gauntlet pairs the first
// engine with each other one (two engines are one pairing either way). Each
// pairing plays opening pairs: opening k is played twice, the pairing's
// first engine as player 1 in the first game and as player 2 in the second.
// Games are dealt in order (opening pair by opening pair, pairing by pairing)
// to `concurrency` workers; each worker owns its own engine processes, so
// games in parallel never share an engine.
//
// An SPRT (two engines only) is checked after every game; once it decides,
// no new game starts and the games under way finish and are counted.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/match/engine_player.h"
#include "tools/match/game_runner.h"
#include "tools/match/openings.h"
#include "tools/match/stats.h"

namespace gobblet::match {

enum class Format { kRoundRobin, kGauntlet };

struct TournamentSettings {
  std::vector<EngineConfig> engines;  // at least two, distinct names
  Format format = Format::kRoundRobin;
  int gamesPerPairing = 2;  // rounded up to an even number
  int concurrency = 1;
  Variant variant;
  GameSettings game;
  PlayerTimeouts timeouts;
  std::vector<Opening> openings;  // cycled through; empty: random openings
  int randomPlies = 0;            // plies of each random opening (0: the start position)
  uint64_t seed = 1;
  std::optional<SprtParams> sprt;
};

// Score of a pairing, from its first engine's point of view.
struct PairingScore {
  int first = 0, second = 0;  // engine indices
  Score score;
};

struct TournamentState {
  std::vector<PairingScore> pairings;
  int gamesPlanned = 0, gamesPlayed = 0;
  double llr = 0;  // SPRT only
  SprtDecision decision = SprtDecision::kContinue;
};

// Called after every game, one call at a time, with the updated state.
using GameCallback = std::function<void(const GameRecord&, const TournamentState&)>;

// Checks the settings (InvalidArgument), then plays the tournament and
// returns the final state.
absl::StatusOr<TournamentState> runTournament(const TournamentSettings& settings, const GameCallback& onGame);

}  // namespace gobblet::match
