// Text notation (see docs/notation.md).
//
//   squares   a1 .. c3 / a1 .. d4: file letter, then rank digit from the bottom
//   sizes     S M L X, smallest first
//   moves     placement "L@b2", board move "a1b2"; input is case-insensitive
//   positions ranks from the top down, separated by '/'; digit k = k empty
//             squares; a letter = one piece (uppercase player 1, lowercase
//             player 2); "[sL]" = a stack listed bottom to top; then a space
//             and the side to move, 1 or 2. Start: "3/3/3 1", "4/4/4/4 1".
//
// Parsers never guess: bad text gives an InvalidArgument status saying what
// is wrong and where.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/move.h"
#include "engine/variant.h"

namespace gobblet {

inline constexpr char kSizeLetters[] = "SMLX";

std::string squareName(const Variant& v, int square);
absl::StatusOr<int> parseSquare(const Variant& v, std::string_view text);

std::string moveToString(Move m, const Variant& v);

// Parses a move and checks that it is legal in `board`.
absl::StatusOr<Move> parseMove(const Board& board, std::string_view text);

std::string positionToString(const Board& board);
absl::StatusOr<Board> parsePosition(const Variant& v, std::string_view text);

}  // namespace gobblet
