// The ranks of an MPI job compare the build's full version, which names its
// commit (engine/version.h), besides what they run: ranks of two builds of
// one release were taken for the same program. Runs mpi_agree_probe (this
// build) and mpi_agree_probe_other (the same program as a build of another
// version) under mpirun; skipped without MPI.
#include <gtest/gtest.h>

#include <string>

#include "engine/version.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

const std::string kProbe = gobblet::testing::binDir() + "/mpi_agree_probe";
const std::string kOther = gobblet::testing::binDir() + "/mpi_agree_probe_other";

std::string whyNoMpi() {
#ifndef GOBBLET_MPI_AGREE_PROBES
  return "built without MPI (CMake found none: openmpi-bin, libopenmpi-dev)";
#else
  if (testing::runCommand("command -v mpirun >/dev/null 2>&1").exitCode != 0) return "no mpirun on the PATH";
  return "";
#endif
}

// One rank of `first` and one of `second`, each given `what`.
testing::CommandResult twoRanks(const std::string& first, const std::string& second, const std::string& what) {
  return testing::runCommand(
      "timeout 120 mpirun --allow-run-as-root --oversubscribe -x ASAN_OPTIONS=detect_leaks=0 -np 1 " + first + " '" +
      what + "' : -np 1 " + second + " '" + what + "' 2>&1");
}

TEST(MpiAgree, RanksOfOneBuildAgree) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const testing::CommandResult r = twoRanks(kProbe, kProbe, "build tictactoe");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("rank 0: agreed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 1: agreed"), std::string::npos) << r.output;
}

TEST(MpiAgree, RanksOfTwoVersionsAreRefused) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const testing::CommandResult r = twoRanks(kProbe, kOther, "build tictactoe");
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.exitCode, 124) << r.output;
  EXPECT_NE(r.output.find("rank 0: the ranks do not run the same thing: rank 1 has '"), std::string::npos) << r.output;
  // Rank 0 shows both versions.
  EXPECT_NE(r.output.find(std::string("version ") + versionNumber()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("+other.build"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 1: stopped, the ranks do not run the same thing"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gobblet
