// Iterative deepening stops once an iteration is exact (no score in it
// depended on the horizon): in the 3x3 variants without board moves the
// game ends within the pieces in hand, so a timed search stops at most one
// iteration past that instead of running to the depth cap. What is played
// does not suffer: on sampled positions the score and the move are checked
// against an independent brute-force solver.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/search.h"
#include "tests/support/brute_solver.h"

namespace gobblet {
namespace {

int piecesInHand(const Board& b) {
  int n = 0;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < b.variant().sizes; ++s) n += b.inHand(p, s);
  return n;
}

class ExactStop : public ::testing::TestWithParam<const char*> {};

TEST_P(ExactStop, TimedSearchStopsWhenSolvedAndPlaysPerfectly) {
  const Variant v = *Variant::parse(GetParam());
  ASSERT_FALSE(v.moving);
  const testing::BruteSolver solver(v);
  std::vector<size_t> order(solver.boards().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(5));

  Search search;
  SearchLimits limits;
  limits.moveTime = 600000;  // never reached: only exactness (or a lone move) ends the search
  int checked = 0, draws = 0, wins = 0, losses = 0;
  for (size_t i : order) {
    if (checked == 100) break;
    const Board& b = solver.boards()[i];
    MoveList list;
    generateMoves(b, list);
    if (b.winner() != kNoWinner || list.size() < 2) continue;
    ++checked;
    const testing::BruteValue value = solver.values()[i];
    search.newGame();
    int iterations = 0;
    const auto r = search.searchSync(Game(b), limits, [&](const SearchInfo& info) { iterations += !info.isFinal; });
    const std::string where = positionToString(b);
    // One iteration past the last possible placement at most (the mate
    // rule may stop a win or loss earlier).
    EXPECT_LE(r.info.depth, piecesInHand(b) + 1) << where;
    EXPECT_EQ(iterations, r.info.depth) << where;
    // The score is the game's value.
    if (value.value == 0) {
      ++draws;
      EXPECT_FALSE(r.info.score.isMate) << where;
      EXPECT_EQ(r.info.score.value, 0) << where;
    } else {
      ++(value.value > 0 ? wins : losses);
      ASSERT_TRUE(r.info.score.isMate) << where;
      EXPECT_EQ(r.info.score.value, value.value * value.distance) << where;
    }
    // The move keeps the value: a draw stays a draw, a win is shortest, a
    // loss is longest.
    Board after = b;
    after.makeMove(r.best);
    if (after.winner() != kNoWinner) {
      EXPECT_EQ(value, (testing::BruteValue{1, 1})) << where;
      continue;
    }
    bool found = false;
    const testing::BruteValue child = solver.value(after, &found);
    ASSERT_TRUE(found) << where;
    EXPECT_EQ(child.value, -value.value) << where << " " << moveToString(r.best, v);
    if (value.value != 0) {
      EXPECT_EQ(child.distance, value.distance - 1) << where << " " << moveToString(r.best, v);
    }
  }
  EXPECT_EQ(checked, 100);
  // Every kind of value was seen.
  EXPECT_GT(draws, 0);
  EXPECT_GT(wins, 0);
  EXPECT_GT(losses, 0);
}

INSTANTIATE_TEST_SUITE_P(NoBoardMoves, ExactStop, ::testing::Values("tictactoe", "3x3:2,2,0", "3x3:3,1,0"));

// From the start of tic-tac-toe (a draw) the search used to iterate to its
// depth cap, 100 iterations, whatever the time.
TEST(ExactStop, TicTacToeStartStopsAfterTheGameLength) {
  Search search;
  SearchLimits limits;
  limits.moveTime = 600000;
  int iterations = 0;
  const auto r = search.searchSync(Game(Board(Variant::ticTacToe())), limits,
                                   [&](const SearchInfo& info) { iterations += !info.isFinal; });
  EXPECT_LE(iterations, 11);  // ten pieces in hand, plus one
  EXPECT_EQ(r.info.score.value, 0);
  EXPECT_FALSE(r.info.score.isMate);
}

// An explicit depth is still searched to the end, exact or not.
TEST(ExactStop, ExplicitDepthIsHonoured) {
  Search search;
  SearchLimits limits;
  limits.depth = 20;
  const auto r = search.searchSync(Game(Board(Variant::ticTacToe())), limits);
  EXPECT_EQ(r.info.depth, 20);
}

}  // namespace
}  // namespace gobblet
