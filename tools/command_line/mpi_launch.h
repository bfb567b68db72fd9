// Was this program started as one rank of several by an MPI launcher
// (mpirun/mpiexec, Slurm's srun)? Read from the launcher's environment
// before MPI is started, so that a plain run never touches MPI, and so
// that a program built without MPI can refuse to run once per rank.
// gobblet-match and gobblet-tb ask here (docs/match.md, docs/tablebase.md).
#pragma once

#include <string>

namespace gobblet::cli {

struct MpiLaunch {
  bool launched = false;  // a launcher's variables are set
  int size = 1;           // ranks in the job (1 when not launched, or not said)
  int rank = 0;           // this process's rank (0 when not launched, or not said)
  // Slurm's srun started this process as one task of a step of several
  // (SLURM_STEP_NUM_TASKS > 1, which srun alone sets: not a batch script)
  // without any MPI launcher's variables: srun without MPI's process
  // manager (--mpi=none, or a Slurm without PMI support), under which MPI
  // would start every task as a job of one rank and each would do the
  // whole work. The step's task count then, else 0.
  int srunTasksWithoutMpi = 0;
};

// Open MPI: OMPI_COMM_WORLD_SIZE / OMPI_COMM_WORLD_RANK; PMI (MPICH, Slurm):
// PMI_SIZE / PMI_RANK; PMIx: PMIX_SIZE / PMIX_RANK. A value that is not a
// positive number (a rank: not a number >= 0) counts as not said.
MpiLaunch mpiLaunch();

// The refusal of a run that mpiLaunch() says srun started without MPI's
// process manager (`program`: the program's name).
std::string srunWithoutMpiError(const std::string& program, int tasks);

}  // namespace gobblet::cli
