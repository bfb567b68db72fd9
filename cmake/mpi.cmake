# Open MPI, found once for the programs that spread their work over the
# ranks of an MPI job: gobblet-match (one match over many machines),
# gobblet-tb (a tablebase build over many machines) and gobblet-prove (a
# proof database grown over many machines: tools/prove/CMakeLists.txt).
# Debian: openmpi-bin, libopenmpi-dev (tools/setup.sh installs them).
# Without MPI the programs
# are built as before and refuse to run as one of several ranks
# (tools/command_line/mpi_launch.h). Only the C API is used.
# The sanitizer builds leave it out: Open MPI's own allocations at start-up
# read as leaks under AddressSanitizer, its uninstrumented threads as races
# under ThreadSanitizer.
#
# GOBBLET_MPI=OFF builds them without MPI even where it is there: the
# Debian package's `gobblet` does (no Open MPI for every desktop user).
# GOBBLET_PACKAGE_MPI builds them once more with MPI for the package
# `gobblet-mpi` (cmake/program_tiers.cmake): the build of the lowest tier
# shipped (GOBBLET_MPI_TIER) adds the targets gobblet-tb-mpi,
# gobblet-match-mpi and gobblet-prove-mpi, the same programs linked with
# MPI, written as bin/mpi/<program> beside the plain ones
# (GOBBLET_MPI_PROGRAMS_APART); the tier launcher runs them when a program
# is started by an MPI launcher.
#
# Sets GOBBLET_PROGRAMS_LINK_MPI: whether gobblet-tb, gobblet-match and
# gobblet-prove themselves link MPI.
option(GOBBLET_MPI "Link gobblet-match, gobblet-tb and gobblet-prove with MPI where it is found" ON)
option(GOBBLET_MPI_REQUIRED "Fail when MPI is not found" OFF)
option(GOBBLET_PACKAGE_MPI "Build the MPI programs apart, for the gobblet-mpi package (with GOBBLET_PACKAGE_TIERS)" OFF)
option(GOBBLET_MPI_PROGRAMS_APART
       "Build gobblet-tb, gobblet-match and gobblet-prove once more with MPI, into bin/mpi/ (set by GOBBLET_PACKAGE_MPI)" OFF)
if(GOBBLET_PACKAGE_MPI AND GOBBLET_MPI_TIER STREQUAL GOBBLET_ARCH)
  set(GOBBLET_MPI_PROGRAMS_APART ON)  # this build is the lowest tier's
endif()
set(MPI_CXX_SKIP_MPICXX ON)
if((GOBBLET_MPI OR GOBBLET_MPI_PROGRAMS_APART) AND NOT GOBBLET_SANITIZE AND NOT GOBBLET_SANITIZE_THREAD)
  find_package(MPI COMPONENTS CXX QUIET)
endif()
if(GOBBLET_MPI_REQUIRED AND NOT MPI_CXX_FOUND)
  message(FATAL_ERROR "GOBBLET_MPI_REQUIRED: MPI not found (Debian: libopenmpi-dev)")
endif()
if(GOBBLET_MPI_PROGRAMS_APART AND NOT MPI_CXX_FOUND)
  message(FATAL_ERROR "GOBBLET_MPI_PROGRAMS_APART (the gobblet-mpi package): MPI not found (Debian: libopenmpi-dev)")
endif()
if(GOBBLET_MPI AND MPI_CXX_FOUND)
  set(GOBBLET_PROGRAMS_LINK_MPI ON)
  message(STATUS "gobblet: MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE}): gobblet-match, gobblet-tb and gobblet-prove can run over ranks")
else()
  set(GOBBLET_PROGRAMS_LINK_MPI OFF)
  message(STATUS "gobblet: no MPI (libopenmpi-dev; never in sanitizer builds): gobblet-match, gobblet-tb and gobblet-prove run on one machine")
endif()
if(GOBBLET_MPI_PROGRAMS_APART)
  message(STATUS "gobblet: gobblet-tb, gobblet-match and gobblet-prove with MPI also, into bin/mpi/ (the gobblet-mpi package)")
endif()

# gobblet_add_mpi_program(<name> SOURCES <file>... LIBRARIES <lib>...
#                         MPI_SOURCES <file>... MPI_LIBRARIES <lib>... MPI_DEFINITION <macro>)
# The program <name> (installed by gobblet_install_program), with its MPI
# sources, libraries and <macro>=1 where GOBBLET_PROGRAMS_LINK_MPI; and
# where GOBBLET_MPI_PROGRAMS_APART, the target <name>-mpi: the same program
# with them, written as bin/mpi/<name>.
function(gobblet_add_mpi_program name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MPI_DEFINITION" "SOURCES;LIBRARIES;MPI_SOURCES;MPI_LIBRARIES")
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES})
  set(targets)
  if(GOBBLET_PROGRAMS_LINK_MPI)
    list(APPEND targets ${name})
  endif()
  if(GOBBLET_MPI_PROGRAMS_APART)
    add_executable(${name}-mpi ${ARG_SOURCES})
    target_link_libraries(${name}-mpi PRIVATE ${ARG_LIBRARIES})
    set_target_properties(${name}-mpi PROPERTIES OUTPUT_NAME ${name}
                          RUNTIME_OUTPUT_DIRECTORY ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/mpi)
    list(APPEND targets ${name}-mpi)
  endif()
  foreach(target ${targets})
    target_sources(${target} PRIVATE ${ARG_MPI_SOURCES})
    target_link_libraries(${target} PRIVATE ${ARG_MPI_LIBRARIES} MPI::MPI_CXX)
    target_compile_definitions(${target} PRIVATE ${ARG_MPI_DEFINITION}=1)
  endforeach()
  gobblet_install_program(${name})
endfunction()
