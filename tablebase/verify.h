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

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "engine/geometry.h"
#include "engine/move.h"
#include "file.h"
#include "index.h"
#include "index4.h"

namespace gobblet::tb {

// The numbers of the states that `moves` (generateMoves on the parent's
// board) lead to, in order, each seen from the opponent: the mover's piece
// leaves its square (a board move: what it covered shows again, as a state
// holds every piece of each size, covered or not) or comes from the reserve
// (a drop), and the sides swap. The same as Board::makeMove, Index::toState
// and indexOf (tested), without the board's hash (a third of the walk's
// time before) and with the two layers and the material a move leaves
// alone coded once per parent (a fifth of the rest). kNoChild where a move
// is of a size the variant lacks, would break its piece counts or would put
// two pieces on one place.
inline constexpr uint64_t kNoChild = ~uint64_t{0};
// Calls numbered(i, number) for each move i, in order.
template <typename Numbered>
void numberChildren(const Index& index, const State& parent, const MoveList& moves, Numbered&& numbered) {
  const State swapped{parent.theirs, parent.ours};
  const int key = index.keyOf(swapped);
  const std::array<uint16_t, 3> codes = index.layerCodes(swapped);
  const int perSize = index.variant().perSize, sizes = index.variant().sizes;
  for (int i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    const int s = m.size();
    if (s >= sizes) {
      numbered(i, kNoChild);
      continue;
    }
    Mask mover = parent.ours[s];  // the mover's pieces of the moved size
    if (!m.isDrop()) mover = static_cast<Mask>(mover & ~bit(m.from()));
    mover |= bit(m.to());
    if ((mover & parent.theirs[s]) || mover >= 512 || std::popcount(mover) > perSize) {
      numbered(i, kNoChild);
      continue;
    }
    std::array<uint16_t, 3> code = codes;
    code[s] = index.layerCode(parent.theirs[s], mover);
    const int added = std::popcount(mover) - std::popcount(parent.ours[s]);
    numbered(i, index.indexOfCodes(key + added * index.theirsPieceKey(s), code));
  }
}

// The same for the 4x4 family (Index4, State4), which the 4x4 builder
// (retrograde4.cpp) numbers its children with too: the layers the move
// leaves alone are ranked once per parent, the moved one per move
// (Index4::layerRank, numberOfRanks). kNoChild where a move is of a size the
// variant lacks, lands on a piece of its size, moves a piece the mover has
// not there, or breaks the variant's counts.
template <typename Numbered>
void numberChildren(const Index4& index, const State4& parent, const MoveList& moves, Numbered&& numbered) {
  const int sizes = index.variant().sizes;
  const Index4::Flipped children = index.flipped(parent);  // the children's layers, before the move
  std::array<int, 4> dropSlice{-2, -2, -2, -2};            // -2: not yet looked up
  for (int i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    const int s = m.size();
    if (s >= sizes || ((parent.ours[s] | parent.theirs[s]) & bit(m.to())) ||
        (!m.isDrop() && !(parent.ours[s] & bit(m.from())))) {
      numbered(i, kNoChild);
      continue;
    }
    Mask mover = static_cast<Mask>(parent.ours[s] | bit(m.to()));
    int slice = children.slice;
    if (m.isDrop()) {
      if (dropSlice[s] == -2) dropSlice[s] = children.sliceWith(index, 2 * s + 1, +1);
      slice = dropSlice[s];
    } else {
      mover = static_cast<Mask>(mover & ~bit(m.from()));
    }
    if (slice < 0) {
      numbered(i, kNoChild);
      continue;
    }
    std::array<uint32_t, 4> childRanks = children.ranks;
    childRanks[s] = index.layerRank(parent.theirs[s], mover);
    numbered(i, index.numberOfRanks(slice, childRanks));
  }
}

// OK, or the first inconsistency found (with the position in notation).
// The file's codes are decoded into memory if `codesDirectory` is empty,
// else into an unnamed file there (CodeArray::inFile; for 3x3:3,3,x).
absl::Status verify(const File& tb, int threads, const VerifyProgress& progress = {},
                    const std::string& codesDirectory = {});

}  // namespace gobblet::tb
