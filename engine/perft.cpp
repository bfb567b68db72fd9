#include "engine/perft.h"

#include "engine/movegen.h"

namespace gobblet {

uint64_t perft(Board& board, int depth, const std::atomic<bool>* stop) {
  if (depth <= 0) return 1;
  if (depth == 1) return static_cast<uint64_t>(countMoves(board));
  if (stop && stop->load(std::memory_order_relaxed)) return 0;
  MoveList list;
  generateMoves(board, list);
  uint64_t nodes = 0;
  for (Move m : list) {
    board.makeMove(m);
    nodes += perft(board, depth - 1, stop);
    board.unmakeMove(m);
  }
  return nodes;
}

PerftResult perftDivide(Board& board, int depth, const std::atomic<bool>* stop,
                        const std::function<void(Move, uint64_t)>& onRootMove) {
  PerftResult result;
  if (depth <= 0) {
    result.total = 1;
    return result;
  }
  MoveList list;
  generateMoves(board, list);
  for (Move m : list) {
    board.makeMove(m);
    const uint64_t n = perft(board, depth - 1, stop);
    board.unmakeMove(m);
    if (stop && stop->load(std::memory_order_relaxed)) break;
    result.perMove.emplace_back(m, n);
    result.total += n;
    if (onRootMove) onRootMove(m, n);
  }
  return result;
}

}  // namespace gobblet
