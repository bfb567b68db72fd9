#include "tt.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"

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

// Its pages become resident as the search stores into them
// (engine/zeroed_memory.h).
absl::Status TranspositionTable::resize(size_t mib) {
  constexpr size_t kMaxMiB = size_t{1} << 30;  // 1 PiB: beyond this, (mib << 20) could overflow
  mib = std::max<size_t>(mib, 1);
  if (mib == mib_ && clusters_) {
    clear();
    return absl::OkStatus();
  }
  const auto failure = [&](absl::string_view why) {
    return absl::ResourceExhaustedError(absl::StrCat(why, "; keeping ", mib_, " MiB"));
  };
  if (mib > kMaxMiB) return failure(absl::StrCat("hash table of ", mib, " MiB: too large"));
  const size_t count = (mib << 20) / sizeof(Cluster);
  auto memory = ZeroedMemory::allocate(count * sizeof(Cluster), "hash table");
  if (!memory.ok()) return failure(memory.status().message());
  // Zero bytes are empty entries (as clear() relies on), so nothing is
  // written here: allocating is O(1), and a session that searches briefly
  // (or whose client hangs up at once) never pays for the whole table.
  static_assert(std::is_trivially_destructible_v<Cluster>);  // so releasing the memory alone ends them
  memory_ = std::move(*memory);
  clusters_ = static_cast<Cluster*>(memory_.data());
  count_ = count;
  mib_ = mib;
  generation_ = 0;
  return absl::OkStatus();
}

// Idle only, so plain memory changes are safe: the atomics are lock-free
// 64-bit words whose zero bytes are the value 0 (an empty entry).
void TranspositionTable::clear() {
  static_assert(std::atomic<uint64_t>::is_always_lock_free && sizeof(Entry) == 16);
  memory_.clear();
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
