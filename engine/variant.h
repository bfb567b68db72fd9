// Variant: which game is being played, and the one list of variant names.
//
// Two rule sets share one rules core:
//   * the 4x4 family, 4x4 Gobblet's rules: each player has `stacks` external
//     stacks (1..3) of `sizes` nested pieces (1..4, smallest first, only a
//     stack's top playable); a stack piece may only gobble an opponent piece
//     that is one of three opponent pieces visible in a line. 4x4 Gobblet
//     itself is three stacks of four sizes.
//   * the 3x3 family: each player has per_size loose pieces of each size, any
//     of which may be placed onto an empty square or over any strictly
//     smaller piece; moving pieces on the board may be switched off.
//
// kNamedVariants below is the only place a variant's name is spelled: the
// engine's Variant option lists its names, and every reader of a variant
// name (the protocol, game records, PGN, the tools' flags) goes through
// Variant::parse. A variant without a name of its own is written in its
// family's form, kVariantFamilyForm (3x3) or kVariant4x4FamilyForm (4x4).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace gobblet {

struct Variant {
  uint8_t n = 4;        // board side: 3 or 4
  uint8_t sizes = 4;    // number of piece sizes, 1..4
  uint8_t perSize = 3;  // pieces of each size per player (4x4: the external stacks)
  bool moving = true;   // may pieces on the board be moved?
  bool stacks = true;   // 4x4 Gobblet external-stack rules

  static constexpr Variant gobblet() { return Variant{4, 4, 3, true, true}; }
  static constexpr Variant gobblers() { return Variant{3, 3, 2, true, false}; }
  static constexpr Variant ticTacToe() { return Variant{3, 1, 5, false, false}; }
  // The 3x3 family; the arguments must be in range (see parse()).
  static constexpr Variant family(int sizes, int perSize, bool moving) {
    return Variant{3, static_cast<uint8_t>(sizes), static_cast<uint8_t>(perSize), moving, false};
  }
  // The 4x4 family: `stacks` external stacks of `sizes` nested pieces a
  // player; the arguments must be in range (sizes 1..4, stacks 1..3).
  static constexpr Variant family4x4(int sizes, int stacks) {
    return Variant{4, static_cast<uint8_t>(sizes), static_cast<uint8_t>(stacks), true, true};
  }
  // 4x4 family: the external stacks a player has (perSize's meaning there).
  int stackCount() const { return perSize; }

  int squares() const { return n * n; }

  // Canonical name: the name in kNamedVariants of an entry marked canonical
  // ("gobblet", "gobblers"), else the family form "3x3:<sizes>,<per_size>,<0|1>"
  // or "4x4:<sizes>,<stacks>".
  std::string name() const;

  // Accepts (case-insensitively, blanks around the text and between words
  // ignored) every name and alias of kNamedVariants, and the family forms
  // "3x3:s,p,m" with sizes 1..3, per_size 1..9 and m 0 or 1, and "4x4:s,k"
  // with sizes 1..4 and stacks 1..3.
  static absl::StatusOr<Variant> parse(std::string_view text);

  friend bool operator==(const Variant&, const Variant&) = default;
};

// A variant with a name of its own.
struct NamedVariant {
  std::string_view name;                      // what front ends list and send (lower case)
  std::span<const std::string_view> aliases;  // other spellings parse() takes (lower case)
  std::string_view description;               // one line for people
  Variant variant;
  // Variant::name() gives `name` back. Tic-tac-toe keeps its family form
  // 3x3:1,5,0 there: its tablebase file and its game records are named so.
  bool canonical;
};

namespace variant_aliases {
inline constexpr std::string_view kGobblet[] = {"4x4", "gobblet 4x4"};
inline constexpr std::string_view kGobblers[] = {"gobblet gobblers", "gobblet-gobblers"};
inline constexpr std::string_view kTicTacToe[] = {"tic-tac-toe", "tic tac toe"};
}  // namespace variant_aliases

// Every named variant, the default one (the Variant option's) first.
inline constexpr NamedVariant kNamedVariants[] = {
    {"gobblet", variant_aliases::kGobblet, "Gobblet, 4x4: three stacks of four nested sizes per player",
     Variant::gobblet(), true},
    {"gobblers", variant_aliases::kGobblers, "Gobblet Gobblers, 3x3: two pieces of each of three sizes per player",
     Variant::gobblers(), true},
    {"tictactoe", variant_aliases::kTicTacToe, "tic-tac-toe, 3x3: five pieces of one size per player, never moved",
     Variant::ticTacToe(), false},
};

// The families' forms, as people read them.
inline constexpr std::string_view kVariantFamilyForm = "3x3:<sizes>,<per_size>,<move 0|1>";
inline constexpr std::string_view kVariant4x4FamilyForm = "4x4:<sizes>,<stacks>";

// "gobblet, gobblers, tictactoe, 3x3:<sizes>,<per_size>,<move 0|1> or
// 4x4:<sizes>,<stacks>": what parse() takes, for messages and help texts.
// With a board side (3 or 4), only the variants on that board: "gobblers,
// tictactoe or 3x3:...".
std::string variantNamesText(int boardSide = 0);

}  // namespace gobblet
