# The WebAssembly build (docs/wasm.md): the rules core, the tablebase, the
# search and the UGI session compiled by Debian's emscripten into one
# engine for a Web Worker, and the static site (the board plus that engine)
# in <build>/site. Configured by `tools/setup.sh wasm`:
#   emcmake cmake -S . -B build/wasm -DGOBBLET_ABSEIL_SOURCE=... -DGOBBLET_ZSTD_SOURCE=...
# abseil and zstd are compiled here from Debian's own sources of the
# versions the native build links (`apt-get source abseil libzstd`, which
# tools/setup.sh fetches before any build: nothing is downloaded here).
# No threads (no shared memory: the site must work from any static host,
# which sends no cross-origin isolation headers): search/host_yield.h.
set(GOBBLET_ABSEIL_SOURCE "" CACHE PATH "abseil's source tree (apt-get source abseil)")
set(GOBBLET_ZSTD_SOURCE "" CACHE PATH "zstd's source tree (apt-get source libzstd)")
foreach(source GOBBLET_ABSEIL_SOURCE GOBBLET_ZSTD_SOURCE)
  if(NOT EXISTS "${${source}}/CMakeLists.txt" AND NOT EXISTS "${${source}}/lib/zstd.h")
    message(FATAL_ERROR "${source}=${${source}}: not a source tree (`tools/setup.sh wasm` fetches it)")
  endif()
endforeach()
enable_language(C)

# abseil: only the libraries the rules core links (status, statusor, strings).
set(ABSL_PROPAGATE_CXX_STD ON)
set(BUILD_TESTING OFF)
add_subdirectory(${GOBBLET_ABSEIL_SOURCE} abseil EXCLUDE_FROM_ALL)
# Debian's abseil links every library with "-Wl,--push-state,--as-needed
# -latomic -Wl,--pop-state" (its patch latomic.diff), which wasm-ld does not
# take and WebAssembly does not need: taken out of every abseil target.
function(gobblet_drop_latomic dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(libs ${t} INTERFACE_LINK_LIBRARIES)
      if(libs)
        list(FILTER libs EXCLUDE REGEX "atomic|push-state|pop-state")
        set_target_properties(${t} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
      endif()
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    gobblet_drop_latomic(${sub})
  endforeach()
endfunction()
gobblet_drop_latomic(${GOBBLET_ABSEIL_SOURCE})

# zstd: the library's C sources (decoding for the probe; encoding and
# dictionary training because the tablebase library also writes files).
file(GLOB GOBBLET_ZSTD_SOURCES ${GOBBLET_ZSTD_SOURCE}/lib/common/*.c ${GOBBLET_ZSTD_SOURCE}/lib/compress/*.c
     ${GOBBLET_ZSTD_SOURCE}/lib/decompress/*.c ${GOBBLET_ZSTD_SOURCE}/lib/dictBuilder/*.c)
add_library(gobblet_zstd STATIC ${GOBBLET_ZSTD_SOURCES})
target_include_directories(gobblet_zstd SYSTEM PUBLIC ${GOBBLET_ZSTD_SOURCE}/lib)
target_compile_definitions(gobblet_zstd PRIVATE ZSTD_DISABLE_ASM)
target_compile_options(gobblet_zstd PRIVATE -w)
add_library(zstd::libzstd_shared ALIAS gobblet_zstd)

# Profile-guided optimisation of the project's own code (docs/wasm.md):
# the counts of the native bench run that `tools/setup.sh wasm` makes with
# the same clang. Its checksum is in the flags, so that a new profile
# recompiles what the old one shaped.
set(GOBBLET_WASM_PROFILE "" CACHE FILEPATH "clang profile (.profdata) of gobblet-bench (tools/setup.sh wasm)")
if(GOBBLET_WASM_PROFILE)
  if(NOT EXISTS "${GOBBLET_WASM_PROFILE}")
    message(FATAL_ERROR "GOBBLET_WASM_PROFILE=${GOBBLET_WASM_PROFILE}: no such file (`tools/setup.sh wasm` makes it)")
  endif()
  file(MD5 "${GOBBLET_WASM_PROFILE}" profile_md5)
  # Files the bench does not run (the protocol's, the tablebase builder's)
  # have no counts: said once here rather than per file.
  # The flag names the file relative to the build folder, where Ninja runs
  # every compile: the same flags in every clone, so that ccache's key is
  # too (an absolute path there missed in each new clone, as CI makes).
  set(profile_path ${GOBBLET_WASM_PROFILE})
  if(CMAKE_GENERATOR MATCHES "Ninja")
    file(RELATIVE_PATH profile_path ${CMAKE_BINARY_DIR} ${GOBBLET_WASM_PROFILE})
  endif()
  add_compile_options(-fprofile-instr-use=${profile_path} -Wno-profile-instr-unprofiled
                      -Wno-profile-instr-out-of-date)
  add_compile_definitions(GOBBLET_WASM_PROFILE_MD5=${profile_md5})
endif()

# WebAssembly SIMD for the project's code (the net's sums in
# search/nnue/network.cpp; the worker tells a browser without it).
add_compile_options(-msimd128)
add_link_options(-msimd128)

find_package(Threads REQUIRED)  # (the headers; no thread is ever started)
include(cmake/public_headers.cmake)
set(GOBBLET_ARCH wasm32)  # (the name in --version and `id name`)
add_subdirectory(engine)
add_subdirectory(tablebase)
add_subdirectory(proof)
add_subdirectory(search)
add_subdirectory(protocol)
add_subdirectory(tools/wasm)
