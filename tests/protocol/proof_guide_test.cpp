// The prover guided by the evaluation (protocol/proof_guide.h: the net's or
// the hand-written evaluation's chances, through the search's model): the
// same results as unguided against the minimax and the brute solver
// (tests/support/prover_checks.h), certificates checked, threads sharing
// the guide; and the guide's chances are the search's model's.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/game.h"
#include "engine/movegen.h"
#include "proof/guide.h"
#include "proof/prover.h"
#include "protocol/proof_guide.h"
#include "search/eval_file.h"
#include "search/tactics.h"
#include "search/wdl.h"
#include "tests/support/prover_checks.h"
#include "tests/support/sanitizers.h"

namespace gobblet::proof {
namespace {

using namespace checks;

const std::shared_ptr<const ProofGuide> kNetGuide = makeProofGuide(ProofGuideKind::kNet, Variant::gobblet());
const std::shared_ptr<const ProofGuide> kEvalGuide = makeProofGuide(ProofGuideKind::kEval, Variant::gobblet());

TEST(GuidedProver, AgreesWithMinimaxOnRandomGames) {
  agreeWithMinimaxOnRandomGames(kNetGuide.get(), 300, 600 / testing::kSanitizerStride);
  agreeWithMinimaxOnRandomGames(kEvalGuide.get(), 300, 300 / testing::kSanitizerStride);
}

// The wins in exactly 5 plies, guided: as long a certified strategy at least.
TEST(GuidedProver, WinsInFive) {
  for (const char* text : kWinsInFive)
    for (const ProofGuide* guide : {kNetGuide.get(), kEvalGuide.get()}) {
      ProverOptions options;
      options.guide = guide;
      const ProofResult r = proveChecked(position(text), options);
      EXPECT_EQ(r.outcome, Outcome::kWin) << text;
      EXPECT_GE(r.plies, 5) << text;
    }
}

// The 3x3 variants have no net: "net" is the hand-written evaluation there.
TEST(GuidedProver, AgreesWithTheBruteSolverWhenPiecesMove) {
  const std::shared_ptr<const ProofGuide> guide = makeProofGuide(ProofGuideKind::kNet, *Variant::parse("3x3:2,2,1"));
  ASSERT_NE(guide, nullptr);
  agreeWithTheBruteSolver(guide.get(), 120 / testing::kSanitizerStride);
}

// Guided, the same results, from threads sharing the guide too (under
// TSan, a guide that is not safe from several threads is a failure).
TEST(GuidedProver, TicTacToeDrawAndGobblersWinThreadsIncluded) {
  const std::shared_ptr<const ProofGuide> eval = makeProofGuide(ProofGuideKind::kEval, Variant::gobblers());
  expectTicTacToeDrawnAndGobblersWon(eval.get());
}

// The net guides 4x4 positions from several threads at once, to the same
// results as no guide.
TEST(GuidedProver, NetGuideWithTwoThreadsAgreesWithNoGuide) {
  for (const char* text : {"XM2/x1L1/X[Lx]2/X2[Sx] 1", "1x2/2SM/2l1/XL2 1", "xxl1/x3/l3/1XX1 1"}) {
    const Board b = position(text);
    const ProofResult plain = proveChecked(b);
    ProverOptions options;
    options.guide = kNetGuide.get();
    options.threads = 2;
    const ProofResult guided = proveChecked(b, options);
    EXPECT_NE(plain.outcome, Outcome::kUnknown) << text;
    EXPECT_EQ(guided.outcome, plain.outcome) << text;
  }
}

// The evaluation's guides answer, for each move, the position's chance of a
// win in the search's model (search/wdl.h positionChances(), for the side
// to move after the move; its loss for the other side).
TEST(GuidedProver, EvaluationChancesAreTheModels) {
  const Board b = position("1x2/2SM/2l1/XL2 1");
  MoveList moves;
  generateMoves(b, moves);
  std::vector<Move> quiet;  // (positionChances() counts a win in one as won: the guide is asked for no other)
  for (Move m : moves) {
    Board a = b;
    a.makeMove(m);
    if (a.winner() == kNoWinner && winningMove(a).isNone()) quiet.push_back(m);
  }
  ASSERT_GT(quiet.size(), 10u);
  using NetGuide = std::pair<std::shared_ptr<const ProofGuide>, std::shared_ptr<const nnue::Network>>;
  for (const auto& [guide, net] : {NetGuide{kNetGuide, builtInNet()}, NetGuide{kEvalGuide, nullptr}}) {
    ASSERT_NE(guide, nullptr);
    std::vector<double> forFirst(quiet.size(), -1), forSecond(quiet.size(), -1);
    guide->chances(b, quiet, 0, forFirst);
    guide->chances(b, quiet, 1, forSecond);
    for (size_t i = 0; i < quiet.size(); ++i) {
      Board a = b;
      a.makeMove(quiet[i]);
      const WinDrawLoss wdl = positionChances(Game(a), net.get());
      ASSERT_EQ(a.sideToMove(), 1);
      EXPECT_DOUBLE_EQ(forSecond[i], wdl.win / 1000.0) << quiet[i].raw();
      EXPECT_DOUBLE_EQ(forFirst[i], wdl.loss / 1000.0) << quiet[i].raw();
    }
  }
  EXPECT_EQ(makeProofGuide(ProofGuideKind::kNone, Variant::gobblet()), nullptr);
}

}  // namespace
}  // namespace gobblet::proof
