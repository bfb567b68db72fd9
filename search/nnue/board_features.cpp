#include "board_features.h"

namespace gobblet::nnue {

void squareFeatures(const Board& board, int square, int perspective, FeatureList& out) {
  int topOwner = -1;
  const int topSize = board.top(square, &topOwner);
  for (int size = 0; size < kSizes; ++size)
    for (int player = 0; player < 2; ++player)
      if (board.pieces(player, size) & bit(square)) out.add((player != perspective) * 64 + size * 16 + square);
  if (topSize >= 0) out.add(kPieceFeatures + (topOwner != perspective) * 64 + topSize * 16 + square);
}

void reserveFeatures(const Board& board, int player, int perspective, FeatureList& out) {
  for (int size = 0; size < kSizes; ++size)
    out.add(kPieceFeatures + kTopFeatures + (player != perspective) * 16 + size * 4 + board.placed(player, size));
}

void activeFeatures(const Board& board, int perspective, FeatureList& out) {
  out.size = 0;
  for (int square = 0; square < kSquares; ++square) squareFeatures(board, square, perspective, out);
  for (int player = 0; player < 2; ++player) reserveFeatures(board, player, perspective, out);
}

ChangedParts changedParts(const Board& before, Move move) {
  ChangedParts parts;
  parts.squares[0] = move.to();
  if (move.isDrop())
    parts.reservePlayer = before.sideToMove();
  else
    parts.squares[1] = move.from();
  return parts;
}

}  // namespace gobblet::nnue
