// The accumulators of a search's line, one per ply, computed lazily: a
// move only records what its ply's accumulator needs (the board before it
// and the move), and at() computes the accumulator when the node is
// evaluated, by updates from the nearest computed ply up the line. Many
// nodes of a search never are evaluated (a win in 1, a repetition, a
// transposition-table cutoff, an inner node without a null move): their
// updates are never made. Those that are get the accumulator that an update
// at every move gives, and so the refreshed one (test: NnueAccumulatorStack).
#pragma once

#include <algorithm>
#include <vector>

#include "network.h"

namespace gobblet::nnue {

class AccumulatorStack {
 public:
  // An empty stack: start() makes it usable.
  AccumulatorStack() = default;

  // Plies 0..maxPly for the line from `root` (ply 0, computed at once)
  // with `net`, which must outlive the stack's use.
  void start(const Network& net, const Board& root, int maxPly);

  // The move from the position at `ply` (`before`) to the one at ply + 1;
  // Move::none() for a pass (the same pieces, the other side to move).
  // Forgets the accumulators of ply + 1 on; those of 0..ply stay.
  void push(int ply, const Board& before, Move move) {
    before_[ply] = before;
    move_[ply] = move;
    computedTo_ = std::min(computedTo_, ply);
  }

  // The accumulator of the position at `ply`, which is `board`: the last
  // pushes for plies 0..ply-1 must be the line to it.
  const Accumulator& at(int ply, const Board& board);

 private:
  const Network* net_ = nullptr;
  std::vector<Accumulator> accumulators_;  // per ply; valid for plies 0..computedTo_
  std::vector<Board> before_;              // per ply: the position (push's `before`)
  std::vector<Move> move_;                 // per ply: the move from it
  int computedTo_ = 0;
};

}  // namespace gobblet::nnue
