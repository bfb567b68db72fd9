// gobblet-prove from the command line: prove -> file -> check accepted, a
// damaged file rejected (exit 1), bad usage refused (exit 2).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>

#include "proof/certificate.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

const std::string kProve = gobblet::testing::binDir() + "/gobblet-prove";

testing::CommandResult run(const std::string& arguments) {
  return testing::runCommand(kProve + " " + arguments + " 2>&1");
}

TEST(ProveProgram, ProveWriteCheck) {
  const testing::ScratchDir dir("prove");
  const std::string file = dir.file("g.proof");
  const auto proved = run("prove --variant gobblers --position '3/3/3 1' --nodes 1000000 --out '" + file + "'");
  EXPECT_EQ(proved.exitCode, 0) << proved.output;
  EXPECT_NE(proved.output.find("result win"), std::string::npos) << proved.output;
  EXPECT_NE(proved.output.find("plies "), std::string::npos) << proved.output;
  const auto checked = run("check '" + file + "'");
  EXPECT_EQ(checked.exitCode, 0) << checked.output;
  EXPECT_EQ(checked.output.rfind("accepted", 0), 0u) << checked.output;

  {  // A flipped byte in the middle of the file.
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const auto middle = f.tellg() / 2;
    f.seekg(middle);
    const char c = static_cast<char>(f.get() ^ 1);
    f.seekp(middle);
    f.put(c);
  }
  const auto damaged = run("check '" + file + "'");
  EXPECT_EQ(damaged.exitCode, 1) << damaged.output;
  EXPECT_EQ(damaged.output.rfind("rejected: checksum", 0), 0u) << damaged.output;
}

TEST(ProveProgram, LossAndUnknown) {
  const auto loss = run("prove --position 'xxl1/x3/l3/1XX1 1'");
  EXPECT_EQ(loss.exitCode, 0) << loss.output;
  EXPECT_NE(loss.output.find("result loss"), std::string::npos) << loss.output;
  EXPECT_NE(loss.output.find("plies 2"), std::string::npos) << loss.output;
  const auto unknown = run("prove --nodes 50");
  EXPECT_EQ(unknown.exitCode, 0) << unknown.output;
  EXPECT_NE(unknown.output.find("result unknown"), std::string::npos) << unknown.output;
}

// A game already drawn by threefold repetition is over: status 2, saying so
// (docs/proof.md), as for a game over by a line.
TEST(ProveProgram, AGameDrawnByRepetitionIsOver) {
  const auto r =
      run("prove --variant gobblers --moves "
          "L@c3,L@b1,L@b3,M@a3,b3c1,M@c2,c3c2,b1a1,c1a2,a1b1,a2c1,b1a1,c2c3,a1b1,c3c2");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("the game is already over: threefold repetition"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("result "), std::string::npos) << r.output;
}

TEST(ProveProgram, BadUsageExitsTwo) {
  for (const char* arguments : {"prove --position nonsense", "prove --variant chess", "prove --time -1",
                                "prove --time x", "prove --position '4/4/4/XXXL 2'", "prove --moves Z@z9",
                                "check /nonexistent/file.proof", "check", "frobnicate"}) {
    const auto r = run(arguments);
    EXPECT_EQ(r.exitCode, 2) << arguments << ": " << r.output;
    EXPECT_NE(r.output.find("error"), std::string::npos) << arguments << ": " << r.output;
  }
}

// A certificate's texts reach the terminal only as printable text: escape
// sequences in its variant name or position (clear the screen, retitle the
// window, a green "accepted") come out as \xNN.
TEST(ProveProgram, CheckPrintsACertificatesTextsPrintable) {
  const testing::ScratchDir dir("prove_escapes");
  const std::string escapes = "\x1b[2J\x1b]0;title\x07\x1b[32maccepted\r";
  proof::Certificate forged;
  forged.nodes.resize(1);
  forged.nodes[0].children = {proof::kWonLeaf};
  for (const auto& [variant, position] :
       {std::pair{escapes, std::string("3/3/3 1")}, std::pair{std::string("gobblers"), "3/3/3 1" + escapes}}) {
    forged.variant = variant;
    forged.position = position;
    const std::string file = dir.file("forged.proof");
    ASSERT_TRUE(proof::writeCertificate(forged, file).ok());
    const auto checked = run("check '" + file + "'");
    EXPECT_EQ(checked.exitCode, 1) << checked.output;
    EXPECT_EQ(checked.output.rfind("rejected: ", 0), 0u) << checked.output;
    EXPECT_EQ(checked.output.find_first_of("\x1b\x07\r"), std::string::npos) << checked.output;
    EXPECT_NE(checked.output.find("\\x1b"), std::string::npos) << checked.output;
  }
}

TEST(ProveProgram, Help) {
  const auto r = run("prove --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("--threads"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gobblet
