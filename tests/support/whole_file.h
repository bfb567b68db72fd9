// A file's whole contents as one string, and back: the tests' one way of
// reading a record, a log or a tablebase they wrote (or of damaging one).
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace gobblet {

// The bytes of `path`, or "" if it cannot be read.
inline std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Replaces the contents of `path` with `bytes`.
inline void writeWholeFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace gobblet
