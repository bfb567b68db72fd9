#include "search/tt.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

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

void TranspositionTable::Free::operator()(Cluster* p) const { std::free(p); }

// The table is allocated on a 2 MiB boundary and the kernel is asked for
// huge pages: random probes then miss the TLB far less often.
void TranspositionTable::resize(size_t mib) {
  const size_t count = std::max<size_t>(1, (mib << 20) / sizeof(Cluster));
  if (count != count_) {
    clusters_.reset();
    constexpr size_t kHugePage = size_t{2} << 20;
    const size_t bytes = (count * sizeof(Cluster) + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, bytes);
    if (!memory) throw std::bad_alloc();
    madvise(memory, bytes, MADV_HUGEPAGE);
    Cluster* clusters = static_cast<Cluster*>(memory);
    for (size_t i = 0; i < count; ++i) new (&clusters[i]) Cluster;  // trivially destructible
    clusters_.reset(clusters);
    count_ = count;
  }
  clear();
}

void TranspositionTable::clear() {
  for (size_t i = 0; i < count_; ++i)
    for (Entry& e : clusters_[i].entries) {
      e.check.store(0, std::memory_order_relaxed);
      e.data.store(0, std::memory_order_relaxed);
    }
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
