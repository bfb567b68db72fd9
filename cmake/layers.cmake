# The layers, and which of the project's libraries each may link: the
# configure step refuses a layer library that links any other gobblet
# library, so that no layer comes to depend on one beside or above it. (The
# header views, cmake/public_headers.cmake, keep a layer from including what
# it does not link; this keeps it from linking it.)
#
#   rules (engine/) <- tablebase <- search;  rules <- proof
#   search, proof <- protocol <- server;  rules <- match
#
# Each entry: "<library>|<the gobblet libraries it may link>". The programs
# (tools/), the tests and the Python module are above every layer and are
# not checked.
set(GOBBLET_LAYERS
  "gobblet_rules|"
  "gobblet_tablebase|gobblet_rules"
  "gobblet_tablebase_internals|gobblet_tablebase gobblet_rules"
  "gobblet_proof|gobblet_rules"
  "gobblet_search|gobblet_tablebase gobblet_rules"
  "gobblet_protocol|gobblet_search gobblet_tablebase gobblet_proof gobblet_rules"
  "gobblet_server|gobblet_protocol gobblet_search gobblet_tablebase gobblet_proof gobblet_rules"
  "gobblet_match|gobblet_rules"
  "gobblet_match_mpi|gobblet_match gobblet_rules")

# gobblet_check_layers(): after every library is declared. Each library of
# GOBBLET_LAYERS that exists is checked: every gobblet library it links
# (PUBLIC, PRIVATE or INTERFACE, by name or by its gobblet:: alias) must be
# one its entry names; else configuring fails, naming the library, what it
# links and what it may link.
function(gobblet_check_layers)
  foreach(entry ${GOBBLET_LAYERS})
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 library)
    list(LENGTH fields count)
    set(allowed "")
    if(count GREATER 1)
      list(GET fields 1 allowed)
      separate_arguments(allowed UNIX_COMMAND "${allowed}")
    endif()
    if(NOT TARGET ${library})
      continue()
    endif()
    get_target_property(type ${library} TYPE)
    set(links "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${library} LINK_LIBRARIES)
      if(direct)
        list(APPEND links ${direct})
      endif()
    endif()
    get_target_property(interface ${library} INTERFACE_LINK_LIBRARIES)
    if(interface)
      list(APPEND links ${interface})
    endif()
    # Names inside generator expressions ($<LINK_ONLY:gobblet_x>) count too.
    string(REGEX MATCHALL "gobblet(_|::)[A-Za-z0-9_]+" named "${links}")
    list(REMOVE_DUPLICATES named)
    foreach(name ${named})
      set(linked ${name})
      if(TARGET ${name})
        get_target_property(aliased ${name} ALIASED_TARGET)
        if(aliased)
          set(linked ${aliased})
        endif()
      endif()
      if(NOT linked IN_LIST allowed)
        string(REPLACE ";" " " allowed_text "${allowed}")
        if(allowed_text STREQUAL "")
          set(allowed_text "no gobblet library")
        endif()
        message(FATAL_ERROR "layering: ${library} links ${linked}, but may link only ${allowed_text} "
                            "(layers depend downward only: cmake/layers.cmake)")
      endif()
    endforeach()
  endforeach()
endfunction()
