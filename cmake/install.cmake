# cmake --install: the programs (bin/), the libraries of the six layers
# with their public headers, a CMake package (find_package(gobblet CONFIG)
# gives gobblet::rules, gobblet::tablebase, gobblet::proof, gobblet::search,
# gobblet::protocol and, where Boost was found, gobblet::server) and a
# pkg-config file per library, the docs and a man page per program
# (section 6). The server's targets are exported apart, so that the package
# asks for Boost only when gobblet::server is there.
# Components: "runtime" (programs, docs, man pages) and "development"
# (libraries, headers, the package); the Debian package (cmake/package.cmake)
# ships both.
include(CMakePackageConfigHelpers)

install(TARGETS gobblet_rules gobblet_tablebase gobblet_proof gobblet_search gobblet_protocol
        EXPORT gobbletTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
set(GOBBLET_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gobblet)
install(EXPORT gobbletTargets NAMESPACE gobblet:: DESTINATION ${GOBBLET_CMAKE_DIR} COMPONENT development)
if(TARGET gobblet_server)
  install(TARGETS gobblet_server EXPORT gobbletServerTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
  install(EXPORT gobbletServerTargets NAMESPACE gobblet:: DESTINATION ${GOBBLET_CMAKE_DIR} COMPONENT development)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gobbletConfig.cmake.in
  ${CMAKE_BINARY_DIR}/gobbletConfig.cmake INSTALL_DESTINATION ${GOBBLET_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gobbletConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gobbletConfig.cmake ${CMAKE_BINARY_DIR}/gobbletConfigVersion.cmake
        DESTINATION ${GOBBLET_CMAKE_DIR} COMPONENT development)

# A pkg-config file per library (gobblet-rules.pc, ...), relocatable: the
# prefix is found from the file's own folder. Each file names the whole of
# what its library needs: its own and the lower gobblet libraries, in link
# order, and the outside packages they require. (Not a Requires on the
# lower gobblet files: pkgconf then repeats abseil's -DNOMINMAX once for
# each path down to gobblet-rules.) Fields: library | the gobblet
# libraries it links, itself first | the packages required | description.
file(RELATIVE_PATH GOBBLET_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
set(gobblet_pc_absl "absl_status absl_statusor absl_strings")
set(GOBBLET_PC_LIBRARIES
  "rules|rules|${gobblet_pc_absl}|the rules core: variants, positions, moves, notation, games, perft"
  "tablebase|tablebase rules|${gobblet_pc_absl} libzstd|the 3x3 family's exact tablebases: build, probe, verify"
  "proof|proof rules|${gobblet_pc_absl}|proof-number search, proof certificates and their independent checker"
  "search|search tablebase rules|${gobblet_pc_absl} libzstd|the alpha-beta search and its evaluation"
  "protocol|protocol search tablebase proof rules|${gobblet_pc_absl} libzstd|the Engine every door drives, the UGI session and the option table")
if(TARGET gobblet_server)
  list(APPEND GOBBLET_PC_LIBRARIES
    "server|server protocol search tablebase proof rules|${gobblet_pc_absl} libzstd|UGI over TCP and the browser board over WebSocket (Boost)")
endif()
foreach(entry ${GOBBLET_PC_LIBRARIES})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 GOBBLET_PC_TARGET)
  list(GET fields 1 linked)
  list(GET fields 2 GOBBLET_PC_REQUIRES)
  list(GET fields 3 GOBBLET_PC_DESCRIPTION)
  string(REGEX REPLACE "([a-z]+)" "-lgobblet_\\1" GOBBLET_PC_LIBS "${linked}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/pkgconfig/gobblet.pc.in
                 ${CMAKE_BINARY_DIR}/pkgconfig/gobblet-${GOBBLET_PC_TARGET}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/gobblet-${GOBBLET_PC_TARGET}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
endforeach()

# The docs as they lie in the repository, so that their links work from the
# installed folder too: README.md and CONTRIBUTING.md, and every page of
# docs/ under docs/ (tools/package_check.sh checks every link there).
install(FILES README.md CONTRIBUTING.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
file(GLOB GOBBLET_DOC_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${GOBBLET_DOC_PAGES} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT runtime)
# The man pages compressed (gzip -9n: the same bytes each time), as Debian
# wants them and man reads them.
file(GLOB GOBBLET_MAN_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/*.6)
foreach(page ${GOBBLET_MAN_PAGES})
  get_filename_component(name ${page} NAME)
  set(compressed ${CMAKE_BINARY_DIR}/man/${name}.gz)
  add_custom_command(OUTPUT ${compressed}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND gzip -9nc ${page} > ${compressed}
    DEPENDS ${page} COMMENT "Compressing the man page ${name}")
  list(APPEND GOBBLET_MAN_PAGES_COMPRESSED ${compressed})
endforeach()
add_custom_target(gobblet_man_pages ALL DEPENDS ${GOBBLET_MAN_PAGES_COMPRESSED})
install(FILES ${GOBBLET_MAN_PAGES_COMPRESSED} DESTINATION ${CMAKE_INSTALL_MANDIR}/man6 COMPONENT runtime)
