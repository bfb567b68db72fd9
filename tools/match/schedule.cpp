#include "tools/match/schedule.h"

namespace gobblet::match {

Schedule::Schedule(int engineCount, Format format, int gamesPerPairing, std::optional<SprtParams> sprt)
    : openingPairs_((gamesPerPairing + 1) / 2), sprt_(sprt) {
  for (int a = 0; a < engineCount; ++a)
    for (int b = a + 1; b < engineCount; ++b)
      if (format == Format::kRoundRobin || a == 0) state_.pairings.push_back({a, b, {}});
  for (int k = 0; k < openingPairs_; ++k)
    for (int p = 0; p < static_cast<int>(state_.pairings.size()); ++p)
      for (bool swapped : {false, true}) {
        const PairingScore& pairing = state_.pairings[p];
        games_.push_back({static_cast<int>(games_.size()) + 1, p, k, swapped,
                          swapped ? pairing.second : pairing.first, swapped ? pairing.first : pairing.second});
      }
  state_.gamesPlanned = static_cast<int>(games_.size());
}

std::optional<ScheduledGame> Schedule::next() {
  if (nextGame_ == games_.size() || state_.decision != SprtDecision::kContinue) return std::nullopt;
  return games_[nextGame_++];
}

void Schedule::finish(const ScheduledGame& game, GameResult result) {
  Score& score = state_.pairings[game.pairing].score;
  const GameResult firstWins = game.swapped ? GameResult::kPlayer2Wins : GameResult::kPlayer1Wins;
  if (result == GameResult::kDraw) ++score.draws;
  else if (result == firstWins) ++score.wins;
  else ++score.losses;
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
