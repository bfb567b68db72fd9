// The net: an efficiently updatable evaluation of 4x4 Gobblet positions.
//
//   features (288, board_features.h) of the side to move    features of the other side
//             |  W0 (288 x 128, int16) + b0, shared            |
//         accumulator[us] (128)                    accumulator[them] (128)
//              \______________ clamp 0..127, concatenated _______/
//                                      | (256, uint8)
//                      W1 (32 x 256, int8) + b1 (int32), >> 6, clamp 0..127
//                                      | (32, uint8)
//                      W2 (32, int16) + b2 (int32)
//                                      |
//                      centi-units = sum * 100 / (127 * 64)
//
// Integer arithmetic throughout: the accumulator holds 127 for 1.0, the
// hidden weights 64 for 1.0 (tools/nnue/train.py quantises them so). Each
// kernel (a row update, the clamp, the hidden sums) is written once over
// the vector layer of simd.h (AVX2, SSSE3, SSE2, WebAssembly SIMD128 or
// plain loops), to the same integers on each.
//
// The file (.gnn), little-endian, docs/nnue.md:
//    0  char[8]   magic "GOBNNUE\0"
//    8  u32       version (kNetVersion)
//   12  u32       features, 16 hidden, 20 l1 (must be 288, 128, 32)
//   24  char[24]  variant name, NUL-padded ("gobblet")
//   48  u32       payload bytes (the weights below, exactly)
//   52  u32       FNV-1a 32 of the payload
//   56  u32       description bytes (at most 1024), then the description (UTF-8 text)
//   then the payload: b0 int16[128], W0 int16[288][128], b1 int32[32],
//   W1 int8[32][256], b2 int32, W2 int16[32].
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "board_features.h"

namespace gobblet::nnue {

inline constexpr uint32_t kNetVersion = 1;
inline constexpr int kHidden = 128;
inline constexpr int kL1 = 32;
inline constexpr int kActivationOne = 127;  // the accumulator's and the hidden layer's 1.0
inline constexpr int kWeightOne = 64;       // the hidden weights' 1.0 (a shift of 6)
inline constexpr size_t kMaxNetFileBytes = 1 << 20;
// A file is refused whose biases could overflow the int32 sums (2^28 is
// 33,000 times the 1.0 of the hidden layer's input, 8128).
inline constexpr int32_t kMaxHiddenBias = 1 << 28, kMaxOutputBias = 1 << 28;
// evaluate() is clamped to +-kMaxEvaluation centi-units, whatever the net:
// far inside the search's window and below its win scores (search/tt.h).
inline constexpr int kMaxEvaluation = 10000;
inline constexpr size_t kMaxDescriptionBytes = 1024;

// The file's order of the hidden units, the identity (a unit's index fits
// a byte).
static_assert(kHidden <= 256);
constexpr std::array<uint8_t, kHidden> fileOrder() {
  std::array<uint8_t, kHidden> order{};
  for (int i = 0; i < kHidden; ++i) order[i] = static_cast<uint8_t>(i);
  return order;
}

// The weights, with the hidden units in the kernels' order (unit_order.h):
// unit p here (b0[p], w0's column p, accumulator row entry p, the hidden
// layer's inputs p and kHidden + p) is the file's unit fileUnit[p].
struct alignas(64) Network {
  std::array<int16_t, kHidden> b0;
  alignas(64) std::array<int16_t, kFeatures * kHidden> w0;  // feature-major: w0[f * kHidden + i]
  std::array<int32_t, kL1> b1;
  alignas(64) std::array<int8_t, kL1 * 2 * kHidden> w1;  // in groups of four inputs: w1[w1Index(j, i)]
  int32_t b2 = 0;
  std::array<int16_t, kL1> w2;
  std::array<uint8_t, kHidden> fileUnit = fileOrder();
  std::string description;  // what made it (the file's text)
};

// Where unit j's weight of input i sits in Network::w1: the weights of
// inputs 4g..4g+3 lie together for each unit in turn, unit 0 first, group
// by group,
//   w1 = [u0:i0 i1 i2 i3][u1:i0 i1 i2 i3] ... [u31:i0..i3][u0:i4 i5 i6 i7] ...
// as the hidden sums read them (kernels.cpp); the file holds them
// row-major (unit by unit).
constexpr size_t w1Index(int j, int i) {
  return static_cast<size_t>(i / 4) * kL1 * 4 + static_cast<size_t>(j) * 4 + static_cast<size_t>(i % 4);
}

// The accumulator of one position: one row per perspective.
struct alignas(64) Accumulator {
  std::array<std::array<int16_t, kHidden>, 2> values;
};

// Parses a net file's bytes; refuses, with the reason, anything that is
// not a whole net of this version and these sizes for 4x4 Gobblet. `name`
// names the file in errors. The hidden units come sorted by activity
// (unitsByActivity, unit_order.h).
absl::StatusOr<std::unique_ptr<Network>> parseNetwork(std::string_view bytes, std::string_view name);
// Reads and parses a file (at most kMaxNetFileBytes).
absl::StatusOr<std::unique_ptr<Network>> loadNetwork(const std::string& path);
// The file's bytes for a net (what tools/nnue/train.py writes), its hidden
// units in the file's order (fileUnit).
std::string serializeNetwork(const Network& net);

// The arithmetic (kernels.cpp).
// The accumulator of `board` computed from its features (a refresh).
void refreshAccumulator(const Network& net, const Board& board, Accumulator& out);
// `after`'s accumulator from `before`'s, for `move` played in `beforeBoard`
// (giving `afterBoard`): only the features the move takes away and adds
// (moveFeatures(), board_features.h).
void updateAccumulator(const Network& net, const Board& beforeBoard, const Board& afterBoard, Move move,
                       const Accumulator& before, Accumulator& after);

// The evaluation in centi-units from the side to move's view, from the
// position's accumulator, within +-kMaxEvaluation.
int evaluate(const Network& net, const Accumulator& acc, int sideToMove);

// The net built into the programs (search/nnue/default.gnn), parsed once;
// null if it does not parse (a test checks that it does).
std::shared_ptr<const Network> defaultNetwork();

}  // namespace gobblet::nnue
