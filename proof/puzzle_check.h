// The checker of a puzzle (puzzle_file.h): accepts it only if its
// certificates prove, by the rules core alone, that the solution wins and
// that every other legal move loses. It shares no code with the prover: each
// certificate goes through the certificate checker (check.h), and this file
// binds them to the puzzle.
//
// A puzzle is accepted when
//   - its first certificate is accepted, proves a win for the side to move
//     at the puzzle's position, names the solution as its first move, allows
//     at most `plies` plies, and the puzzle's line follows it (each of the
//     winner's moves the certificate's, each defence one of the loser's
//     moves it answers) to a won position in exactly `plies` moves: the line
//     is a longest game the proof allows;
//   - there is one more certificate per other legal move, in ascending order
//     of the move codes, each accepted and proving that the side to move after
//     that move wins there, without ever returning to the puzzle's position
//     (or, for a move that hands the opponent a line, an empty one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/variant.h"
#include "proof/puzzle_file.h"

namespace gobblet::proof {

struct PuzzleReport {
  bool accepted = false;
  std::string reason;    // why it was rejected, naming the puzzle and the certificate
  int alternatives = 0;  // the other legal moves proved to lose
  uint64_t nodes = 0;    // certificate nodes checked
};

PuzzleReport checkPuzzle(const Puzzle& puzzle, const PuzzleProofs& proofs, const Variant& variant = Variant::gobblet());

// A folder's puzzle set: puzzles.txt and proofs.bin, every puzzle checked.
struct PuzzleSetReport {
  bool accepted = false;  // both files read, every puzzle accepted, one proof entry per puzzle
  std::string reason;     // the first problem (a file that does not read, a puzzle rejected)
  int puzzles = 0, acceptedPuzzles = 0;
  int alternatives = 0;
  uint64_t nodes = 0;
  std::vector<std::string> rejections;  // one line per rejected puzzle
};

PuzzleSetReport checkPuzzleSet(const std::string& folder, const Variant& variant = Variant::gobblet());

}  // namespace gobblet::proof
