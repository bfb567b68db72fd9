// UCI_ShowWDL and `query wdl` over the protocol: the handshake offers the
// option; with it on, every info line carries `wdl W D L` right after the
// score (W + D + L = 1000, a win found 1000 0 0); off, none does; `query
// wdl` answers the position's chances without a search.
#include <gtest/gtest.h>

#include "absl/strings/str_split.h"
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

}  // namespace
}  // namespace gobblet
