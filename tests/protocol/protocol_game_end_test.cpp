// `position ... moves` on a game that has ended: the moves after the end are
// refused (naming the move and why), like moves after a line, so that
// `query result` never judges a position played past the end.
#include <gtest/gtest.h>

#include <set>

#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "tests/support/engine_client.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

// Gobblers: the position after move 2 occurs a third time at move 10 (a
// draw); the three moves after it would give player 1 a diagonal.
TEST(ProtocolGameEnd, MovesAfterThreefoldRepetitionAreRefused) {
  EngineProcess e;
  e.send("setoption name Variant value gobblers");
  e.send("position startpos moves S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1 c2c3 M@b2 S@a3 L@c3");
  auto error = e.line();
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "info string error: position: ply 11 'M@b2': the game is already over (threefold repetition)");
  // A refused command leaves no position to answer for.
  e.send("query result");
  EXPECT_EQ(e.line(),
            "info string error: query: no position: the last 'position' was refused; send a valid one (position: "
            "ply 11 'M@b2': the game is already over (threefold repetition))");
  // The game up to its end is accepted and judged a draw.
  e.send("position startpos moves S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1 c2c3");
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw");
}

// After a refused `position` nothing answers for a position until a valid
// one arrives (keeping the previous game would give a controller that goes
// on with `go` a move for a position it never sent): `go` says so and gives `bestmove (none)` (for `go infinite` at
// the `stop`, as on a decided position), perft, query,
// moves, d and eval say so; a valid `position`, `uginewgame` or a new
// Variant gives the engine a position again.
TEST(ProtocolGameEnd, NothingAnswersForAPositionAfterARefusedOne) {
  EngineProcess e;
  e.send("position startpos moves X@a1");  // a legal game first: the old code searched this one
  e.send("position startpos moves X@a1 X@a1");
  const std::string refusal = "position: ply 2: illegal move: ";
  auto error = e.line();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("info string error: " + refusal, 0), 0u) << *error;
  const std::string noPosition = "no position: the last 'position' was refused; send a valid one (" + refusal;
  for (const char* command : {"go depth 3", "go infinite", "go movetime 50"}) {
    e.send(command);
    auto line = e.line();
    ASSERT_TRUE(line) << command;
    EXPECT_EQ(line->rfind("info string error: go: " + noPosition, 0), 0u) << command << ": " << *line;
    if (std::string(command) == "go infinite") {  // as on a decided position: the answer waits for stop
      EXPECT_FALSE(e.line(Ms(300))) << "go infinite answered before stop";
      e.send("stop");
    }
    EXPECT_EQ(e.line(), "bestmove (none)") << command;
  }
  for (const char* command : {"perft 2", "query fen", "moves", "d", "eval"}) {
    e.send(command);
    auto line = e.line();
    ASSERT_TRUE(line) << command;
    const std::string word = std::string(command).substr(0, std::string(command).find(' '));
    EXPECT_EQ(line->rfind("info string error: " + word + ": " + noPosition, 0), 0u) << command << ": " << *line;
  }
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");  // nothing else was written in between
  // A valid position ends it.
  e.send("position startpos moves X@a1");
  e.send("go depth 1");
  auto line = e.line();
  while (line && line->rfind("info ", 0) == 0) line = e.line();
  ASSERT_TRUE(line);
  EXPECT_EQ(line->rfind("bestmove ", 0), 0u);
  EXPECT_NE(*line, "bestmove (none)");
  // So do uginewgame and a new variant.
  e.send("position fen junk");
  ASSERT_TRUE(e.line());
  e.send("uginewgame");
  e.send("query result");
  EXPECT_EQ(e.line(), "response none");
  e.send("position fen junk");
  ASSERT_TRUE(e.line());
  e.send("setoption name Variant value gobblers");
  e.send("query result");
  EXPECT_EQ(e.line(), "response none");
}

TEST(ProtocolGameEnd, MovesAfterALineAreRefused) {
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("position startpos moves S@a1 S@a2 S@b1 S@b2 S@c1 S@c3");
  EXPECT_EQ(e.line(), "info string error: position: ply 6 'S@c3': the game is already over (a line of player 1)");
  e.send("position startpos moves S@b2 S@a1 S@c1 S@a3 S@a2 S@c2 S@b1 S@b3 S@c3");
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw");
}

// The words for how a game stands are the rules core's (resultWord,
// endReasonText), as `query result`, `query reason` and the `d` history line
// print them: one game ending each way, and one still running.
TEST(ProtocolGameEnd, ResultAndReasonWordsAreTheRulesCores) {
  struct Case {
    const char* variant;
    const char* moves;
    const char* result;  // the words as the protocol spells them
    const char* reason;
  };
  const Case cases[] = {
      {"tictactoe", "S@a1", "none", "none"},
      {"tictactoe", "S@a1 S@a2 S@b1 S@b2 S@c1", "p1win", "a line of player 1"},
      {"tictactoe", "S@a1 S@a2 S@b1 S@b2 S@c3 S@c2", "p2win", "a line of player 2"},
      {"tictactoe", "S@b2 S@a1 S@c1 S@a3 S@a2 S@c2 S@b1 S@b3 S@c3", "draw", "no legal move"},
      {"gobblers", "S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1 c2c3", "draw", "threefold repetition"},
  };
  EngineProcess e;
  std::set<EndReason> reasons;
  for (const Case& c : cases) {
    Game game{Board(*Variant::parse(c.variant))};
    const std::vector<std::string> moves = absl::StrSplit(c.moves, ' ');
    for (const std::string& move : moves) ASSERT_TRUE(game.play(std::string_view(move)).ok()) << move;
    EndReason reason;
    const GameResult result = game.result(&reason);
    reasons.insert(reason);
    EXPECT_EQ(resultWord(result), std::string(c.result)) << c.moves;
    EXPECT_EQ(endReasonText(reason, result), c.reason) << c.moves;

    e.send(std::string("setoption name Variant value ") + c.variant);
    e.send(std::string("position startpos moves ") + c.moves);
    e.send("query result");
    EXPECT_EQ(e.line(), std::string("response ") + resultWord(result)) << c.moves;
    e.send("query reason");
    EXPECT_EQ(e.line(), "response " + endReasonText(reason, result)) << c.moves;
    e.send("d");
    auto history = e.until("history ");
    ASSERT_TRUE(history) << c.moves;
    const std::string tail = std::string("result ") + resultWord(result) +
                             (reason == EndReason::kNone ? "" : " (" + endReasonText(reason, result) + ")");
    EXPECT_EQ(history->substr(history->size() - std::min(history->size(), tail.size())), tail) << *history;
  }
  EXPECT_EQ(reasons.size(), 4u) << "every EndReason once";
}

}  // namespace
}  // namespace gobblet
