// The weaker levels (search/skill.h): the draw among the candidates, and
// the search at a level: shallower, varied by the seed, reproducible with
// it, and never a forced loss or a missed win in one where the level sees it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
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
  EXPECT_EQ(skillDepth(kMaxSkillLevel), 0);
  EXPECT_EQ(skillDepth(0), 1);
  for (int level = 1; level < kMaxSkillLevel; ++level) {
    EXPECT_GE(skillDepth(level), skillDepth(level - 1)) << level;
    EXPECT_LT(skillTemperature(level), skillTemperature(level - 1)) << level;
  }
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

std::string bestAt(int level, uint64_t seed, const Board& board, int* depth = nullptr) {
  Search search;
  SearchOptions options;
  options.skillLevel = level;
  options.skillSeed = seed;
  EXPECT_TRUE(search.setOptions(options).ok());
  SearchLimits limits;
  limits.moveTime = 2000;  // the level's depth cap ends it long before
  const Search::Result r = search.searchSync(Game(board), limits);
  if (depth) *depth = r.info.depth;
  return moveToString(r.best, board.variant());
}

TEST(SkillSearch, ALevelIsShallowVariedByTheSeedAndReproducible) {
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/4/3X 2");
  std::set<std::string> moves;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    int depth = 0;
    const std::string move = bestAt(2, seed, board, &depth);
    EXPECT_LE(depth, skillDepth(2));
    EXPECT_EQ(move, bestAt(2, seed, board)) << "seed " << seed;
    moves.insert(move);
  }
  EXPECT_GE(moves.size(), 3u) << "level 2 chose the same move for 12 seeds";
}

// Level 0 searches one ply: a win in one is always taken, for every seed.
TEST(SkillSearch, EvenLevelZeroTakesAWinInOne) {
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/1xx1/XXX1 1");
  for (uint64_t seed = 1; seed <= 20; ++seed) EXPECT_EQ(bestAt(0, seed, board), "L@d1") << "seed " << seed;
}

TEST(SkillSearch, LevelFiveBlocksALossInOne) {
  // Player 2 threatens d1 (three ungobblable X on row 1): every other move
  // loses at once, which level 5 (3 plies) sees.
  const Board board = testing::parseOrFail(Variant::gobblet(), "4/4/XX2/xxx1 1");
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::string move = bestAt(5, seed, board);
    EXPECT_EQ(move.substr(move.size() - 2), "d1") << "seed " << seed << ": " << move;
  }
}

}  // namespace
}  // namespace gobblet
