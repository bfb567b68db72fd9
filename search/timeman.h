// Time management: turns the go limits into a soft limit (do not start
// another iteration after it, scaled by how stable the best move is) and a
// hard limit (the search is stopped there from inside the tree).
//
// With a clock: the time is split over movesToGo moves (or an expected 25
// more moves in sudden death), plus most of the increment; the hard limit is
// a few soft limits but never more than a fraction of what is left. Every
// clock limit already has MoveOverhead (the GUI/network delay) taken off, and
// the search keeps at least that much on the clock. A fixed `movetime` is
// searched whole but for a tenth at most.
#pragma once

#include <cstdint>

#include "search/search.h"

namespace gobblet {

// Under `go movetime T` the search keeps back min(MoveOverhead, T / this).
inline constexpr int64_t kMoveTimeReserveDivisor = 10;

struct TimeBudget {
  int64_t softMs = -1;  // -1: no time limit
  int64_t hardMs = -1;
};

// side: the player to move (0 or 1).
TimeBudget computeTimeBudget(const SearchLimits& limits, int side, int64_t moveOverheadMs);

}  // namespace gobblet
