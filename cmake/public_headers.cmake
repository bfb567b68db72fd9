# gobblet_public_headers(<target> <folder> [INSTALLED] <header>...)
#
# Gives a library target its public headers and nothing else: each header
# named (relative to the calling folder) is linked into a view of its own,
# <build>/public/<target>/<folder>/<header>, and that view is the only
# include directory the target adds to its users (and to itself). A file
# that links the target includes "<folder>/<header>"; the other headers of
# the folder stay private (its own sources include them by bare name, from
# their own folder), and a layer that does not link the target cannot
# include any of its headers at all: the layering is enforced by the build.
#
# INSTALLED (the libraries cmake --install ships): the headers go to
# <includedir>/gobblet/<folder>/ and the exported target's include
# directory is <includedir>/gobblet; each is also added, as
# <folder>/<header>, to the global property GOBBLET_INSTALLED_HEADERS (which
# tests/tools checks docs/cpp.md against).
include(GNUInstallDirs)

function(gobblet_public_headers target folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "INSTALLED" "" "")
  set(view ${CMAKE_BINARY_DIR}/public/${target})
  file(REMOVE_RECURSE ${view})  # a header dropped from the list leaves no link behind
  foreach(header ${arg_UNPARSED_ARGUMENTS})
    set(source ${CMAKE_CURRENT_SOURCE_DIR}/${header})
    if(NOT EXISTS ${source})
      message(FATAL_ERROR "${target}: public header ${header} not found in ${CMAKE_CURRENT_SOURCE_DIR}")
    endif()
    file(MAKE_DIRECTORY ${view}/${folder})
    file(CREATE_LINK ${source} ${view}/${folder}/${header} SYMBOLIC)
    if(arg_INSTALLED)
      install(FILES ${source} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gobblet/${folder} COMPONENT development)
      set_property(GLOBAL APPEND PROPERTY GOBBLET_INSTALLED_HEADERS ${folder}/${header})
    endif()
  endforeach()
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${view}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/gobblet>)
endfunction()
