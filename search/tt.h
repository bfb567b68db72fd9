// TranspositionTable: a shared hash of searched positions.
//
// Layout: the table is an array of 64-byte clusters (one cache line), each
// holding four 16-byte entries. A position's cluster is chosen by the low
// bits of its 64-bit Zobrist key (multiply-shift over the cluster count, so
// any size works). Each entry is two 64-bit words:
//
//   check = key ^ data          (verifies the key and that both words belong
//                                together, so a torn write by another thread
//                                reads as a miss: the "lockless" XOR scheme)
//   data  = move:16 | score:16 | eval:16 | depth:8 | generation:6 | bound:2
//
// Both words are relaxed atomics: Lazy SMP threads share the table without
// locks, and a racing reader sees either a whole entry or a miss.
//
// Replacement (store()): the cluster's four entries are read in order.
//   - An entry of the same key takes the new result, unless the new result
//     is not exact (kBoundExact), its depth is more than 2 below the
//     entry's, and the entry was written in this search (its generation):
//     then nothing is stored. The new result without a move keeps the
//     entry's move.
//   - With no entry of the key, the first empty entry takes it; with none
//     empty, the entry with the lowest "depth - 8 * age" (the first of
//     them on a tie), age being the searches since it was written
//     (generations, counted modulo 64).
// The depth stored is clamped to 0..255 (kSolvedDepth: a solved result).
// Win/loss scores are stored relative to the node (distance from this
// position), and converted back to root-relative on probe (scoreToTT /
// scoreFromTT).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "engine/zeroed_memory.h"
#include "engine/move.h"

namespace gobblet {

// floor(key * count / 2^64) for a count below 2^32, from two 64-bit
// products (neither overflows: (2^32 - 1)^2 + 2^32 - 1 < 2^64).
constexpr uint64_t scaleKey(uint64_t key, uint32_t count) {
  const uint64_t low = (key & 0xffffffffu) * count;
  return ((key >> 32) * count + (low >> 32)) >> 32;
}

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

struct TTData {
  Move move;
  int score = 0;  // node-relative (convert with scoreFromTT)
  int eval = 0;
  int depth = 0;
  Bound bound = kBoundNone;
};

class TranspositionTable {
 public:
  // An empty table (no memory): resize() before the first probe or store.
  TranspositionTable() = default;
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Makes the table mib MiB (at least one cluster), empty. If that memory
  // cannot be had, returns ResourceExhausted and changes nothing: the old
  // table (size and entries) stays in use. The new table is mapped before
  // the old one is released. Not thread-safe: call only while no search runs.
  absl::Status resize(size_t mib);
  // Empties every entry. Not thread-safe (idle only).
  void clear();
  // Starts a new search: entries from earlier searches age.
  void newSearch() { generation_ = (generation_ + 1) & 63; }

  // Looks up key; returns true and fills out on a verified hit.
  bool probe(uint64_t key, TTData& out) const;
  // Stores a result for key (see replacement policy above).
  void store(uint64_t key, Move move, int score, int eval, int depth, Bound bound);

  // Entries of the current generation per mille, from the first 1000 entries.
  int hashfull() const;
  size_t clusterCount() const { return count_; }
  size_t sizeMiB() const { return mib_; }  // as given to the last successful resize(); 0 if empty

  void prefetch(uint64_t key) const { __builtin_prefetch(&clusters_[index(key)]); }

 private:
  struct Entry {
    std::atomic<uint64_t> check{0};
    std::atomic<uint64_t> data{0};
  };
  struct alignas(64) Cluster {
    Entry entries[4];
  };
  static_assert(sizeof(Cluster) == 64);

  // The cluster of `key`: floor(key * count_ / 2^64); scaleKey() where
  // size_t has 32 bits (WebAssembly: a 128-bit product is a call there).
  size_t index(uint64_t key) const {
    if constexpr (sizeof(size_t) == 4) {
      return static_cast<size_t>(scaleKey(key, static_cast<uint32_t>(count_)));
    } else {
      return static_cast<size_t>((static_cast<unsigned __int128>(key) * count_) >> 64);
    }
  }

  ZeroedMemory memory_;  // the clusters (engine/zeroed_memory.h)
  Cluster* clusters_ = nullptr;
  size_t count_ = 0;
  size_t mib_ = 0;
  uint8_t generation_ = 0;
};

// Win/loss scores: kMate - n is a win n plies from the root. The TT stores
// them as distances from the node itself.
inline constexpr int kMate = 30000;
inline constexpr int kMaxPly = 128;
inline constexpr int kMateBound = kMate - 2 * kMaxPly;  // |score| >= this: exact win/loss
inline constexpr int kInfinite = 31000;
// The depth stored for a solved result (one that depends on no horizon):
// it satisfies every depth the search may ask for.
inline constexpr int kSolvedDepth = 255;

inline int scoreToTT(int score, int ply) {
  return score >= kMateBound ? score + ply : score <= -kMateBound ? score - ply : score;
}
inline int scoreFromTT(int score, int ply) {
  return score >= kMateBound ? score - ply : score <= -kMateBound ? score + ply : score;
}

}  // namespace gobblet
