// Slow tablebase tests.
//
// The full Gobblet Gobblers tablebase, end to end through the tool: build
// (the contract: 341,024,631 states, start won in 13 plies by player 1),
// verify, then probe through the API. Several minutes of build and of
// verification on the shared 2-core machine (docs/tablebase.md has the
// figures); about 1 GB of memory and 40 MB of disk.
// Then a mid-size variant against brute force (about 2 minutes).
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "tablebase/retrograde.h"
#include "tablebase/file.h"
#include "tests/support/brute_solver.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet::tb {
namespace {

using testing::ScratchDir;

// Runs a command; returns its standard output and sets *status to its exit status.
std::string run(const std::string& command, int* status) {
  testing::CommandResult r = testing::runCommand(command);
  *status = r.exitCode;
  return std::move(r.output);
}

TEST(GobblersTablebase, BuildVerifyProbe) {
  const std::string tool = gobblet::testing::binDir() + "/gobblet-tb";
  const ScratchDir dir("gobblet_tb_slow");
  const std::string file = dir.file("gobblers.gtb");
  int status = 0;

  // 1. Build: the contract numbers come out of a fresh build.
  const std::string built = run(tool + " build gobblers --threads 2 --out " + file, &status);
  ASSERT_EQ(status, 0) << built;
  EXPECT_NE(built.find("states       341024631\n"), std::string::npos) << built;
  EXPECT_NE(built.find("start        win in 13\n"), std::string::npos) << built;

  // 2. Verify, independently of the builder.
  const std::string verified = run(tool + " verify --threads 2 " + file, &status);
  EXPECT_EQ(status, 0) << verified;

  // 3. Probe: the start, and along a game the values fall by one ply per
  // move for the winner's best move.
  auto tb = File::open(file);
  ASSERT_TRUE(tb.ok()) << tb.status();
  Board b(Variant::gobblers());
  Probe p = (*tb)->probe(b);
  EXPECT_EQ(p.value, Value::kWin);
  EXPECT_EQ(p.distance, 13);
  while (p.distance > 0) {
    MoveList moves;
    generateMoves(b, moves);
    ASSERT_FALSE(moves.empty()) << positionToString(b);
    bool stepped = false;
    for (Move m : moves) {
      b.makeMove(m);
      const Probe q = (*tb)->probe(b);
      const bool good = p.value == Value::kWin ? (q.value == Value::kLoss && q.distance == p.distance - 1)
                                               : (q.value == Value::kWin && q.distance == p.distance - 1);
      if (good) {
        p = q;
        stepped = true;
        break;
      }
      b.unmakeMove(m);
    }
    ASSERT_TRUE(stepped) << positionToString(b);
  }
  EXPECT_NE(b.winner(), kNoWinner);
  EXPECT_EQ(b.winner(), 0) << "player 1 wins the perfect game";
}

// A mid-size variant (5 million states, distances up to 19) state by state
// against the brute-force solver, and rebuilt several times on two threads:
// the parallel buckets once let a win through a fuller slice lose a race
// against a longer win claimed in the same bucket (1 run in ~7 here).
TEST(MidSizeTablebase, MatchesBruteForceOnEveryRun) {
  const Variant v = *Variant::parse("3x3:2,3,1");
  auto reference = solve(v, 1);
  ASSERT_TRUE(reference.ok());
  const testing::BruteSolver brute(v);
  const Index index(v);
  ASSERT_EQ(reference->stats.states, static_cast<uint64_t>(brute.states()));
  for (size_t i = 0; i < brute.boards().size(); ++i) {
    State st;
    ASSERT_TRUE(index.toState(brute.boards()[i], &st));
    const Probe p = probeOfCode(reference->codes[index.indexOf(st)]);
    const testing::BruteValue got{p.value == Value::kWin ? 1 : p.value == Value::kLoss ? -1 : 0, p.distance};
    ASSERT_EQ(got, brute.values()[i]) << positionToString(brute.boards()[i]);
  }
  for (int run = 0; run < 12; ++run) {
    auto again = solve(v, 2);
    ASSERT_TRUE(again.ok());
    ASSERT_TRUE(again->codes == reference->codes) << "run " << run;
  }
}

}  // namespace
}  // namespace gobblet::tb
