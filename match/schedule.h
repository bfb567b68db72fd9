// Schedule: the bookkeeping of a tournament (which game comes next, the
// scores, the SPRT), kept apart from processes and threads so that it can be
// driven, and tested, with scripted results.
//
// Pairings: a round robin pairs every two engines, a gauntlet pairs the first
// engine with each other one (two engines are one pairing either way). Each
// pairing plays opening pairs: opening k is played twice, the pairing's first
// engine as player 1 in the first game and as player 2 in the second. Games
// are numbered 1..gamesPlanned in that order (opening pair by opening pair,
// pairing by pairing); next() hands them out in that order and finish() takes
// their results in any order, since games played in parallel end when they
// end.
//
// The SPRT watches pairing 0 and is checked after every result until it
// decides; from then on next() starts no game, and the results of the games
// that were under way are counted in the scores but never reopen the test.
//
// Game i is computed from its index when it is handed out, so a schedule
// takes the same memory for 2 games as for 10 million: pairings x games per
// pairing may be up to kMaxScheduledGames (games are numbered with an int).
//
// A resumed match (--resume) counts the games of its record with finish()
// and then skip()s them: next() never hands them out again.
//
// Not thread-safe: runTournament() calls it under its own mutex.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/game.h"
#include "match/stats.h"

namespace gobblet::match {

enum class Format { kRoundRobin, kGauntlet };

// The most games a schedule may hold, all pairings together.
inline constexpr int64_t kMaxScheduledGames = INT32_MAX;

// How many games `engineCount` engines play in `format` with
// `gamesPerPairing` games per pairing (rounded up to even), counted without
// overflow: compare it with kMaxScheduledGames before building a Schedule.
int64_t scheduledGameCount(int engineCount, Format format, int gamesPerPairing);

// Score of a pairing, from its first engine's point of view.
struct PairingScore {
  int first = 0, second = 0;  // engine indices
  Score score;
};

struct TournamentState {
  std::vector<PairingScore> pairings;
  int gamesPlanned = 0, gamesPlayed = 0;
  // SPRT only. Once decided, the decision and the LLR it was reached at are
  // final; decidedAfter is the number of games counted then (0: undecided).
  // Games already under way still finish and count in the scores.
  double llr = 0;
  SprtDecision decision = SprtDecision::kContinue;
  int decidedAfter = 0;
};

// One game of the schedule.
struct ScheduledGame {
  int number = 0;                // 1-based, in schedule order
  int pairing = 0;               // index into TournamentState::pairings
  int opening = 0;               // opening pair index, 0..openingPairs()-1
  bool swapped = false;          // the pairing's second engine is player 1
  int player1 = 0, player2 = 0;  // engine indices
};

class Schedule {
 public:
  // `engineCount` >= 2; `gamesPerPairing` >= 1 is rounded up to even; an
  // SPRT is meant for two engines (one pairing) and watches pairing 0.
  // scheduledGameCount() must not exceed kMaxScheduledGames (checked: the
  // schedule is then cut to that many games).
  Schedule(int engineCount, Format format, int gamesPerPairing, std::optional<SprtParams> sprt);

  int openingPairs() const { return openingPairs_; }
  const TournamentState& state() const { return state_; }

  // The next game to start, or nothing when every game has been handed out
  // or the SPRT has decided.
  std::optional<ScheduledGame> next();

  // Counts the result (player 1's point of view, not kNone) of a game that
  // next() handed out (or of a resumed game); updates the SPRT unless it has
  // already decided.
  void finish(const ScheduledGame& game, GameResult result);

  // Game `number` (1..gamesPlanned) of the schedule order.
  ScheduledGame game(int number) const { return gameAt(number - 1); }

  // Games next() must not hand out (already played: a resumed record), in
  // increasing order, all numbers in 1..gamesPlanned; called before next().
  void skip(std::vector<int> numbers);

 private:
  // Game `index` (0-based) of the schedule order described above.
  ScheduledGame gameAt(int index) const;

  int nextGame_ = 0;          // index of the next game to hand out
  std::vector<int> skipped_;  // numbers next() passes over, increasing
  size_t nextSkipped_ = 0;    // the first of them not yet passed
  int openingPairs_ = 0;
  std::optional<SprtParams> sprt_;
  TournamentState state_;
};

}  // namespace gobblet::match
