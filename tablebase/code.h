// The value code: one byte per number of the Index, in the builder, in the
// file (in compressed blocks, tablebase/file.h) and in the verifier.
//
//   0       no state (a hole of the numbering, or a position not reachable
//           from the start)
//   1       draw
//   2 + 2d  win in d plies for the side to move
//   3 + 2d  loss in d plies
//
// A file of format version 3 stores the codes 2, 3 and 4 (won and lost
// games, and wins in 1: 309 M of gobblers' 341 M states) as one symbol,
// kRuledSymbol, whose state's outcome tells them apart: the state shows the
// mover's line (2), only the other side's (3), or none (4: the game goes
// on, and the builder found a win in 1). The file is then less than half
// the size (tablebase/file.h).
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

inline constexpr uint8_t kRuledSymbol = 2;
// What a version-3 file stores for a code.
inline constexpr uint8_t storedSymbol(uint8_t code) { return code == 3 || code == 4 ? kRuledSymbol : code; }
// The code a version-3 file's symbol stands for, given the outcome of its
// state (outcomeOfLayers: +1, -1 or 0); `outcome` is asked only for
// kRuledSymbol.
template <typename Outcome>
inline uint8_t codeOfSymbol(uint8_t symbol, Outcome&& outcome) {
  if (symbol != kRuledSymbol) return symbol;
  const int o = outcome();
  return o > 0 ? winCode(0) : o < 0 ? lossCode(0) : winCode(1);
}

// The probe answer a code stands for (kUnknown for kNoState).
inline Probe probeOfCode(uint8_t code) {
  if (code == kNoState) return Probe{};
  if (code == kDrawCode) return Probe{Value::kDraw, 0};
  return Probe{isWinCode(code) ? Value::kWin : Value::kLoss, codeDistance(code)};
}

}  // namespace gobblet::tb
