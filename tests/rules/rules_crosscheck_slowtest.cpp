// Deeper cross-check of the fast rules core against the slow reference
// (slow label): perft of the start positions one or two plies deeper than the
// fast test, and perft from positions in the middle of random games.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/board.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/variant.h"
#include "tests/support/reference_rules.h"

namespace gobblet {
namespace {

namespace ref = gobblet::reference;

void expectSamePerft(const ref::Position& start, int depth) {
  ref::Position r = start;
  auto board = parsePosition(start.variant(), start.text());
  ASSERT_TRUE(board.ok()) << start.text() << ": " << board.status();
  EXPECT_EQ(perft(*board, depth), ref::perft(r, depth)) << "perft " << depth << " of " << start.text();
}

TEST(RulesCrossCheckSlow, StartPositionsDeep) {
  expectSamePerft(ref::Position(Variant::gobblers()), 5);
  expectSamePerft(ref::Position(Variant::gobblet()), 4);
  expectSamePerft(ref::Position(Variant::ticTacToe()), 9);
  expectSamePerft(ref::Position(Variant::family(2, 3, true)), 5);
  expectSamePerft(ref::Position(Variant::family(3, 1, false)), 6);
  expectSamePerft(ref::Position(Variant::family(1, 9, true)), 6);
  expectSamePerft(ref::Position(Variant::family4x4(2, 2)), 4);
  expectSamePerft(ref::Position(Variant::family4x4(1, 3)), 5);
  expectSamePerft(ref::Position(Variant::family4x4(3, 1)), 5);
}

// Perft from positions reached by random play (the reference alone picks
// the moves; no decided positions as roots).
TEST(RulesCrossCheckSlow, MidgamePositions) {
  std::mt19937_64 rng(0x51017);
  struct Case {
    Variant v;
    int depth, positions;
  };
  for (const Case& c :
       {Case{Variant::gobblet(), 3, 40}, Case{Variant::gobblers(), 4, 60}, Case{Variant::family(3, 3, true), 4, 30},
        Case{Variant::family4x4(2, 2), 3, 30}, Case{Variant::family4x4(1, 2), 4, 30}}) {
    SCOPED_TRACE(c.v.name());
    for (int i = 0; i < c.positions; ++i) {
      ref::Position r(c.v);
      const int plies = 2 + static_cast<int>(rng() % 14);
      for (int ply = 0; ply < plies; ++ply) {
        const auto moves = r.legalMoves();
        if (moves.empty()) break;
        const ref::Move m = moves[rng() % moves.size()];
        r.play(m);
        if (r.winner() != ref::kNobody) {
          r.undo(m);
          break;
        }
      }
      expectSamePerft(r, c.depth);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace gobblet
