// The tournament's bookkeeping (schedule.h) driven by scripted results, so
// that the order of games, the scoring and the SPRT stop are checked without
// engines, processes or timing.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "match/schedule.h"
#include "match/tournament.h"

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

TEST(MatchSchedule, EveryGameIsWhereTheDocumentedOrderPutsIt) {
  // The order as the schedule once listed it up front: opening pair by
  // opening pair, pairing by pairing, the pairing's first engine as player 1
  // first.
  for (Format format : {Format::kRoundRobin, Format::kGauntlet})
    for (int engines = 2; engines <= 5; ++engines)
      for (int gamesPerPairing = 1; gamesPerPairing <= 7; ++gamesPerPairing) {
        Schedule schedule(engines, format, gamesPerPairing, std::nullopt);
        std::vector<std::pair<int, int>> pairings;
        for (int a = 0; a < engines; ++a)
          for (int b = a + 1; b < engines; ++b)
            if (format == Format::kRoundRobin || a == 0) pairings.push_back({a, b});
        int number = 0;
        for (int k = 0; k < (gamesPerPairing + 1) / 2; ++k)
          for (int p = 0; p < static_cast<int>(pairings.size()); ++p)
            for (bool swapped : {false, true}) {
              auto game = schedule.next();
              ASSERT_TRUE(game.has_value());
              EXPECT_EQ(game->number, ++number);
              EXPECT_EQ(game->opening, k);
              EXPECT_EQ(game->pairing, p);
              EXPECT_EQ(game->swapped, swapped);
              EXPECT_EQ(game->player1, swapped ? pairings[p].second : pairings[p].first);
              EXPECT_EQ(game->player2, swapped ? pairings[p].first : pairings[p].second);
            }
        EXPECT_EQ(schedule.state().gamesPlanned, number);
        EXPECT_FALSE(schedule.next().has_value());
      }
}

TEST(MatchSchedule, TenMillionGamesPerPairingOfEightEnginesTakeNoMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer reserves terabytes of address space: RLIMIT_AS cannot apply";
#endif
  // In a child limited to 64 MB of address space: the schedule once listed
  // all 280 million games up front (7.8 GB; std::bad_alloc and SIGABRT).
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const rlimit limit{64u << 20, 64u << 20};
    setrlimit(RLIMIT_AS, &limit);
    Schedule schedule(8, Format::kRoundRobin, 10000000, std::nullopt);
    auto first = schedule.next(), second = schedule.next();
    const bool right = schedule.state().gamesPlanned == 280000000 && schedule.state().pairings.size() == 28 && first &&
                       first->player1 == 0 && first->player2 == 1 && second && second->player1 == 1;
    _exit(right ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
}

TEST(MatchSchedule, TournamentsBeyondTheLimitsAreRefusedNamingThem) {
  TournamentSettings settings;
  settings.gamesPerPairing = 10000000;
  for (int e = 0; e < 100; ++e) {
    EngineConfig engine;
    engine.name = "e" + std::to_string(e);
    engine.command = "true";
    engine.limits.depth = 1;
    settings.engines.push_back(engine);
  }
  // 4950 pairings x 10 million games: more than a game number holds.
  absl::Status status = checkTournamentSettings(settings);
  EXPECT_EQ(status.message(), "49500000000 games in all (10000000 per pairing): a match plays at most 2147483647");
  settings.format = Format::kGauntlet;  // 99 pairings: 990 million games
  EXPECT_TRUE(checkTournamentSettings(settings).ok()) << checkTournamentSettings(settings);
  settings.gamesPerPairing = 2;
  settings.engines.resize(kMaxEngines + 1, settings.engines.back());
  for (int e = 100; e <= kMaxEngines; ++e) settings.engines[e].name = "e" + std::to_string(e);
  EXPECT_EQ(checkTournamentSettings(settings).message(), "1001 engines: a match takes at most 1000");
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
