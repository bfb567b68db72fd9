#include "match/schedule.h"

#include <algorithm>

namespace gobblet::match {

namespace {

int64_t pairingCount(int engineCount, Format format) {
  const int64_t n = engineCount;
  return format == Format::kRoundRobin ? n * (n - 1) / 2 : n - 1;
}

}  // namespace

int64_t scheduledGameCount(int engineCount, Format format, int gamesPerPairing) {
  const int64_t openingPairs = (static_cast<int64_t>(gamesPerPairing) + 1) / 2;
  return openingPairs * 2 * pairingCount(engineCount, format);
}

Schedule::Schedule(int engineCount, Format format, int gamesPerPairing, std::optional<SprtParams> sprt)
    : openingPairs_((gamesPerPairing + 1) / 2), sprt_(sprt) {
  for (int a = 0; a < engineCount; ++a)
    for (int b = a + 1; b < engineCount; ++b)
      if (format == Format::kRoundRobin || a == 0) state_.pairings.push_back({a, b, {}});
  state_.gamesPlanned =
      static_cast<int>(std::min(scheduledGameCount(engineCount, format, gamesPerPairing), kMaxScheduledGames));
}

ScheduledGame Schedule::gameAt(int index) const {
  // Opening pair by opening pair, pairing by pairing, unswapped first.
  const int gamesPerOpening = 2 * static_cast<int>(state_.pairings.size());
  const int opening = index / gamesPerOpening, pairing = index % gamesPerOpening / 2;
  const bool swapped = index % 2 == 1;
  const PairingScore& p = state_.pairings[pairing];
  return {index + 1, pairing, opening, swapped, swapped ? p.second : p.first, swapped ? p.first : p.second};
}

void Schedule::skip(std::vector<int> numbers) {
  skipped_ = std::move(numbers);
  nextSkipped_ = 0;
}

std::optional<ScheduledGame> Schedule::next() {
  while (nextSkipped_ < skipped_.size() && skipped_[nextSkipped_] <= nextGame_ + 1) {
    if (skipped_[nextSkipped_] == nextGame_ + 1) ++nextGame_;
    ++nextSkipped_;
  }
  if (nextGame_ == state_.gamesPlanned || state_.decision != SprtDecision::kContinue) return std::nullopt;
  return gameAt(nextGame_++);
}

void Schedule::finish(const ScheduledGame& game, GameResult result) {
  Score& score = state_.pairings[game.pairing].score;
  const GameResult firstWins = game.swapped ? GameResult::kPlayer2Wins : GameResult::kPlayer1Wins;
  if (result == GameResult::kDraw)
    ++score.draws;
  else if (result == firstWins)
    ++score.wins;
  else
    ++score.losses;
  ++state_.gamesPlayed;
  // The SPRT verdict is final: a game that was under way when the LLR left
  // its bounds still counts in the score, but recomputing the LLR from it
  // could pull it back inside and restart a decided test (with fewer workers,
  // towards a possibly opposite verdict).
  if (sprt_ && state_.decision == SprtDecision::kContinue) {
    state_.llr = sprtLogLikelihoodRatio(state_.pairings[0].score, *sprt_);
    state_.decision = sprtDecision(state_.llr, *sprt_);
    if (state_.decision != SprtDecision::kContinue) state_.decidedAfter = state_.gamesPlayed;
  }
}

}  // namespace gobblet::match
