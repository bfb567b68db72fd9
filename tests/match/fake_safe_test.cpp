// `gobblet-fake-engine --mode safe`, the weakest player the skill levels are
// measured against (docs/search.md "Strength levels"): it takes a win in
// one, never gives away a line in one where it has a move that does not,
// and otherwise draws among the safe moves (different seeds, different moves).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/safe_moves.h"
#include "tests/support/paths.h"
#include "tests/support/position_text.h"
#include "tests/support/shell_command.h"

namespace gobblet {
namespace {

// The fake's answers to `go` in each of `positions`, in order.
std::vector<std::string> answers(const std::vector<Board>& positions, uint64_t seed) {
  std::string input;
  for (const Board& b : positions) input += "position fen " + positionToString(b) + "\\ngo\\n";
  const auto run = testing::runCommand("printf '" + input + "quit\\n' | " + testing::binDir() +
                                       "/gobblet-fake-engine --mode safe --seed " + std::to_string(seed));
  EXPECT_EQ(run.exitCode, 0);
  std::vector<std::string> moves;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("bestmove ", 0) == 0) moves.push_back(line.substr(9));
  EXPECT_EQ(moves.size(), positions.size());
  return moves;
}

// Positions of random 4x4 games, none of them over.
std::vector<Board> randomPositions(int count) {
  std::mt19937_64 rng(5);
  std::vector<Board> out;
  while (static_cast<int>(out.size()) < count) {
    Board b(Variant::gobblet());
    for (int ply = 0; ply < 40 && b.winner() == kNoWinner; ++ply) {
      MoveList list;
      generateMoves(b, list);
      if (list.empty()) break;
      out.push_back(b);
      b.makeMove(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))]);
    }
  }
  out.resize(static_cast<size_t>(count));
  return out;
}

TEST(FakeSafe, TakesAWinAndNeverGivesALineAwayWhileItCanAvoidIt) {
  std::vector<Board> positions = randomPositions(300);
  const std::vector<std::string> moves = answers(positions, 3);
  ASSERT_EQ(moves.size(), positions.size());
  int safeChoices = 0, wins = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    Board& b = positions[i];
    auto move = parseMove(b, moves[i]);
    ASSERT_TRUE(move.ok()) << positionToString(b) << ": " << moves[i];
    MoveList all, safe;
    generateMoves(b, all);
    safeMoves(b, safe);
    bool canWin = false;
    for (Move m : all) canWin = canWin || winsAtOnce(b, m);
    if (canWin) {
      ++wins;
      EXPECT_TRUE(winsAtOnce(b, *move)) << positionToString(b) << ": " << moves[i] << " misses a win";
    } else if (!safe.empty()) {
      if (safe.size() < all.size()) ++safeChoices;
      EXPECT_FALSE(givesAwayLine(b, *move)) << positionToString(b) << ": " << moves[i] << " gives a line away";
    }
  }
  EXPECT_GT(wins, 0) << "no position of the sample had a win in one";
  EXPECT_GT(safeChoices, 10) << "too few positions of the sample had a move that gives a line away";
}

TEST(FakeSafe, BlocksAThreatAndDrawsAmongTheSafeMoves) {
  const Board threat = testing::parseOrFail(Variant::gobblet(), "4/4/XX2/xxx1 1");
  const Board start(Variant::gobblet());
  std::set<std::string> blocks, openings;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const std::vector<std::string> moves = answers({threat, start}, seed);
    ASSERT_EQ(moves.size(), 2u);
    EXPECT_EQ(moves[0].substr(moves[0].size() - 2), "d1") << "seed " << seed;
    blocks.insert(moves[0]);
    openings.insert(moves[1]);
  }
  EXPECT_GE(blocks.size(), 2u);
  EXPECT_GE(openings.size(), 4u);
}

}  // namespace
}  // namespace gobblet
