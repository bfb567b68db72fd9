// The 4x4 family's tablebase (tablebase/index4.h, tablebase/retrograde4.h):
// the numbering against the rules core's boards, the builder against the
// independent brute-force solver state by state on the small members, the
// verifier refusing a corrupted file, and gobblet-tb build, probe and
// verify through the real binary. (The members with lines, 4x4:2,2 and up,
// take minutes: tablebase_slowtest.cpp compares 4x4:2,2 with the brute
// solver.)
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "tablebase/file.h"
#include "tablebase/index.h"
#include "tablebase/index4.h"
#include "tablebase/numbering.h"
#include "tablebase/retrograde4.h"
#include "tablebase/tablebase.h"
#include "tablebase/verify.h"
#include "tests/support/brute_solver.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/tablebase_vs_brute.h"
#include "tests/support/paths.h"

namespace gobblet::tb {
namespace {

using testing::BruteSolver;
using testing::BruteValue;
using testing::expectSameAsBruteForce;
using testing::ScratchDir;

Variant member(int sizes, int stacks) { return Variant::family4x4(sizes, stacks); }

// ---- The numbering -------------------------------------------------------------

// Index4's counts against the ones published in issue 38 (positions after
// symmetry, side to move and colour), and the start in slice 0.
TEST(Index4, SizesOfTheFamily) {
  EXPECT_NEAR(static_cast<double>(Index4(member(4, 1)).statesEstimate()), 4.76e8, 0.01e8);
  EXPECT_NEAR(static_cast<double>(Index4(member(2, 3)).statesEstimate()), 6.33e9, 0.01e9);
  EXPECT_NEAR(static_cast<double>(Index4(member(3, 2)).statesEstimate()), 2.32e11, 0.01e11);
  EXPECT_NEAR(static_cast<double>(Index4(member(4, 2)).statesEstimate()), 2.53e15, 0.01e15);
  const Index4 gobblet(Variant::gobblet());
  EXPECT_FALSE(gobblet.fits()) << "4x4 Gobblet's numbering cannot fit in 64 bits";
  EXPECT_NEAR(static_cast<double>(gobblet.statesEstimate()), 1.69e20, 0.01e20);
  EXPECT_TRUE(Index4(member(2, 3)).fits());
  EXPECT_EQ(Index4(member(1, 1)).numberOf(Board(member(1, 1))), 0u);
}

// Every number of small members is a hole or decodes to a state that numbers
// back to it from each of its 8 images and from its colour swap; the
// states counted by Burnside's lemma are the numbers that are not holes;
// orbitSize is the count of distinct images (4x4:3,1: every number
// counted, one in 16 through its images).
TEST(Index4, EveryNumberRoundTrips) {
  for (const Variant v : {member(1, 1), member(1, 2), member(2, 1), member(1, 3), member(3, 1)}) {
    SCOPED_TRACE(v.name());
    const Index4 index(v);
    uint64_t states = 0;
    for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
      const Index4::Slice& sl = index.slices()[s];
      uint64_t inSlice = 0;
      for (uint64_t i = 0; i < sl.size; ++i) {
        State4 st;
        if (!index.stateAt(s, i, &st)) continue;
        ++inSlice;
        if (v == member(3, 1) && i % 16 != 0) continue;  // its 2 M states: the images of one in 16
        const Board b = index.toBoard(st);
        ASSERT_TRUE(b.countsValid()) << positionToString(b);
        std::vector<Board> images;
        for (int sym = 0; sym < 8; ++sym) {
          const Board t = b.transformed(sym);
          ASSERT_EQ(index.numberOf(t), sl.offset + i) << positionToString(t) << " symmetry " << sym;
          ASSERT_EQ(index.numberOf(t.colorSwapped()), sl.offset + i) << positionToString(t) << " swapped";
          if (std::find(images.begin(), images.end(), t) == images.end()) images.push_back(t);
        }
        ASSERT_EQ(index.orbitSize(st), static_cast<int>(images.size())) << positionToString(b);
      }
      ASSERT_EQ(inSlice, index.statesIn(s)) << "slice " << s;
      states += inSlice;
    }
    EXPECT_EQ(states, index.states());
  }
}

// The outcome a version-3 file's reader resolves its merged symbol by
// (Numbering::outcomeAt, code.h) is Board::winner's for the side to move,
// on both families' numberings (a number decodes to layers, a hole's too): a member of each with lines, and finished
// games of both kinds among the samples.
TEST(Numbering, OutcomeAtIsTheBoardsWinner) {
  for (const Variant v : {member(2, 2), Variant::gobblers()}) {
    SCOPED_TRACE(v.name());
    const Numbering numbering = Numbering::of(v);
    int seen[3] = {0, 0, 0};
    const uint64_t step = numbering.size() / 100000 | 1;  // about 100,000 numbers spread over the index
    for (uint64_t x = 0; x < numbering.size(); x += step) {
      Board b(v);
      if (numbering.index4) {
        const Index4& index = *numbering.index4;
        const int s = index.sliceOfIndex(x);
        State4 st;
        index.decode(s, x - index.slices()[s].offset, &st);
        b = index.toBoard(st);
      } else {
        const Index& index = *numbering.index3;
        const int s = index.sliceOfIndex(x);
        State st;
        index.decode(s, x - index.slices()[s].offset, &st);
        b = index.toBoard(st);
      }
      const int winner = b.winner(), expected = winner == kNoWinner ? 0 : winner == b.sideToMove() ? 1 : -1;
      ASSERT_EQ(numbering.outcomeAt(x), expected) << x << " " << positionToString(b);
      ++seen[expected + 1];
    }
    EXPECT_GT(seen[0], 100);
    EXPECT_GT(seen[1], 100);
    EXPECT_GT(seen[2], 100);
  }
}

// A board that breaks the 4x4 counts (a smaller piece played from a stack
// before the larger one above it) or is of another variant has no number.
TEST(Index4, BoardsOutsideTheVariantHaveNoNumber) {
  const Index4 index(member(2, 1));
  Board b(member(2, 1));
  b.addPiece(0, 0, 5);  // a small piece with the large one still on its stack
  EXPECT_EQ(index.numberOf(b), Index4::kNotAState);
  EXPECT_EQ(index.numberOf(Board(member(2, 2))), Index4::kNotAState);
  EXPECT_EQ(index.numberOf(Board(Variant::gobblers())), Index4::kNotAState);
}

// ---- Neighbours: the builder's and the verifier's numbering of moves -----------

// Random games of members with lines, up to four sizes and three stacks.
template <typename Visit>
void forPositionsOfRandomGames(const Variant& v, int games, Visit&& visit) {
  std::mt19937 rng(29);
  for (int game = 0; game < games; ++game) {
    Board b(v);
    for (int ply = 0; ply < 40 && b.winner() == kNoWinner; ++ply) {
      MoveList moves;
      generateMoves(b, moves);
      if (moves.empty()) break;
      visit(b, moves);
      b.makeMove(moves[static_cast<int>(rng() % moves.size())]);
    }
  }
}
std::vector<Variant> membersWithLines() { return {member(2, 2), member(4, 1), member(2, 3), member(3, 2)}; }

// numberChildren (verify.h: the verifier's and the builder's) numbers
// each move's child as the rules core's Board after makeMove, including
// board moves that uncover a smaller piece.
TEST(Verify4NumberChildren, MatchesTheRulesCoreBoard) {
  for (const Variant& v : membersWithLines()) {
    SCOPED_TRACE(v.name());
    const Index4 index(v);
    int uncovering = 0, drops = 0;
    forPositionsOfRandomGames(v, 60, [&](Board& b, const MoveList& moves) {
      State4 st;
      ASSERT_TRUE(index.toState(b, &st));
      std::array<uint64_t, MoveList::kCapacity> children;
      numberChildren(index, st, moves, [&](int i, uint64_t child) { children[i] = child; });
      for (int i = 0; i < moves.size(); ++i) {
        const Move m = moves[i];
        drops += m.isDrop();
        bool covers = false;
        for (int s = 0; s < m.size(); ++s) covers |= (b.sizeMask(s) & bit(m.from())) != 0;
        uncovering += !m.isDrop() && covers;
        b.makeMove(m);
        const uint64_t expected = index.numberOf(b);
        b.unmakeMove(m);
        ASSERT_EQ(children[i], expected) << positionToString(b) << " " << moveToString(m, v);
      }
    });
    EXPECT_GT(drops, 0);
    if (v.sizes > 1) {
      EXPECT_GT(uncovering, 0);
    }
  }
  // Moves no rules core makes: onto a piece of its size, of a piece the
  // mover has not there, of a size the variant lacks, a drop past a stack.
  const Index4 index(member(2, 1));
  State4 st;
  st.ours[1] = 0b1;
  st.theirs[1] = 0b10;
  MoveList moves;
  moves.push(Move::boardMove(1, 0, 1));
  moves.push(Move::boardMove(1, 5, 6));
  moves.push(Move::drop(2, 7));
  moves.push(Move::drop(1, 7));
  uint64_t children[4];
  numberChildren(index, st, moves, [&](int i, uint64_t child) { children[i] = child; });
  for (uint64_t child : children) EXPECT_EQ(child, kNoChild);
}

// The builder's parents of a state (parentNumbers4) are exactly the
// positions with a move into its orbit: every position of a random game
// is among the parents of each of its children, and each parent found,
// decoded, has a legal move to that child (by the rules core's Board).
TEST(Retrograde4, ParentsAreThePositionsWithAMoveIntoTheState) {
  for (const Variant& v : membersWithLines()) {
    SCOPED_TRACE(v.name());
    const Index4 index(v);
    int checked = 0;
    forPositionsOfRandomGames(v, 3, [&](Board& b, const MoveList& moves) {
      const uint64_t self = index.numberOf(b);
      for (int i = 0; i < moves.size(); i += 4) {  // a quarter of the moves
        b.makeMove(moves[i]);
        State4 child;
        ASSERT_TRUE(index.toState(b, &child));
        const uint64_t childNumber = index.numberOf(b);
        b.unmakeMove(moves[i]);
        const std::vector<uint64_t> parents = parentNumbers4(index, child);
        ASSERT_NE(std::find(parents.begin(), parents.end(), self), parents.end())
            << positionToString(b) << " " << moveToString(moves[i], v);
        ASSERT_EQ(std::set<uint64_t>(parents.begin(), parents.end()).size(), parents.size());
        for (uint64_t p : parents) {
          State4 ps;
          const int slice = index.sliceOfIndex(p);
          ASSERT_TRUE(index.stateAt(slice, p - index.slices()[slice].offset, &ps)) << p;
          Board parent = index.toBoard(ps);
          ASSERT_EQ(parent.winner(), kNoWinner);
          MoveList parentMoves;
          generateMoves(parent, parentMoves);
          bool leads = false;
          for (Move m : parentMoves) {
            parent.makeMove(m);
            leads |= index.numberOf(parent) == childNumber;
            parent.unmakeMove(m);
          }
          ASSERT_TRUE(leads) << positionToString(parent) << " has no move to " << childNumber;
          ++checked;
        }
      }
    });
    EXPECT_GT(checked, 100);
  }
}

// ---- The solution against brute force ------------------------------------------

// Every state the brute-force solver reaches has the same value and distance
// in the file, probed through each of its 8 images and its colour swap; the
// counts agree; the verifier accepts the file.

// The members of fewer than four pieces a player: no line can ever show, so
// every state is a draw; what is checked is the reachable set, the
// numbering and the file, state by state.
TEST(Retrograde4, SmallMembersMatchBruteForce) {
  expectSameAsBruteForce(member(1, 1));
  expectSameAsBruteForce(member(1, 2));
  expectSameAsBruteForce(member(2, 1));
  expectSameAsBruteForce(member(1, 3));
}

TEST(Retrograde4, SmallMembersAreAllDraws) {
  for (const Variant v : {member(1, 1), member(1, 2), member(1, 3), member(2, 1)}) {
    auto solved = solve4(v, 2);
    ASSERT_TRUE(solved.ok()) << solved.status();
    EXPECT_EQ(solved->stats.draws, solved->stats.states) << v.name();
    EXPECT_EQ(solved->stats.start, kDrawCode) << v.name();
  }
}

// The same codes for any thread count.
TEST(Retrograde4, ThreadsGiveTheSameCodes) {
  auto one = solve4(member(1, 3), 1), two = solve4(member(1, 3), 2);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_TRUE(one->codes == two->codes);
}

TEST(Retrograde4, TooLargeOrWrongFamilyIsRefused) {
  EXPECT_FALSE(solve4(Variant::gobblet(), 1).ok());
  EXPECT_FALSE(solve4(Variant::gobblers(), 1).ok());
}

// ---- The verifier ---------------------------------------------------------------

// A file whose one state's value was changed (then written as a good file,
// checksum and all) is refused by the verifier, which names the position;
// so is one whose start was dropped and one with a value in a hole.
TEST(Verify4, RefusesACorruptedFile) {
  const Variant v = member(1, 3);
  auto solved = solve4(v, 2);
  ASSERT_TRUE(solved.ok());
  const ScratchDir dir("gobblet_tb4");
  const Index4 index(v);
  // A state deep in the table: a draw made a win in 3.
  uint64_t x = solved->codes.size() - 1;
  while (solved->codes[x] == kNoState) --x;
  const uint8_t was = solved->codes[x];
  solved->codes[x] = winCode(3);
  ASSERT_TRUE(writeFile(dir.file("win.gtb"), v, *solved).ok());
  auto tb = File::open(dir.file("win.gtb"));
  ASSERT_TRUE(tb.ok()) << tb.status() << " (the file itself is well formed)";
  absl::Status s = verify(**tb, 2);
  EXPECT_TRUE(absl::IsDataLoss(s)) << s;
  EXPECT_NE(s.message().find("stored win in 3, its moves say draw"), std::string::npos) << s;
  solved->codes[x] = was;

  // A value in a number that is no reachable state.
  uint64_t hole = 0;
  while (solved->codes[hole] != kNoState) ++hole;
  solved->codes[hole] = kDrawCode;
  ASSERT_TRUE(writeFile(dir.file("hole.gtb"), v, *solved).ok());
  tb = File::open(dir.file("hole.gtb"));
  ASSERT_TRUE(tb.ok());
  s = verify(**tb, 2);
  EXPECT_TRUE(absl::IsDataLoss(s)) << s;
  solved->codes[hole] = kNoState;

  // The good file passes.
  ASSERT_TRUE(writeFile(dir.file("good.gtb"), v, *solved).ok());
  tb = File::open(dir.file("good.gtb"));
  ASSERT_TRUE(tb.ok());
  EXPECT_TRUE(verify(**tb, 2).ok());
}

// A header naming a 4x4 member with the entries of another is refused at open.
TEST(File4, HeaderOfAnotherMemberIsRefused) {
  const ScratchDir dir("gobblet_tb4");
  auto solved = solve4(member(1, 2), 1);
  ASSERT_TRUE(solved.ok());
  ASSERT_TRUE(writeFile(dir.file("x.gtb"), member(2, 1), *solved).ok());  // 1,2's codes under 2,1's name
  auto tb = File::open(dir.file("x.gtb"));
  ASSERT_FALSE(tb.ok());
  EXPECT_NE(tb.status().message().find("entries"), std::string::npos) << tb.status();
}

// ---- Through the public API and the binary ------------------------------------------

TEST(Tablebase4, HasIndexForEveryMemberButGobblet) {
  EXPECT_TRUE(hasIndex(Variant::gobblers()));
  EXPECT_TRUE(hasIndex(Variant::ticTacToe()));
  for (int sizes = 1; sizes <= 4; ++sizes)
    for (int stacks = 1; stacks <= 3; ++stacks)
      EXPECT_EQ(hasIndex(member(sizes, stacks)), !(sizes == 4 && stacks == 3)) << member(sizes, stacks).name();
}

// build() writes a 4x4 member's file; tb::open and rankMoves answer for it.
TEST(Tablebase4, BuildOpenProbeAndRank) {
  const ScratchDir dir("gobblet_tb4");
  BuildOptions options;
  options.threads = 2;
  const auto counts = build(member(2, 1), dir.file("m.gtb"), options);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->start.value, Value::kDraw);
  auto tb = open(dir.file("m.gtb"));
  ASSERT_TRUE(tb.ok()) << tb.status();
  EXPECT_EQ((*tb)->variant(), member(2, 1));
  const Board start(member(2, 1));
  EXPECT_EQ((*tb)->probe(start).value, Value::kDraw);
  const std::vector<RankedMove> ranked = rankMoves(**tb, start);
  MoveList moves;
  generateMoves(start, moves);
  EXPECT_EQ(static_cast<int>(ranked.size()), moves.size());
  for (const RankedMove& m : ranked) EXPECT_EQ(m.value.value, Value::kDraw);
  // A position of another member is unknown, not a wrong value.
  EXPECT_EQ((*tb)->probe(Board(member(2, 2))).value, Value::kUnknown);
  // Codes in a file, or several ranks, are the 3x3 builder's alone.
  options.codesDirectory = dir.path();
  EXPECT_FALSE(build(member(2, 1), dir.file("n.gtb"), options).ok());
}

const std::string kTool = gobblet::testing::binDir() + "/gobblet-tb";

TEST(GobbletTb4, BuildProbeVerifyAndEstimate) {
  const ScratchDir dir("gobblet_tb4_tool");
  const std::string file = dir.file("m.gtb");
  testing::CommandResult r = testing::runCommand(kTool + " build 4x4:2,1 --threads 2 --out " + file + " 2>/dev/null");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("variant      4x4:2,1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("states       8257"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("start        draw"), std::string::npos) << r.output;
  r = testing::runCommand(kTool + " probe " + file + " 4/4/4/4 1 2>&1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("position 4/4/4/4 1: draw"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  M@a1 draw"), std::string::npos) << r.output;
  r = testing::runCommand(kTool + " probe " + file + " 4/4/4/M3 2 2>&1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("position 4/4/4/M3 2: draw"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  M@b1 draw"), std::string::npos) << r.output;
  // Player 1 to move having played and player 2 not: no game reaches it.
  r = testing::runCommand(kTool + " probe " + file + " 4/4/4/M3 1 2>&1");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("position 4/4/4/M3 1: unknown"), std::string::npos) << r.output;
  r = testing::runCommand(kTool + " verify " + file + " --threads 2 2>/dev/null");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("8257 states, start draw"), std::string::npos) << r.output;
  r = testing::runCommand(kTool + " info " + file + " 2>&1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("variant      4x4:2,1"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gobblet::tb
