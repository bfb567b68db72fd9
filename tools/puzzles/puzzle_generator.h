// The puzzle generator: positions of self-play games where the side to move
// has exactly one winning move, the win proved and every other move proved
// to lose (proof/prover.h), written as a puzzle set (proof/puzzle_file.h)
// that the independent checker (proof/puzzle_check.h) accepts.
//
//   GeneratorOptions options;
//   PuzzleCollector collector(options);
//   collector.addGame(game);                 // each game's last positions, newest first
//   writePuzzleSet(collector.puzzles(), "puzzles", header);
//
// A position is kept when, within the node budgets, the prover proves the
// side to move wins and, for every other legal move, that the opponent wins
// after it (a move that hands the opponent a line at once needs no proof).
// Positions equal under the board's 8 symmetries and the exchange of the
// players are one puzzle (canonicalBoard, engine/canonical.h). Grades: ratePuzzle.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/board.h"
#include "engine/game.h"
#include "proof/certificate.h"
#include "proof/puzzle_file.h"

namespace gobblet::puzzles {

struct GeneratorOptions {
  int pliesFromEnd = 12;         // positions scanned in each game, counted back from its end
  uint64_t winNodes = 4000;      // the budget to prove the win
  uint64_t lossNodes = 2000;     // the budget to prove each other move lost
  size_t hashMiB = 1;            // the prover's table
  bool variations = true;        // also the positions one move off the game
  int maxQuietMoves = 6;         // other moves after which the opponent has no line in one, at most
  int perVariationPly = 1;       // variations: puzzles kept at most from one ply's moves
  size_t maxProofBytes = 12000;  // a puzzle whose certificates take more is left out
  size_t maxPuzzles = 0;         // games after this many puzzles are not read (0: all are)
};

// A puzzle found, with its proofs, before ids are given.
struct FoundPuzzle {
  proof::Puzzle puzzle;        // id 0 until writePuzzleSet numbers them
  proof::PuzzleProofs proofs;  // id 0 likewise
  int alternatives = 0;        // the other legal moves
  int quickLosses = 0;         // ... after which the opponent has a line in one
  std::string source;          // where it was found ("game 12 ply 40")
};

// The principal line of a win certificate from `root`: the winner's moves,
// and at each of the loser's turns the move after which the certificate's
// game is longest (the first such in move order).
std::vector<std::string> principalLine(const proof::Certificate& certificate, const Board& root);

// The difficulty grade, 1..5, from the proved length and the kind of
// solution: a line in one (plies 1) is 1 when it is a drop from the reserve
// and 2 when it moves a piece already on the board; a longer win is
// 1 + the solver's moves ((plies + 1) / 2): 3 for 3 plies, 4 for 5, 5 from
// 7 on. One more when more than half of the other moves do not lose at once
// (the opponent has no line in one after them: the mistakes look safe);
// at most 5.
int ratePuzzle(int plies, int alternatives, int quickLosses, bool solutionIsDrop);

// The puzzle at `position`, or nothing (not a puzzle, or not proved within
// the budgets). `won`, when given, says whether the win was proved. Only a
// position where the opponent, were it to move, would have a line in one is
// tried (else some quiet move would not lose: no puzzle), and one where at
// most options.maxQuietMoves other moves leave the opponent without a line
// in one (each must be proved lost; the others are, by a certificate of one
// node), which saves the proofs of the many positions that are not puzzles.
std::optional<FoundPuzzle> findPuzzle(const Board& position, const GeneratorOptions& options, bool* won = nullptr);

// Collects the puzzles of many games, one per canonical position.
class PuzzleCollector {
 public:
  explicit PuzzleCollector(GeneratorOptions options) : options_(options) {}
  // Called with each puzzle as it is found.
  void onFound(std::function<void(const FoundPuzzle&)> f) { onFound_ = std::move(f); }
  // Scans the game's positions with its winner to move, from the last back,
  // at most options.pliesFromEnd plies from the end, and stops at the first
  // whose win the prover does not prove within options.winNodes (the
  // positions before it are further from the end: harder still). With
  // options.variations, the positions one move off the game at those plies
  // are tried too: after each other move the loser had (the winner to
  // solve) and after each other move of the winner (the loser to solve: a
  // mistake punished), options.perVariationPly puzzles at most from one ply. A drawn game is not scanned. `name` tells
  // where a puzzle came from.
  void addGame(const Game& game, const std::string& name);
  const std::vector<FoundPuzzle>& found() const { return found_; }
  uint64_t positionsTried() const { return tried_; }

 private:
  void tryPosition(const Board& position, const std::string& source, bool* won);
  // The positions after each move at `position` but the one `played`, until
  // options.perVariationPly puzzles are found among them.
  void tryVariations(const Board& position, const Board& played, const std::string& source);

  GeneratorOptions options_;
  std::function<void(const FoundPuzzle&)> onFound_;
  std::vector<FoundPuzzle> found_;
  std::vector<std::string> seen_;  // canonical positions tried, sorted
  uint64_t tried_ = 0;
};

// Sorts the puzzles (rating, then plies, then position), numbers them 1..N,
// checks each with the independent checker, and writes `folder`/puzzles.txt
// (the header as comments first) and `folder`/proofs.bin. A puzzle the
// checker rejects is an Internal error (a prover's bug), nothing written.
absl::Status writePuzzleSet(std::vector<FoundPuzzle> puzzles, const std::string& folder,
                            const std::vector<std::string>& header);

}  // namespace gobblet::puzzles
