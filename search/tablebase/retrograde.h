// Retrograde solution of a 3x3 variant: every state reachable from the
// start, with win/draw/loss and the distance to the end (see
// docs/tablebase.md for the method).
//
// The work goes by level (pieces on the board). Pieces never leave the
// board, so a placement goes one level up and a board move stays on the
// level:
//   1. Forward, level 0 up: which states are reachable, and how many
//      distinct (canonical) children each has. Within a level a parallel
//      breadth-first walk follows the board moves.
//   2. Backward, fullest level down: a level's states are settled in order
//      of distance with one bucket per distance. A settled loss makes each
//      parent a win one ply longer; a settled win counts down each parent's
//      children and the parent whose count reaches zero is a loss as long
//      as its longest child plus one. Parents one level down only record
//      the news (shortest win, longest loss, count) and are settled when
//      their level's turn comes. What is never settled is a draw: neither
//      side can force a win.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "search/tablebase/code.h"
#include "search/tablebase/index.h"

namespace gobblet::tb {

struct SolveStats {
  uint64_t states = 0;    // reachable states up to symmetry, player-relative
  uint64_t terminal = 0;  // states where the game is over (a line shows)
  uint64_t wins = 0, draws = 0, losses = 0;
  uint8_t start = kNoState;  // code of the start position
  int maxDistance = 0;
};

struct Solution {
  std::vector<uint8_t> codes;  // one value code (code.h) per number of Index
  SolveStats stats;
};

// progress(phase, done, total): called from the calling thread now and then.
using SolveProgress = std::function<void(const std::string& phase, uint64_t done, uint64_t total)>;

// What solving a variant takes: the exact size of its numbering and the
// builder's memory model (4 bytes per slot: code, count, shortest exit win,
// longest won child; plus the distance buckets of one level, about three
// 8-byte entries per state of the fullest level).
struct SolveEstimate {
  uint64_t slots = 0;          // numbers of the Index (states and holes)
  uint64_t states = 0;         // numbers that are states (up to symmetry; reachable or not)
  uint64_t largestLevel = 0;   // states of the level with the most
  uint64_t bytes = 0;          // expected peak memory of solve()
};
SolveEstimate estimateSolve(const Variant& variant);

// Solves a 3x3 variant with `threads` threads (>= 1). Fails if a distance
// exceeds what a code can hold.
absl::StatusOr<Solution> solve(const Variant& variant, int threads,
                                                 const SolveProgress& progress = {});

}  // namespace gobblet::tb
