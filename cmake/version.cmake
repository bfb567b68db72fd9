# gobblet's version, as every program and the Python module show it
# (--version, `id name`, the bench report, the MPI ranks' agreement,
# gobblet.__version__): the release, then after a "+" what was built, so
# that two builds of other sources never say the same:
#   0.1.0+g0a0ab63c1d2e        a git checkout at that commit (its first 12
#                              hex digits)
#   0.1.0+g0a0ab63c1d2e.dirty  the same with changes to tracked files not
#                              committed (untracked files do not count; two
#                              builds with other changes say the same)
#   0.1.0+<given>              -DGOBBLET_VERSION_DESCRIPTION=<given>: letters,
#                              digits and dots, e.g. a package's build of a
#                              copy; it wins over git
#   0.1.0+g<commit>            a tarball of `git archive`, which writes the
#                              commit into cmake/commit.txt (.gitattributes)
#   0.1.0+unknown              none of these (a copy of the files, no git)
# The form is valid as SemVer build metadata, as a PEP 440 local version
# and as a Debian upstream version.
#
# Included by CMakeLists.txt before project(): GOBBLET_RELEASE and
# gobblet_describe_version(). Run as a script at every build
# (engine/CMakeLists.txt), it writes the version into a header only when it
# changed, so that an unchanged one recompiles nothing, and a new one only
# engine/version.cpp:
#   cmake -DSOURCE_DIR=<tree> -DOUT=<header> [-DGOBBLET_VERSION_DESCRIPTION=<given>] -P cmake/version.cmake
# Without OUT it prints the version (setup.py takes the Python package's
# version from it).

# The release number: project(VERSION) and the Debian package's version.
set(GOBBLET_RELEASE 0.1.0)

# gobblet_describe_version(<variable> <source_dir> <given>): the version of
# the sources in <source_dir> (see above) into <variable>, and into
# <variable>_FROM what it was taken from ("git", "given", "commit.txt",
# "nothing"). A <given> that is not letters, digits and dots is a fatal error.
function(gobblet_describe_version variable source_dir given)
  set(description "")
  if(NOT given STREQUAL "")
    if(NOT given MATCHES "^[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*$")
      message(FATAL_ERROR "GOBBLET_VERSION_DESCRIPTION='${given}': use letters, digits and dots "
                          "(e.g. debian1 or g0a0ab63c1d2e), nothing else: it follows '${GOBBLET_RELEASE}+'")
    endif()
    set(description "${given}")
    set(from given)
  endif()
  # git, if <source_dir> is the top of a checkout (not a copy of the files
  # inside another repository, whose commit it is not).
  find_program(gobblet_git git)
  if(description STREQUAL "" AND gobblet_git)
    execute_process(COMMAND ${gobblet_git} -C ${source_dir} rev-parse --show-toplevel HEAD
                    RESULT_VARIABLE failed OUTPUT_VARIABLE lines ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT failed)
      string(REPLACE "\n" ";" lines "${lines}")
      list(GET lines 0 top)
      list(GET lines 1 commit)
      file(REAL_PATH "${top}" top)
      file(REAL_PATH "${source_dir}" here)
      if(top STREQUAL here AND commit MATCHES "^[0-9a-f]+$")
        string(SUBSTRING "${commit}" 0 12 commit)
        # (status, not diff-index: a file touched but not changed is not a
        # change; --no-optional-locks: a build never writes the index.)
        execute_process(COMMAND ${gobblet_git} --no-optional-locks -C ${source_dir} status --porcelain
                                --untracked-files=no
                        RESULT_VARIABLE failed OUTPUT_VARIABLE changes ERROR_QUIET)
        if(NOT failed)
          set(description "g${commit}")
          if(NOT changes STREQUAL "")
            string(APPEND description ".dirty")
          endif()
          set(from git)
        endif()
      endif()
    endif()
  endif()
  if(description STREQUAL "" AND EXISTS ${source_dir}/cmake/commit.txt)
    file(STRINGS ${source_dir}/cmake/commit.txt commit LIMIT_COUNT 1)
    if(commit MATCHES "^[0-9a-f]+$")  # (in a checkout it reads $Format:%H$)
      string(SUBSTRING "${commit}" 0 12 commit)
      set(description "g${commit}")
      set(from commit.txt)
    endif()
  endif()
  if(description STREQUAL "")
    set(description unknown)
    set(from nothing)
  endif()
  set(${variable} "${GOBBLET_RELEASE}+${description}" PARENT_SCOPE)
  set(${variable}_FROM ${from} PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT SOURCE_DIR)
    message(FATAL_ERROR "cmake -DSOURCE_DIR=<gobblet's source tree> [-DOUT=<header>] -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  gobblet_describe_version(version ${SOURCE_DIR} "${GOBBLET_VERSION_DESCRIPTION}")
  if(OUT)
    include(${CMAKE_CURRENT_LIST_DIR}/write_if_changed.cmake)
    gobblet_write_if_changed(${OUT} "// Written by cmake/version.cmake at each build.\n#define GOBBLET_VERSION \"${version}\"\n")
  else()
    execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${version}")
  endif()
endif()
