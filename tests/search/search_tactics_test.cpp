// The search's one-move tactics agree with the rules core: targeted move
// generation is exactly a filter of generateMoves, isLegal accepts exactly
// the generated moves, and winningMove finds a win whenever one exists.
#include <gtest/gtest.h>

#include <random>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/tactics.h"

namespace gobblet {
namespace {

class Tactics : public ::testing::TestWithParam<const char*> {};

TEST_P(Tactics, AgreeWithMoveGenerationOnRandomPositions) {
  const Variant v = *Variant::parse(GetParam());
  std::mt19937_64 rng(5);
  int withWin = 0;
  for (int game = 0; game < 300; ++game) {
    Board b(v);
    for (int ply = 0; ply < 60; ++ply) {
      MoveList all;
      generateMoves(b, all);
      if (all.empty()) break;
      // generateMovesTo for a random target set.
      const Mask targets = static_cast<Mask>(rng() & b.geometry().full);
      MoveList some;
      generateMovesTo(b, targets, some);
      int expected = 0;
      for (Move m : all) expected += (targets >> m.to()) & 1;
      EXPECT_EQ(some.size(), expected) << positionToString(b);
      for (Move m : some) EXPECT_TRUE(all.contains(m)) << positionToString(b);
      // isLegal: every generated move, and no random other move.
      for (Move m : all) EXPECT_TRUE(isLegal(b, m)) << positionToString(b) << " " << moveToString(m, v);
      for (int k = 0; k < 20; ++k) {
        const Move m = Move::fromRaw(static_cast<uint16_t>((rng() & 0x3ff) | 0x800));
        EXPECT_EQ(isLegal(b, m), all.contains(m)) << positionToString(b) << " raw " << m.raw();
      }
      // winningMove: some move wins <=> it finds one, and it does win.
      bool canWin = false;
      for (Move m : all) {
        b.makeMove(m);
        canWin |= b.winner() == (b.sideToMove() ^ 1);
        b.unmakeMove(m);
      }
      const Board before = b;
      const Move w = winningMove(b);
      EXPECT_TRUE(b == before);
      EXPECT_EQ(!w.isNone(), canWin) << positionToString(b);
      if (!w.isNone()) {
        ++withWin;
        b.makeMove(w);
        EXPECT_EQ(b.winner(), b.sideToMove() ^ 1);
        b.unmakeMove(w);
      }
      b.makeMove(all[static_cast<int>(rng() % all.size())]);
    }
  }
  EXPECT_GT(withWin, 10);
}

INSTANTIATE_TEST_SUITE_P(Variants, Tactics, ::testing::Values("gobblet", "gobblers", "tictactoe", "3x3:3,3,0"));

}  // namespace
}  // namespace gobblet
