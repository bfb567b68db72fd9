// Slow tests of the 4x4 family's tablebase: 4x4:2,2, the smallest member in
// which a line can show (four pieces a player; 21 million states), built
// and compared state by state with the independent brute-force solver
// (tests/support/brute_solver.h), and checked by the independent
// verifier; then by search: the engine's alpha-beta (the `gobblet` binary,
// which opens no 4x4 tablebase) on a sample of the table's positions.
// Several minutes on the shared 2-core machine and about 4 GB of memory
// (the brute-force solver's boards and children).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/notation.h"
#include "tablebase/code.h"
#include "tablebase/file.h"
#include "tablebase/index4.h"
#include "tablebase/retrograde4.h"
#include "tablebase/verify.h"
#include "tests/support/brute_solver.h"
#include "tests/support/engine_client.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::tb {
namespace {

TEST(Family4x4Tablebase, TwoSizesTwoStacksMatchesBruteForce) {
  const Variant v = Variant::family4x4(2, 2);
  auto solved = solve4(v, 2);
  ASSERT_TRUE(solved.ok()) << solved.status();
  const Index4 index(v);
  {
    const testing::BruteSolver brute(v);
    EXPECT_EQ(solved->stats.states, static_cast<uint64_t>(brute.states()));
    EXPECT_EQ(solved->stats.terminal, static_cast<uint64_t>(brute.decided()));
    EXPECT_EQ(solved->stats.wins, static_cast<uint64_t>(brute.wins()));
    EXPECT_EQ(solved->stats.draws, static_cast<uint64_t>(brute.draws()));
    EXPECT_EQ(solved->stats.losses, static_cast<uint64_t>(brute.losses()));
    for (size_t i = 0; i < brute.boards().size(); ++i) {
      const Board& b = brute.boards()[i];
      const Probe p = probeOfCode(solved->codes[index.numberOf(b)]);
      const testing::BruteValue got{p.value == Value::kWin ? 1 : p.value == Value::kLoss ? -1 : 0, p.distance};
      ASSERT_EQ(got, brute.values()[i]) << positionToString(b);
    }
  }
  const testing::ScratchDir dir("gobblet_tb4_slow");
  ASSERT_TRUE(writeFile(dir.file("m.gtb"), v, *solved, 2).ok());
  auto tb = File::open(dir.file("m.gtb"));
  ASSERT_TRUE(tb.ok()) << tb.status();
  EXPECT_TRUE(verify(**tb, 2).ok());

  // By search: positions won in 1 are "score mate 1" at depth 3; drawn
  // positions show no mate score at depth 5 (a forced win or loss within 5
  // plies would contradict the table).
  std::mt19937_64 rng(38);
  std::vector<std::string> wins, draws;
  while (wins.size() < 40 || draws.size() < 40) {
    const uint64_t x = rng() % solved->codes.size();
    const uint8_t code = solved->codes[x];
    const int slice = index.sliceOfIndex(x);
    State4 st;
    if (code == kNoState || !index.stateAt(slice, x - index.slices()[slice].offset, &st)) continue;
    const std::string fen = positionToString(index.toBoard(st));
    if (code == winCode(1) && wins.size() < 40) wins.push_back(fen);
    if (code == kDrawCode && draws.size() < 40) draws.push_back(fen);
  }
  testing::EngineProcess engine;
  ASSERT_TRUE(engine.started());
  engine.send("setoption name Variant value " + v.name());
  auto score = [&](const std::string& fen, int depth) {
    engine.send("position fen " + fen);
    engine.send("go depth " + std::to_string(depth));
    std::vector<std::string> seen;
    EXPECT_TRUE(engine.until("bestmove", testing::Ms(60000), &seen)) << fen;
    std::string last;
    for (const std::string& l : seen)
      if (l.find(" score ") != std::string::npos) last = l.substr(l.find(" score ") + 7);
    return last.substr(0, last.find(' ', last.find(' ') + 1));  // "mate 1", "cp 12"
  };
  for (const std::string& fen : wins) EXPECT_EQ(score(fen, 3), "mate 1") << fen;
  for (const std::string& fen : draws) EXPECT_EQ(score(fen, 5).rfind("mate", 0), std::string::npos) << fen;
}

}  // namespace
}  // namespace gobblet::tb
