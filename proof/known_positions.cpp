#include "proof/known_positions.h"

#include "engine/canonical.h"

namespace gobblet::proof {

std::optional<Certificate> KnownPositions::storedCertificate(const Board&) const { return std::nullopt; }

bool KnownPositions::holds(const Board&, int) const { return false; }

PackedPosition pack(const Board& board) {
  PackedPosition p;
  for (int s = 0; s < board.variant().sizes; ++s) {
    p.lo |= static_cast<uint64_t>(board.pieces(0, s)) << (16 * s);
    p.hi |= static_cast<uint64_t>(board.pieces(1, s)) << (16 * s);
  }
  p.stm = static_cast<uint8_t>(board.sideToMove());
  return p;
}

bool KnownPositionIndex::add(const Board& board, const KnownPosition& known) {
  if (board.variant() != variant_) return false;
  return map_.try_emplace(pack(canonicalBoard(board)), known).second;
}

std::optional<KnownPosition> KnownPositionIndex::find(const Board& board) const {
  if (map_.empty() || board.variant() != variant_) return std::nullopt;
  const auto it = map_.find(pack(canonicalBoard(board)));
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

}  // namespace gobblet::proof
