// Variant: which game is being played.
//
// Two rule sets share one rules core:
//   * 4x4 Gobblet ("gobblet"): 4 sizes, each player has three external stacks
//     of four nested pieces; a stack piece may only gobble an opponent piece
//     that is one of three opponent pieces visible in a line.
//   * the 3x3 family ("gobblers", "3x3:<sizes>,<per_size>,<move 0|1>"): each
//     player has per_size loose pieces of each size, any of which may be placed
//     onto an empty square or over any strictly smaller piece; moving pieces
//     on the board may be switched off (tic-tac-toe is 3x3:1,5,0).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace gobblet {

struct Variant {
  uint8_t n = 4;         // board side: 3 or 4
  uint8_t sizes = 4;     // number of piece sizes, 1..4
  uint8_t perSize = 3;   // pieces of each size per player
  bool moving = true;    // may pieces on the board be moved?
  bool stacks = true;    // 4x4 Gobblet external-stack rules

  static Variant gobblet() { return Variant{4, 4, 3, true, true}; }
  static Variant gobblers() { return Variant{3, 3, 2, true, false}; }
  static Variant ticTacToe() { return Variant{3, 1, 5, false, false}; }
  // The 3x3 family; the arguments must be in range (see parse()).
  static Variant family(int sizes, int perSize, bool moving) {
    return Variant{3, static_cast<uint8_t>(sizes), static_cast<uint8_t>(perSize), moving, false};
  }

  int squares() const { return n * n; }

  // Canonical name: "gobblet", "gobblers" or "3x3:<sizes>,<per_size>,<0|1>".
  std::string name() const;

  // Accepts "gobblet", "gobblers", "tictactoe" and "3x3:s,p,m" with sizes
  // 1..3, per_size 1..9 and m 0 or 1 (case-insensitive).
  static absl::StatusOr<Variant> parse(std::string_view text);

  friend bool operator==(const Variant&, const Variant&) = default;
};

}  // namespace gobblet
