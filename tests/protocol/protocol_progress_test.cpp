// Progress between depths: while an iteration runs longer than
// kProgressIntervalMs, the engine says how far it has got, in an info line
// of counts alone (nodes, nps, time, hashfull, tbhits: no depth, score or
// pv, so that no client takes it for a line of the search).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "tests/support/engine_client.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

TEST(ProtocolProgress, ALongIterationReportsItsCountsBetweenDepths) {
  EngineProcess e;
  e.send("setoption name Hash value 16");
  e.send("position startpos");
  e.send("go infinite");
  // Iterations double in length: within seconds one outlasts the interval.
  auto progress = e.until("info nodes ", Ms(60000));
  ASSERT_TRUE(progress) << "no progress line within 60 s";
  const std::vector<std::string> words = absl::StrSplit(*progress, ' ');
  ASSERT_EQ(words.size(), 11u) << *progress;
  const char* keys[] = {"nodes", "nps", "time", "hashfull", "tbhits"};
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(words[1 + 2 * k], keys[k]) << *progress;
    uint64_t value;
    EXPECT_TRUE(absl::SimpleAtoi(words[2 + 2 * k], &value)) << *progress;
  }
  uint64_t nodes = 0, timeMs = 0;
  ASSERT_TRUE(absl::SimpleAtoi(words[2], &nodes) && absl::SimpleAtoi(words[6], &timeMs));
  EXPECT_GT(nodes, 0u);
  EXPECT_GE(timeMs, 1000u);  // never before the interval
  e.send("stop");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("bestmove ", Ms(10000), &seen));
  // The last info before the best move is still the summary with a score.
  ASSERT_GE(seen.size(), 2u);
  EXPECT_NE(seen[seen.size() - 2].find(" score "), std::string::npos) << seen[seen.size() - 2];
}

}  // namespace
}  // namespace gobblet
