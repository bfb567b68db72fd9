// Puzzles with proofs: the two files of a puzzle set (docs/puzzles.md).
//
// puzzles.txt, one puzzle a line, '#' comment lines (and blank lines) allowed
// before the first puzzle, fields separated by one tab:
//
//   id  rating  position  solution  line  plies
//   7   2       x2X/... 1 L@b2      L@b2 c3c2 b2b3   3
//
//   id        1, 2, ... in file order
//   rating    the difficulty grade, 1 (easiest) to 5
//   position  the puzzle, the side to move to play and win (notation.h)
//   solution  the one winning move (docs/notation.md)
//   line      the proof's principal line: the solution first, then the
//             longest defence the proof allows and the winner's answers,
//             moves separated by single spaces, ending in a won position
//   plies     the proved length: the number of moves of `line`
//
// proofs.bin, the certificates of every puzzle (little-endian):
//
//   magic "GBPUZZL\n" (8) | version u32 (1) | puzzle count u32
//   per puzzle: id u32 | k u32 | k × (length u32 | a certificate file, certificate.h)
//
// A puzzle's first certificate proves that the solution wins: the side to
// move at the puzzle wins, its root move is the solution. The k - 1 others
// prove that every other legal move loses, one per move in ascending order of
// the move codes (Move::raw()): the side to move after the move wins there.
// A move after which the opponent has already won (it uncovers the
// opponent's line) has an empty certificate: the rules alone say so.
// The checker of a puzzle is puzzle_check.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"

namespace gobblet::proof {

struct Puzzle {
  int id = 0;
  int rating = 0;  // 1..5
  std::string position;
  std::string solution;
  std::vector<std::string> line;  // line[0] == solution; line.size() == plies
  int plies = 0;
};

inline constexpr int kMinPuzzleRating = 1, kMaxPuzzleRating = 5;

// Parses puzzles.txt's text. Checks every field by the rules: the position
// parses and its game is not over, the solution and every move of the line
// are legal in turn, the line starts with the solution, has `plies` moves and
// ends with the side to move at the puzzle having a line, ids count 1, 2, ...
// A bad line is an InvalidArgument naming its line number and what is wrong.
absl::StatusOr<std::vector<Puzzle>> parsePuzzles(const std::string& text, const Variant& variant = Variant::gobblet());
absl::StatusOr<std::vector<Puzzle>> readPuzzlesFile(const std::string& path,
                                                    const Variant& variant = Variant::gobblet());

// One puzzle as its line (no newline), and the whole file: `header` (lines
// without the '#', may be empty) as comments, then the puzzles.
std::string formatPuzzle(const Puzzle& puzzle);
std::string formatPuzzles(const std::vector<Puzzle>& puzzles, const std::vector<std::string>& header);

// The certificates of one puzzle, each the bytes of a certificate file.
struct PuzzleProofs {
  int id = 0;
  std::vector<std::string> certificates;  // [0] the solution's win; then one per other move
};

inline constexpr char kPuzzleProofsMagic[8] = {'G', 'B', 'P', 'U', 'Z', 'Z', 'L', '\n'};
inline constexpr uint32_t kPuzzleProofsVersion = 1;

// proofs.bin's bytes, and back. Reading checks the magic, the version and
// every length against the bytes left (a cut or forged file is a DataLoss or
// InvalidArgument naming the puzzle, never an allocation the file cannot back).
std::string encodePuzzleProofs(const std::vector<PuzzleProofs>& proofs);
absl::StatusOr<std::vector<PuzzleProofs>> decodePuzzleProofs(const std::string& bytes);
absl::StatusOr<std::vector<PuzzleProofs>> readPuzzleProofsFile(const std::string& path);

// The file names of a puzzle set in its folder.
inline constexpr char kPuzzlesFileName[] = "puzzles.txt";
inline constexpr char kPuzzleProofsFileName[] = "proofs.bin";

// A whole file's bytes (NotFound if it does not open).
absl::StatusOr<std::string> readWholeFile(const std::string& path);

}  // namespace gobblet::proof
