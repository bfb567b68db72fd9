# cpack -G DEB (run in a build directory; tools/package_check.sh builds,
# checks and unpacks it): Debian packages made from the install rules.
#   gobblet          the programs, their man pages and the docs (component
#                    runtime); built with GOBBLET_MPI=OFF it needs no Open MPI
#   gobblet-mpi      with GOBBLET_PACKAGE_MPI: gobblet-match, gobblet-tb and gobblet-prove
#                    built with Open MPI, run by `mpirun gobblet-tb ...`
#                    (component mpi)
#   libgobblet-dev   the static libraries, their public headers and the CMake
#                    package (component development)
# Dependencies on Debian's run-time libraries are found by dpkg-shlibdeps.
# For a package that runs on every amd64 machine, build with the default
# GOBBLET_ARCH (x86-64-v2) or GOBBLET_ARCH=x86-64.
set(CPACK_PACKAGE_NAME gobblet)
set(CPACK_PACKAGE_VENDOR "the gobblet authors")
set(CPACK_PACKAGE_CONTACT "the gobblet authors <gobblet@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
if(GOBBLET_PACKAGE_MPI)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${PROJECT_HOMEPAGE_URL})

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME gobblet)
# (Section misc, not games: Debian's games section wants its programs in
# /usr/games, and these are tools as much as a game.)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION misc)
# The synopsis of both is the project's DESCRIPTION (CPack puts it first).
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "An engine for 4x4 Gobblet (iterative-deepening alpha-beta with a
transposition table) that speaks the UGI and UCI protocols on standard
input and output, over TCP and over WebSocket, and serves an analysis board
to the browser. Gobblet Gobblers and the rest of the 3x3 family are solved
exactly into tablebase files (gobblet-tb). A match runner with SPRT,
perft, bench and an evaluation tuner come with it.")

set(CPACK_DEBIAN_MPI_PACKAGE_NAME gobblet-mpi)
set(CPACK_DEBIAN_MPI_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "gobblet (= ${PROJECT_VERSION}-1)")
set(CPACK_DEBIAN_MPI_DESCRIPTION "The gobblet programs that spread their work over the ranks of an MPI job
(Open MPI): gobblet-match plays one match over many machines,
gobblet-tb builds one tablebase over them and gobblet-prove grows one
proof database over them. With this package installed,
`mpirun -np N gobblet-tb build ...`, `mpirun -np N gobblet-match ...` and
`mpirun -np N gobblet-prove grow ...` run these builds; without it those
programs run on one machine only.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libgobblet-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
# Boost only for gobblet::server (find_package(gobblet) gives the rest
# without it): a recommendation, which spares --no-install-recommends the
# 30 packages of Boost's headers.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libabsl-dev, libzstd-dev")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_RECOMMENDS "libboost-dev")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "The gobblet engine's libraries: the rules core, the 3x3 tablebase,
the search, the UGI protocol with the Engine every front end drives, and
the network server, static, with their public headers, a CMake package
(find_package(gobblet CONFIG) gives gobblet::rules, gobblet::tablebase,
gobblet::search, gobblet::protocol and gobblet::server) and a pkg-config
file per library.")

# Debian's copyright and changelog files, in each package's doc folder.
set(GOBBLET_DEBIAN_CHANGELOG ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/debian)
execute_process(COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/cmake/debian/changelog
                OUTPUT_FILE ${GOBBLET_DEBIAN_CHANGELOG} RESULT_VARIABLE gzip_result)
if(NOT gzip_result EQUAL 0)
  message(FATAL_ERROR "gzip of cmake/debian/changelog failed")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/debian/changelog)
foreach(component ${CPACK_COMPONENTS_ALL})
  if(component STREQUAL runtime)
    set(package gobblet)
  elseif(component STREQUAL mpi)
    set(package gobblet-mpi)
  else()
    set(package libgobblet-dev)
  endif()
  # (EXCLUDE_FROM_ALL: in the packages only, not in a plain cmake --install.)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright ${GOBBLET_DEBIAN_CHANGELOG}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component} EXCLUDE_FROM_ALL)
endforeach()

include(CPack)
