// The net's arithmetic (network.h): the accumulator's refresh and update,
// and the evaluation from an accumulator, each kernel written once over
// the vector layer (simd.h). Apart from network.cpp (the files), so that
// the tests can build these for each vector layer (tests/search).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "network.h"
#include "simd.h"

namespace gobblet::nnue {
namespace {

// The first layer's row of feature f (aligned: w0 is, and a row is 256 bytes).
const int16_t* featureRow(const Network& net, int f) { return &net.w0[static_cast<size_t>(f) * kHidden]; }

// after = before - the rows of `removed` + the rows of `added`, in one pass:
// each stretch of the row is loaded once into at most 16 registers (each
// weight an operand of its add), changed there and stored once. int16 sums
// wrap alike in any order, so this is the row that copying and then adding
// the rows one by one gives (NnueAccumulator tests).
void applyChanges(const Network& net, const std::array<int16_t, kHidden>& before, const FeatureList& removed,
                  const FeatureList& added, std::array<int16_t, kHidden>& after) {
  constexpr int kRowVecs = kHidden * 2 / kVecBytes;  // 8 (AVX2) or 16
  constexpr int kTileVecs = std::min(kRowVecs, 16);
  for (int t = 0; t < kRowVecs; t += kTileVecs) {
    Vec r[kTileVecs];
    for (int k = 0; k < kTileVecs; ++k) r[k] = vec_load(&before[(t + k) * kVecInt16s]);
    for (int n = 0; n < removed.size; ++n) {
      const int16_t* w = featureRow(net, removed.index[n]);
      for (int k = 0; k < kTileVecs; ++k) r[k] = vec_sub_16(r[k], vec_load_aligned(w + (t + k) * kVecInt16s));
    }
    for (int n = 0; n < added.size; ++n) {
      const int16_t* w = featureRow(net, added.index[n]);
      for (int k = 0; k < kTileVecs; ++k) r[k] = vec_add_16(r[k], vec_load_aligned(w + (t + k) * kVecInt16s));
    }
    for (int k = 0; k < kTileVecs; ++k) vec_store(&after[(t + k) * kVecInt16s], r[k]);
  }
}

// The hidden layer's input: the accumulator rows clamped to 0..127, as
// bytes, the side to move's first. Returns which groups of four inputs
// are not all 0: bit g for inputs 4g..4g+3.
uint64_t clampActivations(const Accumulator& acc, int sideToMove, uint8_t* out) {
  static_assert(2 * kHidden / 4 <= 64, "a bit for each group of four inputs");
  uint64_t nonzero = 0;
  for (int half = 0; half < 2; ++half) {
    const std::array<int16_t, kHidden>& row = acc.values[sideToMove ^ half];
    uint8_t* to = out + half * kHidden;
    for (int i = 0; i < kHidden; i += 2 * kVecInt16s) {
      const Vec bytes = vec_clamp_pack_16(vec_load(&row[i]), vec_load(&row[i + kVecInt16s]), kActivationOne);
      vec_store(to + i, bytes);
      nonzero |= static_cast<uint64_t>(vec_nonzero_mask_32(bytes)) << ((half * kHidden + i) / 4);
    }
  }
  return nonzero;
}

// The output layer's sum b2 + sum over j of hidden[j] * w2[j], where
// hidden[j] = clamp((input . w1[j] + b1[j]) >> 6, 0, 127) (int32 throughout).
// Group by group of four inputs: the group, in every int32 lane, meets the
// 32 units' weights of those inputs (w1's layout, network.h), and each
// unit's lane adds its four products (vec_dot4_add); the units' sums need no
// reduction across lanes. A group of four zeros adds nothing, so only the
// groups in `nonzero` (bit g for inputs 4g..4g+3) are met. The units are
// summed four registers at a time (all 32 with AVX2, 16 with 16-byte
// registers), so that the sums, the group and the products stay in
// SSE's 16 registers.
int32_t hiddenAndOutput(const Network& net, const uint8_t* input, uint64_t nonzero) {
  constexpr int kSumVecs = kL1 / kVecInt32s;  // 4 (AVX2) or 8
  constexpr int kTileVecs = 4;
  static_assert(kSumVecs % kTileVecs == 0);
  alignas(64) int32_t unit[kL1];
  for (int t = 0; t < kSumVecs; t += kTileVecs) {
    Vec sums[kTileVecs];  // from the biases b1
    for (int k = 0; k < kTileVecs; ++k) sums[k] = vec_load(&net.b1[(t + k) * kVecInt32s]);
    for (uint64_t left = nonzero; left != 0; left &= left - 1) {
      const int g = std::countr_zero(left);
      int32_t four;
      std::memcpy(&four, input + 4 * g, 4);
      const Vec x = vec_set1_32(four);
      const int8_t* w = &net.w1[w1Index(0, 4 * g)] + t * kVecBytes;
      for (int k = 0; k < kTileVecs; ++k) sums[k] = vec_dot4_add(sums[k], x, vec_load_aligned(w + k * kVecBytes));
    }
    for (int k = 0; k < kTileVecs; ++k) vec_store(&unit[(t + k) * kVecInt32s], sums[k]);
  }
  int32_t sum = net.b2;
  for (int j = 0; j < kL1; ++j) sum += std::clamp<int32_t>(unit[j] >> 6, 0, kActivationOne) * net.w2[j];
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
  const uint64_t nonzero = clampActivations(acc, sideToMove, input);
  const int32_t sum = hiddenAndOutput(net, input, nonzero);
  // Whatever the weights say, the value stays within the evaluation's range.
  return static_cast<int>(std::clamp<int64_t>(static_cast<int64_t>(sum) * 100 / (kActivationOne * kWeightOne),
                                              -kMaxEvaluation, kMaxEvaluation));
}

}  // namespace gobblet::nnue
