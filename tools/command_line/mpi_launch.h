// Was this program started as one rank of several by an MPI launcher
// (mpirun/mpiexec, Slurm's srun)? Read from the launcher's environment
// before MPI is started, so that a plain run never touches MPI, and so
// that a program built without MPI can refuse to run once per rank.
// gobblet-match and gobblet-tb ask here (docs/match.md, docs/tablebase.md).
#pragma once

namespace gobblet::cli {

struct MpiLaunch {
  bool launched = false;  // a launcher's variables are set
  int size = 1;           // ranks in the job (1 when not launched, or not said)
  int rank = 0;           // this process's rank (0 when not launched, or not said)
};

// Open MPI: OMPI_COMM_WORLD_SIZE / OMPI_COMM_WORLD_RANK; PMI (MPICH, Slurm):
// PMI_SIZE / PMI_RANK; PMIx: PMIX_SIZE / PMIX_RANK. A value that is not a
// positive number (a rank: not a number >= 0) counts as not said.
MpiLaunch mpiLaunch();

}  // namespace gobblet::cli
