// `position ... moves` on a game that has ended: the moves after the end are
// refused (naming the move and why), like moves after a line, so that
// `query result` never judges a position played past the end.
#include <gtest/gtest.h>

#include "protocol_test_support.h"

namespace gobblet {
namespace {

using testing::EngineProcess;

// Gobblers: the position after move 2 occurs a third time at move 10 (a
// draw); the three moves after it would give player 1 a diagonal.
TEST(ProtocolGameEnd, MovesAfterThreefoldRepetitionAreRefused) {
  EngineProcess e;
  e.send("setoption name Variant value gobblers");
  e.send("position startpos moves S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1 c2c3 M@b2 S@a3 L@c3");
  auto error = e.line();
  ASSERT_TRUE(error);
  EXPECT_EQ(*error,
            "info string error: position: move 11 'M@b2': the game is already over (threefold repetition)");
  // The refused command changes nothing: the game is still at the start.
  e.send("query result");
  EXPECT_EQ(e.line(), "response none");
  // The game up to its end is accepted and judged a draw.
  e.send("position startpos moves S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1 c2c3");
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw");
}

TEST(ProtocolGameEnd, MovesAfterALineAreRefused) {
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("position startpos moves S@a1 S@a2 S@b1 S@b2 S@c1 S@c3");
  EXPECT_EQ(e.line(), "info string error: position: move 6 'S@c3': the game is already over (a line of player 1)");
  e.send("position startpos moves S@b2 S@a1 S@c1 S@a3 S@a2 S@c2 S@b1 S@b3 S@c3");
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw");
}

}  // namespace
}  // namespace gobblet
