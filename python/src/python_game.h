// PythonGame: the game object Python sees (gobblet.Game). It is the rules
// core's Game plus undo: the start position and the moves are kept, and
// undo replays all but the last move into a fresh Game (the core's Game
// only grows), so repetition and the result stay the core's.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/game.h"
#include "engine/variant.h"

namespace gobblet::python {

// What a Python caller may pass for a variant: its name or a Variant.
using VariantArg = std::variant<std::string, Variant>;
// The variant a VariantArg names; VariantError for an unknown name.
Variant toVariant(const VariantArg& arg);
// The variant's name in the rules core's registry (kNamedVariants: "tictactoe"),
// else its family form (Variant::name(): "3x3:2,2,1").
std::string variantName(const Variant& variant);
// The position text parsed in `variant`; PositionError naming the text.
Board parsePositionOrThrow(const Variant& variant, const std::string& text);

class PythonGame {
 public:
  PythonGame(const Variant& variant, const std::optional<std::string>& position, const std::vector<std::string>& moves);

  const Game& game() const { return game_; }
  const Board& board() const { return game_.position(); }
  const Variant& variant() const { return game_.position().variant(); }

  void play(const std::string& moveText);  // IllegalMoveError / GameOverError
  std::string undo();                      // the move taken back; IndexError at the start

 private:
  Game game_;
};

}  // namespace gobblet::python
