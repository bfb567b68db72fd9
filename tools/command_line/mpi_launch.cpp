#include "tools/command_line/mpi_launch.h"

#include <cstdlib>

#include "absl/strings/numbers.h"

namespace gobblet::cli {

MpiLaunch mpiLaunch() {
  MpiLaunch launch;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    int n;
    if (const char* v = std::getenv(name); v != nullptr) {
      launch.launched = true;
      if (absl::SimpleAtoi(v, &n) && n >= 1) {
        launch.size = n;
        break;
      }
    }
  }
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    int r;
    if (const char* v = std::getenv(name); v != nullptr) {
      launch.launched = true;
      if (absl::SimpleAtoi(v, &r) && r >= 0) {
        launch.rank = r;
        break;
      }
    }
  }
  return launch;
}

}  // namespace gobblet::cli
