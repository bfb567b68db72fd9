// The search against an independent brute-force solver of a small 3x3
// variant: sampled forced wins and losses of 1 to 5 plies get exactly that
// distance, and the winning move keeps the win on schedule. A slow test
// (release build only): the solver walks every state of the variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/game.h"
#include "engine/notation.h"
#include "search/search.h"
#include "tests/support/brute_solver.h"

namespace gobblet {
namespace {

SearchLimits depthLimit(int depth) {
  SearchLimits l;
  l.depth = depth;
  return l;
}

// Every position of a small 3x3 variant that is a forced win in 1, 3 or 5
// plies (by an independent brute-force solver) is found by the search with
// exactly that distance, and forced losses are reported as such.
TEST(Search, AgreesWithBruteForceOnShortWins) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  testing::BruteSolver solver(v);
  std::mt19937 rng(7);
  Search search;
  int checked[6] = {};
  const auto& boards = solver.boards();
  const auto& values = solver.values();
  std::vector<size_t> order(boards.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i : order) {
    const testing::BruteValue value = values[i];
    if (value.distance == 0 || value.distance > 5) continue;
    const int slot = value.value > 0 ? value.distance : value.distance;  // 1..5
    if (checked[slot] >= 15) continue;
    ++checked[slot];
    const Board& b = boards[i];
    search.newGame();
    const auto r = search.searchSync(Game(b), depthLimit(value.distance + 2));
    ASSERT_TRUE(r.info.score.isMate) << positionToString(b) << " expected distance " << value.distance;
    EXPECT_EQ(r.info.score.value, value.value * value.distance) << positionToString(b);
    if (value.value > 0) {
      Board after = b;
      after.makeMove(r.best);
      bool found = false;
      const testing::BruteValue child = solver.value(after, &found);
      ASSERT_TRUE(found);
      EXPECT_EQ(child.value, after.winner() != kNoWinner ? child.value : -1) << positionToString(b);
      EXPECT_EQ(child.distance, value.distance - 1) << positionToString(b);
    }
  }
  for (int d = 1; d <= 5; ++d) EXPECT_GT(checked[d], 0) << "no position with distance " << d;
}

}  // namespace
}  // namespace gobblet
