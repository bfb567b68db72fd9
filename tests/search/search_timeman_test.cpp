// Time budgets from the go limits (search/timeman.h).
#include <gtest/gtest.h>

#include "search/search_params.h"
#include "search/timeman.h"

namespace gobblet {
namespace {

SearchLimits moveTime(int64_t ms) {
  SearchLimits l;
  l.moveTime = ms;
  return l;
}

// MoveOverhead protects clocks; a fixed move time keeps back at most a tenth.
TEST(TimeBudget, MoveTimeKeepsMostOfAShortBudget) {
  EXPECT_EQ(computeTimeBudget(moveTime(10), 0, 30).hardMs, 9);
  EXPECT_EQ(computeTimeBudget(moveTime(100), 0, 30).hardMs, 90);
  EXPECT_EQ(computeTimeBudget(moveTime(1000), 0, 30).hardMs, 970);
  EXPECT_EQ(computeTimeBudget(moveTime(1000), 0, 0).hardMs, 1000);
  EXPECT_EQ(computeTimeBudget(moveTime(1), 0, 30).hardMs, 1);
  EXPECT_EQ(computeTimeBudget(moveTime(0), 0, 30).hardMs, 1);  // something is searched
  const TimeBudget b = computeTimeBudget(moveTime(500), 1, 30);
  EXPECT_EQ(b.softMs, b.hardMs);  // searched whole: no early stop between iterations
}

TEST(TimeBudget, ClockKeepsTheOverheadAndStaysWithinWhatIsLeft) {
  for (int64_t left : {50, 200, 1000, 60000}) {
    for (int64_t inc : {0, 10, 1000}) {
      SearchLimits l;
      l.time[0] = left;
      l.inc[0] = inc;
      const TimeBudget b = computeTimeBudget(l, 0, 30);
      EXPECT_GE(b.softMs, 1) << left << "+" << inc;
      EXPECT_LE(b.softMs, b.hardMs) << left << "+" << inc;
      EXPECT_LE(b.hardMs, std::max<int64_t>(1, left - 30)) << left << "+" << inc;
    }
  }
  SearchLimits infinite;
  infinite.infinite = true;
  EXPECT_EQ(computeTimeBudget(infinite, 0, 30).hardMs, -1);
}

// Sudden death: the time left over tm_moves_to_go moves plus tm_inc_percent %
// of the increment, less the overhead; the hard limit at most 40 % of what
// may be used (10 s - 30 ms overhead - 50 ms kept).
TEST(TimeBudget, SuddenDeathFollowsTheTimeParameters) {
  SearchLimits l;
  l.time[1] = 10000;
  l.inc[1] = 100;
  const SearchParams& p = searchParams();
  EXPECT_EQ(p.tmMovesToGo, 8);  // the SPRT's value (docs/history.md, "Time use under a clock")
  const int64_t soft = 10000 / p.tmMovesToGo + 100 * p.tmIncPercent / 100 - 30;
  EXPECT_EQ(computeTimeBudget(l, 1, 30).softMs, soft);
  EXPECT_EQ(computeTimeBudget(l, 1, 30).hardMs, std::min<int64_t>(4 * soft, 9920 * 4 / 10));
  ASSERT_TRUE(setSearchParam("tm_moves_to_go=25").ok());
  ASSERT_TRUE(setSearchParam("tm_inc_percent=100").ok());
  EXPECT_EQ(computeTimeBudget(l, 1, 30).softMs, 400 + 100 - 30);
  resetSearchParams();
  l.movesToGo = 20;  // a given movestogo wins over tm_moves_to_go
  EXPECT_EQ(computeTimeBudget(l, 1, 30).softMs, 10000 / 20 + 100 * p.tmIncPercent / 100 - 30);
}

}  // namespace
}  // namespace gobblet
