// BruteSolver: an independent, deliberately simple solver of small variants
// of either family (3x3, and the 4x4 family's small members), used by the
// tests to check the tablebase builders state by state.
//
// It shares no code with the builders (tablebase/): states are Boards normalised
// by hand (colours swapped so that player 1 is to move, then the smallest of
// the 8 symmetric images by a packed key: 54 bits on 3x3, 128 on 4x4), found
// by a breadth-first walk from the start with a hash map (abseil's), and solved
// by a plain fixpoint by
// distance: at round d a state is a win if some move leads to a loss in
// d-1, a loss if every move leads to a win and the longest is d-1. States
// never settled are draws (neither side can force a win), as are
// undecided positions without a legal move.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"

#include "engine/board.h"
#include "engine/variant.h"

namespace gobblet::testing {

struct BruteValue {
  int value = 0;     // +1 win, 0 draw, -1 loss for the side to move
  int distance = 0;  // plies to the end with optimal play; 0 for draws and decided states
  friend bool operator==(const BruteValue&, const BruteValue&) = default;
};

class BruteSolver {
 public:
  // Solves every state reachable from the start of `variant` (small enough
  // to hold a few million Boards in memory).
  explicit BruteSolver(const Variant& variant);

  int64_t states() const { return static_cast<int64_t>(boards_.size()); }
  int64_t decided() const { return decided_; }  // states where the game is over
  int64_t wins() const { return wins_; }
  int64_t draws() const { return draws_; }
  int64_t losses() const { return losses_; }
  BruteValue start() const { return values_[0]; }

  // The value of any reachable position; found = false if it is not one.
  BruteValue value(const Board& board, bool* found = nullptr) const;
  // Every reachable state, as a Board with player 1 to move.
  const std::vector<Board>& boards() const { return boards_; }
  const std::vector<BruteValue>& values() const { return values_; }

  // The normalised key of a position (same for colour swap + side to move
  // and for the 8 symmetries): stateKey for 3x3 positions, key for either.
  static uint64_t stateKey(const Board& board);
  using Key = unsigned __int128;
  static Key key(const Board& board);

 private:
  struct KeyHash {
    size_t operator()(Key k) const {
      // (Every bit mixed in: the map takes a slot from the high bits of
      // the hash and a tag from its low 7.)
      uint64_t x = static_cast<uint64_t>(k) ^ static_cast<uint64_t>(k >> 64) * 0x9e3779b97f4a7c15ull;
      x = (x ^ x >> 31) * 0xbf58476d1ce4e5b9ull;
      return x ^ x >> 29;
    }
  };
  std::vector<Board> boards_;
  std::vector<BruteValue> values_;
  absl::flat_hash_map<Key, int32_t, KeyHash> index_;
  int64_t decided_ = 0, wins_ = 0, draws_ = 0, losses_ = 0;
};

}  // namespace gobblet::testing
