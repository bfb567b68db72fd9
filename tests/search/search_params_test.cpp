// Search tuning values (search/search_params.h): one table with bounds,
// errors that name the parameter, and every value reaching the search.
#include "search/search_params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/notation.h"
#include "search/eval_file.h"
#include "search/search.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

using testing::runCommand;

const std::string kBin = gobblet::testing::binDir();

// The values are the process's: every test starts and ends with the defaults.
class SearchParamsTest : public ::testing::Test {
 protected:
  void SetUp() override { resetSearchParams(); }
  void TearDown() override { resetSearchParams(); }
};

long engineReduction(int depth, int move, double base, double divisor) {
  return std::lround(base + std::log(depth) * std::log(move) / divisor);
}

TEST_F(SearchParamsTest, DefaultsAreTheEnginesFormula) {
  EXPECT_EQ(lateMoveReduction(2, 30), 0);  // below lmr_min_depth 3
  EXPECT_EQ(lateMoveReduction(10, 3), 0);  // before lmr_min_move 4
  for (int depth : {3, 10, 63})
    for (int move : {4, 20, 255})
      EXPECT_EQ(lateMoveReduction(depth, move), engineReduction(depth, move, 0.4, 2.2)) << depth << " " << move;
  const std::vector<std::string> lines = describeSearchParams();
  ASSERT_EQ(lines.size(), 24u);
  EXPECT_EQ(lines[3].rfind("lmr_divisor 220 (default 220) [50, 1000] ", 0), 0u) << lines[3];
}

TEST_F(SearchParamsTest, SettingOneRebuildsTheReductions) {
  ASSERT_TRUE(setSearchParam("lmr_divisor=110").ok());
  EXPECT_EQ(searchParams().lmrDivisor, 110);
  EXPECT_EQ(lateMoveReduction(10, 20), engineReduction(10, 20, 0.4, 1.1));
  EXPECT_EQ(describeSearchParams()[3].rfind("lmr_divisor 110 (default 220)", 0), 0u);
  ASSERT_TRUE(setSearchParam("lmr_min_depth=64").ok());
  EXPECT_EQ(lateMoveReduction(63, 255), 0);
  resetSearchParams();
  EXPECT_EQ(lateMoveReduction(10, 20), engineReduction(10, 20, 0.4, 2.2));
}

TEST_F(SearchParamsTest, BadAssignmentsAreRefusedNamingTheProblem) {
  const auto message = [](const char* assignment) { return std::string(setSearchParam(assignment).message()); };
  EXPECT_EQ(message("lmr_divisor"), "search parameter 'lmr_divisor': expected NAME=VALUE");
  EXPECT_EQ(message("lmr=3"), "no search parameter 'lmr' (gobblet --params lists them)");
  EXPECT_EQ(message("lmr_divisor=0"), "lmr_divisor '0' is out of range [50, 1000]");
  EXPECT_EQ(message("lmr_divisor=2x"), "lmr_divisor '2x' is not an integer");
  EXPECT_EQ(message("lmr_divisor="), "lmr_divisor '' is not an integer");
  EXPECT_EQ(searchParams().lmrDivisor, 220);  // unchanged by every refusal
}

// Each value changes the bench's node count (so the search reads it), and
// the defaults written out give the signature back. smp_skip_cycle only
// matters with helper threads, which the bench has none of; contempt only
// where a line repeats, which the depth-5 bench never reaches
// (Search.ContemptMakesTheRootsRepetitionCostIt checks it); the tm_ values
// only under a clock (TimeBudget.SuddenDeathFollowsTheTimeParameters).
// The nodes of searches to depth 5 of six 4x4 positions of the bench, from
// the start to the middlegame, with 1 MiB of hash: a signature of the
// search's values at a fraction of the bench's cost (the test below takes
// 22, under the sanitizers too), which each value below still changes.
uint64_t nodesOfSomePositions() {
  static constexpr const char* kPositions[] = {"4/4/4/4 1",
                                               "X3/x3/4/X2x 1",
                                               "X2X/1[Lx]2/1x2/X2x 1",
                                               "XM2/x1L1/X[Lx]2/X2[Sx] 1",  // aspiration_max_delta reaches it
                                               "XlLx/2[Lx][Mx]/4/X[lX]2 2",
                                               "3X/L[mLx][Mx][Lx]/ls2/X2X 1"};  // aspiration_growth too
  Search search;
  SearchOptions options;
  options.hashMiB = 1;
  options.net = builtInNet();  // the engine's evaluation, as the bench's
  EXPECT_TRUE(search.setOptions(options).ok());
  uint64_t nodes = 0;
  for (const char* position : kPositions) {
    search.newGame();
    SearchLimits limits;
    limits.depth = 5;
    nodes += search.searchSync(Game(*parsePosition(Variant::gobblet(), position)), limits).info.nodes;
  }
  return nodes;
}

TEST_F(SearchParamsTest, EachValueReachesTheSearch) {
  const uint64_t signature = nodesOfSomePositions();
  for (const char* change :
       {"lmr_min_depth=64", "lmr_min_move=2", "lmr_base=-100", "lmr_divisor=100", "null_min_depth=64",
        "null_reduction=1", "null_depth_divisor=64", "aspiration_min_depth=2", "aspiration_delta=5",
        "aspiration_max_delta=20", "history_depth_factor=0", "history_max_bonus=10", "order_lines=0", "order_size=100",
        "order_gobble=0", "order_uncover=0", "order_largest_drop=500"}) {
    ASSERT_TRUE(setSearchParam(change).ok()) << change;
    EXPECT_NE(nodesOfSomePositions(), signature) << change;
    resetSearchParams();
  }
  // The growth only matters after a failed window: try it with a narrow one.
  ASSERT_TRUE(setSearchParam("aspiration_delta=5").ok());
  const uint64_t narrow = nodesOfSomePositions();
  ASSERT_TRUE(setSearchParam("aspiration_growth=200").ok());
  EXPECT_NE(nodesOfSomePositions(), narrow) << "aspiration_growth=200";
  resetSearchParams();
  for (const char* same : {"lmr_divisor=220", "null_min_depth=3", "aspiration_delta=25", "history_max_bonus=1200"})
    ASSERT_TRUE(setSearchParam(same).ok());
  EXPECT_EQ(nodesOfSomePositions(), signature);
}

TEST(SearchParamsCommandLine, EngineAndBenchTakeThem) {
  const auto listed = runCommand(kBin + "/gobblet --params");
  EXPECT_EQ(listed.exitCode, 0);
  EXPECT_NE(listed.output.find("null_min_depth 3 (default 3) [1, 64]"), std::string::npos) << listed.output;

  const auto bad = runCommand(kBin + "/gobblet --param lmr=3 2>&1");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.output.find("no search parameter 'lmr'"), std::string::npos) << bad.output;

  // The engine searches with the value: no null move changes its node
  // count. Standard input stays open until the bestmove is out (at its end
  // the engine would stop the search), or for a minute at most.
  const auto nodes = [](const std::string& flags) {
    const std::string out = ::testing::TempDir() + "search_params_engine.txt";
    const auto r =
        runCommand("rm -f " + out + "; { printf 'position startpos\\ngo depth 6\\n'; i=0; until grep -q bestmove " +
                   out + " 2>/dev/null || [ $i -ge 1200 ]; do sleep 0.05; i=$((i+1)); done; echo quit; } | " + kBin +
                   "/gobblet " + flags + " > " + out + "; grep -o ' nodes [0-9]*' " + out + " | tail -1");
    return r.output;
  };
  const std::string plain = nodes(""), noNull = nodes("--param null_min_depth=64");
  EXPECT_NE(plain.find(" nodes "), std::string::npos) << plain;
  EXPECT_NE(plain, noNull);
  EXPECT_EQ(plain, nodes("--param null_min_depth=3"));

  const auto bench = [](const std::string& flags) {
    return runCommand(kBin + "/gobblet-bench 4 --quiet " + flags + " | grep 'Nodes searched'").output;
  };
  EXPECT_NE(bench(""), bench("--param lmr_min_depth=64"));
  EXPECT_EQ(runCommand(kBin + "/gobblet-bench --param lmr_divisor=1 2>&1").exitCode, 2);
}

}  // namespace
}  // namespace gobblet
