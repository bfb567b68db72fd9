// ScratchDir: a fresh directory under ::testing::TempDir() (mkdtemp),
// removed with everything in it when the guard goes out of scope, also when
// the test fails. Tests running at the same time (two ctest runs, ctest -j)
// never share a file, and large files are never left behind.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

namespace gobblet::testing {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "gobblet_test") {
    std::error_code ec;
    std::filesystem::create_directories(::testing::TempDir(), ec);
    std::string pattern = (std::filesystem::path(::testing::TempDir()) / (prefix + "_XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp " << pattern << ": " << std::strerror(errno);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }

 private:
  std::string path_;
};

}  // namespace gobblet::testing
