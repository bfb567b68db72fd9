// Openings (file lines, random plies) and time controls of the match runner.
#include <cstdio>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "engine/game.h"
#include "engine/notation.h"
#include "match/opening_sequence.h"
#include "match/openings.h"
#include "match/time_control.h"

namespace gobblet::match {
namespace {

TEST(MatchOpenings, ParsesMoveListsAndPositions) {
  const Variant v = Variant::gobblet();
  auto moves = parseOpening(v, "  X@a1 X@d4 a1b2 ", "t");
  ASSERT_TRUE(moves.ok()) << moves.status();
  EXPECT_EQ(moves->start, Board(v));
  ASSERT_EQ(moves->moves.size(), 3u);
  EXPECT_EQ(moveToString(moves->moves[2], v), "a1b2");

  auto position = parseOpening(Variant::gobblers(), "L2/3/2l 1 moves M@b2", "t");
  ASSERT_TRUE(position.ok()) << position.status();
  EXPECT_EQ(positionToString(position->start), "L2/3/2l 1");
  EXPECT_EQ(position->moves.size(), 1u);

  auto bare = parseOpening(Variant::gobblers(), "L2/3/2l 2", "t");
  ASSERT_TRUE(bare.ok()) << bare.status();
  EXPECT_TRUE(bare->moves.empty());
  EXPECT_EQ(bare->start.sideToMove(), 1);
}

TEST(MatchOpenings, RejectsBadLines) {
  const Variant v = Variant::gobblers();
  for (const char* bad : {"L@a1 L@a1",                 // large on large
                          "L@a1 zz",                   // not a move
                          "L@a1 S@c3 L@b1 S@c2 M@c1",  // the game is over after it
                          "L@a1 S@c3 L@b1 S@c2 M@c1 S@a3", "LLL/3/3 1", "3/3/3 1 moves S@a9"}) {
    auto opening = parseOpening(v, bad, "file:7");
    ASSERT_FALSE(opening.ok()) << bad;
    EXPECT_NE(std::string(opening.status().message()).find("file:7"), std::string::npos);
  }
}

TEST(MatchOpenings, LoadsAFileWithComments) {
  const std::string path = ::testing::TempDir() + "match_openings_test.txt";
  {
    std::ofstream out(path);
    out << "# two openings\n\nL@b2 S@a1\n  3/1L1/3 2 moves S@a1\n";
  }
  auto openings = OpeningFile::open(Variant::gobblers(), path);
  ASSERT_TRUE(openings.ok()) << openings.status();
  ASSERT_EQ((*openings)->size(), 2);
  auto first = (*openings)->next(), second = (*openings)->next();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->label, path + ":3");
  EXPECT_EQ(second->label, path + ":4");
  EXPECT_EQ(positionToString(second->start), "3/1L1/3 2");
  {
    std::ofstream out(path);
    out << "L@b2\nL@b2 L@b2\n";
  }
  auto bad = OpeningFile::open(Variant::gobblers(), path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find(":2:"), std::string::npos) << bad.status();
  {
    std::ofstream out(path);
    out << "# nothing\n";
  }
  EXPECT_FALSE(OpeningFile::open(Variant::gobblers(), path).ok());
  EXPECT_FALSE(OpeningFile::open(Variant::gobblers(), path + ".missing").ok());
  std::remove(path.c_str());
}

TEST(MatchOpenings, ASequenceMakesTheOpeningsOfTheirPairsInTurn) {
  // Random: the same openings, in the same order, as drawn one after the
  // other from the seeded generator (as the tournament once made them all
  // up front).
  const Variant v = Variant::gobblers();
  const std::vector<Opening> none;
  OpeningSequence random(v, none, nullptr, 3, 42);
  std::mt19937_64 rng(42);
  for (int k = 0; k < 20; ++k) {
    auto expected = randomOpening(v, 3, rng, "random-" + std::to_string(k + 1));
    ASSERT_TRUE(expected.ok());
    for (int twice = 0; twice < 2; ++twice) {  // both games of the pair
      auto opening = random.at(k);
      ASSERT_TRUE(opening.ok()) << opening.status();
      EXPECT_EQ(opening->label, expected->label);
      EXPECT_EQ(opening->moves, expected->moves);
    }
  }
  EXPECT_FALSE(random.at(3).ok());  // pairs are asked for in order
  OpeningSequence start(v, none, nullptr, 0, 1);
  EXPECT_EQ(start.at(5)->label, "start");

  // A list is cycled.
  const std::vector<Opening> list = {*parseOpening(v, "L@a1", "one"), *parseOpening(v, "L@b2", "two")};
  OpeningSequence cycled(v, list, nullptr, 0, 1);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(cycled.at(k)->label, k % 2 == 0 ? "one" : "two");
}

TEST(MatchOpenings, RandomOpeningsAreLegalRunningAndSeeded) {
  for (const Variant& v : {Variant::gobblet(), Variant::gobblers()}) {
    std::mt19937_64 a(7), b(7), c(8);
    bool differs = false;
    for (int k = 0; k < 20; ++k) {
      auto x = randomOpening(v, 6, a, "r"), y = randomOpening(v, 6, b, "r"), z = randomOpening(v, 6, c, "r");
      ASSERT_TRUE(x.ok() && y.ok() && z.ok());
      ASSERT_EQ(x->moves.size(), 6u);
      EXPECT_EQ(x->moves, y->moves);
      differs |= x->moves != z->moves;
      Game game(x->start);
      for (Move m : x->moves) ASSERT_TRUE(game.play(moveToString(m, v)).ok());
      EXPECT_EQ(game.result(), GameResult::kNone);
    }
    EXPECT_TRUE(differs);
  }
  // Nine plies of tic-tac-toe always end the game.
  std::mt19937_64 rng(1);
  EXPECT_FALSE(randomOpening(Variant::ticTacToe(), 9, rng, "r").ok());
  EXPECT_TRUE(randomOpening(Variant::ticTacToe(), 0, rng, "r").ok());
}

TEST(MatchTimeControl, ParsesClocksInSeconds) {
  auto tc = parseClock("10+0.1");
  ASSERT_TRUE(tc.ok());
  EXPECT_EQ(tc->baseMs, 10000);
  EXPECT_EQ(tc->incMs, 100);
  tc = parseClock("0.5");
  ASSERT_TRUE(tc.ok());
  EXPECT_EQ(tc->baseMs, 500);
  EXPECT_EQ(tc->incMs, 0);
  EXPECT_EQ(tc->describe(), "0.5+0");
  for (const char* bad : {"", "abc", "-1+0", "0+1", "1+2+3", "1+x", "nan", "1e99"})
    EXPECT_FALSE(parseClock(bad).ok()) << bad;
}

TEST(MatchTimeControl, GoLinesAndAllowances) {
  TimeControl clock;
  clock.baseMs = 2000, clock.incMs = 50;
  GameClocks clocks;
  clocks.remainingMs[0] = 1500, clocks.remainingMs[1] = 2200, clocks.incMs[0] = 50, clocks.incMs[1] = 20;
  EXPECT_EQ(goCommand(clock, clocks, Protocol::kUgi), "go p1time 1500 p2time 2200 p1inc 50 p2inc 20");
  EXPECT_EQ(goCommand(clock, clocks, Protocol::kUci), "go wtime 1500 btime 2200 winc 50 binc 20");
  TimeControl fixed;
  fixed.moveTimeMs = 200;
  fixed.depth = 4;
  EXPECT_EQ(goCommand(fixed, clocks, Protocol::kUgi), "go movetime 200 depth 4");
  TimeControl nodes;
  nodes.nodes = 5000;
  EXPECT_EQ(goCommand(nodes, clocks, Protocol::kUci), "go nodes 5000");
  EXPECT_EQ(nodes.describe(), "nodes=5000");

  EXPECT_EQ(moveAllowanceMs(clock, 1500, 100, 9000), 1600);
  EXPECT_EQ(moveAllowanceMs(fixed, 1500, 100, 9000), 300);
  EXPECT_EQ(moveAllowanceMs(nodes, 1500, 100, 9000), 9000);
}

}  // namespace
}  // namespace gobblet::match
