// Independent check of a tablebase file: a walk from the start with the
// rules core (Board, generateMoves), not with the builder's move generator
// or its retrograde bookkeeping, marks every reachable state in a bitset
// over the index and re-derives each one's value from its moves.
//
//   * the start is stored, and the stored states are exactly the reachable
//     ones (holes of the index hold nothing);
//   * a finished game is a win or loss at distance 0 for the right side;
//   * a win in d has a move to a loss in d-1 and none to a shorter loss;
//   * a loss in d has only moves to wins, the longest in d-1;
//   * a draw has no move to a loss, and a move to a draw or no move at all;
//   * every move leads to a stored state;
//   * the header's counts and start value match the recount.
// Distances strictly fall along the proofs of wins and losses, so these
// local checks prove every value.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "engine/move.h"
#include "search/tablebase/file.h"
#include "search/tablebase/index.h"

namespace gobblet::tb {

using VerifyProgress = std::function<void(uint64_t done, uint64_t total)>;

// The state after `move` of the rules core (generateMoves on the parent's
// board), seen from the opponent: the mover's piece of that size leaves its
// square (a board move: what it covered shows again, as a state holds every
// piece of each size, covered or not) or comes from the reserve (a drop),
// and the sides swap. Board::makeMove followed by Index::toState gives the
// same (tested) but keeps the board's hash up to date: a third of the walk's
// time. False if a drop would exceed the variant's pieces of that size.
bool childState(const State& parent, Move move, int perSize, State* child);

// OK, or the first inconsistency found (with the position in notation).
absl::Status verify(const File& tb, int threads, const VerifyProgress& progress = {});

}  // namespace gobblet::tb
