// Move ordering: which move to search first decides how much alpha-beta
// prunes, so every node orders its moves by
//   1. the transposition-table move (searched before generating the rest),
//   2. moves that stop an opponent's immediate win: covering the square it
//      needs, or gobbling one of its pieces in the threatening line,
//   3. the two killer moves of this ply (quiet moves that cut off a sibling),
//   4. the history score (how often the move cut off anywhere, per side),
//      plus a small static term: squares on more lines first, gobbling an
//      opponent piece, larger pieces, and not lifting a piece that uncovers
//      an opponent's one.
// (Immediate wins never need ordering: a node with a winning move returns
// before the move loop.) The TT move and the killers are tried before the
// move list is generated (after a legality check), and the first few of the
// rest are picked by selection before the remainder is sorted at once, so a
// node that cuts off early pays for little of the ordering.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "engine/board.h"
#include "engine/move.h"
#include "tt.h"

namespace gobblet {

// History and killers of one search thread.
//
// history[side][move.raw() & 4095]: a gravity-bounded counter in
// [-kHistoryMax, kHistoryMax] raised when the move cuts off and lowered for
// the quiet moves tried before it. killers[ply][0..1]: the last two cutoff
// moves at that ply.
struct OrderingTables {
  static constexpr int kHistoryMax = 16384;
  int16_t history[2][4096];
  Move killers[kMaxPly + 2][2];

  void clear() {
    std::memset(history, 0, sizeof history);
    for (auto& k : killers) k[0] = k[1] = Move::none();
  }
  void update(int side, Move m, int bonus) {
    int16_t& h = history[side][m.raw() & 4095];
    h = static_cast<int16_t>(h + bonus - h * std::abs(bonus) / kHistoryMax);
  }
  void addKiller(int ply, Move m) {
    if (killers[ply][0] == m) return;
    killers[ply][1] = killers[ply][0];
    killers[ply][0] = m;
  }
};

class MovePicker {
 public:
  // board must not be decided; ttMove may be none or illegal (it is checked);
  // ply (from the root) picks the killers of tables.
  MovePicker(const Board& board, Move ttMove, const OrderingTables& tables, int ply);

  // The next move in order, or Move::none() when done.
  Move next();

 private:
  void generateAndScore();

  // Stages: 0 TT move, 1-2 killers (if legal), 3 generate, 4 the rest.
  const Board& board_;
  const OrderingTables& tables_;
  Move ttMove_;
  int stage_ = 0;
  int count_ = 0, current_ = 0;
  Move killers_[2];
  MoveList moves_;
  // Packed (score << 16 | move.raw()): one integer to compare and to sort.
  int64_t scored_[MoveList::kCapacity];
};

}  // namespace gobblet
