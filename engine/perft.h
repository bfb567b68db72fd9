// Perft: the number of leaf positions at a given depth, counting legal moves
// (distinct by text), with no moves from a decided position and repetition
// ignored. The last ply is counted in bulk with countMoves().
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/board.h"

namespace gobblet {

uint64_t perft(Board& board, int depth);

struct PerftResult {
  std::vector<std::pair<Move, uint64_t>> perMove;  // in generation order
  uint64_t total = 0;
};
// perft split by root move (the "divide" form).
PerftResult perftDivide(Board& board, int depth);

}  // namespace gobblet
