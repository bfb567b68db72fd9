// mpirun -np N gobblet-tb build: the same file, byte for byte, as one
// process builds, on 2 and 3 ranks (oversubscribed on a 2-core machine);
// a rank that fails ends every rank with its reason and leaves no file.
// Skipped when gobblet-tb was built without MPI or mpirun is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet::tb {
namespace {

const std::string kTool = gobblet::testing::binDir() + "/gobblet-tb";

// Why the tests cannot run here, or "" if they can.
std::string whyNoMpi() {
#ifndef GOBBLET_TB_MPI
  return "gobblet-tb was built without MPI (CMake found none: openmpi-bin, libopenmpi-dev)";
#else
  if (testing::runCommand("command -v mpirun >/dev/null 2>&1").exitCode != 0) return "no mpirun on the PATH";
  return "";
#endif
}

// mpirun as root too (the CI container), more ranks than cores allowed.
// `env` is exported to every rank (-x NAME). Open MPI's own allocations
// outlive MPI_Finalize: a sanitizer build's leak check would fail every
// rank for them, so it is off in the ranks (AddressSanitizer still runs).
std::string mpirun(int ranks, const std::string& env = "") {
  return "mpirun --allow-run-as-root --oversubscribe -x ASAN_OPTIONS=detect_leaks=0 " +
         (env.empty() ? "" : "-x " + env + " ") + "-np " + std::to_string(ranks) + " ";
}

// The stdout line that starts with `key` ("states", "start"), or "".
std::string line(const std::string& out, const std::string& key) {
  const size_t at = out.find("\n" + key);
  if (at == std::string::npos) return out.rfind(key, 0) == 0 ? out.substr(0, out.find('\n')) : "";
  return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

class MpiBuild : public ::testing::TestWithParam<const char*> {};

// Tic-tac-toe, placing only, pieces that move, a mid-size one (5 M
// states) and a 4x4 member: a one-process build, then 1, 2 and 3 ranks of
// one thread each (over ranks each holds its part of the table: the 3x3
// builder the slices of its groups, the 4x4 builder a range of numbers).
TEST_P(MpiBuild, SameFileOnOneTwoAndThreeRanks) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const std::string variant = GetParam();
  const testing::ScratchDir dir("gobblet_mpi_build");
  const std::string one = dir.file("one.gtb");
  const testing::CommandResult reference =
      testing::runCommand(kTool + " build " + variant + " --threads 2 --out " + one + " 2>/dev/null");
  ASSERT_EQ(reference.exitCode, 0) << reference.output;
  for (int ranks : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string file = dir.file(std::to_string(ranks) + ".gtb");
    const testing::CommandResult r =
        testing::runCommand(mpirun(ranks) + kTool + " build " + variant + " --threads 1 --out " + file + " 2>&1");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(testing::runCommand("cmp " + one + " " + file + " 2>&1").exitCode, 0) << "files differ";
    for (const char* key : {"states", "wins", "draws", "losses", "start", "longest"})
      EXPECT_EQ(line(r.output, key), line(reference.output, key)) << key;
    // Rank 0 reports every rank's memory and exchange.
    if (ranks == 1) continue;
    EXPECT_NE(r.output.find("ranks        " + std::to_string(ranks) + " of 1 threads"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("rank " + std::to_string(ranks - 1)), std::string::npos) << r.output;
  }
}

// 4x4:1,3: the 4x4 builder, whose ranks each hold their range of the numbers.
INSTANTIATE_TEST_SUITE_P(Variants, MpiBuild,
                         ::testing::Values("tictactoe", "3x3:2,2,0", "3x3:2,2,1", "3x3:2,3,1", "4x4:1,3"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// No file of any name in `dir` but `keep`.
void expectOnly(const std::string& dir, const std::string& keep) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string(), keep) << "left behind: " << entry.path();
}

// Rank 1 of 3 fails in the middle of the solve (the test hook
// GOBBLET_TB_TEST_FAIL_RANK; in a 4x4 build, once the ranks have solved
// their parts, before the file): every rank stops with an error, the job's
// status is not 0, and no file is left, under its name or any other.
TEST(MpiBuildFailure, AFailingRankEndsEveryRankAndLeavesNoFile) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  for (const char* variant : {"3x3:2,2,1", "4x4:2,1"}) {
    SCOPED_TRACE(variant);
    const testing::ScratchDir dir("gobblet_mpi_fail");
    const std::string out = dir.file("x.gtb");
    const testing::CommandResult r =
        testing::runCommand("GOBBLET_TB_TEST_FAIL_RANK=1 timeout 120 " + mpirun(3, "GOBBLET_TB_TEST_FAIL_RANK") +
                            kTool + " build " + variant + " --threads 1 --out " + out + " 2>&1");
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_NE(r.exitCode, 124) << "timed out: a rank waited for the failed one\n" << r.output;
    EXPECT_NE(r.output.find("rank 1: simulated failure while solving"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("rank 0: stopped, rank 1 failed"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("rank 2: stopped, rank 1 failed"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(out));
    expectOnly(dir.path(), "");
  }
}

// Rank 1 of 3 dies of SIGKILL in the middle of the solve (the test hook
// GOBBLET_TB_TEST_KILL_RANK), the others waiting for it in an exchange:
// mpirun ends them, the job's status is not 0, and no file is left.
TEST(MpiBuildFailure, ARankThatDiesEndsTheJobAndLeavesNoFile) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  for (const char* variant : {"3x3:2,2,1", "4x4:2,1"}) {
    SCOPED_TRACE(variant);
    const testing::ScratchDir dir("gobblet_mpi_kill");
    const std::string out = dir.file("x.gtb");
    const testing::CommandResult r =
        testing::runCommand("GOBBLET_TB_TEST_KILL_RANK=1 timeout 120 " + mpirun(3, "GOBBLET_TB_TEST_KILL_RANK") +
                            kTool + " build " + variant + " --threads 1 --out " + out + " 2>&1");
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_NE(r.exitCode, 124) << "timed out: the other ranks waited for the dead one\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(out));
    expectOnly(dir.path(), "");
  }
}

// Rank 0 cannot write its file (the directory is a regular file): an error
// that says so, every rank ends, nothing under the name.
TEST(MpiBuildFailure, AnUnwritableOutputEndsEveryRank) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const testing::ScratchDir dir("gobblet_mpi_fail");
  const std::string blocker = dir.file("not-a-dir");
  testing::runCommand("touch " + blocker);
  const testing::CommandResult r = testing::runCommand("timeout 120 " + mpirun(2) + kTool +
                                                       " build tictactoe --threads 1 --out " + blocker + "/x.gtb 2>&1");
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.exitCode, 124) << r.output;
  EXPECT_NE(r.output.find("rank 0: cannot write"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 1: stopped, rank 0 failed"), std::string::npos) << r.output;
  expectOnly(dir.path(), "not-a-dir");
}

// A rank given another variant (3x3:2,2,0 and 3x3:2,2,1 have the same slot
// count) wrote a file of wrong values that `info` passed: now every rank
// ends before solving, rank 0 naming the difference, and no file is made.
TEST(MpiBuildFailure, ARankOfAnotherVariantIsRefusedBeforeSolving) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const testing::ScratchDir dir("gobblet_mpi_differ");
  const std::string build = kTool + " build --threads 1 --out " + dir.file("x.gtb") + " ";
  const testing::CommandResult r =
      testing::runCommand("timeout 120 " + mpirun(1) + build + "3x3:2,2,1 : -np 1 " + build + "3x3:2,2,0 2>&1");
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.exitCode, 124) << r.output;
  EXPECT_NE(r.output.find("rank 0: the ranks do not run the same thing: rank 1 has '"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("build 3x3:2,2,0' against '"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 1: stopped, the ranks do not run the same thing"), std::string::npos) << r.output;
  expectOnly(dir.path(), "");
}

// srun without MPI's process manager starts every task as a job of one
// rank: each would build the whole table. Refused before any work.
TEST(MpiBuildFailure, SrunWithoutMpisProcessManagerIsRefused) {
  const testing::ScratchDir dir("gobblet_srun");
  const testing::CommandResult r =
      testing::runCommand("SLURM_STEP_NUM_TASKS=4 SLURM_NTASKS=4 SLURM_PROCID=1 " + kTool +
                          " build tictactoe --threads 1 --out " + dir.file("x.gtb") + " 2>&1");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("started by srun as one of 4 tasks, but without MPI's process manager"), std::string::npos)
      << r.output;
  expectOnly(dir.path(), "");
  // A batch script's own environment (SLURM_NTASKS without a step) is not srun's.
  const testing::CommandResult batch = testing::runCommand(
      "SLURM_NTASKS=4 SLURM_PROCID=0 " + kTool + " build tictactoe --threads 1 --out " + dir.file("x.gtb") + " 2>&1");
  EXPECT_EQ(batch.exitCode, 0) << batch.output;
}

}  // namespace
}  // namespace gobblet::tb
