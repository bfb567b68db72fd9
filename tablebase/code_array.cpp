#include "code_array.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace gobblet::tb {

namespace {

std::string gib(uint64_t bytes) { return absl::StrCat(static_cast<double>(bytes) / (1 << 30), " GiB"); }

// An unnamed file in `directory`, open for reading and writing: O_TMPFILE
// where the file system has it, else a file made and unlinked at once.
absl::StatusOr<int> openUnnamedFile(const std::string& directory) {
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    return absl::UnavailableError(
        absl::StrCat("cannot make a file for the codes in '", directory, "': ", std::strerror(errno)));
  std::string name = absl::StrCat(directory, "/gobblet-tb-codes.XXXXXX");
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    return absl::UnavailableError(
        absl::StrCat("cannot make a file for the codes in '", directory, "': ", std::strerror(errno)));
  if (::unlink(name.c_str()) != 0) {  // a file of tens of gigabytes must not be left behind
    const int error = errno;
    ::close(fd);
    return absl::UnavailableError(absl::StrCat("cannot unlink '", name, "': ", std::strerror(error)));
  }
  return fd;
}

}  // namespace

absl::StatusOr<CodeArray> CodeArray::inMemory(uint64_t size) {
  CodeArray a;
  a.size_ = size;
  if (size == 0) return a;
  // Pages are taken as they are first written (holes of the numbering and
  // unreached slices never are): a machine short of memory shows mid-solve,
  // so the caller checks the estimate first (gobblet-tb build does).
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    const int error = errno;
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot map ", gib(size), " for the codes: ", std::strerror(error)));
  }
  a.data_ = static_cast<uint8_t*>(p);
  return a;
}

absl::StatusOr<CodeArray> CodeArray::inFile(uint64_t size, const std::string& directory) {
  absl::StatusOr<int> fd = openUnnamedFile(directory.empty() ? "." : directory);
  if (!fd.ok()) return fd.status();
  CodeArray a;
  a.fd_ = *fd;
  a.size_ = size;
  if (size == 0) return a;
  // The file reads as zeros (kNoState). Its blocks are reserved now, so a
  // full disk shows here rather than as SIGBUS when a page is written back
  // (on ext4 and xfs; where the file system cannot reserve blocks the file
  // stays sparse, and gobblet-tb build checks the free space first).
  int error = ::posix_fallocate(a.fd_, 0, static_cast<off_t>(size));
  if (error == EINVAL || error == EOPNOTSUPP) error = ::ftruncate(a.fd_, static_cast<off_t>(size)) == 0 ? 0 : errno;
  if (error != 0)
    return absl::ResourceExhaustedError(absl::StrCat("cannot make a file of ", gib(size), " for the codes in '",
                                                     directory, "': ", std::strerror(error)));
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, a.fd_, 0);
  if (p == MAP_FAILED) {
    const int error = errno;
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot map the codes' file of ", gib(size), ": ", std::strerror(error)));
  }
  a.data_ = static_cast<uint8_t*>(p);
  return a;
}

CodeArray::~CodeArray() {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

CodeArray::CodeArray(CodeArray&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      fd_(std::exchange(other.fd_, -1)) {}

CodeArray& CodeArray::operator=(CodeArray&& other) noexcept {
  std::swap(data_, other.data_);  // what this held goes with `other`
  std::swap(size_, other.size_);
  std::swap(fd_, other.fd_);
  return *this;
}

void CodeArray::release(uint64_t first, uint64_t count) {
  constexpr uint64_t kPage = 4096;
  const uint64_t begin = (first + kPage - 1) / kPage * kPage, end = std::min(first + count, size_) / kPage * kPage;
  if (data_ == nullptr || begin >= end) return;
    // The mapping starts on a page (mmap), so offsets and addresses agree.
    // (Linux's calls; elsewhere, the WebAssembly build included, the pages
    // stay.)
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  if (fd_ >= 0)
    ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(begin),
                static_cast<off_t>(end - begin));
  else
    ::madvise(data_ + begin, end - begin, MADV_DONTNEED);
#endif
}

bool operator==(const CodeArray& a, const CodeArray& b) {
  return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_) == 0);
}

}  // namespace gobblet::tb
