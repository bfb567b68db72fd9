# Open MPI, found once for the programs that spread their work over the
# ranks of an MPI job: gobblet-match (one match over many machines) and
# gobblet-tb (a tablebase build over many machines). Debian: openmpi-bin,
# libopenmpi-dev (tools/setup.sh installs them). Without MPI both programs
# are built as before and refuse to run as one of several ranks
# (tools/command_line/mpi_launch.h). Only the C API is used.
# The sanitizer builds leave it out: Open MPI's own allocations at start-up
# read as leaks under AddressSanitizer, its uninstrumented threads as races
# under ThreadSanitizer.
set(MPI_CXX_SKIP_MPICXX ON)
if(NOT GOBBLET_SANITIZE AND NOT GOBBLET_SANITIZE_THREAD)
  find_package(MPI COMPONENTS CXX QUIET)
endif()
if(MPI_CXX_FOUND)
  message(STATUS "gobblet: MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE}): gobblet-match and gobblet-tb can run over ranks")
else()
  message(STATUS "gobblet: no MPI (libopenmpi-dev; never in sanitizer builds): gobblet-match and gobblet-tb run on one machine")
endif()
