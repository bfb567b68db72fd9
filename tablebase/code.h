// The value code: one byte per number of the Index, in the builder, in the
// file (in compressed blocks, tablebase/file.h) and in the verifier.
//
//   0       no state (a hole of the numbering, or a position not reachable
//           from the start)
//   1       draw
//   2 + 2d  win in d plies for the side to move
//   3 + 2d  loss in d plies
#pragma once

#include <cstdint>

#include "tablebase/tablebase.h"

namespace gobblet::tb {

inline constexpr uint8_t kNoState = 0, kDrawCode = 1;
inline constexpr int kMaxDistance = 126;
inline constexpr uint8_t winCode(int d) { return static_cast<uint8_t>(2 + 2 * d); }
inline constexpr uint8_t lossCode(int d) { return static_cast<uint8_t>(3 + 2 * d); }
inline constexpr bool isWinCode(uint8_t c) { return c >= 2 && (c & 1) == 0; }
inline constexpr bool isLossCode(uint8_t c) { return c >= 3 && (c & 1) == 1; }
inline constexpr int codeDistance(uint8_t c) { return c >= 2 ? (c - 2) / 2 : 0; }

// The probe answer a code stands for (kUnknown for kNoState).
inline Probe probeOfCode(uint8_t code) {
  if (code == kNoState) return Probe{};
  if (code == kDrawCode) return Probe{Value::kDraw, 0};
  return Probe{isWinCode(code) ? Value::kWin : Value::kLoss, codeDistance(code)};
}

}  // namespace gobblet::tb
