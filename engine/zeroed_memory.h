// ZeroedMemory: a large block of memory that reads as zero bytes until it
// is written, for the tables a client sizes (the search's transposition
// table, the prover's table).
//
// The block is an anonymous mapping: taking it is O(1) (the kernel supplies
// each page when it is first written, so a table is never filled up front
// and a short search never pays for the whole of it), a refusal is a plain
// error (also under the sanitizers, whose malloc aborts instead of
// throwing), and clear() hands the pages back. The block starts on a 2 MiB
// boundary, and the kernel is asked for huge pages: random probes then miss
// the TLB far less often.
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"

namespace gobblet {

class ZeroedMemory {
 public:
  ZeroedMemory() = default;  // no block
  ~ZeroedMemory();
  ZeroedMemory(ZeroedMemory&& other) noexcept;
  ZeroedMemory& operator=(ZeroedMemory&& other) noexcept;
  ZeroedMemory(const ZeroedMemory&) = delete;
  ZeroedMemory& operator=(const ZeroedMemory&) = delete;

  // A block of `bytes` bytes (at least 1), every one zero; ResourceExhausted
  // (with `what` and the size in the message) if the kernel refuses it.
  static absl::StatusOr<ZeroedMemory> allocate(size_t bytes, const char* what);

  void* data() const { return data_; }
  size_t size() const { return size_; }

  // Makes every byte zero again: the pages are handed back to the kernel
  // (a private anonymous page reads as zeros afterwards), so that neither
  // writing the block nor keeping it resident is paid for; memset where the
  // kernel refuses, and always in WebAssembly, whose madvise does nothing
  // yet says it succeeded. Not thread-safe.
  void clear();

 private:
  void release();
  void* mapping_ = nullptr;  // what mmap gave (data_ lies inside it, aligned)
  size_t mappingBytes_ = 0;
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gobblet
