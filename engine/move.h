// Move: a placement from the supply ("L@b2") or a board move ("a1b2").
//
// Packed in 16 bits:  bit 11: valid | bit 10: drop | bits 8-9: size |
//                     bits 4-7: from square | bits 0-3: to square.
// The size of a board move is the size of the piece it lifts, so that
// unmaking needs nothing but the move itself.
#pragma once

#include <array>
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
  void push(Move m) { moves_[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  Move& operator[](int i) { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  Move* begin() { return moves_.data(); }
  Move* end() { return moves_.data() + size_; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
  void clear() { size_ = 0; }

 private:
  std::array<Move, kCapacity> moves_;
  int size_ = 0;
};

}  // namespace gobblet
