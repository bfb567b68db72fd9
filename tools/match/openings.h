// Openings: the positions matches start from.
//
// An opening is a start position plus moves played from it before the
// engines take over ("book" moves; engines still receive them, so they see
// the whole history). Each opening is played twice, once with each engine
// as player 1.
//
// Opening file format, one opening per line ('#' starts a comment line,
// blank lines are skipped):
//   L@b2 a1b2 ...                  moves from the variant's start position
//   <position> [moves M1 M2 ...]   a position in notation.h's text (it
//                                  contains '/'), then optional moves
// Every move must be legal and no opening may end the game.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/move.h"
#include "engine/variant.h"

namespace gobblet::match {

struct Opening {
  std::string label;  // "file:<line>" or "random-<k>" or "start"
  Board start;
  std::vector<Move> moves;
};

// Parses one opening line (see above). `label` names it in errors.
absl::StatusOr<Opening> parseOpening(const Variant& variant, const std::string& line, const std::string& label);

// Reads every opening of a file; an error names the file and the line.
absl::StatusOr<std::vector<Opening>> loadOpenings(const Variant& variant, const std::string& path);

// `plies` uniformly random legal moves from the start position, drawn again
// (up to 1000 times) if the game ends within them. Deterministic for a given
// generator state. Fails if no such sequence was found (tiny variants).
absl::StatusOr<Opening> randomOpening(const Variant& variant, int plies, std::mt19937_64& rng,
                                      const std::string& label);

}  // namespace gobblet::match
