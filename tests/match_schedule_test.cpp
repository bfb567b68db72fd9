// The tournament's bookkeeping (schedule.h) driven by scripted results, so
// that the order of games, the scoring and the SPRT stop are checked without
// engines, processes or timing.
#include <gtest/gtest.h>

#include "tools/match/schedule.h"

namespace gobblet::match {
namespace {

// The result of `game` in which the pairing's first engine scores `points`
// (1, 0.5 or 0), seen from player 1 as finish() wants it.
GameResult firstEngineScores(const ScheduledGame& game, double points) {
  if (points == 0.5) return GameResult::kDraw;
  const bool player1Wins = (points == 1) != game.swapped;
  return player1Wins ? GameResult::kPlayer1Wins : GameResult::kPlayer2Wins;
}

TEST(MatchSchedule, HandsOutGamesInScheduleOrder) {
  Schedule schedule(2, Format::kRoundRobin, 5, std::nullopt);  // 5 rounds up to 6
  EXPECT_EQ(schedule.openingPairs(), 3);
  EXPECT_EQ(schedule.state().gamesPlanned, 6);
  ASSERT_EQ(schedule.state().pairings.size(), 1u);
  for (int i = 0; i < 6; ++i) {
    auto game = schedule.next();
    ASSERT_TRUE(game.has_value()) << i;
    EXPECT_EQ(game->number, i + 1);
    EXPECT_EQ(game->opening, i / 2);
    EXPECT_EQ(game->swapped, i % 2 == 1);
    EXPECT_EQ(game->player1, i % 2);  // each opening with both colours
    EXPECT_EQ(game->player2, 1 - i % 2);
  }
  EXPECT_FALSE(schedule.next().has_value());
}

TEST(MatchSchedule, RoundRobinAndGauntletPairings) {
  Schedule roundRobin(4, Format::kRoundRobin, 2, std::nullopt);
  EXPECT_EQ(roundRobin.state().pairings.size(), 6u);
  EXPECT_EQ(roundRobin.state().gamesPlanned, 12);
  Schedule gauntlet(4, Format::kGauntlet, 4, std::nullopt);
  ASSERT_EQ(gauntlet.state().pairings.size(), 3u);
  EXPECT_EQ(gauntlet.state().gamesPlanned, 12);
  for (const PairingScore& p : gauntlet.state().pairings) EXPECT_EQ(p.first, 0);
  // Opening pair by opening pair, pairing by pairing.
  int count = 0;
  while (auto game = gauntlet.next()) {
    EXPECT_EQ(game->opening, count / 6);
    EXPECT_EQ(game->pairing, count / 2 % 3);
    ++count;
  }
  EXPECT_EQ(count, 12);
}

TEST(MatchSchedule, ScoresFromTheFirstEnginesPointOfViewInAnyOrder) {
  Schedule schedule(2, Format::kRoundRobin, 4, std::nullopt);
  std::vector<ScheduledGame> games;
  while (auto game = schedule.next()) games.push_back(*game);
  ASSERT_EQ(games.size(), 4u);
  // Finish in reverse order: the second engine wins game 4 as player 1, the
  // first engine wins game 3 as player 1, game 2 (first engine as player 2)
  // is won by player 2, game 1 is drawn.
  schedule.finish(games[3], GameResult::kPlayer1Wins);
  schedule.finish(games[2], GameResult::kPlayer1Wins);
  schedule.finish(games[1], GameResult::kPlayer2Wins);
  schedule.finish(games[0], GameResult::kDraw);
  const Score& s = schedule.state().pairings[0].score;
  EXPECT_EQ(s.wins, 2);
  EXPECT_EQ(s.draws, 1);
  EXPECT_EQ(s.losses, 1);
  EXPECT_EQ(schedule.state().gamesPlayed, 4);
}

TEST(MatchSchedule, SprtStopsTheScheduleWhenItDecides) {
  const SprtParams sprt{-40, 40, 0.2, 0.2};
  Schedule schedule(2, Format::kRoundRobin, 400, sprt);
  // One game at a time, every game won by the first engine: the schedule
  // stops right after the first win count whose LLR reaches the upper bound.
  int expected = 1;
  while (sprtLogLikelihoodRatio(Score{expected, 0, 0}, sprt) < sprt.upperBound()) ++expected;
  int played = 0;
  while (auto game = schedule.next()) {
    EXPECT_EQ(schedule.state().decision, SprtDecision::kContinue);
    schedule.finish(*game, firstEngineScores(*game, 1));
    ++played;
  }
  EXPECT_EQ(played, expected);
  EXPECT_LT(played, 400);
  EXPECT_EQ(schedule.state().decision, SprtDecision::kAcceptH1);
  EXPECT_GE(schedule.state().llr, sprt.upperBound());
}

// Four games at a time, as with --concurrency 4: the first engine wins (or
// loses) every game until the SPRT decides, then the three games still under
// way go the other way, enough to pull the LLR back inside its bounds. The
// verdict and the LLR it was reached at must stand, the late games must be
// counted, and no further game may start.
TEST(MatchSchedule, SprtVerdictIsFinalWhileGamesUnderWayFinish) {
  const SprtParams sprt{-40, 40, 0.2, 0.2};
  for (double winner : {1.0, 0.0}) {
    Schedule schedule(2, Format::kRoundRobin, 400, sprt);
    std::vector<ScheduledGame> underWay;
    for (int i = 0; i < 4; ++i) underWay.push_back(*schedule.next());
    while (schedule.state().decision == SprtDecision::kContinue) {
      schedule.finish(underWay.front(), firstEngineScores(underWay.front(), winner));
      underWay.erase(underWay.begin());
      if (schedule.state().decision != SprtDecision::kContinue) break;
      auto game = schedule.next();
      ASSERT_TRUE(game.has_value());
      underWay.push_back(*game);
    }
    const SprtDecision verdict = winner == 1 ? SprtDecision::kAcceptH1 : SprtDecision::kAcceptH0;
    ASSERT_EQ(schedule.state().decision, verdict);
    const double decidedLlr = schedule.state().llr;
    const int decidedAfter = schedule.state().gamesPlayed;
    EXPECT_EQ(schedule.state().decidedAfter, decidedAfter);
    EXPECT_FALSE(schedule.next().has_value());
    ASSERT_EQ(underWay.size(), 3u);

    for (const ScheduledGame& game : underWay) {
      schedule.finish(game, firstEngineScores(game, 1 - winner));
      EXPECT_EQ(schedule.state().decision, verdict);
      EXPECT_EQ(schedule.state().llr, decidedLlr);
      EXPECT_FALSE(schedule.next().has_value());
    }
    // The late results are counted, and they really would have undone the
    // verdict: the test is only meaningful if the final LLR is back inside.
    const Score& score = schedule.state().pairings[0].score;
    EXPECT_EQ(schedule.state().gamesPlayed, decidedAfter + 3);
    EXPECT_EQ(score.games(), decidedAfter + 3);
    EXPECT_EQ(winner == 1 ? score.losses : score.wins, 3);
    EXPECT_EQ(sprtDecision(sprtLogLikelihoodRatio(score, sprt), sprt), SprtDecision::kContinue);
    EXPECT_EQ(schedule.state().decidedAfter, decidedAfter);
  }
}

}  // namespace
}  // namespace gobblet::match
