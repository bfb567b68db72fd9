# Open MPI, found once for the programs that spread their work over the
# ranks of an MPI job: gobblet-match (one match over many machines) and
# gobblet-tb (a tablebase build over many machines). Debian: openmpi-bin,
# libopenmpi-dev (tools/setup.sh installs them). Without MPI both programs
# are built as before and refuse to run as one of several ranks
# (tools/command_line/mpi_launch.h). Only the C API is used.
# The sanitizer builds leave it out: Open MPI's own allocations at start-up
# read as leaks under AddressSanitizer, its uninstrumented threads as races
# under ThreadSanitizer.
#
# GOBBLET_MPI=OFF builds both without MPI even where it is there: the
# Debian package's `gobblet` does (no Open MPI for every desktop user), and
# GOBBLET_PACKAGE_MPI builds them once more with MPI for the package
# `gobblet-mpi`, installed where the tier launcher runs them when a
# program is started by an MPI launcher (cmake/program_tiers.cmake).
option(GOBBLET_MPI "Link gobblet-match and gobblet-tb with MPI where it is found" ON)
option(GOBBLET_MPI_REQUIRED "Fail when MPI is not found (the gobblet-mpi package's build)" OFF)
option(GOBBLET_PACKAGE_MPI "Build the MPI programs apart, for the gobblet-mpi package (with GOBBLET_PACKAGE_TIERS)" OFF)
set(MPI_CXX_SKIP_MPICXX ON)
if(GOBBLET_MPI AND NOT GOBBLET_SANITIZE AND NOT GOBBLET_SANITIZE_THREAD)
  find_package(MPI COMPONENTS CXX QUIET)
endif()
if(GOBBLET_MPI_REQUIRED AND NOT MPI_CXX_FOUND)
  message(FATAL_ERROR "GOBBLET_MPI_REQUIRED: MPI not found (Debian: libopenmpi-dev)")
endif()
if(MPI_CXX_FOUND)
  message(STATUS "gobblet: MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE}): gobblet-match and gobblet-tb can run over ranks")
else()
  message(STATUS "gobblet: no MPI (libopenmpi-dev; never in sanitizer builds): gobblet-match and gobblet-tb run on one machine")
endif()
