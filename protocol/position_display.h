// The `d` command's picture of a game: a board diagram (each square shows
// its pieces bottom to top, uppercase player 1), then the variant, the
// position text, the side to move, the piece sizes, both supplies, the hash
// key and the game's state (its result and end reason in the rules core's
// words).
#pragma once

#include <string>
#include <vector>

#include "engine/game.h"

namespace gobblet {

// One string per output line.
std::vector<std::string> describeGame(const Game& game);

}  // namespace gobblet
