// The weaker levels (search/skill.h): their parameters (monotone, a
// fractional level between its neighbours, UCI_Elo's level), the draw among
// the candidates, and the search at a level: within its node budget, varied
// by the seed, reproducible with it, missing a threat some of the time at
// the bottom and never at the top, never a win in one passed over nor a
// move that loses by itself.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/game.h"
#include "engine/notation.h"
#include "search/search.h"
#include "search/skill.h"
#include "tests/support/position_text.h"

namespace gobblet {
namespace {

TEST(SkillPick, FullStrengthAndOneCandidateTakeTheBest) {
  EXPECT_EQ(pickSkillMove(kMaxSkillLevel, {10, 9, 8}, 0.99), 0);
  EXPECT_EQ(pickSkillMove(0, {10}, 0.99), 0);
  // A level so near full strength that its temperature is 0 takes the best
  // too (not a draw among equal weights).
  const double last = std::nextafter(double{kMaxSkillLevel}, 0.0);
  ASSERT_EQ(skillTemperature(last), 0);
  EXPECT_EQ(pickSkillMove(last, {10, 9, 8}, 0.99), 0);
  EXPECT_EQ(pickSkillMove(last, {9, 10, 8}, 0.99), 1);
}

// A level's strength: the table's at a whole level, linear between two
// (from level 19 towards kSkillFullStrength), rising from strength 0 at
// level 0 (and below) to kSkillFullStrength at kMaxSkillLevel and above.
TEST(SkillStrength, RisesFromZeroToFullStrengthThroughTheTable) {
  EXPECT_EQ(skillStrength(-1), 0);
  EXPECT_EQ(skillStrength(0), 0);
  EXPECT_LT(kSkillLevelStrength[kMaxSkillLevel - 1], kSkillFullStrength);
  EXPECT_DOUBLE_EQ(skillStrength(kMaxSkillLevel - 0.5),
                   (kSkillLevelStrength[kMaxSkillLevel - 1] + kSkillFullStrength) / 2);
  EXPECT_EQ(skillStrength(kMaxSkillLevel), kSkillFullStrength);
  EXPECT_EQ(skillStrength(kMaxSkillLevel + 1), kSkillFullStrength);
  for (int level = 0; level < kMaxSkillLevel; ++level) {
    EXPECT_EQ(skillStrength(level), kSkillLevelStrength[level]) << level;
    if (level + 1 < kMaxSkillLevel) {
      EXPECT_DOUBLE_EQ(skillStrength(level + 0.25),
                       0.75 * kSkillLevelStrength[level] + 0.25 * kSkillLevelStrength[level + 1])
          << level;
    }
  }
  for (double level = 0.25; level <= kMaxSkillLevel; level += 0.25)
    EXPECT_GT(skillStrength(level), skillStrength(level - 0.25)) << level;
}

// Every parameter moves one way from level 0 to 20, fractional levels
// included, and full strength has none of them: the temperature falls to 5
// at kSkillCoolStrength and on to 0 at kSkillFullStrength.
TEST(SkillParams, AreMonotoneAndFullStrengthHasNone) {
  EXPECT_EQ(skillNodes(kMaxSkillLevel), 0u);
  EXPECT_EQ(skillDepth(kMaxSkillLevel), 0);
  EXPECT_EQ(skillMissChance(kMaxSkillLevel), 0);
  EXPECT_EQ(skillDepth(0), 1);
  EXPECT_EQ(skillDepth(kMaxSkillLevel - 1), 1 + static_cast<int>(kSkillLevelStrength[kMaxSkillLevel - 1] / 2));
  EXPECT_EQ(skillTemperature(0), 305);
  EXPECT_EQ(skillTemperature(kMaxSkillLevel), 0);
  EXPECT_GT(skillTemperature(kMaxSkillLevel - 0.25), 0);
  int cool = 0;
  while (skillStrength(cool) < kSkillCoolStrength) ++cool;
  EXPECT_LE(skillTemperature(cool), 5);
  EXPECT_GT(skillTemperature(cool - 1), 5);
  EXPECT_EQ(skillNodes(0), 500u);
  EXPECT_GT(skillMissChance(0), 0.5);
  for (double level = 0.25; level < kMaxSkillLevel; level += 0.25) {
    const double below = level - 0.25;
    EXPECT_GT(skillNodes(level), skillNodes(below)) << level;
    EXPECT_GE(skillDepth(level), skillDepth(below)) << level;
    EXPECT_LT(skillTemperature(level), skillTemperature(below)) << level;
    if (skillStrength(below) < kSkillMissFreeStrength)
      EXPECT_LT(skillMissChance(level), skillMissChance(below)) << level;
    else
      EXPECT_EQ(skillMissChance(level), 0) << level;
  }
}

// A level between two whole ones plays between them: each of its
// parameters lies between theirs.
TEST(SkillParams, AFractionalLevelLiesBetweenItsNeighbours) {
  for (int level = 0; level + 1 < kMaxSkillLevel; ++level) {
    const double half = level + 0.5;
    EXPECT_GT(skillNodes(half), skillNodes(level));
    EXPECT_LT(skillNodes(half), skillNodes(level + 1));
    EXPECT_LE(skillMissChance(half), skillMissChance(level));
    EXPECT_GE(skillMissChance(half), skillMissChance(level + 1));
    EXPECT_LT(skillTemperature(half), skillTemperature(level));
    EXPECT_GT(skillTemperature(half), skillTemperature(level + 1));
  }
}

// UCI_Elo's level: the measured Elo of a whole level gives that level, an
// Elo between two gives the level between them in proportion, and the ends
// clamp.
TEST(SkillElo, InterpolatesBetweenTheMeasuredLevels) {
  for (int level = 1; level <= kMaxSkillLevel; ++level) EXPECT_LT(kSkillLevelElo[level - 1], kSkillLevelElo[level]);
  for (int level = 0; level <= kMaxSkillLevel; ++level)
    EXPECT_DOUBLE_EQ(skillLevelForElo(kSkillLevelElo[level]), level) << level;
  for (int level = 0; level < kMaxSkillLevel; ++level) {
    const int lo = kSkillLevelElo[level], hi = kSkillLevelElo[level + 1];
    const double between = skillLevelForElo((lo + hi) / 2);
    EXPECT_GT(between, level);
    EXPECT_LT(between, level + 1);
    EXPECT_NEAR(between, level + static_cast<double>((lo + hi) / 2 - lo) / (hi - lo), 1e-9);
  }
  EXPECT_EQ(skillLevelForElo(kSkillLevelElo[0] - 100), 0);
  EXPECT_EQ(skillLevelForElo(kSkillLevelElo[kMaxSkillLevel] + 100), kMaxSkillLevel);
}

// The share of each candidate over evenly spread draws follows the softmax:
// near-equal moves about equally often at level 0, the best almost always
// at level 19; a forced loss or a move beside a found win never.
TEST(SkillPick, DrawsFollowTheSoftmaxAndNeverAForcedLoss) {
  const auto shares = [](int level, const std::vector<int>& scores) {
    std::vector<int> count(scores.size());
    for (int i = 0; i < 1000; ++i) ++count[pickSkillMove(level, scores, (i + 0.5) / 1000)];
    return count;
  };
  std::vector<int> c = shares(0, {30, 25, 20, 15});
  for (int n : c) EXPECT_GT(n, 200) << "level 0 takes near-equal moves about equally often";
  c = shares(19, {30, -30, -60, -90});
  EXPECT_GT(c[0], 990);
  const int kWin = 29990, kLoss = -29990;
  c = shares(0, {40, 10, kLoss, kLoss});
  EXPECT_EQ(c[2] + c[3], 0);
  c = shares(0, {kWin, 40, 10, 0});
  EXPECT_EQ(c[0], 1000);
}

TEST(SkillDraw, IsReproducibleWithASeedAndVariesWithout) {
  EXPECT_EQ(skillDraw(7, 123, 3), skillDraw(7, 123, 3));
  EXPECT_NE(skillDraw(7, 123, 3), skillDraw(7, 123, 3.5));
  EXPECT_NE(skillDraw(7, 123, 3, SkillDrawKind::kCandidate), skillDraw(7, 123, 3, SkillDrawKind::kMiss));
  EXPECT_NE(skillDraw(7, 123, 3), skillDraw(8, 123, 3));
  EXPECT_NE(skillDraw(7, 123, 3), skillDraw(7, 124, 3));
  std::set<double> unseeded;
  for (int i = 0; i < 20; ++i) unseeded.insert(skillDraw(0, 123, 3));
  EXPECT_EQ(unseeded.size(), 20u);
  for (int i = 0; i < 1000; ++i) {
    const double d = skillDraw(static_cast<uint64_t>(i + 1), 99, 0);
    EXPECT_GE(d, 0.0);
    EXPECT_LT(d, 1.0);
  }
}

std::string bestAt(double level, uint64_t seed, const Board& board, Search::Result* result = nullptr) {
  Search search;
  SearchOptions options;
  options.skillLevel = level;
  options.skillSeed = seed;
  EXPECT_TRUE(search.setOptions(options).ok());
  SearchLimits limits;
  limits.moveTime = 2000;  // the level's node budget ends it long before
  const Search::Result r = search.searchSync(Game(board), limits);
  if (result) *result = r;
  return moveToString(r.best, board.variant());
}

TEST(SkillSearch, ALevelIsShallowVariedByTheSeedAndReproducible) {
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/4/3X 2");
  std::set<std::string> moves;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    Search::Result r;
    const std::string move = bestAt(2, seed, board, &r);
    EXPECT_LE(r.info.depth, skillDepth(2));
    EXPECT_EQ(move, bestAt(2, seed, board)) << "seed " << seed;
    moves.insert(move);
  }
  EXPECT_GE(moves.size(), 3u) << "level 2 chose the same move for 12 seeds";
}

// A level's search stops at its node budget, whatever the clock allows
// (the levels whose budget a slow build spends well within the clock).
TEST(SkillSearch, ALevelSpendsAtMostItsNodeBudget) {
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/1X2/2x1 1");
  double highest = 12;  // the highest whole level with at most 150 000 nodes
  while (highest + 1 < kMaxSkillLevel && skillNodes(highest + 1) <= 150'000) ++highest;
  ASSERT_GT(highest, 13.5);
  for (double level : {12.0, 13.5, highest}) {
    Search::Result r;
    bestAt(level, 3, board, &r);
    EXPECT_LE(r.info.nodes, skillNodes(level)) << level;
    EXPECT_GT(r.info.nodes, skillNodes(level) / 2) << level << ": the budget, not the depth cap, ends it";
  }
}

// Level 0 searches one ply or not at all: a win in one is always taken, for every seed.
TEST(SkillSearch, EvenLevelZeroTakesAWinInOne) {
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/1xx1/XXX1 1");
  for (uint64_t seed = 1; seed <= 20; ++seed) EXPECT_EQ(bestAt(0, seed, board), "L@d1") << "seed " << seed;
}

// Player 2 threatens d1 (three ungobblable x on rank 1): every other move
// loses at once. Level 0 misses it some of the time (the safe-move player
// never does), and so does level 5 less often; from the first whole level
// at kSkillMissFreeStrength on, a level always blocks.
TEST(SkillSearch, WeakLevelsSometimesMissAThreatStrongOnesNever) {
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/XX2/xxx1 1");
  auto misses = [&](double level) {
    int n = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      const std::string move = bestAt(level, seed, board);
      n += move.substr(move.size() - 2) != "d1";
    }
    return n;
  };
  const int atZero = misses(0), atFive = misses(5);
  EXPECT_GT(atZero, 10) << "level 0 missed the threat for " << atZero << " seeds of 40";
  EXPECT_LT(atZero, 40) << "level 0 never blocked";
  EXPECT_LT(atFive, atZero);
  int missFree = 0;
  while (skillStrength(missFree) < kSkillMissFreeStrength) ++missFree;
  EXPECT_LT(missFree, kMaxSkillLevel);
  EXPECT_EQ(skillMissChance(missFree), 0);
  EXPECT_GT(skillMissChance(missFree - 1), 0);
  EXPECT_EQ(misses(missFree), 0);
}

// The blind look never plays a move that loses by itself: lifting player
// 1's L off c1 uncovers player 2's line m m s (except onto b1, which covers
// it again); level 0 never does it, for any seed.
TEST(SkillSearch, AMissedReplyNeverThrowsAPieceAway) {
  Board board = testing::parseOrFail(Variant::gobblers(), "3/3/mm[sL] 1");
  const auto scored = skillBlindScores(board, 30000);
  ASSERT_FALSE(scored.empty());
  for (const auto& [move, score] : scored) {
    Board after = board;
    after.makeMove(move);
    EXPECT_EQ(score == -30000, after.winner() == 1) << moveToString(move, board.variant());
  }
  EXPECT_EQ(scored.back().second, -30000);
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Board after = board;
    auto move = parseMove(board, bestAt(0, seed, board));
    ASSERT_TRUE(move.ok());
    after.makeMove(*move);
    EXPECT_NE(after.winner(), 1) << "seed " << seed << ": " << moveToString(*move, board.variant());
  }
}

// A move that misses the reply needs no search, yet `go infinite` still
// answers only after stop, as every search does.
TEST(SkillSearch, AMissedReplyUnderGoInfiniteWaitsForStop) {
  const Board board(Variant::gobblet());
  uint64_t seed = 1;
  while (skillDraw(seed, board.key(), 0, SkillDrawKind::kMiss) >= skillMissChance(0)) ++seed;
  Search search;
  SearchOptions options;
  options.skillLevel = 0;
  options.skillSeed = seed;
  ASSERT_TRUE(search.setOptions(options).ok());
  SearchLimits limits;
  limits.infinite = true;
  std::atomic<bool> answered{false};
  SearchCallbacks callbacks;
  callbacks.onBestMove = [&](Move best, Move) { answered = !best.isNone(); };
  search.go(Game(board), limits, callbacks);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(answered.load()) << "bestmove before stop";
  EXPECT_TRUE(search.searching());
  search.stop();
  search.wait();
  EXPECT_TRUE(answered.load());
}

}  // namespace
}  // namespace gobblet
