// Where a test finds the programs it runs and the files of the source tree.
// (Functions, not compile definitions in every test: a test's object is then
// the same in every clone of the tree, and ccache gives it to the next one.)
#pragma once

#include <string>

namespace gobblet::testing {

// The folder of the running test program, which is the build's bin/ folder:
// every program of the build (gobblet, gobblet-tb, the fakes) lies beside it.
const std::string& binDir();
// The source tree the build was configured from (no slash at the end).
const std::string& sourceDir();

}  // namespace gobblet::testing
