# GOBBLET_ARCH=host (the release preset's: tools/setup.sh release, and so
# tools/start.sh and tools/test.sh): the best of x86-64-v3, x86-64-v2 and
# x86-64 that the configuring machine runs, found by running a small
# program now; from here on the build is that tier's, as if it were named
# (--version and `id name` say which). The Debian package's launcher picks
# among the same tiers at run time (tools/tier_launcher). x86-64-v4 is not
# picked: its bench ran slower than x86-64-v3's (docs/search.md, "Portable
# builds"). Binaries built so run on this machine and on others with its
# tier; a build for other machines names its tier.
# GOBBLET_HOST_TIER_FOUND says whether the machine was asked (the test
# instruction_set_host_tier checks the answer then).
set(GOBBLET_HOST_TIER_FOUND OFF CACHE INTERNAL "")
if(NOT GOBBLET_X86_64)
  set(GOBBLET_ARCH default)
  return()
endif()
if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  message(STATUS "gobblet: GOBBLET_ARCH=host: cross-compiling, so no machine to ask; building for x86-64-v2")
  set(GOBBLET_ARCH x86-64-v2)
  return()
endif()
set(gobblet_host_tier_source ${CMAKE_CURRENT_BINARY_DIR}/host_tier/host_tier.cpp)
file(WRITE ${gobblet_host_tier_source} [=[
#include <cstdio>
int main() {
  __builtin_cpu_init();
  std::puts(__builtin_cpu_supports("x86-64-v3")   ? "x86-64-v3"
            : __builtin_cpu_supports("x86-64-v2") ? "x86-64-v2"
                                                  : "x86-64");
}
]=])
try_run(gobblet_host_tier_ran gobblet_host_tier_built ${CMAKE_CURRENT_BINARY_DIR}/host_tier
        ${gobblet_host_tier_source} COMPILE_OUTPUT_VARIABLE gobblet_host_tier_compile
        RUN_OUTPUT_VARIABLE gobblet_host_tier)
string(STRIP "${gobblet_host_tier}" gobblet_host_tier)
if(NOT gobblet_host_tier_built)
  message(WARNING "GOBBLET_ARCH=host: the compiler does not take __builtin_cpu_supports(\"x86-64-v3\") "
                  "(GCC 12 or later does); building for x86-64-v2. The compiler said:\n${gobblet_host_tier_compile}")
  set(gobblet_host_tier x86-64-v2)
elseif(NOT gobblet_host_tier_ran EQUAL 0 OR NOT gobblet_host_tier MATCHES "^x86-64(-v[23])?$")
  message(WARNING "GOBBLET_ARCH=host: the probe of this machine's tier failed (${gobblet_host_tier_ran}: "
                  "'${gobblet_host_tier}'); building for x86-64-v2")
  set(gobblet_host_tier x86-64-v2)
else()
  set(GOBBLET_HOST_TIER_FOUND ON CACHE INTERNAL "")
  message(STATUS "gobblet: GOBBLET_ARCH=host is ${gobblet_host_tier} on this machine")
endif()
set(GOBBLET_ARCH ${gobblet_host_tier})
