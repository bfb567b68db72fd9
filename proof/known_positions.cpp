#include "proof/known_positions.h"

#include "engine/canonical.h"

namespace gobblet::proof {

std::optional<Certificate> KnownPositions::storedCertificate(const Board&) const { return std::nullopt; }

KnownPositionIndex::Key KnownPositionIndex::keyOf(const Board& board) {
  const Board c = canonicalBoard(board);
  Key k;
  for (int s = 0; s < c.variant().sizes; ++s) {
    k.lo |= static_cast<uint64_t>(c.pieces(0, s)) << (16 * s);
    k.hi |= static_cast<uint64_t>(c.pieces(1, s)) << (16 * s);
  }
  k.stm = static_cast<uint8_t>(c.sideToMove());
  return k;
}

bool KnownPositionIndex::add(const Board& board, const KnownPosition& known) {
  if (board.variant() != variant_) return false;
  return map_.try_emplace(keyOf(board), known).second;
}

std::optional<KnownPosition> KnownPositionIndex::find(const Board& board) const {
  if (map_.empty() || board.variant() != variant_) return std::nullopt;
  const auto it = map_.find(keyOf(board));
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

}  // namespace gobblet::proof
