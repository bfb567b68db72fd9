// The builder's answer: a value code (code.h) per number of the Index, all
// kNoState (0) to begin with, held in one of two places:
//
//   in memory   anonymous pages, taken as they are first written
//   in a file   an unnamed file in a directory of the caller's (it has no
//               name to leave behind, however the process ends), mapped
//               shared: its pages are the kernel's to keep or write out
//
// The file is for variants whose codes do not fit in memory (3x3:3,3,x: 43
// GB). The builder touches a few groups' codes at a time (a group and the
// groups one level up that its placements lead to), so the pages it is done
// with are written out and leave memory while it goes on.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace gobblet::tb {

class CodeArray {
 public:
  CodeArray() = default;
  static absl::StatusOr<CodeArray> inMemory(uint64_t size);
  static absl::StatusOr<CodeArray> inFile(uint64_t size, const std::string& directory);
  // In memory if `directory` is empty, else in a file there: the one choice
  // the builder and the verifier's decoding both make.
  static absl::StatusOr<CodeArray> inMemoryOrFile(uint64_t size, const std::string& directory) {
    return directory.empty() ? inMemory(size) : inFile(size, directory);
  }
  ~CodeArray();
  CodeArray(CodeArray&& other) noexcept;
  CodeArray& operator=(CodeArray&& other) noexcept;
  CodeArray(const CodeArray&) = delete;
  CodeArray& operator=(const CodeArray&) = delete;

  uint64_t size() const { return size_; }
  bool backedByFile() const { return fd_ >= 0; }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  uint8_t& operator[](uint64_t i) { return data_[i]; }
  uint8_t operator[](uint64_t i) const { return data_[i]; }
  uint8_t* begin() { return data_; }
  uint8_t* end() { return data_ + size_; }
  const uint8_t* begin() const { return data_; }
  const uint8_t* end() const { return data_ + size_; }
  // Lets go of the whole pages within bytes first..first+count-1 (of the
  // memory, or of the file: its blocks freed), which read as zeros again;
  // where that cannot be done they keep what they hold.
  void release(uint64_t first, uint64_t count);
  friend bool operator==(const CodeArray& a, const CodeArray& b);

 private:
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  int fd_ = -1;  // the file's, -1 in memory
};

}  // namespace gobblet::tb
