// The bench (search/bench.cpp) beyond its signature (bench_signature).
#include <gtest/gtest.h>

#include "search/search.h"

namespace gobblet {
namespace {

// gobblet-bench --hand-written: the same positions with the hand-written
// evaluation, and the 4x4 positions' share counted apart.
TEST(Bench, TheHandWrittenRunSearchesTheSamePositionsWithoutTheNet) {
  const BenchResult net = runBench(3);
  const BenchResult hand = runBench(3, nullptr, nullptr, {}, /*handWritten=*/true);
  ASSERT_TRUE(net.error.empty()) << net.error;
  ASSERT_TRUE(hand.error.empty()) << hand.error;
  EXPECT_NE(net.gobbletNodes, hand.gobbletNodes) << "the 4x4 positions are searched with another evaluation";
  EXPECT_EQ(net.nodes - net.gobbletNodes, hand.nodes - hand.gobbletNodes) << "the other variants never use the net";
  EXPECT_GT(net.gobbletNodes, 0u);
  EXPECT_LT(net.gobbletNodes, net.nodes);
  EXPECT_GT(net.gobbletCpuSeconds, 0);
  EXPECT_LE(net.gobbletCpuSeconds, net.cpuSeconds);
}

}  // namespace
}  // namespace gobblet
