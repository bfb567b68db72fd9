// EvalCache: a thread's small table of the net's recent evaluations,
// by position key. The same position is evaluated again and again in a
// search (transpositions at the horizon, where no transposition table
// entry is probed); a hit skips the net, and the accumulator updates it
// would need unless a node below is evaluated. An evaluation is a function
// of the position alone, so a hit gives the value the net would: the
// search's nodes are the same with the cache or without (the bench's
// signature).
//
// Layout: kEntries entries of 16 bytes, direct-mapped by the key's low
// bits; an entry holds the whole key, so a hit is the same position (up to
// the key's 64 bits, as in the transposition table). The table belongs to
// one thread: no atomics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gobblet {

class EvalCache {
 public:
  static constexpr size_t kEntries = size_t{1} << 13;  // 128 KiB

  // The value stored for `key` if there is one.
  bool probe(uint64_t key, int& value) const {
    const Entry& e = entries_[key & (kEntries - 1)];
    if (e.key != key || !e.used) return false;
    value = e.value;
    return true;
  }

  void store(uint64_t key, int value) { entries_[key & (kEntries - 1)] = Entry{key, value, true}; }

 private:
  struct Entry {
    uint64_t key = 0;
    int32_t value = 0;
    bool used = false;
  };
  std::unique_ptr<Entry[]> entries_ = std::make_unique<Entry[]>(kEntries);
};

}  // namespace gobblet
