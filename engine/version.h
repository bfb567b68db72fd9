// The build: gobblet's version and the instruction set its binaries were
// compiled for (CMake's GOBBLET_ARCH: x86-64-v2 unless the builder chose
// otherwise). Programs print it for --version and the engine in `id name`.
#pragma once

#include <string>

namespace gobblet {

// "0.1.0".
const char* versionNumber();
// The instruction-set tier: "x86-64-v2", "x86-64-v3", "native", ...
const char* instructionSet();
// "Gobblet 0.1.0 (x86-64-v2)": the engine's name as `id name` gives it.
std::string engineName();

}  // namespace gobblet
