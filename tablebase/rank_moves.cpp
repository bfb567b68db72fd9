// rankMoves (see tablebase/tablebase.h): the one ranking of moves by
// their tablebase values, for the search root, `gobblet-tb probe` and the
// front ends.
#include <algorithm>
#include <string>

#include "engine/movegen.h"
#include "tablebase/tablebase.h"

namespace gobblet::tb {

namespace {

// Larger is better for the mover.
int rankOf(const Probe& p) {
  switch (p.value) {
    case Value::kWin:
      return 1000 - p.distance;
    case Value::kLoss:
      return -1000 + p.distance;
    case Value::kDraw:
      return 0;
    case Value::kUnknown:
      return -1;
  }
  return -1;
}

}  // namespace

std::string describe(const Probe& probe) {
  switch (probe.value) {
    case Value::kWin:
      return "win in " + std::to_string(probe.distance);
    case Value::kLoss:
      return "loss in " + std::to_string(probe.distance);
    case Value::kDraw:
      return "draw";
    case Value::kUnknown:
      break;
  }
  return "unknown";
}

std::vector<RankedMove> rankMoves(const Tablebase& tablebase, const Board& board) {
  std::vector<RankedMove> ranked;
  MoveList moves;
  generateMoves(board, moves);
  for (Move m : moves) {
    Board child = board;
    child.makeMove(m);
    const Probe p = tablebase.probe(child);  // for the opponent
    Probe mine;
    if (p.value == Value::kLoss)
      mine = Probe{Value::kWin, p.distance + 1};
    else if (p.value == Value::kWin)
      mine = Probe{Value::kLoss, p.distance + 1};
    else
      mine = Probe{p.value, 0};
    ranked.push_back({m, mine});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const RankedMove& a, const RankedMove& b) { return rankOf(a.value) > rankOf(b.value); });
  return ranked;
}

}  // namespace gobblet::tb
