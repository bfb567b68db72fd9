// ProofTable: the transposition table the proof-number search shares
// between its threads, of bounded memory.
//
// An entry holds one position exactly (its pieces packed in 128 bits and
// the side to move), so a hash collision can never lend a position the
// proof of another: the 64-bit Board::key() only chooses the bucket.
//
//   entry (32 bytes):
//   +---------+---------+------+------+--------+--------+-----+-----+
//   | lo (8)  | hi (8)  | pn 4 | dn 4 | work 4 | dist 2 | tag | pad |
//   +---------+---------+------+------+--------+--------+-----+-----+
//   lo: player 1's masks, size s in bits 16s..16s+15; hi: player 2's.
//   tag: bit 0 side to move, bit 1 the attacker, bit 2 GHI (a disproof
//   that depends on the path), bit 7 used.
//
// Four entries make a bucket; a bucket is guarded by one of kLocks mutexes.
// A new position replaces, in its bucket, an empty entry, else the
// unproved entry with the least work (nodes searched below it), else the
// proved one with the least work: proofs are kept longest, since the
// certificate is read back from them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/zeroed_memory.h"
#include "proof/known_positions.h"

namespace gobblet::proof {

inline constexpr uint32_t kInfinity = 1u << 30;  // pn or dn of a decided node

// The proof and disproof numbers of a node, for one attacker.
//   pn == 0: proved (the attacker wins; dist: plies to the win under the
//            proof found, an upper bound);
//   dn == 0: disproved (the attacker cannot win); ghi: the disproof used a
//            repetition or the depth limit on some path, so it holds for
//            that path only.
struct ProofValue {
  uint32_t pn = 1, dn = 1;
  uint16_t dist = 0;
  bool ghi = false;
  bool proved() const { return pn == 0; }
  bool disproved() const { return dn == 0; }
  bool decided() const { return pn == 0 || dn == 0; }
};

class ProofTable {
 public:
  // A table of at most `mebibytes` MiB (at least one bucket), every entry
  // empty; ResourceExhausted if that memory cannot be had. Taking it costs
  // nothing up front: a page is supplied when a store first writes it
  // (engine/zeroed_memory.h), so a stopped proof answers at once.
  static absl::StatusOr<std::unique_ptr<ProofTable>> create(size_t mebibytes);

  // The value stored for `board` with `attacker` attacking; false if none.
  bool lookup(const Board& board, int attacker, ProofValue* value) const;
  // Stores (or replaces) the value of `board`; `work` is the nodes searched below it.
  void store(const Board& board, int attacker, const ProofValue& value, uint64_t work);

  // Starts loading the bucket of a position with this key into the cache.
  void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[key & (bucketCount_ - 1)]); }

  size_t entries() const { return bucketCount_ * kWays; }

 private:
  ProofTable() = default;
  static constexpr int kWays = 4, kLocks = 4096;
  // All zero bytes: an empty entry (the memory starts so).
  struct Entry {
    uint64_t lo = 0, hi = 0;
    uint32_t pn = 0, dn = 0, work = 0;
    uint16_t dist = 0;
    uint8_t tag = 0, pad = 0;
  };
  struct alignas(64) Bucket {
    std::array<Entry, kWays> entries;
  };
  static constexpr uint8_t kUsed = 0x80, kGhi = 4;

  static uint8_t tagOf(const Board& board, int attacker) {
    return static_cast<uint8_t>(kUsed | board.sideToMove() | attacker << 1);
  }
  size_t bucketOf(const Board& board) const { return board.key() & (bucketCount_ - 1); }

  ZeroedMemory memory_;
  Bucket* buckets_ = nullptr;  // in memory_
  size_t bucketCount_ = 0;     // a power of two
  std::unique_ptr<std::mutex[]> locks_;
};

}  // namespace gobblet::proof
