// launchedRanks (see mpi_share.h): no MPI needed to read the environment.
#include <algorithm>
#include <cstdlib>

#include "mpi_share.h"

namespace gobblet::tb {

int launchedRanks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(name); v && *v) return std::max(1, std::atoi(v));
  return 1;
}

}  // namespace gobblet::tb
