// randomGamePositions: many varied positions of a variant for tests, from
// seeded random games: each game from the start, a uniformly random legal
// move at each ply, until a win, no legal move or `plies` plies; every
// position before each move, the start included. The same seed gives the
// same positions.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "engine/board.h"
#include "engine/movegen.h"

namespace gobblet::testing {

inline std::vector<Board> randomGamePositions(const Variant& v, int games, int plies, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Board> boards;
  for (int g = 0; g < games; ++g) {
    Board b(v);
    for (int ply = 0; ply < plies && b.winner() == kNoWinner; ++ply) {
      boards.push_back(b);
      MoveList moves;
      generateMoves(b, moves);
      if (moves.empty()) break;
      b.makeMove(moves[static_cast<int>(rng() % static_cast<uint64_t>(moves.size()))]);
    }
  }
  return boards;
}

}  // namespace gobblet::testing
