// Board: a Gobblet position as bitboards.
//
// pieces_[player][size] is the Mask of squares holding a piece of that
// player and size (size 0 = S, the smallest). A square holds at most one
// piece of each size, and the pieces on it are nested by size, so the top
// of a square is its largest piece:
//
//   atLeast(s) = squares whose top is of size >= s   (either player)
//   visible(p) = squares whose top belongs to p
//
// Pieces never leave the board, so the supply is derived from it: in the
// 3x3 family a player may place any size with perSize - placed(p, s) > 0;
// in the 4x4 family a player's external stacks follow from the per-size
// counts on the board (see stackCounts()).
//
// Player 1 is index 0, player 2 index 1. The 64-bit key is a Zobrist hash of
// the pieces and the side to move, updated incrementally.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "engine/geometry.h"
#include "engine/move.h"
#include "engine/variant.h"
#include "engine/zobrist.h"

namespace gobblet {

inline constexpr int kNoWinner = -1;

class Board {
 public:
  // The start position of the variant (empty board, player 1 to move).
  explicit Board(const Variant& variant = Variant::gobblet());

  const Variant& variant() const { return variant_; }
  const Geometry& geometry() const { return *geometry_; }
  int sideToMove() const { return stm_; }
  uint64_t key() const { return key_; }

  Mask pieces(int player, int size) const { return pieces_[player][size]; }
  Mask sizeMask(int size) const { return pieces_[0][size] | pieces_[1][size]; }
  Mask occupied() const { return atLeast(0); }
  Mask atLeast(int size) const {
    Mask m = 0;
    for (int s = size; s < variant_.sizes; ++s) m |= sizeMask(s);
    return m;
  }
  Mask visible(int player) const {
    Mask covered = 0, vis = 0;
    for (int s = variant_.sizes - 1; s >= 0; --s) {
      vis |= pieces_[player][s] & ~covered;
      covered |= sizeMask(s);
    }
    return vis;
  }
  // Size of the top piece on a square, or -1 if empty; owner gets its player.
  int top(int square, int* owner = nullptr) const {
    for (int s = variant_.sizes - 1; s >= 0; --s)
      for (int p = 0; p < 2; ++p)
        if (pieces_[p][s] & bit(square)) {
          if (owner) *owner = p;
          return s;
        }
    return -1;
  }
  int placed(int player, int size) const { return std::popcount(pieces_[player][size]); }

  // The 4x4 family: stackCounts(p)[k] = how many of p's external stacks
  // (variant().stackCount()) hold k pieces (so show size k-1 on top),
  // k = 0..sizes (entries above sizes are 0). A stack holding k pieces holds
  // sizes 0..k-1, so the stacks with k <= s number placed(p, s).
  std::array<int, 5> stackCounts(int player) const;
  // Bit s set: the player may place a piece of size s from the supply.
  unsigned placeableSizes(int player) const;
  // Pieces of a size the player has not yet placed (3x3: perSize - placed;
  // 4x4: stacks - placed, of which only stack tops are placeable).
  int inHand(int player, int size) const { return variant_.perSize - placed(player, size); }

  // kNoWinner, or the player who has won: the side to move if it has a line
  // (it did not make the last move), else the other side if it has one.
  int winner() const {
    const Geometry& g = *geometry_;
    if (g.hasLine(visible(stm_))) return stm_;
    if (g.hasLine(visible(stm_ ^ 1))) return stm_ ^ 1;
    return kNoWinner;
  }

  // The squares of the winner's complete lines (0 when nobody has won): what
  // a front end highlights at the end of a game.
  Mask winningLineSquares() const {
    const int w = winner();
    if (w == kNoWinner) return 0;
    const Geometry& g = *geometry_;
    Mask squares = 0;
    for (int i = 0; i < g.numLines; ++i)
      if ((visible(w) & g.lines[i]) == g.lines[i]) squares |= g.lines[i];
    return squares;
  }

  void makeMove(Move m) {
    const auto& z = zobrist::kKeys;
    const int s = m.size();
    if (m.isDrop()) {
      pieces_[stm_][s] |= bit(m.to());
      key_ ^= z.piece[stm_][s][m.to()];
    } else {
      pieces_[stm_][s] ^= static_cast<Mask>(bit(m.from()) | bit(m.to()));
      key_ ^= z.piece[stm_][s][m.from()] ^ z.piece[stm_][s][m.to()];
    }
    stm_ ^= 1;
    key_ ^= z.side;
  }
  void unmakeMove(Move m) {
    stm_ ^= 1;
    key_ ^= zobrist::kKeys.side;
    const auto& z = zobrist::kKeys;
    const int s = m.size();
    if (m.isDrop()) {
      pieces_[stm_][s] &= static_cast<Mask>(~bit(m.to()));
      key_ ^= z.piece[stm_][s][m.to()];
    } else {
      pieces_[stm_][s] ^= static_cast<Mask>(bit(m.from()) | bit(m.to()));
      key_ ^= z.piece[stm_][s][m.from()] ^ z.piece[stm_][s][m.to()];
    }
  }

  // Low-level editing (used by the position parser and the tablebase); the
  // caller keeps the position valid. Keys are kept up to date.
  void addPiece(int player, int size, int square);
  void removePiece(int player, int size, int square);
  void setSideToMove(int player);
  void clear();

  // The position mapped by symmetry s (see Geometry::transform).
  Board transformed(int symmetry) const;
  // The position with the players' pieces exchanged; the side to move too.
  Board colorSwapped() const;

  // Does the board respect the variant's piece counts (3x3: at most perSize
  // of each size per player; 4x4: stack counts that three nested stacks can
  // produce)? Pieces are nested by construction of the masks.
  bool countsValid() const;

  uint64_t computeKey() const;

  friend bool operator==(const Board& a, const Board& b) {
    return a.variant_ == b.variant_ && a.stm_ == b.stm_ && a.pieces_ == b.pieces_;
  }

 private:
  std::array<std::array<Mask, kMaxSizes>, 2> pieces_{};
  uint64_t key_ = 0;
  const Geometry* geometry_;
  Variant variant_;
  uint8_t stm_ = 0;
};

}  // namespace gobblet
