#include "tt.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

namespace gobblet {

namespace {

uint64_t pack(Move move, int score, int eval, int depth, Bound bound, uint8_t generation) {
  return uint64_t{move.raw()} | uint64_t{static_cast<uint16_t>(static_cast<int16_t>(score))} << 16 |
         uint64_t{static_cast<uint16_t>(static_cast<int16_t>(eval))} << 32 |
         uint64_t{static_cast<uint8_t>(std::clamp(depth, 0, 255))} << 48 |
         uint64_t{static_cast<uint8_t>(generation << 2 | bound)} << 56;
}

TTData unpack(uint64_t d) {
  TTData t;
  t.move = Move::fromRaw(static_cast<uint16_t>(d));
  t.score = static_cast<int16_t>(static_cast<uint16_t>(d >> 16));
  t.eval = static_cast<int16_t>(static_cast<uint16_t>(d >> 32));
  t.depth = static_cast<uint8_t>(d >> 48);
  t.bound = static_cast<Bound>((d >> 56) & 3);
  return t;
}

uint8_t generationOf(uint64_t d) { return static_cast<uint8_t>(d >> 58); }

}  // namespace

TranspositionTable::~TranspositionTable() { release(); }

void TranspositionTable::release() {
  if (mapping_) munmap(mapping_, mappingBytes_);
  mapping_ = nullptr;
  mappingBytes_ = 0;
  clusters_ = nullptr;
  count_ = mib_ = 0;
}

// The table is placed on a 2 MiB boundary and the kernel is asked for huge
// pages: random probes then miss the TLB far less often. Its pages become
// resident as the search stores into them.
absl::Status TranspositionTable::resize(size_t mib) {
  constexpr size_t kHugePage = size_t{2} << 20;
  constexpr size_t kMaxMiB = size_t{1} << 30;  // 1 PiB: beyond this, (mib << 20) could overflow
  mib = std::max<size_t>(mib, 1);
  if (mib == mib_ && clusters_) {
    clear();
    return absl::OkStatus();
  }
  const auto failure = [&](const char* why) {
    return absl::ResourceExhaustedError("hash table of " + std::to_string(mib) + " MiB: " + why + "; keeping " +
                                        std::to_string(mib_) + " MiB");
  };
  if (mib > kMaxMiB) return failure("too large");
  const size_t count = (mib << 20) / sizeof(Cluster);
  const size_t bytes = count * sizeof(Cluster) + kHugePage;  // room to align
  void* mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return failure("cannot allocate that much memory");
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(mapping) + kHugePage - 1) / kHugePage * kHugePage;
  madvise(reinterpret_cast<void*>(aligned), count * sizeof(Cluster), MADV_HUGEPAGE);
  Cluster* clusters = reinterpret_cast<Cluster*>(aligned);
  release();
  // A fresh anonymous mapping reads as zero bytes, and zero bytes are empty
  // entries (as clear() relies on), so nothing is written here: the kernel
  // supplies each page when the search first stores into it. Allocating is
  // then O(1), and a session that searches briefly (or whose client hangs
  // up at once) never pays for the whole table.
  static_assert(std::is_trivially_destructible_v<Cluster>);  // so munmap alone ends them
  mapping_ = mapping;
  mappingBytes_ = bytes;
  clusters_ = clusters;
  count_ = count;
  mib_ = mib;
  generation_ = 0;
  return absl::OkStatus();
}

// Idle only, so plain memory changes are safe: the atomics are lock-free
// 64-bit words whose zero bytes are the value 0 (an empty entry). The pages
// are handed back to the kernel (MADV_DONTNEED: a private anonymous page
// reads as zeros afterwards), so a new game neither writes the whole table
// nor keeps it resident; memset (a vector at a time; per-entry atomic stores
// were ~10% of a bench) if the kernel refuses, and always in WebAssembly,
// whose madvise does nothing yet says it succeeded (a new game there kept
// the old entries: tests/browser/static_site_test.py checks it).
void TranspositionTable::clear() {
  static_assert(std::atomic<uint64_t>::is_always_lock_free && sizeof(Entry) == 16);
#if defined(__EMSCRIPTEN__)
  constexpr bool kDontNeedZeroes = false;
#else
  constexpr bool kDontNeedZeroes = true;
#endif
  if (clusters_ && !(kDontNeedZeroes && madvise(mapping_, mappingBytes_, MADV_DONTNEED) == 0))
    std::memset(static_cast<void*>(clusters_), 0, count_ * sizeof(Cluster));
  generation_ = 0;
}

bool TranspositionTable::probe(uint64_t key, TTData& out) const {
  const Cluster& c = clusters_[index(key)];
  for (const Entry& e : c.entries) {
    const uint64_t data = e.data.load(std::memory_order_relaxed);
    if ((e.check.load(std::memory_order_relaxed) ^ data) == key && data != 0) {
      out = unpack(data);
      return true;
    }
  }
  return false;
}

void TranspositionTable::store(uint64_t key, Move move, int score, int eval, int depth, Bound bound) {
  Cluster& c = clusters_[index(key)];
  Entry* replace = nullptr;
  int worst = 1 << 30;
  for (Entry& e : c.entries) {
    const uint64_t data = e.data.load(std::memory_order_relaxed);
    const uint64_t check = e.check.load(std::memory_order_relaxed);
    if (data != 0 && (check ^ data) == key) {
      const TTData old = unpack(data);
      // Keep a much deeper result of this search unless the new one is exact.
      if (bound != kBoundExact && depth + 2 < old.depth && generationOf(data) == generation_) return;
      if (move.isNone()) move = old.move;
      replace = &e;
      break;
    }
    const int age = (generation_ - generationOf(data)) & 63;
    const int value = data == 0 ? -100000 : static_cast<int>((data >> 48) & 255) - 8 * age;
    if (value < worst) worst = value, replace = &e;
  }
  const uint64_t data = pack(move, score, eval, depth, bound, generation_);
  replace->data.store(data, std::memory_order_relaxed);
  replace->check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
  int used = 0, total = 0;
  for (size_t i = 0; i < count_ && total < 1000; ++i)
    for (const Entry& e : clusters_[i].entries) {
      const uint64_t data = e.data.load(std::memory_order_relaxed);
      used += data != 0 && generationOf(data) == generation_;
      ++total;
    }
  return total ? used * 1000 / total : 0;
}

}  // namespace gobblet
