// UCI_ShowWDL and `query wdl` over the protocol: the handshake offers the
// option; with it on, every info line carries `wdl W D L` right after the
// score (W + D + L = 1000, a win found 1000 0 0); off, none does; `query
// wdl` answers the position's chances without a search.
#include <gtest/gtest.h>

#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "search/skill.h"
#include "search/wdl.h"
#include "tablebase/tablebase.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/engine_client.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

// The three numbers after "wdl" in an info line; empty if it has none.
std::vector<int> chancesOf(const std::string& line) {
  std::vector<std::string> words = absl::StrSplit(line, ' ');
  for (size_t i = 0; i + 3 < words.size(); ++i)
    if (words[i] == "wdl") {
      EXPECT_EQ(words[i - 2], "cp") << "wdl follows the score: " << line;
      return {std::stoi(words[i + 1]), std::stoi(words[i + 2]), std::stoi(words[i + 3])};
    }
  return {};
}

TEST(ProtocolWdl, InfoLinesCarryTheChancesWhenAsked) {
  EngineProcess e;
  e.send("ugi");
  std::vector<std::string> handshake;
  ASSERT_TRUE(e.until("ugiok", Ms(10000), &handshake));
  EXPECT_NE(std::find(handshake.begin(), handshake.end(), "option name UCI_ShowWDL type check default false"),
            handshake.end());

  e.send("position startpos");
  e.send("go depth 4");
  std::vector<std::string> lines;
  ASSERT_TRUE(e.until("bestmove", Ms(20000), &lines));
  for (const std::string& l : lines) {
    if (l.rfind("info depth", 0) == 0) {
      EXPECT_TRUE(chancesOf(l).empty()) << l;
    }
  }

  e.send("setoption name UCI_ShowWDL value true");
  e.send("go depth 4");
  lines.clear();
  ASSERT_TRUE(e.until("bestmove", Ms(20000), &lines));
  int withChances = 0;
  for (const std::string& l : lines) {
    if (l.rfind("info depth", 0) != 0) continue;
    const std::vector<int> c = chancesOf(l);
    ASSERT_EQ(c.size(), 3u) << l;
    EXPECT_EQ(c[0] + c[1] + c[2], 1000) << l;
    ++withChances;
  }
  EXPECT_GE(withChances, 4);

  // Player 1 (to move) has three large pieces on the first rank: a win in one.
  e.send("position startpos moves X@a1 X@a4 X@b1 X@b4 X@c1 X@c4");
  e.send("go depth 3");
  lines.clear();
  ASSERT_TRUE(e.until("bestmove", Ms(20000), &lines));
  const std::string& last = lines[lines.size() - 2];
  EXPECT_NE(last.find("score mate 1 wdl 1000 0 0 "), std::string::npos) << last;
  e.send("query wdl");
  EXPECT_EQ(e.line(), "response 1000 0 0");
  e.send("position startpos moves X@a1 X@a4 X@b1 X@b4 X@c1 X@c4 L@d1");
  e.send("query wdl");
  EXPECT_EQ(e.line(), "response 0 0 1000");
  e.send("position startpos");
  e.send("query wdl");
  const auto start = e.line();
  ASSERT_TRUE(start);
  std::vector<std::string> words = absl::StrSplit(*start, ' ');
  ASSERT_EQ(words.size(), 4u) << *start;
  EXPECT_EQ(words[0], "response");
  EXPECT_EQ(std::stoi(words[1]) + std::stoi(words[2]) + std::stoi(words[3]), 1000) << *start;
}

// A 4x4 Gobblet position five moves in, where the net and the hand-written
// evaluation tell apart: its game, and the `position` command that sets it.
struct TestPosition {
  Game game{Board(Variant::gobblet())};
  std::string command = "position startpos moves";
  TestPosition() {
    for (const char* m : {"X@a1", "X@d4", "L@b1", "d4b1", "M@c3"}) {
      EXPECT_TRUE(game.play(m).ok()) << m;
      command += std::string(" ") + m;
    }
  }
  // `query wdl`'s answer for the evaluation `value` on `scale` here.
  std::string response(int value, ScoreScale scale) const {
    const WinDrawLoss c = winDrawLoss(value, false, game.position(), scale);
    return "response " + std::to_string(c.win) + " " + std::to_string(c.draw) + " " + std::to_string(c.loss);
  }
};

// `query wdl` gives the chances of the evaluation a full-strength search
// uses: the net's by default, the hand-written total with Use NNUE off (both as
// `eval` prints them).
TEST(ProtocolWdl, QueryChancesAreThoseOfTheSearchsEvaluation) {
  const TestPosition position;
  EngineProcess e;
  e.send(position.command);
  e.send("eval");
  std::vector<std::string> seen;
  const auto net = e.until("info string eval net ", Ms(5000), &seen);
  ASSERT_TRUE(net);
  int total = 0, netValue = 0;
  for (const auto& l : seen)
    if (l.rfind("info string eval total ", 0) == 0) total = std::stoi(l.substr(23));
  netValue = std::stoi(net->substr(21));
  ASSERT_NE(total, netValue) << "the position should tell the two evaluations apart";
  e.send("query wdl");
  EXPECT_EQ(e.line(), position.response(netValue, ScoreScale::kNet));
  e.send("setoption name Use NNUE value false");
  e.send("query wdl");
  EXPECT_EQ(e.line(), position.response(total, ScoreScale::kHandWritten));
}

// The chances of a position are the full-strength evaluation's whatever the
// level the engine plays at: `query wdl` answers the same below full
// strength (Skill Level 0, or UCI_LimitStrength at the lowest UCI_Elo),
// where the search is weakened (a short horizon, moves drawn), as at level
// 20.
TEST(ProtocolWdl, QueryChancesDoNotDependOnTheLevel) {
  const TestPosition position;
  EngineProcess e;
  e.send(position.command);
  e.send("eval");
  const auto net = e.until("info string eval net ", Ms(5000));
  ASSERT_TRUE(net);
  const std::string fullStrength = position.response(std::stoi(net->substr(21)), ScoreScale::kNet);

  e.send("setoption name Skill Level value 0");
  e.send("query wdl");
  EXPECT_EQ(e.until("response "), fullStrength) << "at level 0";
  e.send("setoption name Skill Level value 20");
  e.send("query wdl");
  EXPECT_EQ(e.until("response "), fullStrength) << "at level 20";
  e.send("setoption name UCI_LimitStrength value true");
  e.send("setoption name UCI_Elo value " + std::to_string(kSkillLevelElo[0]));
  e.send("query wdl");
  EXPECT_EQ(e.until("response "), fullStrength) << "at the lowest UCI_Elo";
  // (The weakened search evaluates with the net too: `eval` says so.)
  e.send("eval");
  const auto weakened = e.until("info string eval net ", Ms(5000));
  ASSERT_TRUE(weakened);
  EXPECT_NE(weakened->find("the search uses it"), std::string::npos) << *weakened;
}

// A value the engine knows exactly gives exact chances: with its
// tablebase, a drawn tic-tac-toe position is 0 1000 0 to `query wdl` and in
// every line of a search (the tablebase's values end every line); without
// one, `query wdl` estimates.
TEST(ProtocolWdl, AnExactDrawIsCertain) {
  testing::ScratchDir dir("gobblet_wdl_tb");
  const std::string file = dir.file("ttt.gtb");
  ASSERT_TRUE(tb::build(Variant::ticTacToe(), file, tb::BuildOptions{}).ok());
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("setoption name UCI_ShowWDL value true");
  e.send("position startpos moves S@b2 S@a1");
  e.send("query wdl");
  const auto estimated = e.line();
  ASSERT_TRUE(estimated);
  EXPECT_NE(*estimated, "response 0 1000 0") << "no tablebase: an estimate";
  e.send("setoption name TablebasePath value " + file);
  e.send("query wdl");
  EXPECT_EQ(e.until("response "), "response 0 1000 0");
  e.send("go depth 3");
  std::vector<std::string> lines;
  ASSERT_TRUE(e.until("bestmove", Ms(20000), &lines));
  int infos = 0;
  for (const std::string& l : lines)
    if (l.rfind("info depth", 0) == 0) {
      ++infos;
      EXPECT_NE(l.find(" score cp 0 wdl 0 1000 0 "), std::string::npos) << l;
    }
  EXPECT_GE(infos, 1);
}

}  // namespace
}  // namespace gobblet
