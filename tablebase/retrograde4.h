// Retrograde solution of a member of the 4x4 family (Variant::family4x4),
// numbered by Index4: every state reachable from the start, with
// win/draw/loss and the distance to the end, as the same value codes
// (code.h) and the same Solution as the 3x3 builder (retrograde.h), so the
// file, the probe and the verifier are shared.
//
// The rules are the rules core's alone (engine/movegen.h): a state's
// children are generateMoves' moves (numbered by the one layer each
// changes: numberChildren, verify.h, tested against Board::makeMove); its
// parents are the candidate un-moves of the opponent's visible pieces
// (back onto its stacks, or back to another square), each kept only if the
// parent is a valid position that goes on and the rules core says the
// move is legal there (isLegal) -- so the 4x4 placement rule (a stack
// piece gobbles only a piece that is one of three in a line) is the
// engine's, never re-stated. A parent is numbered by the one layer its
// un-move changes too.
//
//   1. Forward, level (pieces on the board) 0 up: a state is reached if a
//      reached state that goes on has a move to it; a level is swept until
//      a sweep expands nothing (board moves stay on the level).
//   2. Backward: finished games are wins or losses in 0; every other
//      reached state counts its distinct children (by number). Distance by
//      distance d, each state settled at d tells its distinct reached
//      parents: a loss makes an open parent a win in d+1, a win counts the
//      parent down, and a parent counted to zero is a loss in d+1 (its
//      longest won child is the last one settled). What is never settled
//      is a draw. Counting distinct numbers on both sides is exact under
//      symmetry: a parent has a move into a child's orbit exactly when the
//      child's canonical member has an un-move into the parent's orbit.
// Memory: a code byte, a byte of count and two bits per number.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "index4.h"
#include "retrograde.h"

namespace gobblet::tb {

// Solves a member of the 4x4 family with `threads` threads (>= 1); the
// codes in memory. Fails if the member's numbering does not fit, or a
// distance exceeds what a code holds.
absl::StatusOr<Solution> solve4(const Variant& variant, int threads, const SolveProgress& progress = {},
                                const std::atomic<bool>* stop = nullptr);

// The numbers of a 4x4 build over ranks (solve4Part): rank r owns
// [first(r), first(r + 1)), ranges of one size (the last one shorter, and
// those after the numbers end empty), each a whole number of the file's
// blocks of codes (and so of 64-bit words of bits), so that a rank
// compresses its own blocks.
//
//   numbers:  | rank 0: per | rank 1: per | ... | rank R-1: the rest |
class RankRanges {
 public:
  static constexpr uint64_t kUnit = 4096;  // file.h's kBlockCodes
  RankRanges(uint64_t numbers, int ranks);
  int ranks() const { return ranks_; }
  uint64_t first(int rank) const { return std::min(numbers_, per_ * static_cast<uint64_t>(rank)); }
  int owner(uint64_t number) const { return static_cast<int>(number / per_); }

 private:
  uint64_t numbers_;
  int ranks_;
  uint64_t per_;
};

// One rank's part of a solved member: the codes of its range.
struct SolvedPart {
  CodeArray codes;  // the codes of numbers [first, first + codes.size())
  uint64_t first = 0;
  uint64_t entries = 0;  // numbers in the member's numbering (all ranks')
  SolveStats stats;      // of the whole table
};

// Over ranks, a round of the solve ends once its messages for the other
// ranks reach this many words (8 MiB), and each thread has finished its
// chunk (2^12 states, at most 228 words a state, about 40 on average).
inline constexpr uint64_t kRoundWords = uint64_t{1} << 20;

// Solves a member of the 4x4 family over share.ranks() processes, this
// one holding only its range (RankRanges) of the codes, counts and bits:
// each rank expands and settles its own states; a child or a parent of
// another rank's is sent to it, in rounds of about `roundWords` words a
// rank (BuildShare::exchangeWords; kRoundWords but for the tests, which
// make many rounds of a small member). Collective; every rank gets the
// same stats, and its part of the codes: together the codes solve4 gives.
absl::StatusOr<SolvedPart> solve4Part(const Variant& variant, int threads, BuildShare& share,
                                      const SolveProgress& progress = {}, uint64_t roundWords = kRoundWords);

// The distinct numbers of the parents the builder finds for `st` (player 1
// to move on its board): the valid positions that go on from which a
// legal move of player 2 leads to st's orbit. For the tests.
std::vector<uint64_t> parentNumbers4(const Index4& index, const State4& st);

// What solve4 takes: Index4's size and states, and a code byte, a byte of
// count and two bits per number (the codes always in memory:
// bytesCodesInFile is bytes). For a member whose numbering does not fit in
// 64 bits the integers are 0 and only the wide figures say.
SolveEstimate estimateSolve4(const Variant& variant);

}  // namespace gobblet::tb
