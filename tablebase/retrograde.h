// Retrograde solution of a 3x3 variant: every state reachable from the
// start, with win/draw/loss and the distance to the end (see
// docs/tablebase.md for the method).
//
// Pieces never leave the board, so a placement goes one level (pieces on the
// board) up and a board move stays in its "group": the slice of a material
// and the slice of its colour swap (a move's child is seen from the
// opponent). Groups of one level are independent of each other; small
// groups are solved one per thread, large ones by all threads together
// (atomic updates):
//   1. Forward, level 0 up: which states are reachable (a bit per number).
//      A state is reached if a parent of it that goes on is: its parents
//      by placement are one level down (final), those by board move in the
//      group; sweeps ask the open numbers' parents until none is marked.
//   2. Backward, fullest level down: a group's children one level up are
//      final, and give each state its shortest win through a lost child,
//      its longest won child and (with its moves in the group) a count of
//      moves not known to lead to a won state, weighted by orbit sizes; a
//      child that is a finished game is known at once (its lines show), so
//      finished games never tell their parents anything. The group is then
//      settled in order of distance with one bucket per distance: a settled
//      loss makes each parent in the group a win one ply longer; a settled
//      win counts down each parent's moves and the parent whose count
//      reaches zero is a loss as long as its longest won child plus one.
//      What is never settled is a draw: neither side can force a win.
// The forward pass marks each reached state with its symbol
// (packed_codes.h): a finished game or a win in 1 is "ruled", its code told
// by its state; the rest are "open", and only those take a byte and the
// backward pass's work.
// Memory: the packed codes (2 bits per number, a byte per open state, in
// memory or in files: see packed_codes.h and code_array.h), and the
// working arrays of the groups being solved (3 bytes per open state: a
// 16-bit count and a longest win; 4 per bucket entry, twice while the
// threads' buckets are merged).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "tablebase/tablebase.h"
#include "code.h"
#include "code_array.h"
#include "index.h"
#include "packed_codes.h"

namespace gobblet::tb {

struct SolveStats {
  uint64_t states = 0;    // reachable states up to symmetry, player-relative
  uint64_t terminal = 0;  // states where the game is over (a line shows)
  uint64_t wins = 0, draws = 0, losses = 0;
  uint8_t start = kNoState;  // code of the start position
  int maxDistance = 0;
};

// Counts `n` states (one if not given) of value code `c` (code.h; not
// kNoState) in `stats`.
inline void countState(SolveStats& stats, uint8_t c, uint64_t n = 1) {
  stats.states += n;
  if (isWinCode(c))
    stats.wins += n;
  else if (isLossCode(c))
    stats.losses += n;
  else
    stats.draws += n;
  if (c >= 2 && codeDistance(c) == 0) stats.terminal += n;
  if (n) stats.maxDistance = std::max(stats.maxDistance, codeDistance(c));
}

struct Solution {
  CodeArray codes;  // one value code (code.h) per number of Index
  SolveStats stats;
  std::vector<int> owners;  // as PackedSolution's
};

// The builder's own answer: the codes packed (packed_codes.h).
struct PackedSolution {
  PackedCodes codes;
  SolveStats stats;
  // Over ranks, the rank that holds each slice of the Index (this
  // process's codes are right for its own slices alone); empty: this
  // process holds every slice.
  std::vector<int> owners;
};

// A group of at least this many numbers is solved by all threads together
// (atomic updates); smaller ones by one thread each, several at once.
inline constexpr uint64_t kSharedGroupSize = uint64_t{1} << 22;

// Solves a 3x3 variant with `threads` threads (>= 1). Fails if a distance
// exceeds what a code can hold. `sharedGroupSize` is kSharedGroupSize but
// for the tests, which lower it to take the shared path on small variants.
// The codes are kept in memory if `codesDirectory` is empty, else in
// unnamed files there (CodeArray::inFile): the answer is the same. With a
// `share` (tablebase.h: BuildShare) this process solves and holds its part
// of each level's groups (the slices Solution::owners gives it), taking
// from the other ranks, for one level at a time, the slices next to its
// groups' that it needs; every rank returns the whole table's stats and
// its slices' codes (the others' are kNoState), the same as without. Once
// `stop` (if given) is set, the solve ends between two groups with a
// Cancelled error; not with a share, whose ranks must go on together.
absl::StatusOr<Solution> solve(const Variant& variant, int threads, const SolveProgress& progress = {},
                               uint64_t sharedGroupSize = kSharedGroupSize, const std::string& codesDirectory = {},
                               BuildShare* share = nullptr, const std::atomic<bool>* stop = nullptr);
// The same, the codes left packed (what `gobblet-tb build` writes: solve()
// unpacks them, a byte a number).
absl::StatusOr<PackedSolution> solvePacked(const Variant& variant, int threads, const SolveProgress& progress = {},
                                           uint64_t sharedGroupSize = kSharedGroupSize,
                                           const std::string& codesDirectory = {}, BuildShare* share = nullptr,
                                           const std::atomic<bool>* stop = nullptr);

}  // namespace gobblet::tb
