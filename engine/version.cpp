#include "engine/version.h"

// GOBBLET_VERSION: written at each build by cmake/version.cmake.
#include "version_text.h"

#ifndef GOBBLET_VERSION
#error "GOBBLET_VERSION is written into version_text.h by cmake/version.cmake (engine/CMakeLists.txt)"
#endif
#ifndef GOBBLET_ARCH_NAME
#error "GOBBLET_ARCH_NAME is set by engine/CMakeLists.txt"
#endif

namespace gobblet {

const char* versionNumber() { return GOBBLET_VERSION; }
const char* instructionSet() { return GOBBLET_ARCH_NAME; }
std::string engineName() { return std::string("Gobblet ") + GOBBLET_VERSION + " (" + GOBBLET_ARCH_NAME + ")"; }

}  // namespace gobblet
