// The evaluation is the same for a position and its 8 symmetric images, and
// antisymmetric under swapping the players: the player-1 view of the colour
// swap is the exact negation, and the side-to-move view is unchanged.
#include <gtest/gtest.h>

#include <random>

#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/evaluate.h"

namespace gobblet {
namespace {

// Positions from random playouts of the variant (never decided ones).
std::vector<Board> randomPositions(const Variant& v, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Board> out;
  while (static_cast<int>(out.size()) < count) {
    Board b(v);
    const int plies = static_cast<int>(rng() % 30);
    for (int i = 0; i < plies; ++i) {
      MoveList list;
      generateMoves(b, list);
      if (list.empty()) break;
      b.makeMove(list[static_cast<int>(rng() % list.size())]);
    }
    if (b.winner() == kNoWinner) out.push_back(b);
  }
  return out;
}

class EvalSymmetry : public ::testing::TestWithParam<const char*> {};

TEST_P(EvalSymmetry, InvariantUnderTheEightSymmetries) {
  const Variant v = *Variant::parse(GetParam());
  int nonZero = 0;
  for (const Board& b : randomPositions(v, 400, 11)) {
    const int e = evaluate(b);
    nonZero += evaluateForPlayer1(b) != 0;
    for (int s = 0; s < 8; ++s) EXPECT_EQ(evaluate(b.transformed(s)), e) << positionToString(b) << " sym " << s;
  }
  EXPECT_GT(nonZero, 100);  // the evaluation is not trivially constant
}

TEST_P(EvalSymmetry, AntisymmetricUnderSwappingPlayers) {
  const Variant v = *Variant::parse(GetParam());
  for (const Board& b : randomPositions(v, 400, 12)) {
    const Board swapped = b.colorSwapped();
    EXPECT_EQ(evaluateForPlayer1(swapped), -evaluateForPlayer1(b)) << positionToString(b);
    EXPECT_EQ(evaluate(swapped), evaluate(b)) << positionToString(b);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, EvalSymmetry, ::testing::Values("gobblet", "gobblers", "tictactoe", "3x3:2,3,1"));

TEST(Eval, PrefersOwnThreatToOpponents) {
  // Player 1 shows three X on row 1 (d1 open); the mirror has them for player 2.
  const Board mine = *parsePosition(Variant::gobblet(), "4/4/1x2/XXX1 2");
  EXPECT_GT(evaluateForPlayer1(mine), 0);
  EXPECT_LT(evaluateForPlayer1(mine.colorSwapped()), 0);
}

}  // namespace
}  // namespace gobblet
