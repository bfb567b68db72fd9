// Time management: turns the go limits into a soft limit (do not start
// another iteration after it, scaled by how stable the best move is) and a
// hard limit (the search is stopped there from inside the tree).
//
// With a clock: the time is split over movesToGo moves (in sudden death over
// tm_moves_to_go, 8: a 4x4 game lasts about 20 moves a side, and a move is
// given time for the moves left, not for a long game's), plus most of the
// increment; the hard limit is a few soft limits but never more than a
// fraction of what is left. Every clock limit already has MoveOverhead (the
// GUI/network delay) taken off, and the search keeps at least that much on
// the clock. A fixed `movetime` is
// searched whole: the search runs to its hard limit, T minus
// min(MoveOverhead, T / 10), and never stops early because another
// iteration would not finish (UCI: "search exactly x mseconds").
#pragma once

#include <cstdint>

#include "search/search.h"

namespace gobblet {

// Under `go movetime T` the search keeps back min(MoveOverhead, T / this).
inline constexpr int64_t kMoveTimeReserveDivisor = 10;

struct TimeBudget {
  int64_t softMs = -1;  // -1: no time limit
  int64_t hardMs = -1;
  // `go movetime`: the time is to be used, so no iteration is skipped for
  // want of time (the soft limit's early stop is for clocks only).
  bool wholeTime = false;
};

// side: the player to move (0 or 1).
TimeBudget computeTimeBudget(const SearchLimits& limits, int side, int64_t moveOverheadMs);

}  // namespace gobblet
