// gobblet-puzzles' library (tools/puzzles/puzzle_generator.h): on a tiny
// game it finds the known puzzle the game passes through, with the line the
// proof allows longest; one puzzle per position up to symmetry and colour
// exchange; the set it writes is what the independent checker accepts, and
// a set edited afterwards is not; gobblet-puzzles check says so.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/puzzle_check.h"
#include "proof/puzzle_file.h"
#include "tests/support/paths.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tools/puzzles/puzzle_generator.h"

namespace gobblet::puzzles {
namespace {

// Player 1 wins in 3 plies by d3a1 only (a puzzle found in a self-play game).
constexpr char kPosition[] = "[MlX]1[Lx]1/[sL][SmLx]S[mX]/[Sm][sX]2/[sMl][Ml]x1 1";

Game gameThroughThePuzzle() {
  Game game(*parsePosition(Variant::gobblet(), kPosition));
  for (const char* m : {"d3a1", "d3d1", "a3d4"}) EXPECT_TRUE(game.play(m).ok()) << m;
  EXPECT_EQ(game.position().winner(), 0);
  return game;
}

TEST(PuzzleGenerator, FindsTheKnownPuzzleInATinyGame) {
  PuzzleCollector collector(GeneratorOptions{});
  collector.addGame(gameThroughThePuzzle(), "tiny");
  const FoundPuzzle* known = nullptr;
  for (const FoundPuzzle& f : collector.found())
    if (f.puzzle.position == kPosition) known = &f;
  ASSERT_NE(known, nullptr) << collector.found().size() << " puzzles, not the known one";
  EXPECT_EQ(known->puzzle.solution, "d3a1");
  EXPECT_EQ(known->puzzle.plies, 3);
  EXPECT_EQ(known->puzzle.line.size(), 3u);
  EXPECT_EQ(known->puzzle.line.front(), "d3a1");
  EXPECT_EQ(known->source, "tiny ply 0");
  EXPECT_EQ(known->puzzle.rating, ratePuzzle(3, known->alternatives, known->quickLosses, false));  // (d3a1)
  EXPECT_EQ(known->puzzle.id, 0);  // (ids are given when the set is written)
  proof::Puzzle numbered = known->puzzle;
  proof::PuzzleProofs proofs = known->proofs;
  numbered.id = proofs.id = 1;
  const proof::PuzzleReport report = proof::checkPuzzle(numbered, proofs);
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_EQ(report.alternatives, known->alternatives);
}

TEST(PuzzleGenerator, OnePuzzlePerPositionUpToSymmetryAndColours) {
  const Board board = *parsePosition(Variant::gobblet(), kPosition);
  PuzzleCollector collector(GeneratorOptions{});
  collector.addGame(gameThroughThePuzzle(), "first");
  const size_t first = collector.found().size();
  // The same game mirrored, colours exchanged: nothing new.
  Game mirrored(board.transformed(3).colorSwapped());
  Board replay = board;
  for (const char* m : {"d3a1", "d3d1", "a3d4"}) {
    const Move move = *parseMove(replay, m);
    replay.makeMove(move);
    for (Move candidate : [&] {
           MoveList l;
           generateMoves(mirrored.position(), l);
           return std::vector<Move>(l.begin(), l.end());
         }()) {
      Board b = mirrored.position();
      b.makeMove(candidate);
      if (b == replay.transformed(3).colorSwapped()) {
        mirrored.play(candidate);
        break;
      }
    }
  }
  ASSERT_EQ(mirrored.moves().size(), 3u);
  collector.addGame(mirrored, "mirrored");
  EXPECT_EQ(collector.found().size(), first);
}

TEST(PuzzleGenerator, RatesByTheSolversMovesAndSafeLookingMistakes) {
  EXPECT_EQ(ratePuzzle(1, 40, 40, true), 1);
  EXPECT_EQ(ratePuzzle(1, 40, 40, false), 2);
  EXPECT_EQ(ratePuzzle(1, 40, 10, true), 2);
  EXPECT_EQ(ratePuzzle(3, 40, 40, false), 3);
  EXPECT_EQ(ratePuzzle(5, 40, 40, true), 4);
  EXPECT_EQ(ratePuzzle(5, 40, 0, true), 5);
  EXPECT_EQ(ratePuzzle(7, 40, 40, false), 5);
  EXPECT_EQ(ratePuzzle(21, 40, 0, false), 5);
}

TEST(PuzzleGenerator, TheWrittenSetIsCheckedAndAnEditedOneRejected) {
  PuzzleCollector collector(GeneratorOptions{});
  collector.addGame(gameThroughThePuzzle(), "tiny");
  ASSERT_FALSE(collector.found().empty());
  testing::ScratchDir dir("puzzles");
  ASSERT_TRUE(writePuzzleSet(collector.found(), dir.path(), {"test"}).ok());
  proof::PuzzleSetReport report = proof::checkPuzzleSet(dir.path());
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_EQ(report.puzzles, static_cast<int>(collector.found().size()));
  const std::string program = testing::binDir() + "/gobblet-puzzles";
  const testing::CommandResult accepted = testing::runCommand(program + " check " + dir.path());
  EXPECT_EQ(accepted.exitCode, 0);
  EXPECT_EQ(accepted.output.rfind("accepted: ", 0), 0u) << accepted.output;

  // A line longer than the proof's: the file does not read (a bad line), and check exits 1.
  auto puzzles = proof::readPuzzlesFile(dir.path() + "/puzzles.txt");
  ASSERT_TRUE(puzzles.ok());
  std::vector<proof::Puzzle> edited = *puzzles;
  edited[0].plies += 2;
  edited[0].line.push_back("x");
  std::ofstream(dir.path() + "/puzzles.txt") << proof::formatPuzzles(edited, {});
  report = proof::checkPuzzleSet(dir.path());
  EXPECT_FALSE(report.accepted);
  EXPECT_EQ(report.puzzles, 0);
  const testing::CommandResult rejected = testing::runCommand(program + " check " + dir.path());
  EXPECT_EQ(rejected.exitCode, 1);
  EXPECT_EQ(rejected.output.rfind("rejected: ", 0), 0u) << rejected.output;
}

}  // namespace
}  // namespace gobblet::puzzles
