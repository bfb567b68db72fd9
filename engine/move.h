// Move: a placement from the supply ("L@b2") or a board move ("a1b2").
//
// Packed in 16 bits:  bit 11: valid | bit 10: drop | bits 8-9: size |
//                     bits 4-7: from square | bits 0-3: to square.
// The size of a board move is the size of the piece it lifts, so that
// unmaking needs nothing but the move itself.
#pragma once

#include <cstdint>

namespace gobblet {

class Move {
 public:
  constexpr Move() = default;
  static constexpr Move drop(int size, int to) { return Move(static_cast<uint16_t>(kValid | kDrop | size << 8 | to)); }
  static constexpr Move boardMove(int size, int from, int to) {
    return Move(static_cast<uint16_t>(kValid | size << 8 | from << 4 | to));
  }
  static constexpr Move none() { return Move(); }
  static constexpr Move fromRaw(uint16_t raw) { return Move(raw); }

  constexpr bool isNone() const { return bits_ == 0; }
  constexpr bool isDrop() const { return (bits_ & kDrop) != 0; }
  constexpr int size() const { return (bits_ >> 8) & 3; }
  constexpr int from() const { return (bits_ >> 4) & 15; }
  constexpr int to() const { return bits_ & 15; }
  constexpr uint16_t raw() const { return bits_; }

  friend constexpr bool operator==(Move a, Move b) { return a.bits_ == b.bits_; }

 private:
  static constexpr uint16_t kValid = 1u << 11, kDrop = 1u << 10;
  explicit constexpr Move(uint16_t bits) : bits_(bits) {}
  uint16_t bits_ = 0;
};

// A fixed-capacity list of moves (the largest 4x4 position has well under 256).
class MoveList {
 public:
  static constexpr int kCapacity = 256;
  void push(Move m) { slots_.moves[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return slots_.moves[i]; }
  Move& operator[](int i) { return slots_.moves[i]; }
  const Move* begin() const { return slots_.moves; }
  const Move* end() const { return slots_.moves + size_; }
  Move* begin() { return slots_.moves; }
  Move* end() { return slots_.moves + size_; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
  void clear() { size_ = 0; }

 private:
  // Left uninitialised (only the first size_ are ever read): a list is made
  // at every node of a search, and filling its 512 bytes with Move() each
  // time was a memset call per list in the WebAssembly engine.
  union Slots {
    Slots() {}
    Move moves[kCapacity];
  } slots_;
  int size_ = 0;
};

}  // namespace gobblet
