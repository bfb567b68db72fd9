// The prover against plain exhaustive searches: wins in 1, 3 and 5 plies and
// losses in 2 on 4x4 (a minimax to that depth, tests/support/
// prover_checks.h), every position of a small 3x3 variant with moving pieces
// against the brute solver (repetitions included), the draws of
// tic-tac-toe, budgets, threads; and the same under a guide of extreme or
// garbage values, which must change nothing proved. (Guided by the
// evaluation: tests/protocol/proof_guide_test.cpp, where the guide is made.)
#include <gtest/gtest.h>

#include <atomic>
#include <limits>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/guide.h"
#include "proof/proof_table.h"
#include "proof/prover.h"
#include "tests/support/peak_memory.h"
#include "tests/support/prover_checks.h"
#include "tests/support/sanitizers.h"

namespace gobblet::proof {
namespace {

using namespace checks;

// A table of 2 GiB costs nothing up front: its pages come as stores write
// them (a stopped proof answers at once); one the process cannot have
// (beyond any address space) is an error, not an exception.
TEST(ProofTable, TakingATableCostsNothingUpFront) {
  resetPeakResident();
  const uint64_t before = peakResidentBytes();
  auto table = ProofTable::create(2048);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->entries(), (size_t{2048} << 20) / 32);
  EXPECT_LT(peakResidentBytes() - before, uint64_t{64} << 20) << "bytes: the table was filled";
  ProofValue v;
  const Board start(Variant::gobblet());
  EXPECT_FALSE((*table)->lookup(start, 0, &v));
  (*table)->store(start, 0, ProofValue{0, kInfinity, 3, false}, 7);
  ASSERT_TRUE((*table)->lookup(start, 0, &v));
  EXPECT_TRUE(v.proved());
  EXPECT_EQ(v.dist, 3);
  auto huge = ProofTable::create(size_t{1} << 29);  // 512 TiB
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(Prover, WinInOne) {
  const Board b = position("xl2/1m2/4/XXX1 1");
  ASSERT_TRUE(winsWithin(b, 1));
  const ProofResult r = proveChecked(b);
  EXPECT_EQ(r.outcome, Outcome::kWin);
  EXPECT_EQ(r.plies, 1);
}

// Player 2 threatens rank 4 (d4) and file a (a1) with pieces player 1
// cannot gobble from a stack on both lines at once: player 1 loses in 2.
TEST(Prover, LossInTwo) {
  const Board b = position("xxl1/x3/l3/1XX1 1");
  ASSERT_FALSE(winsWithin(b, 1));
  ASSERT_TRUE(losesWithin(b, 2));
  const ProofResult r = proveChecked(b);
  EXPECT_EQ(r.outcome, Outcome::kLoss);
  EXPECT_EQ(r.plies, 2);
}

TEST(Prover, AlreadyOverIsAnError) { EXPECT_FALSE(prove(position("4/4/4/XXXL 2")).ok()); }

TEST(Prover, AgreesWithMinimaxOnRandomGames) { agreeWithMinimaxOnRandomGames(nullptr, 300, 1500); }

TEST(GuidedProver, AGarbageGuideAgreesWithMinimaxOnRandomGames) {
  const GarbageGuide garbage;
  agreeWithMinimaxOnRandomGames(&garbage, 300, 300 / testing::kSanitizerStride);
}

// Wins in exactly 5 plies (no win in 3), found in seeded random games;
// listed so that the slow minimax runs only where it finds the win. Under
// the garbage guide, the same wins with as long a certified strategy at least.
TEST(Prover, WinsInFive) {
  const GarbageGuide garbage;
  for (const char* text : kWinsInFive) {
    const Board b = position(text);
    ASSERT_FALSE(winsWithin(b, 3)) << text;
    ASSERT_TRUE(winsWithin(b, 5)) << text;
    for (const ProofGuide* guide :
         {static_cast<const ProofGuide*>(nullptr), static_cast<const ProofGuide*>(&garbage)}) {
      ProverOptions options;
      options.guide = guide;
      const ProofResult r = proveChecked(b, options);
      EXPECT_EQ(r.outcome, Outcome::kWin) << text;
      EXPECT_GE(r.plies, 5) << text;
    }
  }
}

TEST(Prover, AgreesWithTheBruteSolverWhenPiecesMove) { agreeWithTheBruteSolver(nullptr, 200); }

TEST(GuidedProver, AGarbageGuideAgreesWithTheBruteSolverWhenPiecesMove) {
  const GarbageGuide garbage;
  agreeWithTheBruteSolver(&garbage, 120 / testing::kSanitizerStride);
}

TEST(Prover, TicTacToeIsADrawNeverAWin) {
  const ProofResult r = proveChecked(Board(Variant::ticTacToe()));
  EXPECT_EQ(r.outcome, Outcome::kDraw);
}

TEST(Prover, GobbletGobblersIsAFirstPlayerWin) {
  const ProofResult r = proveChecked(Board(Variant::gobblers()));
  EXPECT_EQ(r.outcome, Outcome::kWin);
  EXPECT_GE(r.plies, 13);  // the first player's fastest forced win takes 13 plies
}

TEST(Prover, TwoThreadsProveTheSame) {
  ProverOptions options;
  options.threads = 2;
  const ProofResult r = proveChecked(Board(Variant::gobblers()), options);
  EXPECT_EQ(r.outcome, Outcome::kWin);
}

// Under the garbage guide the same results, from threads sharing the
// guide too.
TEST(GuidedProver, AGarbageGuideKeepsTicTacToeDrawnAndGobblersWon) {
  const GarbageGuide garbage;
  expectTicTacToeDrawnAndGobblersWon(&garbage);
}

// A guide's answer made a chance: clamped to [0, 1], not a number is 1/2.
TEST(GuidedProver, GuideChanceClamps) {
  EXPECT_EQ(guideChance(std::numeric_limits<double>::quiet_NaN()), 0.5);
  EXPECT_EQ(guideChance(std::numeric_limits<double>::infinity()), 1.0);
  EXPECT_EQ(guideChance(-std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_EQ(guideChance(1e300), 1.0);
  EXPECT_EQ(guideChance(-5), 0.0);
  EXPECT_EQ(guideChance(0.25), 0.25);
}

TEST(Prover, TinyBudgetIsUnknown) {
  ProverOptions options;
  options.maxNodes = 100;
  const ProofResult r = proveChecked(Board(), options);
  EXPECT_EQ(r.outcome, Outcome::kUnknown);
  EXPECT_LT(r.nodes, 1000u);
}

// A node limit is kept to the node (one thread), not to the next batch.
TEST(Prover, ANodeLimitIsKept) {
  for (uint64_t limit : {1, 10, 65, 100}) {
    ProverOptions options;
    options.maxNodes = limit;
    const ProofResult r = proveChecked(Board(), options);
    EXPECT_EQ(r.outcome, Outcome::kUnknown);
    EXPECT_LE(r.nodes, limit);
    EXPECT_GE(r.nodes, limit - 1) << "the prover stops at the limit, not before";
  }
}

TEST(Prover, StopFlagStops) {
  std::atomic<bool> stop{true};
  ProverOptions options;
  options.stop = &stop;
  const ProofResult r = proveChecked(Board(), options);
  EXPECT_EQ(r.outcome, Outcome::kUnknown);
}

}  // namespace
}  // namespace gobblet::proof
