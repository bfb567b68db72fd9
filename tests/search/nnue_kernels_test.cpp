// The net's kernels (search/nnue/kernels.cpp over the vector layer
// simd.h) against the plain arithmetic of docs/nnue.md: the accumulator's
// rows, its update move by move, the hidden and output sums. This file is
// built once with the search library (the build's own layer) and once more
// for each other vector layer the programs can be built with (SSE2, AVX2,
// the plain loops: tests/search/CMakeLists.txt), so that every layer is
// held to the same integers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "engine/movegen.h"
#include "search/nnue/network.h"
#include "search/nnue/simd.h"
#include "tests/search/random_net.h"

namespace gobblet::nnue {
namespace {

// Whether this processor runs the layer this file was built for.
bool layerRuns() {
#if GOBBLET_VEC_AVX2 && defined(__x86_64__)
  return __builtin_cpu_supports("avx2");
#else
  return true;
#endif
}

#define SKIP_IF_THE_LAYER_CANNOT_RUN() \
  if (!layerRuns()) GTEST_SKIP() << kVecLayer << " does not run on this processor"

// The accumulator as docs/nnue.md states it: the bias plus the first
// layer's row of each active feature, summed in int (wrapping to int16 as
// the accumulator does).
Accumulator plainRefresh(const Network& net, const Board& board) {
  Accumulator acc;
  for (int perspective = 0; perspective < 2; ++perspective) {
    FeatureList list;
    activeFeatures(board, perspective, list);
    for (int i = 0; i < kHidden; ++i) {
      int sum = net.b0[i];
      for (int k = 0; k < list.size; ++k) sum += net.w0[list.index[k] * kHidden + i];
      acc.values[perspective][i] = static_cast<int16_t>(sum);
    }
  }
  return acc;
}

TEST(NnueKernels, SayWhichLayerTheyUse) {
  SKIP_IF_THE_LAYER_CANNOT_RUN();
  RecordProperty("layer", kVecLayer);
  std::printf("vector layer: %s, %d bytes\n", kVecLayer, kVecBytes);
  EXPECT_EQ(kHidden * 2 % kVecBytes, 0);
  EXPECT_EQ(kL1 % kVecInt32s, 0);
}

// Random games of 4x4 Gobblet: after every move (drops, board moves,
// gobbling, uncovering) the updated accumulator is the refreshed one, and
// that is the plain sum.
TEST(NnueKernels, TheAccumulatorUpdatedMoveByMoveIsThePlainSum) {
  SKIP_IF_THE_LAYER_CANNOT_RUN();
  const auto net = randomNet(4);
  std::mt19937_64 rng(5);
  int moves = 0, boardMoves = 0, covering = 0, uncovering = 0;
  for (int game = 0; game < 40; ++game) {
    Board board(Variant::gobblet());
    Accumulator acc;
    refreshAccumulator(*net, board, acc);
    for (int ply = 0; ply < 60 && board.winner() == kNoWinner; ++ply) {
      MoveList list;
      generateMoves(board, list);
      if (list.size() == 0) break;
      const Move m = list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))];
      const Board before = board;
      covering += before.top(m.to()) >= 0;
      board.makeMove(m);
      uncovering += !m.isDrop() && board.top(m.from()) >= 0;
      Accumulator next, fresh;
      updateAccumulator(*net, before, board, m, acc, next);
      refreshAccumulator(*net, board, fresh);
      ASSERT_EQ(next.values, fresh.values) << "game " << game << " ply " << ply;
      ASSERT_EQ(fresh.values, plainRefresh(*net, board).values) << "game " << game << " ply " << ply;
      acc = next;
      ++moves;
      boardMoves += !m.isDrop();
    }
  }
  EXPECT_GT(boardMoves, 200) << "the games must move pieces on the board too";
  EXPECT_GT(covering, 100) << "and gobble pieces";
  EXPECT_GT(uncovering, 50) << "and uncover them";
  EXPECT_GT(moves, 1000);
}

// The evaluation as docs/nnue.md states it, one product at a time.
int plainEvaluation(const Network& net, const Accumulator& acc, int sideToMove) {
  int input[2 * kHidden];
  for (int i = 0; i < kHidden; ++i) {
    input[i] = std::clamp<int>(acc.values[sideToMove][i], 0, kActivationOne);
    input[kHidden + i] = std::clamp<int>(acc.values[sideToMove ^ 1][i], 0, kActivationOne);
  }
  int64_t sum = net.b2;
  for (int j = 0; j < kL1; ++j) {
    int64_t s = net.b1[j];
    for (int i = 0; i < 2 * kHidden; ++i) s += input[i] * net.w1[w1Index(j, i)];
    sum += std::clamp<int64_t>(s >> 6, 0, kActivationOne) * net.w2[j];
  }
  return static_cast<int>(
      std::clamp<int64_t>(sum * 100 / (kActivationOne * kWeightOne), -kMaxEvaluation, kMaxEvaluation));
}

// The sums of this file's layer give the plain arithmetic's
// integers, at the extremes too: activations far outside 0..127, and
// hidden weights of -128 and 127 everywhere (the largest pair sums); with
// every group of four inputs above 0, none, or whole groups clamped to 0
// (the groups the hidden layer skips).
TEST(NnueKernels, TheHiddenAndOutputSumsAreThePlainArithmetic) {
  SKIP_IF_THE_LAYER_CANNOT_RUN();
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> activation(-300, 300), weight(-128, 127);
  for (int trial = 0; trial < 200; ++trial) {
    auto net = randomNet(100 + trial);
    const int extreme = trial % 4;  // 0: random weights, 1: all -128, 2: all 127, 3: alternating
    for (size_t i = 0; i < net->w1.size(); ++i)
      net->w1[i] = static_cast<int8_t>(extreme == 0   ? weight(rng)
                                       : extreme == 1 ? -128
                                       : extreme == 2 ? 127
                                                      : (i % 2 ? 127 : -128));
    for (auto& v : net->b1) v = weight(rng) * 64;
    Accumulator acc;
    const int pattern = trial % 5;  // 0: every input 127, 1: none above 0, 2: groups of four at 0, else random
    for (auto& row : acc.values)
      for (int i = 0; i < kHidden; i += 4) {
        const bool zeros = pattern == 1 || (pattern == 2 && rng() % 2 == 0);
        for (int t = 0; t < 4; ++t)
          row[i + t] = static_cast<int16_t>(pattern == 0 ? kActivationOne
                                            : zeros      ? -std::abs(activation(rng))
                                                         : activation(rng));
      }
    for (int side = 0; side < 2; ++side)
      EXPECT_EQ(evaluate(*net, acc, side), plainEvaluation(*net, acc, side)) << trial << " " << side;
  }
}

}  // namespace
}  // namespace gobblet::nnue
