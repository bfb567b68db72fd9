// The probe of mpi_agree_test: on every rank of an MPI job, cli::ranksAgree
// with its first argument as what it runs; prints "rank R: agreed" or the
// refusal, and exits 0 or 1. tests/tools/CMakeLists.txt builds it twice:
// as this build, and as a build of another version (mpi_agree_probe_other).
#include <mpi.h>

#include <cstdio>
#include <string>

#include "tools/command_line/mpi_agree.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const absl::Status same = gobblet::cli::ranksAgree(argc > 1 ? argv[1] : "");
  if (same.ok())
    std::printf("rank %d: agreed\n", rank);
  else
    std::printf("%s\n", std::string(same.message()).c_str());
  std::fflush(stdout);
  MPI_Finalize();
  return same.ok() ? 0 : 1;
}
