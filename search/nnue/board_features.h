// The net's input: what a 4x4 Gobblet position shows, seen by one player
// (the perspective), as a set of active features out of kFeatures.
//
//   index                      feature (own = the perspective's, their = the other's)
//   [  0, 128)  piece          rel * 64 + size * 16 + square: a piece on the square, covered or not
//   [128, 256)  top            128 + rel * 64 + size * 16 + square: the piece the square shows
//   [256, 288)  reserve        256 + rel * 16 + size * 4 + placed: how many of that size the player has placed (0..3)
//
// rel is 0 for the perspective's pieces and 1 for the other player's;
// squares are the engine's (a1 = 0, along the rank). A position and its
// colour swap give each perspective the same features, so a net fed the
// side to move's and the other side's sets is colour-blind by design.
// tools/nnue/train.py computes the same features (test: NnueFeatures.*).
//
// A move takes away at most three features and adds at most three
// (moveFeatures()), so the accumulator (network.h) is updated by those.
#pragma once

#include <cstdint>

#include "engine/board.h"
#include "engine/move.h"

namespace gobblet::nnue {

inline constexpr int kSquares = 16;
inline constexpr int kSizes = 4;
inline constexpr int kPieceFeatures = 2 * kSizes * kSquares;                        // 128
inline constexpr int kTopFeatures = 2 * kSizes * kSquares;                          // 128
inline constexpr int kReserveFeatures = 2 * kSizes * 4;                             // 32
inline constexpr int kFeatures = kPieceFeatures + kTopFeatures + kReserveFeatures;  // 288
inline constexpr int kMaxActive = 2 * 12 + kSquares + 2 * kSizes;                   // 48

// The variant the features describe.
inline bool describes(const Variant& v) { return v == Variant::gobblet(); }

struct FeatureList {
  uint16_t index[kMaxActive + 8];
  int size = 0;
  void add(int i) { index[size++] = static_cast<uint16_t>(i); }
};

// The features' indices (the table above), for `perspective`.
constexpr int pieceFeature(int player, int size, int square, int perspective) {
  return (player != perspective) * 64 + size * 16 + square;
}
constexpr int topFeature(int player, int size, int square, int perspective) {
  return kPieceFeatures + pieceFeature(player, size, square, perspective);
}
constexpr int reserveFeature(int player, int size, int placed, int perspective) {
  return kPieceFeatures + kTopFeatures + (player != perspective) * 16 + size * 4 + placed;
}

// Every active feature of `board` for `perspective` (0: player 1).
void activeFeatures(const Board& board, int perspective, FeatureList& out);
// The active features of one square (its pieces and its top), and of one
// player's reserve, for `perspective`.
void squareFeatures(const Board& board, int square, int perspective, FeatureList& out);
void reserveFeatures(const Board& board, int player, int perspective, FeatureList& out);

// The features a move takes away and adds, for `perspective`: the moved
// piece on its squares, the tops of the squares it leaves and lands on
// (the piece it uncovers, the one it covers), and a drop's reserve count;
// at most 3 each. `before` is the position the move is played in, `after`
// the one it gives.
void moveFeatures(const Board& before, const Board& after, Move move, int perspective, FeatureList& removed,
                  FeatureList& added);

}  // namespace gobblet::nnue
