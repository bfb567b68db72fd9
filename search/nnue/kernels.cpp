// The net's arithmetic (network.h): the accumulator's refresh and update,
// and the evaluation from an accumulator, each kernel written once over
// the vector layer (simd.h). Apart from network.cpp (the files), so that
// the tests can build these for each vector layer (tests/search).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "network.h"
#include "simd.h"

namespace gobblet::nnue {
namespace {

// The first layer's row of feature f.
const int16_t* featureRow(const Network& net, int f) { return &net.w0[static_cast<size_t>(f) * kHidden]; }

// after = before - the rows of `removed` + the rows of `added`, in one pass:
// each stretch of the row is loaded once into at most 8 registers, changed
// there and stored once. int16 sums wrap alike in any order, so this is
// the row that copying and then adding the rows one by one gives
// (NnueAccumulator tests).
void applyChanges(const Network& net, const std::array<int16_t, kHidden>& before, const FeatureList& removed,
                  const FeatureList& added, std::array<int16_t, kHidden>& after) {
  constexpr int kRowVecs = kHidden * 2 / kVecBytes;  // 8 (AVX2) or 16
  constexpr int kTileVecs = std::min(kRowVecs, 8);
  for (int t = 0; t < kRowVecs; t += kTileVecs) {
    Vec r[kTileVecs];
    for (int k = 0; k < kTileVecs; ++k) r[k] = vec_load(&before[(t + k) * kVecInt16s]);
    for (int n = 0; n < removed.size; ++n) {
      const int16_t* w = featureRow(net, removed.index[n]);
      for (int k = 0; k < kTileVecs; ++k) r[k] = vec_sub_16(r[k], vec_load(w + (t + k) * kVecInt16s));
    }
    for (int n = 0; n < added.size; ++n) {
      const int16_t* w = featureRow(net, added.index[n]);
      for (int k = 0; k < kTileVecs; ++k) r[k] = vec_add_16(r[k], vec_load(w + (t + k) * kVecInt16s));
    }
    for (int k = 0; k < kTileVecs; ++k) vec_store(&after[(t + k) * kVecInt16s], r[k]);
  }
}

// The hidden layer's input: the accumulator rows clamped to 0..127, as
// bytes, the side to move's first.
void clampActivations(const Accumulator& acc, int sideToMove, uint8_t* out) {
  for (int half = 0; half < 2; ++half) {
    const std::array<int16_t, kHidden>& row = acc.values[sideToMove ^ half];
    uint8_t* to = out + half * kHidden;
    for (int i = 0; i < kHidden; i += 2 * kVecInt16s)
      vec_store(to + i, vec_clamp_pack_16(vec_load(&row[i]), vec_load(&row[i + kVecInt16s]), kActivationOne));
  }
}

// The output layer's sum b2 + sum over j of hidden[j] * w2[j], where
// hidden[j] = clamp((input . w1[j] + b1[j]) >> 6, 0, 127) (int32 throughout).
// Group by group of four inputs: the group, in every int32 lane, meets the
// 32 units' weights of those inputs (w1's layout, network.h), and each
// unit's lane adds its four products (vec_dot4_add); the units' sums need
// no reduction across lanes.
int32_t hiddenAndOutput(const Network& net, const uint8_t* input) {
  constexpr int kGroups = 2 * kHidden / 4;
  constexpr int kSumVecs = kL1 / kVecInt32s;  // 4 (AVX2) or 8
  Vec sums[kSumVecs];
  for (Vec& s : sums) s = vec_zero();
  for (int g = 0; g < kGroups; ++g) {
    int32_t four;
    std::memcpy(&four, input + 4 * g, 4);
    const Vec x = vec_set1_32(four);
    const int8_t* w = &net.w1[w1Index(0, 4 * g)];
    for (int k = 0; k < kSumVecs; ++k) sums[k] = vec_dot4_add(sums[k], x, vec_load(w + k * kVecBytes));
  }
  alignas(64) int32_t unit[kL1];
  for (int k = 0; k < kSumVecs; ++k) vec_store(&unit[k * kVecInt32s], sums[k]);
  int32_t sum = net.b2;
  for (int j = 0; j < kL1; ++j) sum += std::clamp<int32_t>((unit[j] + net.b1[j]) >> 6, 0, kActivationOne) * net.w2[j];
  return sum;
}

}  // namespace

void refreshAccumulator(const Network& net, const Board& board, Accumulator& out) {
  FeatureList list;
  for (int perspective = 0; perspective < 2; ++perspective) {
    activeFeatures(board, perspective, list);
    applyChanges(net, net.b0, FeatureList{}, list, out.values[perspective]);
  }
}

void updateAccumulator(const Network& net, const Board& beforeBoard, const Board& afterBoard, Move move,
                       const Accumulator& before, Accumulator& after) {
  for (int perspective = 0; perspective < 2; ++perspective) {
    FeatureList removed, added;
    moveFeatures(beforeBoard, afterBoard, move, perspective, removed, added);
    applyChanges(net, before.values[perspective], removed, added, after.values[perspective]);
  }
}

int evaluate(const Network& net, const Accumulator& acc, int sideToMove) {
  alignas(64) uint8_t input[2 * kHidden];
  clampActivations(acc, sideToMove, input);
  const int32_t sum = hiddenAndOutput(net, input);
  // Whatever the weights say, the value stays within the evaluation's range.
  return static_cast<int>(std::clamp<int64_t>(static_cast<int64_t>(sum) * 100 / (kActivationOne * kWeightOne),
                                              -kMaxEvaluation, kMaxEvaluation));
}

}  // namespace gobblet::nnue
