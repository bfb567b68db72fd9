// The variant families through the protocol: a member of the 4x4 family
// (`4x4:<sizes>,<stacks>`) is chosen with the Variant option, shown by `d`,
// searched by `go`, and its rules refuse what the member lacks.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tests/support/engine_client.h"

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

}  // namespace
}  // namespace gobblet
