#include "timeman.h"

#include <algorithm>

#include "search/search_params.h"

namespace gobblet {

TimeBudget computeTimeBudget(const SearchLimits& limits, int side, int64_t overhead) {
  TimeBudget b;
  overhead = std::max<int64_t>(0, overhead);
  if (limits.infinite) return b;
  if (limits.moveTime >= 0) {
    // The overhead protects a clock; a fixed time per move only needs the
    // answer to arrive in time, so at most a tenth of it is kept back
    // (`go movetime 10` with MoveOverhead 30 searches 9 ms, not 1 ms).
    b.softMs = b.hardMs =
        std::max<int64_t>(1, limits.moveTime - std::min(overhead, limits.moveTime / kMoveTimeReserveDivisor));
    b.wholeTime = true;
    return b;
  }
  const int64_t left = limits.time[side];
  if (left < 0) return b;
  const int64_t inc = std::max<int64_t>(0, limits.inc[side]);
  // What may be spent at most, keeping the overhead (and a little more) in hand.
  const int64_t usable = std::max<int64_t>(1, left - overhead - std::min<int64_t>(left / 20, 50));
  const SearchParams& params = searchParams();
  const int movesToGo = limits.movesToGo > 0 ? std::min(limits.movesToGo, 40) : params.tmMovesToGo;
  int64_t soft = left / movesToGo + inc * params.tmIncPercent / 100 - overhead;
  if (limits.movesToGo == 1) soft = usable * 3 / 4;
  soft = std::clamp<int64_t>(soft, 1, usable);
  const int64_t hard =
      std::clamp<int64_t>(std::min(soft * 4, usable * (limits.movesToGo == 1 ? 9 : 4) / 10), 1, usable);
  b.softMs = std::min(soft, hard);
  b.hardMs = hard;
  return b;
}

}  // namespace gobblet
