#include "tests/support/paths.h"

#include <cstdlib>
#include <filesystem>

namespace gobblet::testing {

const std::string& binDir() {
  static const std::string dir = [] {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec || self.empty()) std::abort();  // (Linux only, as the tests' processes are)
    return self.parent_path().string();
  }();
  return dir;
}

const std::string& sourceDir() {
  // GOBBLET_SOURCE_DIR: this file's own compile definition (tests/CMakeLists.txt).
  static const std::string dir = GOBBLET_SOURCE_DIR;
  return dir;
}

}  // namespace gobblet::testing
