// mpiLaunch (tools/command_line/mpi_launch.h): an MPI launcher's variables,
// read without MPI, by the programs and by the tier launcher.
#include "tools/command_line/mpi_launch.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace gobblet::cli {
namespace {

class MpiLaunchTest : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMIX_SIZE",
                             "PMIX_RANK", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"})
      unsetenv(name);
  }
};

TEST_F(MpiLaunchTest, NoLauncherIsOneRankNotLaunched) {
  const MpiLaunch launch = mpiLaunch();
  EXPECT_FALSE(launch.launched);
  EXPECT_EQ(launch.size, 1);
  EXPECT_EQ(launch.rank, 0);
}

TEST_F(MpiLaunchTest, EachLaunchersVariablesAreRead) {
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  setenv("OMPI_COMM_WORLD_RANK", "3", 1);
  MpiLaunch launch = mpiLaunch();
  EXPECT_TRUE(launch.launched);
  EXPECT_EQ(launch.size, 4);
  EXPECT_EQ(launch.rank, 3);
  clear();
  setenv("PMI_SIZE", "2", 1);
  setenv("PMI_RANK", "0", 1);
  launch = mpiLaunch();
  EXPECT_TRUE(launch.launched);
  EXPECT_EQ(launch.size, 2);
  clear();
  setenv("PMIX_RANK", "7", 1);
  launch = mpiLaunch();
  EXPECT_TRUE(launch.launched);
  EXPECT_EQ(launch.rank, 7);
  EXPECT_EQ(launch.size, 1);  // not said
}

TEST_F(MpiLaunchTest, ValuesThatAreNotNumbersCountAsNotSaidButStillMarkALaunch) {
  for (const char* bad : {"", "x", "2x", "0", "-3", "99999999999999999999"}) {
    clear();
    setenv("OMPI_COMM_WORLD_SIZE", bad, 1);
    setenv("OMPI_COMM_WORLD_RANK", "-1", 1);
    const MpiLaunch launch = mpiLaunch();
    EXPECT_TRUE(launch.launched) << bad;
    EXPECT_EQ(launch.size, 1) << bad;
    EXPECT_EQ(launch.rank, 0) << bad;
  }
}

// srun's step of several tasks without any launcher's variable: MPI would
// make each task a job of one rank. A batch script (SLURM_NTASKS, no step)
// or a step of one task is not that; with PMI's variables it is a launch.
TEST_F(MpiLaunchTest, SrunWithoutMpisProcessManagerIsSeen) {
  setenv("SLURM_STEP_NUM_TASKS", "4", 1);
  EXPECT_EQ(mpiLaunch().srunTasksWithoutMpi, 4);
  EXPECT_FALSE(mpiLaunch().launched);
  setenv("PMI_SIZE", "4", 1);
  EXPECT_EQ(mpiLaunch().srunTasksWithoutMpi, 0);
  EXPECT_EQ(mpiLaunch().size, 4);
  clear();
  setenv("SLURM_NTASKS", "4", 1);
  EXPECT_EQ(mpiLaunch().srunTasksWithoutMpi, 0);
  setenv("SLURM_STEP_NUM_TASKS", "1", 1);
  EXPECT_EQ(mpiLaunch().srunTasksWithoutMpi, 0);
  EXPECT_NE(srunWithoutMpiError("gobblet-match", 4).find("srun --mpi=pmix gobblet-match"), std::string::npos);
}

}  // namespace
}  // namespace gobblet::cli
