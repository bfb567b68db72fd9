#include "board_features.h"

namespace gobblet::nnue {

void squareFeatures(const Board& board, int square, int perspective, FeatureList& out) {
  int topOwner = -1;
  const int topSize = board.top(square, &topOwner);
  for (int size = 0; size < kSizes; ++size)
    for (int player = 0; player < 2; ++player)
      if (board.pieces(player, size) & bit(square)) out.add(pieceFeature(player, size, square, perspective));
  if (topSize >= 0) out.add(topFeature(topOwner, topSize, square, perspective));
}

void reserveFeatures(const Board& board, int player, int perspective, FeatureList& out) {
  for (int size = 0; size < kSizes; ++size)
    out.add(reserveFeature(player, size, board.placed(player, size), perspective));
}

void activeFeatures(const Board& board, int perspective, FeatureList& out) {
  out.size = 0;
  for (int square = 0; square < kSquares; ++square) squareFeatures(board, square, perspective, out);
  for (int player = 0; player < 2; ++player) reserveFeatures(board, player, perspective, out);
}

void moveFeatures(const Board& before, const Board& after, Move move, int perspective, FeatureList& removed,
                  FeatureList& added) {
  removed.size = added.size = 0;
  const int mover = before.sideToMove(), to = move.to(), size = move.size();
  int owner = -1;
  if (move.isDrop()) {
    const int placed = before.placed(mover, size);
    removed.add(reserveFeature(mover, size, placed, perspective));
    added.add(reserveFeature(mover, size, placed + 1, perspective));
  } else {
    const int from = move.from();
    removed.add(pieceFeature(mover, size, from, perspective));
    removed.add(topFeature(mover, size, from, perspective));
    if (const int uncovered = after.top(from, &owner); uncovered >= 0)
      added.add(topFeature(owner, uncovered, from, perspective));
  }
  if (const int covered = before.top(to, &owner); covered >= 0)
    removed.add(topFeature(owner, covered, to, perspective));
  added.add(pieceFeature(mover, size, to, perspective));
  added.add(topFeature(mover, size, to, perspective));
}

}  // namespace gobblet::nnue
