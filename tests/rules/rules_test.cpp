// Unit tests of the rules core: perft contract, notation, symmetries,
// hashing, the outcome rule, stacks and repetition. The cross-check against
// the independent slow reference lives in rules_crosscheck_test.cpp.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/board.h"
#include "engine/game.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "tests/support/position_text.h"

namespace gobblet {
namespace {

Board parse(const Variant& v, const std::string& text) { return testing::parseOrFail(v, text); }

std::set<std::string> moveTexts(const Board& b) {
  MoveList list;
  generateMoves(b, list);
  std::set<std::string> out;
  for (Move m : list) out.insert(moveToString(m, b.variant()));
  EXPECT_EQ(out.size(), static_cast<size_t>(list.size())) << "duplicate move text";
  return out;
}

// ---- Perft: the contract numbers -------------------------------------------

TEST(Perft, GobblersStart) {
  Board b(Variant::gobblers());
  const uint64_t expected[] = {27, 675, 20313, 572472, 16635384};
  for (int d = 1; d <= 5; ++d) EXPECT_EQ(perft(b, d), expected[d - 1]) << "depth " << d;
}

TEST(Perft, GobbletStart) {
  Board b(Variant::gobblet());
  const uint64_t expected[] = {16, 240, 10080, 406560, 19024320};
  for (int d = 1; d <= 5; ++d) EXPECT_EQ(perft(b, d), expected[d - 1]) << "depth " << d;
}

// The 4x4 family, sizes 1..4 by stacks 1..3 (4x4:4,3 is Gobblet), depths
// 1..5; each checked against the reference rules (rules_crosscheck tests).
TEST(Perft, Family4x4Start) {
  const uint64_t expected[4][3][5] = {
      {{16, 240, 3360, 47040, 658560}, {16, 240, 6720, 181440, 4724160}, {16, 240, 6720, 181440, 5816160}},
      {{16, 240, 6720, 184800, 4949280}, {16, 240, 10080, 406560, 15744960}, {16, 240, 10080, 406560, 17361120}},
      {{16, 240, 6720, 184800, 6088320}, {16, 240, 10080, 406560, 17408160}, {16, 240, 10080, 406560, 19024320}},
      {{16, 240, 6720, 184800, 6088320}, {16, 240, 10080, 406560, 17408160}, {16, 240, 10080, 406560, 19024320}},
  };
  for (int sizes = 1; sizes <= 4; ++sizes)
    for (int stacks = 1; stacks <= 3; ++stacks) {
      Board b(Variant::family4x4(sizes, stacks));
      for (int d = 1; d <= 5; ++d)
        EXPECT_EQ(perft(b, d), expected[sizes - 1][stacks - 1][d - 1]) << b.variant().name() << " depth " << d;
    }
}

TEST(Perft, DivideSumsToTotalAndLeavesBoardUnchanged) {
  Board b(Variant::gobblet());
  const Board before = b;
  const PerftResult r = perftDivide(b, 3);
  uint64_t sum = 0;
  for (const auto& [m, n] : r.perMove) sum += n;
  EXPECT_EQ(sum, r.total);
  EXPECT_EQ(r.total, 10080u);
  EXPECT_EQ(r.perMove.size(), 16u);
  EXPECT_EQ(b, before);
  EXPECT_EQ(b.key(), before.key());
}

TEST(Perft, TicTacToe) {
  Board b(Variant::ticTacToe());
  // Well-known counts of tic-tac-toe move sequences, games ending at a line.
  EXPECT_EQ(perft(b, 1), 9u);
  EXPECT_EQ(perft(b, 2), 72u);
  EXPECT_EQ(perft(b, 3), 504u);
  EXPECT_EQ(perft(b, 4), 3024u);
  EXPECT_EQ(perft(b, 5), 15120u);
  EXPECT_EQ(perft(b, 6), 54720u);
  EXPECT_EQ(perft(b, 9), 127872u);  // games that last all nine moves
}

// ---- Variants ----------------------------------------------------------------

TEST(VariantText, ParsesAndNames) {
  EXPECT_EQ(Variant::parse("gobblet")->name(), "gobblet");
  EXPECT_EQ(Variant::parse("GOBBLERS")->name(), "gobblers");
  EXPECT_EQ(*Variant::parse("3x3:3,2,1"), Variant::gobblers());
  EXPECT_EQ(*Variant::parse("tictactoe"), Variant::ticTacToe());
  EXPECT_EQ(Variant::parse("3x3:2,9,0")->name(), "3x3:2,9,0");
  for (const char* bad : {"", "chess", "3x3:", "3x3:4,2,1", "3x3:0,2,1", "3x3:3,10,1", "3x3:3,0,1", "3x3:3,2,2",
                          "3x3:3,2", "3x3:a,b,c", "3x3:3,2,1,1"})
    EXPECT_FALSE(Variant::parse(bad).ok()) << bad;
  // A refusal quotes the text as printable text: a name from a file or a
  // client (a certificate's, a data file's) cannot drive a terminal.
  for (const char* hostile : {"\x1b[2J\x1b]0;title\x07", "3x3:\x1b[31m,2,1", "3x3:3,2"}) {
    const std::string message(Variant::parse(hostile).status().message());
    EXPECT_EQ(message.find_first_of("\x1b\x07"), std::string::npos) << message;
    EXPECT_NE(message.find("'"), std::string::npos) << message;
  }
}

// The registry of names: every name and alias parses to its variant, in any
// case and with blanks around it or doubled between words; a canonical name
// is what name() gives back; no spelling names two variants.
TEST(VariantText, EveryNamedVariantParsesByEachOfItsNames) {
  std::set<std::string> spellings;
  for (const NamedVariant& named : kNamedVariants) {
    std::vector<std::string> texts{std::string(named.name)};
    for (std::string_view alias : named.aliases) texts.emplace_back(alias);
    for (const std::string& text : texts) {
      EXPECT_TRUE(spellings.insert(text).second) << "'" << text << "' names two variants";
      EXPECT_EQ(text, absl::AsciiStrToLower(text)) << "registry spellings are lower case";
      for (const std::string& form :
           {text, absl::AsciiStrToUpper(text), "  " + text + "\t", absl::StrReplaceAll(text, {{" ", "  "}})}) {
        auto parsed = Variant::parse(form);
        ASSERT_TRUE(parsed.ok()) << "'" << form << "': " << parsed.status();
        EXPECT_EQ(*parsed, named.variant) << form;
      }
    }
    EXPECT_EQ(named.variant.name() == named.name, named.canonical) << named.name;
    EXPECT_FALSE(named.description.empty()) << named.name;
    EXPECT_EQ(named.description.find('\n'), std::string_view::npos) << named.name;
    EXPECT_NE(variantNamesText().find(std::string(named.name)), std::string::npos) << variantNamesText();
    // One board's list names exactly the variants on that board.
    for (int side : {3, 4})
      EXPECT_EQ(variantNamesText(side).find(std::string(named.name)) != std::string::npos, named.variant.n == side)
          << side << ": " << variantNamesText(side);
  }
  EXPECT_NE(variantNamesText(3).find(kVariantFamilyForm), std::string::npos);
  EXPECT_EQ(variantNamesText(4).find(kVariantFamilyForm), std::string::npos);
  EXPECT_NE(variantNamesText(4).find(kVariant4x4FamilyForm), std::string::npos);
  EXPECT_EQ(variantNamesText(3).find(kVariant4x4FamilyForm), std::string::npos);
  EXPECT_EQ(Variant::ticTacToe().name(), "3x3:1,5,0");  // its tablebase file is 3x3-1-5-0.gtb
}

// Every variant's canonical name reads back as that variant: the named ones
// and every member of the 3x3 family, in the family form too.
TEST(VariantText, EveryVariantRoundTripsThroughItsName) {
  std::vector<Variant> all{Variant::gobblet()};
  for (int sizes = 1; sizes <= 3; ++sizes)
    for (int perSize = 1; perSize <= 9; ++perSize)
      for (const bool moving : {false, true}) all.push_back(Variant::family(sizes, perSize, moving));
  for (int sizes = 1; sizes <= 4; ++sizes)
    for (int stacks = 1; stacks <= 3; ++stacks)
      if (!(sizes == 4 && stacks == 3)) all.push_back(Variant::family4x4(sizes, stacks));
  for (const Variant& v : all) {
    auto back = Variant::parse(v.name());
    ASSERT_TRUE(back.ok()) << v.name() << ": " << back.status();
    EXPECT_EQ(*back, v) << v.name();
    // Blanks around the numbers are read.
    const std::string family = v.n == 3 ? absl::StrCat("3x3: ", v.sizes, " , ", v.perSize, ",", v.moving ? 1 : 0)
                                        : absl::StrCat("4x4: ", v.sizes, " , ", v.perSize);
    EXPECT_EQ(Variant::parse(family).value_or(Variant::ticTacToe()), v) << family;
  }
  EXPECT_EQ(all.size(), 66u);
  EXPECT_EQ(Variant::family4x4(4, 3), Variant::gobblet());
  EXPECT_EQ(Variant::family4x4(2, 3).name(), "4x4:2,3");
}

// A 4x4 family form out of range or malformed is refused, naming the field.
TEST(VariantText, Bad4x4FamilyFormsAreRefused) {
  const struct {
    const char* text;
    const char* why;
  } cases[] = {{"4x4:5,3", "sizes"},
               {"4x4:0,3", "sizes"},
               {"4x4:2,4", "stacks"},
               {"4x4:2,0", "stacks"},
               {"4x4:2", "expected 2 numbers"},
               {"4x4:2,3,1", "expected 2 numbers"},
               {"4x4:a,3", "sizes"},
               {"4x4:", "expected 2 numbers"}};
  for (const auto& c : cases) {
    auto parsed = Variant::parse(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text << " parsed as " << parsed->name();
    EXPECT_NE(std::string(parsed.status().message()).find(c.why), std::string::npos)
        << c.text << ": " << parsed.status();
  }
}

// ---- Geometry and symmetries -------------------------------------------------

TEST(Geometry, LinesAndTables) {
  EXPECT_EQ(geometry(3).numLines, 8);
  EXPECT_EQ(geometry(4).numLines, 10);
  EXPECT_TRUE(geometry(3).hasLine(0b000000111));
  EXPECT_TRUE(geometry(3).hasLine(0b100010001));
  EXPECT_FALSE(geometry(3).hasLine(0b110101011 & 0b011101110));
  EXPECT_TRUE(geometry(4).hasLine(0x8421));   // anti... a4,b3,c2,d1
  EXPECT_TRUE(geometry(4).hasLine(0x1111));   // file a
  EXPECT_FALSE(geometry(4).hasLine(0x0777));  // three of each row
}

TEST(Geometry, SymmetriesFormTheDihedralGroup) {
  for (int n : {3, 4}) {
    const Geometry& g = geometry(n);
    std::set<std::vector<int>> images;
    for (int s = 0; s < kSymmetries; ++s) {
      std::vector<int> image;
      for (int sq = 0; sq < g.squares; ++sq) {
        image.push_back(g.transformSquare(s, sq));
        EXPECT_EQ(g.transformSquare(Geometry::inverse(s), g.transformSquare(s, sq)), sq);
      }
      images.insert(image);
      // Lines map to lines.
      for (int i = 0; i < g.numLines; ++i) EXPECT_TRUE(g.hasLine(g.transform(s, g.lines[i])));
      for (uint32_t m = 0; m < (1u << g.squares); m += (n == 4 ? 97 : 1)) {
        Mask expected = 0;
        for (int sq = 0; sq < g.squares; ++sq)
          if (m & bit(sq)) expected |= bit(g.transformSquare(s, sq));
        EXPECT_EQ(g.transform(s, static_cast<Mask>(m)), expected);
      }
    }
    EXPECT_EQ(images.size(), 8u) << "the 8 symmetries must be distinct";
  }
}

TEST(Symmetry, MovesAndOutcomeInvariant) {
  const Board b = parse(Variant::gobblet(), "[sX]1l1/1[mX]2/L1[lx]1/3x 2");
  for (int s = 0; s < kSymmetries; ++s) {
    const Board t = b.transformed(s);
    EXPECT_EQ(countMoves(t), countMoves(b));
    EXPECT_EQ(t.winner(), b.winner());
    EXPECT_EQ(t.transformed(Geometry::inverse(s)), b);
    EXPECT_EQ(t.key(), t.computeKey());
  }
}

// ---- Notation ----------------------------------------------------------------

TEST(Notation, ExampleFromTheSpec) {
  const Board b = parse(Variant::gobblers(), "[sL]2/1M1/3 2");
  EXPECT_EQ(b.sideToMove(), 1);
  EXPECT_EQ(b.pieces(1, 0), bit(6));  // s on a3
  EXPECT_EQ(b.pieces(0, 2), bit(6));  // L on a3 covers it
  EXPECT_EQ(b.pieces(0, 1), bit(4));  // M on b2
  int owner = -1;
  EXPECT_EQ(b.top(6, &owner), 2);
  EXPECT_EQ(owner, 0);
  EXPECT_EQ(positionToString(b), "[sL]2/1M1/3 2");
}

TEST(Notation, StartPositionsRoundTrip) {
  EXPECT_EQ(positionToString(Board(Variant::gobblers())), "3/3/3 1");
  EXPECT_EQ(positionToString(Board(Variant::gobblet())), "4/4/4/4 1");
  EXPECT_EQ(parse(Variant::gobblet(), "4/4/4/4 1"), Board(Variant::gobblet()));
  const std::pair<Variant, const char*> positions[] = {
      {Variant::gobblet(), "[sX]1l1/1[mX]2/L1[lx]1/3x 2"},
      {Variant::gobblet(), "x3/4/4/[SMLX]3 1"},
      {Variant::gobblers(), "[sML]1L/2m/S2 1"},
  };
  for (const auto& [v, text] : positions) EXPECT_EQ(positionToString(parse(v, text)), text);
}

TEST(Notation, RejectsBadPositionsWithAReason) {
  struct Case {
    Variant v;
    const char* text;
    const char* mentions;
  };
  const Case cases[] = {
      {Variant::gobblers(), "3/3 1", "ranks"},
      {Variant::gobblers(), "3/3/3/3 1", "ranks"},
      {Variant::gobblers(), "4/3/3 1", "more than 3 squares"},
      {Variant::gobblers(), "2/3/3 1", "rank 3 has 2 squares"},
      {Variant::gobblers(), "3/3/3", "side to move"},
      {Variant::gobblers(), "3/3/3 3", "side to move"},
      {Variant::gobblers(), "X2/3/3 1", "unknown piece 'X'"},
      {Variant::gobblers(), "Q2/3/3 1", "unknown piece 'Q'"},
      {Variant::gobblers(), "[LS]2/3/3 1", "strictly increasing"},
      {Variant::gobblers(), "[Ss]2/3/3 1", "strictly increasing"},
      {Variant::gobblers(), "[SL2/3/3 1", "unclosed"},
      {Variant::gobblers(), "[]3/3/3 1", "empty stack"},
      {Variant::gobblers(), "[L]2/3/3 1", "without brackets"},
      {Variant::gobblers(), "111/3/3 1", "two digits"},
      {Variant::gobblers(), "SSS/3/3 1", "more than the supply"},
      {Variant::ticTacToe(), "SSS/SSS/3 1", "more than the supply"},
      {Variant::gobblet(), "S3/4/4/4 1", "stack counts"},
      {Variant::gobblet(), "XXXX/4/4/4 1", "more than the supply"},
      {Variant::gobblet(), "[SMLX]3/[SMX]3/4/4 1", "stack counts"},
      {Variant::gobblet(), "4/4/4/4 1 junk", "side to move"},
  };
  for (const Case& c : cases) {
    auto b = parsePosition(c.v, c.text);
    ASSERT_FALSE(b.ok()) << c.text;
    EXPECT_NE(std::string(b.status().message()).find(c.mentions), std::string::npos)
        << c.text << " -> " << b.status().message();
  }
}

TEST(Notation, MovesAreCaseInsensitiveAndChecked) {
  const Board start(Variant::gobblers());
  auto m = parseMove(start, "l@B2");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(moveToString(*m, start.variant()), "L@b2");
  EXPECT_FALSE(parseMove(start, "X@b2").ok());   // no X in gobblers
  EXPECT_FALSE(parseMove(start, "L@d4").ok());   // off the board
  EXPECT_FALSE(parseMove(start, "a1b2").ok());   // empty from-square
  EXPECT_FALSE(parseMove(start, "L@b2x").ok());  // junk
  EXPECT_FALSE(parseMove(start, "").ok());

  const Board b = parse(Variant::gobblers(), "[sL]2/1M1/3 2");
  EXPECT_FALSE(parseMove(b, "b2a1").ok());  // player 1's piece, player 2 to move
  EXPECT_FALSE(parseMove(b, "S@b2").ok());  // cannot cover M with S
  EXPECT_TRUE(parseMove(b, "L@b2").ok());   // but L may cover M
  EXPECT_FALSE(parseMove(b, "M@a3").ok());  // nor cover L with M
}

// An illegal move's error says which rule it breaks (the page shows it to
// the person; it said only "illegal move").
TEST(Notation, AnIllegalMoveSaysWhichRuleItBreaks) {
  struct Case {
    Variant variant;
    std::vector<std::string> moves;  // played from the start first
    std::string move;
    std::string reason;
  };
  const Case cases[] = {
      {Variant::gobblers(), {"M@b2", "L@a1"}, "S@a1", "a piece gobbles only a smaller one: a1 shows an L"},
      {Variant::gobblers(), {"M@b2"}, "M@b2", "a piece gobbles only a smaller one: b2 shows an M"},
      {Variant::gobblers(), {"S@a1", "S@c3", "S@b1", "S@c2"}, "S@a2", "you have no S left to place"},
      {Variant::gobblers(), {"L@a1", "S@c3"}, "a1a1", "a piece must move to another square"},
      {Variant::gobblers(), {"S@a1", "L@c3"}, "a1c3", "a piece gobbles only a smaller one: c3 shows an L"},
      {Variant::family(3, 2, false), {"S@a1", "S@c3"}, "a1b1", "pieces on the board do not move in this variant"},
      {Variant::family(1, 5, false), {"S@b2"}, "S@b2", "b2 is taken"},
      {Variant::gobblet(), {}, "S@a1", "none of your reserve stacks shows an S on top"},
      {Variant::gobblet(),
       {"X@a1", "X@d4", "L@b1", "X@d3"},
       "X@b1",
       "from the reserve a piece may not cover your own piece (b1)"},
      {Variant::gobblet(),
       {"X@a1", "X@d4", "X@c1", "L@b2"},
       "X@b2",
       "from the reserve a piece may cover an opponent's piece only if it is one of three of theirs in a line (b2 "
       "is not)"},
  };
  for (const Case& c : cases) {
    Board b(c.variant);
    for (const std::string& m : c.moves) {
      auto played = parseMove(b, m);
      ASSERT_TRUE(played.ok()) << m << ": " << played.status();
      b.makeMove(*played);
    }
    auto m = parseMove(b, c.move);
    ASSERT_FALSE(m.ok()) << c.move;
    EXPECT_EQ(m.status().message(), "illegal move: " + c.reason + " in '" + c.move + "'");
  }
}

// ---- Outcome rule -------------------------------------------------------------

TEST(Outcome, LiftingThatRevealsAnOpponentLineLoses) {
  // Player 1's L on a1 covers player 2's s; player 2 has b1 and c1.
  Board b = parse(Variant::gobblers(), "3/3/[sL]sm 1");
  EXPECT_EQ(b.winner(), kNoWinner);
  b.makeMove(*parseMove(b, "a1b2"));  // reveals s-s-m on rank 1
  EXPECT_EQ(b.winner(), 1);
}

TEST(Outcome, NonMoversLineWinsEvenIfMoverCompletesOne) {
  // Player 1 lifts L from a1, revealing player 2's file a, and completes file c.
  Board b = parse(Variant::gobblers(), "m2/s1M/[sL]1S 1");
  b.makeMove(*parseMove(b, "a1c3"));
  EXPECT_TRUE(b.geometry().hasLine(b.visible(0)));
  EXPECT_EQ(b.winner(), 1);
  // Covering a piece of the revealed line saves the mover: L from a1 onto a2.
  Board c = parse(Variant::gobblers(), "m2/s1M/[sL]1S 1");
  c.makeMove(*parseMove(c, "a1a2"));
  EXPECT_EQ(c.winner(), kNoWinner);
}

TEST(Outcome, MoverWinsWithALine) {
  Board b = parse(Variant::gobblers(), "3/ss1/SS1 1");
  b.makeMove(*parseMove(b, "M@c1"));
  EXPECT_EQ(b.winner(), 0);
  EXPECT_EQ(countMoves(b), 0) << "a decided position has no moves";
}

// ---- 4x4 stacks ----------------------------------------------------------------

TEST(Stacks, SupplyFollowsFromTheBoard) {
  const Board start(Variant::gobblet());
  EXPECT_EQ(start.placeableSizes(0), 1u << 3);
  Board b = parse(Variant::gobblet(), "X3/4/4/4 2");
  EXPECT_EQ(b.placeableSizes(0), (1u << 3) | (1u << 2));  // X X on two stacks, L under the played X
  EXPECT_EQ(moveTexts(b).count("X@b4"), 1u);
  // All three X and two L placed: two stacks show M, the third shows L.
  Board c = parse(Variant::gobblet(), "XXX1/LL2/4/4 1");
  EXPECT_EQ(c.placeableSizes(0), (1u << 2) | (1u << 1));
}

TEST(Stacks, GobbleOnlyIntoThreeInALine) {
  // Player 2 has three visible pieces on rank 1 (a1 b1 c1). Player 1 may gobble the smaller one
  // from a stack, but not player 2's lone m on d4, nor an x.
  const Board b = parse(Variant::gobblet(), "3m/4/4/lxx1 1");
  const auto moves = moveTexts(b);
  EXPECT_TRUE(moves.count("X@a1"));
  EXPECT_FALSE(moves.count("X@b1"));
  EXPECT_FALSE(moves.count("X@d4"));
  EXPECT_TRUE(moves.count("X@d1"));  // empty
  // Without the three-in-a-line the same l cannot be gobbled from a stack.
  EXPECT_FALSE(moveTexts(parse(Variant::gobblet(), "3m/4/4/lx2 1")).count("X@a1"));
}

// ---- Hash ----------------------------------------------------------------------

TEST(Hash, IncrementalMatchesFromScratch) {
  Board b(Variant::gobblet());
  Game g(b);
  for (const char* m : {"X@a1", "X@b2", "X@c3", "X@d4", "a1a2", "L@a1"}) {
    ASSERT_TRUE(g.play(m).ok()) << m;
    EXPECT_EQ(g.position().key(), g.position().computeKey());
    EXPECT_EQ(parse(Variant::gobblet(), positionToString(g.position())).key(), g.position().key());
  }
}

// The editing calls keep the key equal to a recount: adding a piece that is
// there already and removing one that is not change nothing, with either
// side to move.
TEST(Hash, EditingKeepsTheKey) {
  Board b(Variant::gobblers());
  b.setSideToMove(1);
  const uint64_t empty = b.key();
  b.addPiece(0, 2, 4);
  b.addPiece(1, 0, 0);
  EXPECT_EQ(b.key(), b.computeKey());
  const uint64_t two = b.key();
  b.addPiece(0, 2, 4);  // there already
  EXPECT_EQ(b.key(), two);
  b.removePiece(1, 1, 8);  // not there
  EXPECT_EQ(b.key(), two);
  b.removePiece(0, 2, 4);
  b.removePiece(1, 0, 0);
  EXPECT_EQ(b.key(), empty);
  EXPECT_EQ(b.key(), b.computeKey());
  EXPECT_NE(two, empty);
}

// ---- Game: repetition, no moves ------------------------------------------------

TEST(Game, ThreefoldRepetitionIsADraw) {
  Game g(Board(Variant::gobblers()));
  for (const char* m : {"L@a1", "L@c3"}) ASSERT_TRUE(g.play(m).ok());
  EXPECT_EQ(g.result(), GameResult::kNone);
  const char* cycle[] = {"a1a2", "c3c2", "a2a1", "c2c3"};
  for (int round = 0; round < 2; ++round)
    for (const char* m : cycle) ASSERT_TRUE(g.play(m).ok()) << m;
  EndReason why;
  EXPECT_EQ(g.occurrences(), 3);
  EXPECT_EQ(g.result(&why), GameResult::kDraw);
  EXPECT_EQ(why, EndReason::kRepetition);
}

TEST(Game, NoLegalMoveIsADraw) {
  Game g(parse(Variant::ticTacToe(), "SsS/SsS/sSs 2"));
  EndReason why;
  EXPECT_EQ(g.result(&why), GameResult::kDraw);
  EXPECT_EQ(why, EndReason::kNoMoves);
}

TEST(Game, BadMoveChangesNothing) {
  Game g(Board(Variant::gobblet()));
  EXPECT_FALSE(g.play("X@e5").ok());
  EXPECT_FALSE(g.play("M@a1").ok());  // M is inside the stacks
  EXPECT_TRUE(g.moves().empty());
  EXPECT_EQ(g.position(), Board(Variant::gobblet()));
}

// ---- Game: an ended game takes no more moves -----------------------------------

// Threefold repetition ends the game: the next move is refused, and the
// result stays the draw (it must not be judged on a later position).
TEST(Game, NoMoveAfterThreefoldRepetition) {
  Game g(Board(Variant::gobblers()));
  for (const char* m : {"S@a1", "S@c3", "a1a2", "c3c2", "a2a1", "c2c3", "a1a2", "c3c2", "a2a1", "c2c3"})
    ASSERT_TRUE(g.play(m).ok()) << m;
  ASSERT_EQ(g.result(), GameResult::kDraw);
  const Board before = g.position();
  const absl::Status st = g.play("L@b2");  // legal on the board, but the game is over
  EXPECT_TRUE(absl::IsFailedPrecondition(st)) << st;
  EXPECT_NE(st.message().find("threefold repetition"), std::string_view::npos) << st;
  EXPECT_EQ(g.moves().size(), 10u);
  EXPECT_EQ(g.position(), before);
  EndReason why;
  EXPECT_EQ(g.result(&why), GameResult::kDraw);
  EXPECT_EQ(why, EndReason::kRepetition);
}

TEST(Game, NoMoveAfterALineOrWithoutLegalMoves) {
  Game line(Board(Variant::ticTacToe()));
  for (const char* m : {"S@a1", "S@a2", "S@b1", "S@b2", "S@c1"}) ASSERT_TRUE(line.play(m).ok()) << m;
  absl::Status st = line.play("S@c3");
  EXPECT_TRUE(absl::IsFailedPrecondition(st)) << st;
  EXPECT_NE(st.message().find("a line of player 1"), std::string_view::npos) << st;
  EXPECT_EQ(line.result(), GameResult::kPlayer1Wins);

  Game full(parse(Variant::ticTacToe(), "SsS/SsS/sSs 2"));
  st = full.play("S@a1");
  EXPECT_TRUE(absl::IsFailedPrecondition(st)) << st;
  EXPECT_NE(st.message().find("no legal move"), std::string_view::npos) << st;
}

}  // namespace
}  // namespace gobblet
