#include "unit_order.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <numeric>
#include <random>

#include "engine/movegen.h"

namespace gobblet::nnue {
namespace {

// The sample: 16 random games of at most 40 plies (about 1,200 positions,
// 2,400 rows); a larger one orders the built-in net's units no better.
constexpr int kSampleGames = 16, kSamplePlies = 40;
constexpr uint64_t kSampleSeed = 20261207;

}  // namespace

UnitOrder unitsByActivity(const Network& net) {
  std::array<int, kHidden> active{};
  std::mt19937_64 rng(kSampleSeed);
  for (int game = 0; game < kSampleGames; ++game) {
    Board board(Variant::gobblet());
    Accumulator acc;
    refreshAccumulator(net, board, acc);
    for (int ply = 0; ply < kSamplePlies && board.winner() == kNoWinner; ++ply) {
      MoveList list;
      generateMoves(board, list);
      if (list.size() == 0) break;
      const Move move = list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))];
      const Board before = board;
      board.makeMove(move);
      Accumulator next;
      updateAccumulator(net, before, board, move, acc, next);
      acc = next;
      for (const auto& row : acc.values)
        for (int i = 0; i < kHidden; ++i) active[i] += row[i] > 0;
    }
  }
  UnitOrder order;
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&active](int a, int b) { return active[a] < active[b]; });
  return order;
}

void reorderHiddenUnits(Network& net, const UnitOrder& order) {
  std::array<bool, kHidden> seen{};
  for (const uint8_t u : order) {
    assert(u < kHidden && !seen[u] && "order must be a permutation");
    seen[u] = true;
  }
  const auto old = std::make_unique<Network>(net);
  for (int p = 0; p < kHidden; ++p) {
    const int u = order[p];
    net.b0[p] = old->b0[u];
    net.fileUnit[p] = old->fileUnit[u];
    for (int f = 0; f < kFeatures; ++f) net.w0[f * kHidden + p] = old->w0[f * kHidden + u];
    for (int j = 0; j < kL1; ++j)
      for (int half = 0; half < 2; ++half)
        net.w1[w1Index(j, half * kHidden + p)] = old->w1[w1Index(j, half * kHidden + u)];
  }
}

}  // namespace gobblet::nnue
