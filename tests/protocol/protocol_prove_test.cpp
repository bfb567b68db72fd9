// `go prove`: the prover through the protocol (docs/protocol.md). A proved
// win names a move that the rules then confirm; a proof never claims a win
// shorter than the true distance; a stop ends it with "unknown" and no
// move; limits that do not apply, a decided position and a busy engine are
// refused with a clear error.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "tests/support/engine_client.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

// The word after `key` in `line`, as a number (-1: none).
int64_t numberAfter(const std::string& line, const std::string& key) {
  const std::vector<std::string> words = absl::StrSplit(line, ' ');
  for (size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == key) {
      int64_t value = -1;
      return absl::SimpleAtoi(words[i + 1], &value) ? value : -1;
    }
  return -1;
}

// Player 1 has X on a1, b1, c1 and an L on top of a reserve stack: L@d1 makes the line.
constexpr const char* kWinInOne = "position startpos moves X@a1 X@a4 X@b1 X@b4 X@c1 X@c4";

TEST(ProtocolProve, AWinInOneIsProvedAndItsMoveEndsTheGame) {
  EngineProcess e;
  e.send(kWinInOne);
  e.send("go prove nodes 100000");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  const std::string& answer = seen[seen.size() - 3];
  const std::string& score = seen[seen.size() - 2];
  EXPECT_EQ(answer.rfind("info string proof win plies 1 nodes ", 0), 0u) << answer;
  EXPECT_EQ(score.rfind("info score mate 1 nodes ", 0), 0u) << score;
  const std::string move = best->substr(9);
  EXPECT_EQ(score.substr(score.size() - move.size() - 4), " pv " + move) << score;
  // The rules agree: the move ends the game, won by player 1.
  e.send(std::string(kWinInOne) + " " + move);
  e.send("query result");
  EXPECT_EQ(e.line(), "response p1win") << "after " << move;
}

TEST(ProtocolProve, GobblersStartIsAWinNoShorterThanTheTruth) {
  EngineProcess e;
  e.send("setoption name Variant value gobblers");
  e.send("position startpos");
  e.send("moves");
  const auto legal = e.until("moves ", Ms(10000));
  ASSERT_TRUE(legal);
  e.send("go prove nodes 2000000");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(120000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  const std::string& answer = seen[seen.size() - 3];
  ASSERT_EQ(answer.rfind("info string proof win plies ", 0), 0u) << answer;
  // The tablebase: player 1 wins in 13 plies, no fewer; a strategy's longest game is at least that.
  const int64_t plies = numberAfter(answer, "plies");
  EXPECT_GE(plies, 13) << answer;
  EXPECT_EQ(plies % 2, 1) << "a win ends on the winner's move: " << answer;
  EXPECT_GT(numberAfter(answer, "certificate"), 0) << answer;
  EXPECT_EQ(numberAfter(seen[seen.size() - 2], "mate"), plies) << seen[seen.size() - 2];  // (plies, as the search's)
  const std::string move = best->substr(9);
  EXPECT_NE((" " + *legal + " ").find(" " + move + " "), std::string::npos) << move << " is not in " << *legal;
}

TEST(ProtocolProve, AStopEndsTheProofWithUnknownAndNoMove) {
  EngineProcess e;
  e.send("position startpos");
  e.send("go prove");
  e.send("isready");
  ASSERT_EQ(e.line(), "readyok");
  e.send("stop");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove after stop";
  EXPECT_EQ(*best, "bestmove (none)");
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen[seen.size() - 2].rfind("info string proof unknown nodes ", 0), 0u) << seen[seen.size() - 2];
}

TEST(ProtocolProve, WhatCannotBeProvedIsRefusedWithTheReason) {
  EngineProcess e;
  e.send("position startpos");
  e.send("go prove depth 3");
  EXPECT_EQ(e.line(), "info string error: go prove: 'depth' does not apply (movetime, nodes or infinite do)");
  e.send("go prove ponder");
  EXPECT_EQ(e.line(), "info string error: go prove: 'ponder' does not apply (movetime, nodes or infinite do)");
  // A decided position: player 1's line is made.
  e.send(std::string(kWinInOne) + " L@d1");
  e.send("go prove nodes 1000");
  EXPECT_EQ(e.line(), "info string error: go prove: the game is over");
  // A search runs: the prover waits for a stop.
  e.send("position startpos");
  e.send("go infinite");
  e.send("go prove nodes 1000");
  const auto busy = e.until("info string error: go prove", Ms(10000));
  ASSERT_TRUE(busy);
  EXPECT_NE(busy->find("send stop first"), std::string::npos) << *busy;
  e.send("stop");
  EXPECT_TRUE(e.until("bestmove ", Ms(10000)));
  e.send("isready");
  EXPECT_TRUE(e.until("readyok", Ms(10000)));
}

}  // namespace
}  // namespace gobblet
