# Where the programs are installed, and the instruction-set tiers shipped.
#
# gobblet_install_program(<target>) installs a program (component runtime).
#
# By default each program goes to <bindir>, built for GOBBLET_ARCH.
# With GOBBLET_PACKAGE_TIERS (a list, e.g. "x86-64"), the programs are
# built once more for each tier named (this source, configured again in
# <build>/tier-<tier> with BUILD_TESTING=OFF), every tier's programs go to
# <libexecdir>/gobblet/<tier>/, and <bindir>/<program> is a link to the
# tier launcher (tools/tier_launcher/), which runs the program of the best
# tier this processor can run (GOBBLET_TIER=<tier> chooses one). The
# Debian package ships x86-64 and x86-64-v3 beside x86-64-v2 this way: it
# runs on every amd64 machine, and at x86-64-v2's or (AVX2: the net's
# kernels) x86-64-v3's speed where it can (docs/search.md, "Portable builds").
include(GNUInstallDirs)
set(GOBBLET_PACKAGE_TIERS "" CACHE STRING
    "Instruction-set tiers to build and ship beside GOBBLET_ARCH, chosen at run time (e.g. x86-64)")
set_property(GLOBAL PROPERTY GOBBLET_PROGRAMS "")

if(GOBBLET_PACKAGE_TIERS)
  if(NOT GOBBLET_X86_64)
    message(FATAL_ERROR "GOBBLET_PACKAGE_TIERS: the tiers are x86-64's, and this is ${CMAKE_SYSTEM_PROCESSOR}")
  endif()
  if(GOBBLET_ARCH STREQUAL "native" OR GOBBLET_ARCH STREQUAL "default")
    message(FATAL_ERROR "GOBBLET_PACKAGE_TIERS needs a named GOBBLET_ARCH (x86-64...), not ${GOBBLET_ARCH}")
  endif()
  set(GOBBLET_PROGRAM_DIR ${CMAKE_INSTALL_LIBEXECDIR}/gobblet/${GOBBLET_ARCH})
else()
  set(GOBBLET_PROGRAM_DIR ${CMAKE_INSTALL_BINDIR})
endif()
# The tier whose build also makes the MPI programs (GOBBLET_PACKAGE_MPI,
# cmake/mpi.cmake): the lowest shipped (the tiers' names sort in the order of
# what they need: x86-64 first), so that they run on every processor.
set(GOBBLET_MPI_TIER ${GOBBLET_ARCH} ${GOBBLET_PACKAGE_TIERS})
list(SORT GOBBLET_MPI_TIER)
list(GET GOBBLET_MPI_TIER 0 GOBBLET_MPI_TIER)

function(gobblet_install_program target)
  install(TARGETS ${target} RUNTIME DESTINATION ${GOBBLET_PROGRAM_DIR} COMPONENT runtime)
  set_property(GLOBAL APPEND PROPERTY GOBBLET_PROGRAMS ${target})
endfunction()

# After the programs are declared: the other tiers' builds, the launcher and
# the links to it.
function(gobblet_install_tiers)
  if(GOBBLET_PACKAGE_MPI AND NOT GOBBLET_PACKAGE_TIERS)
    message(FATAL_ERROR "GOBBLET_PACKAGE_MPI needs GOBBLET_PACKAGE_TIERS: the tier launcher runs the MPI programs")
  endif()
  if(NOT GOBBLET_PACKAGE_TIERS)
    return()
  endif()
  include(ExternalProject)
  get_property(programs GLOBAL PROPERTY GOBBLET_PROGRAMS)
  foreach(tier ${GOBBLET_PACKAGE_TIERS})
    if(tier STREQUAL GOBBLET_ARCH OR NOT tier MATCHES "^x86-64(-v[234])?$")
      message(FATAL_ERROR "GOBBLET_PACKAGE_TIERS: ${tier} is not a tier other than GOBBLET_ARCH")
    endif()
    set(dir ${CMAKE_BINARY_DIR}/tier-${tier})
    set(targets ${programs})
    set(mpi_apart OFF)
    if(GOBBLET_PACKAGE_MPI AND tier STREQUAL GOBBLET_MPI_TIER)
      set(mpi_apart ON)
      list(APPEND targets gobblet-tb-mpi gobblet-match-mpi gobblet-prove-mpi)
    endif()
    string(STRIP "${CMAKE_EXE_LINKER_FLAGS} -s" tier_linker_flags)
    # The same settings as this build but the tier; stripped (-s), as CPack
    # strips only this build's own targets. USES_TERMINAL_BUILD: Ninja's
    # console pool, so that the inner build's jobs do not add to the outer's.
    ExternalProject_Add(gobblet_tier_${tier}
      SOURCE_DIR ${PROJECT_SOURCE_DIR}
      BINARY_DIR ${dir}
      CMAKE_ARGS -DGOBBLET_ARCH=${tier} -DBUILD_TESTING=OFF -DGOBBLET_PACKAGE_TIERS=
                 -DGOBBLET_HARDENING=${GOBBLET_HARDENING} -DGOBBLET_MPI=${GOBBLET_MPI} -DGOBBLET_PACKAGE_MPI=OFF
                 -DGOBBLET_MPI_PROGRAMS_APART=${mpi_apart}
      CMAKE_CACHE_ARGS
        -DCMAKE_BUILD_TYPE:STRING=${CMAKE_BUILD_TYPE}
        -DCMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}
        -DCMAKE_CXX_COMPILER_LAUNCHER:STRING=${CMAKE_CXX_COMPILER_LAUNCHER}
        -DCMAKE_TOOLCHAIN_FILE:FILEPATH=${CMAKE_TOOLCHAIN_FILE}
        -DCMAKE_PREFIX_PATH:STRING=${CMAKE_PREFIX_PATH}
        -DCMAKE_CXX_FLAGS:STRING=${CMAKE_CXX_FLAGS}
        -DCMAKE_EXE_LINKER_FLAGS:STRING=${tier_linker_flags}
        -DCMAKE_INSTALL_PREFIX:PATH=${CMAKE_INSTALL_PREFIX}
        # Its programs are copied as built (install(PROGRAMS) below), so they
        # carry no build-tree RUNPATH (MPI's is /usr/lib/x86_64-linux-gnu/openmpi/lib;
        # lintian: custom-library-search-path); every library they need is on
        # the system's own path.
        -DCMAKE_SKIP_BUILD_RPATH:BOOL=ON
      BUILD_COMMAND ${CMAKE_COMMAND} --build ${dir} --target ${targets}
      INSTALL_COMMAND ""
      BUILD_ALWAYS ON
      USES_TERMINAL_BUILD ON)
    foreach(program ${programs})
      install(PROGRAMS ${dir}/bin/${program} DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gobblet/${tier}
              COMPONENT runtime)
    endforeach()
    if(mpi_apart)
      install(PROGRAMS ${dir}/bin/mpi/gobblet-tb ${dir}/bin/mpi/gobblet-match
                       ${dir}/bin/mpi/gobblet-prove
              DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gobblet/mpi COMPONENT mpi)
    endif()
  endforeach()
  gobblet_install_mpi_programs()
  install(TARGETS gobblet-tier-launcher RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gobblet COMPONENT runtime)
  file(RELATIVE_PATH launcher /${CMAKE_INSTALL_BINDIR} /${CMAKE_INSTALL_LIBEXECDIR}/gobblet/gobblet-tier-launcher)
  foreach(program ${programs})
    install(CODE "
      set(link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${program}\")
      file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
      file(REMOVE \"\${link}\")
      file(CREATE_LINK \"${launcher}\" \"\${link}\" SYMBOLIC)
      message(STATUS \"Installing: \${link} -> ${launcher}\")" COMPONENT runtime)
  endforeach()
endfunction()

# GOBBLET_PACKAGE_MPI: gobblet-match, gobblet-tb and gobblet-prove built once
# more, with
# MPI, into <libexecdir>/gobblet/mpi/ (component "mpi": the package
# gobblet-mpi), for the lowest tier shipped (x86-64 in the Debian package),
# by that tier's build (cmake/mpi.cmake, GOBBLET_MPI_PROGRAMS_APART): the
# tier launcher runs them, whatever the processor, instead of the tier's own
# when the program is started by an MPI launcher (mpirun, srun) and they are
# installed; without them the programs refuse to run as one of several
# ranks, naming the package. Here: where this build is that tier's.
function(gobblet_install_mpi_programs)
  if(GOBBLET_MPI_PROGRAMS_APART)
    install(TARGETS gobblet-tb-mpi gobblet-match-mpi gobblet-prove-mpi
            RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gobblet/mpi
            COMPONENT mpi)
  endif()
endfunction()
