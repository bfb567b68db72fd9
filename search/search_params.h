// The search's tuning values: late-move reductions, null move, aspiration
// windows, the history bonus, the move-ordering scores, the helper threads'
// depth skipping and the contempt for repetitions. Each is
// declared once in kSearchParamTable (search_params.cpp) with its default,
// the range a tuner may try and what it does; the search reads them from
// searchParams().
//
// They are set per process, before any search starts, from the command line
// of the engine, the bench or the match runner's engine command:
//
//   gobblet --param lmr_divisor=250 --param null_min_depth=4
//
// so that two builds of the same binary can be matched against each other
// (an SPRT of a parameter change) and a tuner can drive one value at a time.
// The defaults are the engine's: `gobblet-bench` with none given prints the
// signature in the history (Bench: N).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace gobblet {

struct SearchParams {
  // Late-move reductions: none below lmrMinDepth or for the first
  // lmrMinMove - 1 moves; else round(lmrBase / 100 + ln(depth) * ln(move)
  // * 100 / lmrDivisor).
  int lmrMinDepth = 3;
  int lmrMinMove = 4;
  int lmrBase = 40;
  int lmrDivisor = 220;
  // Null move: from nullMinDepth on, a pass searched nullReduction +
  // depth / nullDepthDivisor plies shallower.
  int nullMinDepth = 3;
  int nullReduction = 2;
  int nullDepthDivisor = 4;
  // Aspiration: from aspirationMinDepth on, a window of +-aspirationDelta
  // around the previous score, widened by half plus aspirationGrowth after
  // each fail, full once wider than aspirationMaxDelta.
  int aspirationMinDepth = 5;
  int aspirationDelta = 25;
  int aspirationGrowth = 10;
  int aspirationMaxDelta = 600;
  // History bonus of a cutoff: min(depth^2 * historyDepthFactor, historyMaxBonus).
  int historyDepthFactor = 16;
  int historyMaxBonus = 1200;
  // Move ordering of the moves that neither block a threat nor come from the
  // hash table or the killers (movepick.cpp): history + orderLines per line
  // through the target square + orderSize per size step, + orderGobble if
  // it covers an opponent piece, - orderUncover if lifting it uncovers one,
  // + orderLargestDrop for a largest piece from the hand.
  int orderLines = 32;
  int orderSize = 16;
  int orderGobble = 64;
  int orderUncover = 96;
  int orderLargestDrop = 8;
  // Helper thread k skips the depths d > 1 with (d + k) % smpSkipCycle == 0.
  int smpSkipCycle = 3;
  // Clock time (timeman.cpp): a move's soft limit is time / tmMovesToGo (in
  // sudden death) + tmIncPercent % of the increment; an iteration is not
  // started after tmStopPercent % of the (stability-scaled) soft limit.
  int tmMovesToGo = 8;
  int tmIncPercent = 75;
  int tmStopPercent = 60;
  // 1: the soft limit is scaled by the best move's stability (x0.5 after
  // three iterations with the same best move, x1.4 right after a change).
  int tmStability = 1;
  // Contempt: a repetition in the search scores -contempt for the side to
  // move at the root and +contempt for its opponent, so that above 0 the
  // engine steers away from repetitions unless it stands worse than that.
  int contempt = 0;
};

// The values every search reads (the defaults until a --param changes one).
const SearchParams& searchParams();

// The late-move reduction of a move, from a table that follows the LMR values.
int lateMoveReduction(int depth, int moveNumber);

// Sets one value from "NAME=VALUE"; an error names the parameter and the
// range ("lmr_divisor '0' is out of range [50, 1000]", "no search parameter
// 'lmr'"). Not to be called while a search runs.
absl::Status setSearchParam(std::string_view assignment);

// Back to the defaults (tests, tuners).
void resetSearchParams();

// One line per parameter: "name default [min, max] what it does".
std::vector<std::string> describeSearchParams();

}  // namespace gobblet
