// The variant families through the protocol: a member of the 4x4 family
// (`4x4:<sizes>,<stacks>`) is chosen with the Variant option, shown by `d`,
// searched by `go`, and its rules refuse what the member lacks.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tests/support/engine_client.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

using testing::EngineProcess;

// The words after `prefix` in the first line that starts with it.
std::set<std::string> wordsAfter(EngineProcess& e, const std::string& prefix) {
  auto line = e.until(prefix);
  if (!line) return {};
  return absl::StrSplit(line->substr(prefix.size()), ' ', absl::SkipEmpty());
}

TEST(ProtocolVariantFamily, A4x4MemberIsShownSearchedAndRuled) {
  EngineProcess e;
  e.send("setoption name Variant value 4x4:2,2");
  e.send("position startpos moves M@a1");
  e.send("d");
  std::vector<std::string> lines;
  ASSERT_TRUE(e.until("key ", testing::Ms(10000), &lines));
  const std::string shown = absl::StrJoin(lines, "\n");
  EXPECT_NE(shown.find("variant 4x4:2,2"), std::string::npos) << shown;
  EXPECT_NE(shown.find("sizes SM"), std::string::npos) << shown;
  EXPECT_NE(shown.find("supply 1: stacks M S"), std::string::npos) << shown;  // one stack played down to its S
  EXPECT_NE(shown.find("supply 2: stacks M M"), std::string::npos) << shown;

  e.send("moves");
  const std::set<std::string> legal = wordsAfter(e, "moves ");
  // Player 2's stacks both show M (an S is under each): M to an empty square.
  EXPECT_EQ(legal.size(), 15u);
  EXPECT_TRUE(legal.count("M@b1") && !legal.count("S@b1") && !legal.count("M@a1")) << legal.size();
  e.send("go depth 5");
  auto best = e.until("bestmove ");
  ASSERT_TRUE(best);
  EXPECT_TRUE(legal.count(best->substr(9))) << *best;

  // A size this member lacks, and a third M from two stacks, are refused.
  e.send("position startpos moves X@a1");
  auto error = e.until("info string error: ");
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("unknown size 'X' (this variant has SM)"), std::string::npos) << *error;
  e.send("position fen M3/M3/M3/4 2");
  error = e.until("info string error: ");
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("more than the supply of 2"), std::string::npos) << *error;

  // Out of range: the option is refused naming the field, the variant stays.
  e.send("setoption name Variant value 4x4:2,4");
  error = e.until("info string error: ");
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("stacks"), std::string::npos) << *error;
  e.send("position startpos");
  e.send("d");
  EXPECT_TRUE(e.until("variant 4x4:2,2"));
}

// A 4x4 member's tablebase in the default folder is found and used, as a
// 3x3 variant's is (4x4 Gobblet itself has none): `query values` answers
// from it. 4x4:2,1 is small (8,257 states, every one a draw).
TEST(ProtocolVariantFamily, A4x4MembersTablebaseIsFoundByDefault) {
  const std::string tbTool = gobblet::testing::binDir() + "/gobblet-tb";
  ASSERT_EQ(::access(tbTool.c_str(), X_OK), 0) << tbTool;
  char dir[] = "/tmp/gobblet_family_tb_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/4x4-2-1.gtb";
  ASSERT_EQ(std::system((tbTool + " build 4x4:2,1 --out " + file + " > /dev/null 2>&1").c_str()), 0);
  ::setenv("GOBBLET_TB_DIR", dir, 1);  // the engine started below looks there
  EngineProcess e;
  e.send("setoption name Variant value 4x4:2,1");
  e.send("isready");
  EXPECT_EQ(e.line(), "info string tablebase '" + file + "' loaded for 4x4:2,1");
  EXPECT_EQ(e.line(), "readyok");
  e.send("position startpos moves M@a1");
  e.send("query values");
  auto values = e.until("response ");
  ASSERT_TRUE(values);
  const std::vector<std::string> words = absl::StrSplit(values->substr(9), ' ');
  ASSERT_EQ(words.size(), 2u * 15u) << *values;  // M to each empty square, each a draw
  for (size_t i = 1; i < words.size(); i += 2) EXPECT_EQ(words[i], "d") << *values;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gobblet
