// gobblet-prove from the command line: prove -> file -> check accepted, a
// damaged file rejected (exit 1), bad usage refused (exit 2).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"

namespace gobblet {
namespace {

const std::string kProve = std::string(GOBBLET_BIN_DIR) + "/gobblet-prove";

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

TEST(ProveProgram, BadUsageExitsTwo) {
  for (const char* arguments : {"prove --position nonsense", "prove --variant chess", "prove --time -1",
                                "prove --time x", "prove --position '4/4/4/XXXL 2'", "prove --moves Z@z9",
                                "check /nonexistent/file.proof", "check", "frobnicate"}) {
    const auto r = run(arguments);
    EXPECT_EQ(r.exitCode, 2) << arguments << ": " << r.output;
    EXPECT_NE(r.output.find("error"), std::string::npos) << arguments << ": " << r.output;
  }
}

TEST(ProveProgram, Help) {
  const auto r = run("prove --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("--threads"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gobblet
