// The evaluation breakdown (evaluateTerms, for the `eval` command) is
// computed directly from the squares, independently of the table-driven
// evaluate(): on many random positions of every variant its totals must
// equal evaluate() and evaluateForPlayer1() exactly, and every term must
// actually occur.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/evaluate.h"

namespace gobblet {
namespace {

class EvalTermsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(EvalTermsTest, TotalsEqualTheEvaluationExactly) {
  const Variant v = *Variant::parse(GetParam());
  std::mt19937_64 rng(2024);
  int positions = 0;
  int seen[5] = {};  // positions where each term is non-zero for some player
  while (positions < 3000) {
    Board b(v);
    const int plies = static_cast<int>(rng() % 50);
    for (int i = 0; i < plies && b.winner() == kNoWinner; ++i) {
      MoveList list;
      generateMoves(b, list);
      if (list.empty()) break;
      b.makeMove(list[static_cast<int>(rng() % list.size())]);
    }
    if (b.winner() != kNoWinner) continue;
    ++positions;
    const EvalTerms t = evaluateTerms(b);
    ASSERT_EQ(t.total, evaluate(b)) << positionToString(b);
    ASSERT_EQ(t.forPlayer1, evaluateForPlayer1(b)) << positionToString(b);
    const EvalTerm* terms[5] = {&t.visible, &t.inHand, &t.captives, &t.lines, &t.lineSafety};
    for (int k = 0; k < 5; ++k) seen[k] += terms[k]->player[0] != 0 || terms[k]->player[1] != 0;
  }
  // visible, in hand and lines occur in any variant; captives and line
  // safety need more than one size.
  EXPECT_GT(seen[0], 100);
  EXPECT_GT(seen[1], 100);
  EXPECT_GT(seen[3], 100);
  if (v.sizes > 1) {
    EXPECT_GT(seen[2], 10);
    EXPECT_GT(seen[4], 10);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, EvalTermsTest,
                         ::testing::Values("gobblet", "gobblers", "tictactoe", "3x3:2,3,1", "3x3:3,2,0"));

TEST(EvalTerms, StartPositionIsOnlyHandAndTempo) {
  const Board b(Variant::gobblet());
  const EvalTerms t = evaluateTerms(b);
  EXPECT_EQ(t.visible.player[0] + t.visible.player[1], 0);
  EXPECT_EQ(t.lines.player[0] + t.lines.player[1], 0);
  EXPECT_NE(t.inHand.player[0], 0);
  EXPECT_EQ(t.inHand.player[0], t.inHand.player[1]);
  EXPECT_EQ(t.total, t.tempo);
}

TEST(EvalTerms, CaptiveCountsForTheCaptor) {
  // Gobblers: player 2's small piece (s) on a1 under player 1's large L.
  const auto parsed = parsePosition(Variant::gobblers(), "3/3/[sL]2 2");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const Board& b = *parsed;
  const EvalTerms t = evaluateTerms(b);
  const int smallCaptive = kEvalWeightGroups[4].first + 2;  // kCaptive[rank 2]: gobblers' small piece
  ASSERT_EQ(std::string(kEvalWeightGroups[4].name), "kCaptive");
  EXPECT_EQ(evaluateFeatures(b).count[0][smallCaptive], 1);
  EXPECT_EQ(evaluateFeatures(b).count[1][smallCaptive], 0);
  EXPECT_EQ(t.captives.player[0], evalWeights()[smallCaptive]);
  EXPECT_EQ(t.captives.player[1], 0);
  EXPECT_EQ(t.total, evaluate(b));
}

}  // namespace
}  // namespace gobblet
