// The moves that give the opponent no line in one (engine/safe_moves.h):
// a threat must be blocked, a lift that uncovers the opponent's line gives
// it away, a move that wins at once is safe, and a double threat leaves
// nothing safe. The board is left as it was.
#include <gtest/gtest.h>

#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/safe_moves.h"
#include "tests/support/position_text.h"

namespace gobblet {
namespace {

Move parsed(const Board& board, const std::string& text) {
  auto m = parseMove(board, text);
  EXPECT_TRUE(m.ok()) << text << ": " << m.status();
  return m.ok() ? *m : Move::none();
}

TEST(SafeMoves, AThreatMustBeBlocked) {
  // Player 2's three ungobblable pieces on rank 1: only d1 keeps the line shut.
  Board board = testing::parseOrFail(Variant::gobblet(), "4/4/XX2/xxx1 1");
  const std::string before = positionToString(board);
  MoveList all, safe;
  generateMoves(board, all);
  safeMoves(board, safe);
  ASSERT_FALSE(safe.empty());
  for (Move m : safe) EXPECT_EQ(moveToString(m, board.variant()).substr(2), "d1") << moveToString(m, board.variant());
  int elsewhere = 0;
  for (Move m : all) {
    if (moveToString(m, board.variant()).substr(2) == "d1") continue;
    ++elsewhere;
    EXPECT_TRUE(givesAwayLine(board, m)) << moveToString(m, board.variant());
  }
  EXPECT_GT(elsewhere, 10);
  EXPECT_EQ(positionToString(board), before);
}

TEST(SafeMoves, ALiftThatUncoversTheOpponentsLineGivesItAway) {
  // Player 1's L on c1 covers player 2's s, the third of its line m m s.
  Board board = testing::parseOrFail(Variant::gobblers(), "3/3/mm[sL] 1");
  EXPECT_TRUE(givesAwayLine(board, parsed(board, "c1b2")));
  EXPECT_TRUE(givesAwayLine(board, parsed(board, "c1a3")));
  // Gobbling b1's m breaks the line again as it is uncovered.
  EXPECT_FALSE(givesAwayLine(board, parsed(board, "c1b1")));
  EXPECT_FALSE(givesAwayLine(board, parsed(board, "S@b2")));
}

TEST(SafeMoves, AMoveThatWinsAtOnceIsSafe) {
  Board board = testing::parseOrFail(Variant::gobblers(), "3/3/LL1 1");
  const Move win = parsed(board, "S@c1");
  EXPECT_TRUE(winsAtOnce(board, win));
  EXPECT_FALSE(givesAwayLine(board, win));
  EXPECT_FALSE(winsAtOnce(board, parsed(board, "S@b2")));
}

TEST(SafeMoves, ADoubleThreatLeavesNothingSafe) {
  // Player 2 threatens b2 (rank 2) and a3 (file a); player 1 has no piece on
  // the board to move and no placement blocks both.
  Board board = testing::parseOrFail(Variant::gobblers(), "3/l1l/m2 1");
  MoveList all, safe;
  generateMoves(board, all);
  safeMoves(board, safe);
  EXPECT_FALSE(all.empty());
  EXPECT_TRUE(safe.empty());
}

}  // namespace
}  // namespace gobblet
