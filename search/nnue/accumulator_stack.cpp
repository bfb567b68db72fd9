#include "accumulator_stack.h"

namespace gobblet::nnue {

void AccumulatorStack::start(const Network& net, const Board& root, int maxPly) {
  net_ = &net;
  const size_t plies = static_cast<size_t>(maxPly) + 1;
  accumulators_.resize(plies);
  before_.resize(plies);
  move_.resize(plies);
  refreshAccumulator(net, root, accumulators_[0]);
  computedTo_ = 0;
}

const Accumulator& AccumulatorStack::at(int ply, const Board& board) {
  for (int p = computedTo_; p < ply; ++p) {
    if (move_[p].isNone()) {
      accumulators_[p + 1] = accumulators_[p];  // a pass
    } else {
      const Board& after = p + 1 == ply ? board : before_[p + 1];
      updateAccumulator(*net_, before_[p], after, move_[p], accumulators_[p], accumulators_[p + 1]);
    }
  }
  computedTo_ = std::max(computedTo_, ply);
  return accumulators_[ply];
}

}  // namespace gobblet::nnue
