#include "engine/version.h"

#ifndef GOBBLET_VERSION
#error "GOBBLET_VERSION is set by engine/CMakeLists.txt"
#endif
#ifndef GOBBLET_ARCH_NAME
#error "GOBBLET_ARCH_NAME is set by engine/CMakeLists.txt"
#endif

namespace gobblet {

const char* versionNumber() { return GOBBLET_VERSION; }
const char* instructionSet() { return GOBBLET_ARCH_NAME; }
std::string engineName() { return std::string("Gobblet ") + GOBBLET_VERSION + " (" + GOBBLET_ARCH_NAME + ")"; }

}  // namespace gobblet
