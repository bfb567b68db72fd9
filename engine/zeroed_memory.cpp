#include "engine/zeroed_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace gobblet {

namespace {
constexpr size_t kHugePage = size_t{2} << 20;
}  // namespace

ZeroedMemory::~ZeroedMemory() { release(); }

ZeroedMemory::ZeroedMemory(ZeroedMemory&& other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)),
      mappingBytes_(std::exchange(other.mappingBytes_, 0)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

ZeroedMemory& ZeroedMemory::operator=(ZeroedMemory&& other) noexcept {
  if (this != &other) {
    release();
    mapping_ = std::exchange(other.mapping_, nullptr);
    mappingBytes_ = std::exchange(other.mappingBytes_, 0);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void ZeroedMemory::release() {
  if (mapping_) munmap(mapping_, mappingBytes_);
  mapping_ = data_ = nullptr;
  mappingBytes_ = size_ = 0;
}

absl::StatusOr<ZeroedMemory> ZeroedMemory::allocate(size_t bytes, const char* what) {
  bytes = bytes == 0 ? 1 : bytes;
  const auto refused = [&](const char* why) {
    return absl::ResourceExhaustedError(std::string(what) + " of " + std::to_string(bytes >> 20) + " MiB: " + why);
  };
  if (bytes > SIZE_MAX - kHugePage) return refused("too large");
  const size_t mappingBytes = bytes + kHugePage;  // room to align
  void* mapping = mmap(nullptr, mappingBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return refused("cannot allocate that much memory");
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(mapping) + kHugePage - 1) / kHugePage * kHugePage;
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
  ZeroedMemory block;
  block.mapping_ = mapping;
  block.mappingBytes_ = mappingBytes;
  block.data_ = reinterpret_cast<void*>(aligned);
  block.size_ = bytes;
  return block;
}

void ZeroedMemory::clear() {
#if defined(__EMSCRIPTEN__)
  constexpr bool kDontNeedZeroes = false;
#else
  constexpr bool kDontNeedZeroes = true;
#endif
  if (data_ && !(kDontNeedZeroes && madvise(mapping_, mappingBytes_, MADV_DONTNEED) == 0)) std::memset(data_, 0, size_);
}

}  // namespace gobblet
