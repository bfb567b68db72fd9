// Slow tests of the 4x4 family's tablebase: a member built and compared
// state by state with the independent brute-force solver
// (tests/support/brute_solver.h), and checked by the independent verifier.
//
// In the test command: 4x4:3,1 (1,982,833 states, every one a draw; a
// minute or two). Run by hand (docs/tablebase.md), each also checked by
// search (the engine's alpha-beta on a sample of won and drawn positions):
// 4x4:2,2, the smallest member in which a line can show (21 million
// states; the brute-force solver takes 42 minutes and 6.2 GB on the loaded
// 2-core machine), and the members too large for it, 4x4:4,1 and (a file
// built and verified by gobblet-tb) 4x4:2,3:
//   family4x4_slowtest --gtest_also_run_disabled_tests --gtest_filter='*TwoSizesTwoStacks*'
//   family4x4_slowtest --gtest_also_run_disabled_tests --gtest_filter='*FourSizesOneStack*'
//   GOBBLET_TB4_FILE=4x4-2-3.gtb family4x4_slowtest --gtest_filter='*GivenFile*'
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
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
#include "tests/support/shell_command.h"
#include "tests/support/thread_share.h"

namespace gobblet::tb {
namespace {

// Builds `v`, compares every state with the brute-force solver and runs the
// verifier on the written file; returns the solution.
Solution buildAndCompare(const Variant& v) {
  auto solved = solve4(v, 2);
  EXPECT_TRUE(solved.ok()) << solved.status();
  if (!solved.ok()) return {};
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
      EXPECT_EQ(got, brute.values()[i]) << positionToString(b);
      if (got != brute.values()[i]) break;
    }
  }
  const testing::ScratchDir dir("gobblet_tb4_slow");
  EXPECT_TRUE(writeFile(dir.file("m.gtb"), v, *solved, 2).ok());
  auto tb = File::open(dir.file("m.gtb"));
  EXPECT_TRUE(tb.ok()) << tb.status();
  if (tb.ok()) {
    EXPECT_TRUE(verify(**tb, 2).ok());
  }
  return std::move(*solved);
}

TEST(Family4x4Tablebase, ThreeSizesOneStackMatchesBruteForce) {
  const Solution solved = buildAndCompare(Variant::family4x4(3, 1));
  EXPECT_EQ(solved.stats.states, 1'982'833u);
  EXPECT_EQ(solved.stats.wins + solved.stats.losses, 0u);  // three pieces a player: no line
}

// By search: the engine's alpha-beta (which opens no 4x4 tablebase) on 40
// random positions the table says are won in 1 answers "score mate 1" at
// depth 3, and on 40 it says are drawn shows no mate score at depth 5 (a
// forced win or loss within 5 plies would contradict the table); where the
// member has them (among 20 million numbers drawn), on up to 20 won in 3
// plies "mate 3" at depth 5 and on up to 20 lost in 2 "mate -2" at depth 4
// (mate scores count plies).
void expectSearchAgrees(const Variant& v, const CodeArray& codes) {
  const Index4 index(v);
  std::mt19937_64 rng(38);
  std::vector<std::string> wins, draws, winsIn3, lossesIn2;
  for (int tries = 0;
       tries < 20'000'000 && (wins.size() < 40 || draws.size() < 40 || winsIn3.size() < 20 || lossesIn2.size() < 20);
       ++tries) {
    const uint64_t x = rng() % codes.size();
    const uint8_t code = codes[x];
    if (code == kNoState) continue;
    std::vector<std::string>* into = code == winCode(1)    ? &wins
                                     : code == kDrawCode   ? &draws
                                     : code == winCode(3)  ? &winsIn3
                                     : code == lossCode(2) ? &lossesIn2
                                                           : nullptr;
    if (into == nullptr || into->size() >= (into == &wins || into == &draws ? 40u : 20u)) continue;
    const int slice = index.sliceOfIndex(x);
    State4 st;
    if (!index.stateAt(slice, x - index.slices()[slice].offset, &st)) continue;
    into->push_back(positionToString(index.toBoard(st)));
  }
  ASSERT_EQ(wins.size(), 40u);
  ASSERT_EQ(draws.size(), 40u);
  std::printf("search check of %s: 40 won in 1, 40 drawn, %zu won in 3, %zu lost in 2\n", v.name().c_str(),
              winsIn3.size(), lossesIn2.size());
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
  for (const std::string& fen : winsIn3) EXPECT_EQ(score(fen, 5), "mate 3") << fen;
  for (const std::string& fen : lossesIn2) EXPECT_EQ(score(fen, 4), "mate -2") << fen;
}

// Builds `v`, writes and verifies its file, and asks the search.
Solution buildVerifyAndSearch(const Variant& v) {
  auto solved = solve4(v, 2);
  EXPECT_TRUE(solved.ok()) << solved.status();
  if (!solved.ok()) return {};
  const testing::ScratchDir dir("gobblet_tb4_slow");
  EXPECT_TRUE(writeFile(dir.file("m.gtb"), v, *solved, 2).ok());
  auto tb = File::open(dir.file("m.gtb"));
  EXPECT_TRUE(tb.ok()) << tb.status();
  if (tb.ok()) {
    const absl::Status verified = verify(**tb, 2);
    EXPECT_TRUE(verified.ok()) << verified;
  }
  expectSearchAgrees(v, solved->codes);
  return std::move(*solved);
}

// 4x4:2,2 (wins and losses, so the ranks tell each other's parents too)
// built over three ranks (threads of this test, BuildShare4x4 in
// build_share_test for the small members): each rank holds its range, and
// the file the ranks write is byte for byte the one-process file.
TEST(Family4x4Tablebase, TwoSizesTwoStacksOverThreeRanksWritesTheSameFile) {
  const Variant v = Variant::family4x4(2, 2);
  const testing::ScratchDir dir("gobblet_tb4_ranks");
  auto one = solve4(v, 2);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(writeFile(dir.file("one.gtb"), v, *one, 2).ok());
  const auto parts = build4OnRanks(v, 3, dir.file("three.gtb"));
  for (int r = 0; r < 3; ++r) {
    ASSERT_TRUE(parts[r].ok()) << parts[r].status();
    EXPECT_EQ(parts[r]->stats.wins, 2'389'476u);
    EXPECT_EQ(parts[r]->stats.losses, 53'984u);
    EXPECT_LT(parts[r]->codes.size(), one->codes.size() / 3 + RankRanges::kUnit);
  }
  EXPECT_EQ(testing::runCommand("cmp " + dir.file("one.gtb") + " " + dir.file("three.gtb")).exitCode, 0);
  // The file's merged symbols (code.h) decode to the codes, on 4x4 states.
  auto file = File::open(dir.file("three.gtb"));
  ASSERT_TRUE(file.ok()) << file.status();
  const absl::StatusOr<CodeArray> decoded = (*file)->decodeAll({}, 2);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE(*decoded == one->codes);
  for (uint64_t x = 0; x < one->codes.size(); x += 97) ASSERT_EQ((*file)->codeAt(x), one->codes[x]) << x;
}

TEST(Family4x4Tablebase, DISABLED_TwoSizesTwoStacksMatchesBruteForceAndSearch) {
  const Variant v = Variant::family4x4(2, 2);
  const Solution solved = buildAndCompare(v);
  ASSERT_EQ(solved.stats.states, 21'080'212u);
  expectSearchAgrees(v, solved.codes);
}

// One stack of the four sizes (476 million states; 4 minutes and 1.1 GiB
// idle): no brute force at that size, the verifier and the search.
TEST(Family4x4Tablebase, DISABLED_FourSizesOneStackVerifiedAndSearched) {
  const Solution solved = buildVerifyAndSearch(Variant::family4x4(4, 1));
  EXPECT_EQ(solved.stats.states, 475'941'169u);
  EXPECT_EQ(solved.stats.start, kDrawCode);
}

// The search's check of a file built and verified by gobblet-tb (4x4:2,3:
// 6.3 billion states, about an hour to build and 14 GiB; its codes decoded
// take 6.4 GB here): GOBBLET_TB4_FILE=4x4-2-3.gtb family4x4_slowtest
// --gtest_filter='*GivenFile*'.
TEST(Family4x4Tablebase, GivenFileAgreesWithSearch) {
  const char* path = std::getenv("GOBBLET_TB4_FILE");
  if (path == nullptr) GTEST_SKIP() << "set GOBBLET_TB4_FILE to a 4x4 member's file";
  auto tb = File::open(path);
  ASSERT_TRUE(tb.ok()) << tb.status();
  ASSERT_EQ((*tb)->variant().n, 4) << path;
  const absl::StatusOr<CodeArray> codes = (*tb)->decodeAll();
  ASSERT_TRUE(codes.ok()) << codes.status();
  expectSearchAgrees((*tb)->variant(), *codes);
}

}  // namespace
}  // namespace gobblet::tb
