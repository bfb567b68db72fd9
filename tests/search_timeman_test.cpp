// Time budgets from the go limits (search/timeman.h).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gobblet
