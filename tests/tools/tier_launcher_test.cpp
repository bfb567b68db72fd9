// gobblet-tier-launcher (tools/tier_launcher/): in a scratch tree laid out
// as the package lays it out (bin/<program> -> ../libexec/gobblet/
// gobblet-tier-launcher, libexec/gobblet/<tier>/<program>), with programs
// that say which tier they are, it runs the best tier the processor can
// run, honours GOBBLET_TIER, and refuses what it must.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

// The launcher asks an x86-64 processor which tiers it runs: elsewhere it
// is not built (tools/tier_launcher/CMakeLists.txt).
#if defined(__x86_64__)
namespace gobblet {
namespace {

namespace fs = std::filesystem;
using testing::runCommand;
using testing::ScratchDir;

class TierLauncher : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path libexec = fs::path(dir_.path()) / "libexec" / "gobblet";
    fs::create_directories(libexec);
    fs::copy_file(fs::path(gobblet::testing::binDir()) / "gobblet-tier-launcher", libexec / "gobblet-tier-launcher");
    for (const char* tier : {"x86-64", "x86-64-v2"}) addProgram(tier, "fakeprog");
    fs::create_directories(fs::path(dir_.path()) / "bin");
    link("fakeprog");
  }

  // libexec/gobblet/<tier>/<name>: a script that prints its tier and arguments.
  void addProgram(const std::string& tier, const std::string& name) {
    const fs::path folder = fs::path(dir_.path()) / "libexec" / "gobblet" / tier;
    fs::create_directories(folder);
    std::ofstream(folder / name) << "#!/bin/sh\necho " << tier << " \"$@\"\n";
    fs::permissions(folder / name, fs::perms::owner_all);
  }
  void link(const std::string& name) {
    fs::create_symlink("../libexec/gobblet/gobblet-tier-launcher", fs::path(dir_.path()) / "bin" / name);
  }
  testing::CommandResult run(const std::string& environment, const std::string& name, const std::string& args = "") {
    return runCommand(environment + " " + (fs::path(dir_.path()) / "bin" / name).string() + " " + args + " 2>&1");
  }

  ScratchDir dir_{"tier_launcher"};
};

const char* bestShippedTier() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("x86-64-v2") ? "x86-64-v2" : "x86-64";
}

TEST_F(TierLauncher, RunsTheBestTierThisProcessorRunsWithTheArguments) {
  const auto r = run("", "fakeprog", "a 'b c'");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, std::string(bestShippedTier()) + " a b c\n");
}

TEST_F(TierLauncher, FallsBackToALowerTierWhenTheBestIsNotShipped) {
  fs::remove_all(fs::path(dir_.path()) / "libexec" / "gobblet" / "x86-64-v2");
  const auto r = run("", "fakeprog");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "x86-64\n");
}

// The best tier's program is a link back to the launcher (it exec'd itself
// for ever), or a file that cannot be run: each is said, and the next tier
// runs; with no tier left, a refusal.
TEST_F(TierLauncher, ABestTierThatDoesNotRunFallsBackToTheNext) {
  const fs::path best = fs::path(dir_.path()) / "libexec" / "gobblet" / bestShippedTier() / "fakeprog";
  const bool lowerTier = std::string(bestShippedTier()) != "x86-64";
  for (const bool loop : {true, false}) {
    fs::remove(best);
    if (loop) {
      fs::create_symlink("../gobblet-tier-launcher", best);
    } else {
      std::ofstream(best) << "\x7f"
                          << "not a program";
      fs::permissions(best, fs::perms::owner_all);
    }
    const auto r = run("timeout 20", "fakeprog", "x");
    EXPECT_NE(r.output.find(loop ? "is the launcher itself" : "Exec format error"), std::string::npos) << r.output;
    if (lowerTier) {
      EXPECT_EQ(r.exitCode, 0) << r.output;
      EXPECT_NE(r.output.find("trying a lower tier\nx86-64 x\n"), std::string::npos) << r.output;
    } else {
      EXPECT_EQ(r.exitCode, 127) << r.output;
    }
  }
}

TEST_F(TierLauncher, UnderAnMpiLauncherRunsTheMpiBuildWhereItIsInstalled) {
  // Without the mpi folder (no gobblet-mpi package): the tier's own build.
  EXPECT_EQ(run("OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1", "fakeprog", "x").output,
            std::string(bestShippedTier()) + " x\n");
  addProgram("mpi", "fakeprog");
  for (const char* launcher : {"OMPI_COMM_WORLD_SIZE=2", "PMI_SIZE=3 PMI_RANK=0", "PMIX_RANK=1"}) {
    const auto r = run(launcher, "fakeprog", "x");
    EXPECT_EQ(r.output, "mpi x\n") << launcher;
  }
  // Not launched by MPI: the tier's build, even where the MPI one is installed.
  EXPECT_EQ(run("", "fakeprog", "x").output, std::string(bestShippedTier()) + " x\n");
}

TEST_F(TierLauncher, GobbletTierChoosesOne) {
  const auto r = run("GOBBLET_TIER=x86-64", "fakeprog", "--version");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "x86-64 --version\n");
}

TEST_F(TierLauncher, RefusesATierNotShippedOrUnknown) {
  auto r = run("GOBBLET_TIER=x86-64-v3", "fakeprog");
  EXPECT_EQ(r.exitCode, 127);
  EXPECT_NE(r.output.find("GOBBLET_TIER=x86-64-v3"), std::string::npos) << r.output;
  r = run("GOBBLET_TIER=pentium", "fakeprog");
  EXPECT_EQ(r.exitCode, 127);
  EXPECT_NE(r.output.find("is not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4"), std::string::npos) << r.output;
}

TEST_F(TierLauncher, RefusesAProgramNoTierShipsAndNamesThatAreNotPrograms) {
  link("other");
  auto r = run("", "other");
  EXPECT_EQ(r.exitCode, 127);
  EXPECT_NE(r.output.find("no build of other for this processor"), std::string::npos) << r.output;
  link("Fake_Prog");
  r = run("", "Fake_Prog");
  EXPECT_EQ(r.exitCode, 127);
  EXPECT_NE(r.output.find("not a gobblet program name"), std::string::npos) << r.output;
  r = runCommand((fs::path(dir_.path()) / "libexec" / "gobblet" / "gobblet-tier-launcher").string() + " 2>&1");
  EXPECT_EQ(r.exitCode, 127);
  EXPECT_NE(r.output.find("through its link"), std::string::npos) << r.output;
}

TEST_F(TierLauncher, AUsersOwnLinkRunsTheProgramItLeadsTo) {
  // ~/bin/gobblet-dev -> /usr/bin/gobblet -> the launcher: the name is the last link's.
  fs::create_symlink(fs::path(dir_.path()) / "bin" / "fakeprog", fs::path(dir_.path()) / "my-engine");
  auto r = runCommand((fs::path(dir_.path()) / "my-engine").string() + " x 2>&1");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, std::string(bestShippedTier()) + " x\n");
  // Found through PATH too (argv[0] without a '/').
  r = runCommand("PATH=" + dir_.path() + ":$PATH my-engine y 2>&1");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, std::string(bestShippedTier()) + " y\n");
}

}  // namespace
}  // namespace gobblet
#endif
