// The build: gobblet's version and the instruction set its binaries were
// compiled for (CMake's GOBBLET_ARCH: x86-64-v2 unless the builder chose
// otherwise). Programs print it for --version and the engine in `id name`.
#pragma once

#include <string>

namespace gobblet {

// The version: the release, then after a "+" the commit built, so that two
// builds of other sources say other versions: "0.1.0+g0a0ab63c1d2e", with
// ".dirty" after it when the tree had changes not committed, or
// "0.1.0+unknown" from a copy with no git (cmake/version.cmake says all).
const char* versionNumber();
// The instruction-set tier: "x86-64-v2", "x86-64-v3", "native", ...
const char* instructionSet();
// "Gobblet 0.1.0+g0a0ab63c1d2e (x86-64-v2)": the engine's name as `id name`
// gives it.
std::string engineName();

}  // namespace gobblet
