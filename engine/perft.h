// Perft: the number of leaf positions at a given depth, counting legal moves
// (distinct by text), with no moves from a decided position and repetition
// ignored. The last ply is counted in bulk with countMoves().
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "engine/board.h"

namespace gobblet {

// The deepest perft the front ends accept (a server may allow less).
inline constexpr int kMaxPerftDepth = 64;

// `stop`, if given, is polled at every interior node: once it reads true
// the walk unwinds at once and the count returned is partial (meaningless);
// the caller knows, it set the flag. A relaxed load per generated move list
// costs nothing measurable.
uint64_t perft(Board& board, int depth, const std::atomic<bool>* stop = nullptr);

struct PerftResult {
  std::vector<std::pair<Move, uint64_t>> perMove;  // in generation order
  uint64_t total = 0;
};
// perft split by root move (the "divide" form). onRootMove, if given, hears
// each root move's count as soon as it is known. Once `stop` reads true the
// walk ends: perMove holds the root moves counted to the end, and total
// their sum.
PerftResult perftDivide(Board& board, int depth, const std::atomic<bool>* stop = nullptr,
                        const std::function<void(Move, uint64_t)>& onRootMove = nullptr);

}  // namespace gobblet
