#include "tools/command_line/mpi_launch.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace gobblet::cli {
namespace {

// The whole of `text` as a whole number (no sign, space or other character).
// Standard library only: the tier launcher compiles this file with no library.
bool parseWhole(const char* text, int* value) {
  const char* end = text + std::strlen(text);
  const auto [last, error] = std::from_chars(text, end, *value);
  return error == std::errc() && last == end && end != text;
}

}  // namespace

MpiLaunch mpiLaunch() {
  MpiLaunch launch;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    int n;
    if (const char* v = std::getenv(name); v != nullptr) {
      launch.launched = true;
      if (parseWhole(v, &n) && n >= 1) {
        launch.size = n;
        break;
      }
    }
  }
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    int r;
    if (const char* v = std::getenv(name); v != nullptr) {
      launch.launched = true;
      if (parseWhole(v, &r) && r >= 0) {
        launch.rank = r;
        break;
      }
    }
  }
  if (int tasks; !launch.launched && std::getenv("SLURM_STEP_NUM_TASKS") &&
                 parseWhole(std::getenv("SLURM_STEP_NUM_TASKS"), &tasks) && tasks > 1)
    launch.srunTasksWithoutMpi = tasks;
  return launch;
}

std::string srunWithoutMpiError(const std::string& program, int tasks) {
  return "started by srun as one of " + std::to_string(tasks) +
         " tasks, but without MPI's process manager (none of OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_SIZE is set): "
         "each task would do the whole work on its own; run `srun --mpi=pmix " +
         program + " ...` (or --mpi=pmi2, as `srun --mpi=list` offers), or mpirun inside the allocation";
}

}  // namespace gobblet::cli
