// The version names what was built (cmake/version.cmake): the release, "+",
// and the commit of the checkout the build was made from, so that builds of
// two commits never say the same (the MPI ranks' agreement, `id name`, a
// bench report). tests/tools/version_script_test.py covers the other sources (a
// copy with no git, a given description, a `git archive` tarball).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "absl/strings/ascii.h"
#include "engine/version.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

// git's answer in the source tree, trimmed; "" if git fails there.
std::string git(const std::string& arguments) {
  const testing::CommandResult r =
      testing::runCommand("git -C '" + gobblet::testing::sourceDir() + "' " + arguments + " 2>/dev/null");
  return r.exitCode == 0 ? std::string(absl::StripAsciiWhitespace(r.output)) : "";
}

TEST(Version, IsTheReleaseAndWhatWasBuilt) {
  const std::string version = versionNumber();
  const std::string release = GOBBLET_RELEASE "+";
  ASSERT_EQ(version.substr(0, release.size()), release) << version;
  EXPECT_TRUE(std::regex_match(version.substr(release.size()), std::regex("[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*")))
      << version;
  EXPECT_EQ(engineName(), "Gobblet " + version + " (" + instructionSet() + ")");
}

// Compared with the checkout as it is when the test runs: a binary built
// before the last commit fails here (rebuild it).
TEST(Version, NamesTheCommitOfTheCheckoutItWasBuiltFrom) {
  const std::string version = versionNumber();
  if (std::string(GOBBLET_VERSION_GIVEN) != "") {
    EXPECT_EQ(version, GOBBLET_RELEASE "+" GOBBLET_VERSION_GIVEN);
    return;
  }
  std::error_code ec;
  const std::string top = git("rev-parse --show-toplevel");
  if (top.empty() || !std::filesystem::equivalent(top, gobblet::testing::sourceDir(), ec))
    GTEST_SKIP() << gobblet::testing::sourceDir() << " is not a git checkout: the version is " << version;
  const std::string head = git("rev-parse HEAD");
  ASSERT_GE(head.size(), 12u) << "git rev-parse HEAD: '" << head << "'";
  const std::string built = GOBBLET_RELEASE "+g" + head.substr(0, 12);
  EXPECT_TRUE(version == built || version == built + ".dirty")
      << version << ", not " << built << " (or " << built << ".dirty): built from another commit than HEAD";
}

}  // namespace
}  // namespace gobblet
