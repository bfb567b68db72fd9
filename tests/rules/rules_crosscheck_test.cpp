// Cross-check of the fast rules core (engine/) against the slow reference
// (tests/support/reference_rules.h), written independently from the rules.
//
// Positions come from random games (with fixed seeds) and from random valid
// boards. In every position the two must agree on: the board and its text,
// the set of legal move texts (each once), countMoves, the winner after
// every legal move, the keys (incremental == computed == parsed) and that
// unmake restores the board. Sampled positions also compare perft. Some games
// are steered towards the rare rules (gobbles from the stacks, reveals,
// double lines, no-move draws, repetition) and the tests assert that each of
// them was really exercised.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <unordered_map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/board.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/variant.h"
#include "tests/support/reference_rules.h"

namespace gobblet {
namespace {

namespace ref = gobblet::reference;

// How often each rare rule was exercised (over all moves checked).
struct Coverage {
  long positions = 0;
  long movesChecked = 0;
  long gobbleFromStack = 0;      // 4x4 placement onto an opponent piece
  long revealMoverLoses = 0;     // lifting revealed an opponent line that stays
  long revealMoverSurvives = 0;  // ... and the moved piece covered it
  long doubleLine = 0;           // both players have a line after the move
  long doubleLineByReveal = 0;   // the mover completed a line and revealed one
  long moverWins = 0;
  long noMoveDraws = 0;     // undecided position without a legal move
  long sameSizeStacks = 0;  // 4x4: two stacks show the same size
  long repetitions = 0;     // third occurrence in a game
  long perftSamples = 0;
};

std::ostream& operator<<(std::ostream& out, const Coverage& c) {
  return out << "positions " << c.positions << ", moves " << c.movesChecked << ", gobbles from stacks "
             << c.gobbleFromStack << ", reveals lost " << c.revealMoverLoses << ", reveals covered "
             << c.revealMoverSurvives << ", double lines " << c.doubleLine << " (by reveal " << c.doubleLineByReveal
             << "), mover wins " << c.moverWins << ", no-move draws " << c.noMoveDraws << ", same-size stacks "
             << c.sameSizeStacks << ", repetitions " << c.repetitions << ", perft samples " << c.perftSamples;
}

// Prints the coverage so a run shows what was exercised.
void report(const std::string& what, const Coverage& c) { std::cout << "[ coverage ] " << what << ": " << c << "\n"; }

// Same pieces and side to move, compared square by square without building
// a second position.
bool samePosition(const Board& board, const ref::Position& r) {
  if (board.sideToMove() != r.sideToMove()) return false;
  int expected = 0, actual = 0;
  for (int sq = 0; sq < r.squareCount(); ++sq)
    for (const ref::Piece& p : r.square(sq)) {
      ++expected;
      if (!(board.pieces(p.owner, p.size) & bit(sq))) return false;
    }
  for (int player = 0; player < 2; ++player)
    for (int size = 0; size < board.variant().sizes; ++size) actual += board.placed(player, size);
  return expected == actual;
}

using Rng = std::mt19937_64;
int uniform(Rng& rng, int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); }

std::vector<std::string> engineMoveTexts(const Board& board) {
  MoveList list;
  generateMoves(board, list);
  std::vector<std::string> texts;
  for (Move m : list) texts.push_back(moveToString(m, board.variant()));
  std::sort(texts.begin(), texts.end());
  return texts;
}

// The engine's legal moves by text.
std::unordered_map<std::string, Move> engineMovesByText(const Board& board) {
  MoveList list;
  generateMoves(board, list);
  std::unordered_map<std::string, Move> byText;
  for (Move m : list) byText.emplace(moveToString(m, board.variant()), m);
  return byText;
}

Move engineMove(const Board& board, const std::string& text) {
  const auto byText = engineMovesByText(board);
  const auto it = byText.find(text);
  if (it != byText.end()) return it->second;
  ADD_FAILURE() << "engine has no move " << text << " in " << positionToString(board);
  return Move::none();
}

// Every move text that is syntactically possible on this variant.
std::vector<std::string> allMoveTexts(const Variant& v) {
  std::vector<std::string> texts;
  const int squares = v.n * v.n;
  for (int size = 0; size < v.sizes; ++size)
    for (int to = 0; to < squares; ++to) texts.push_back(ref::moveText(v.n, ref::Move{true, size, -1, to}));
  for (int from = 0; from < squares; ++from)
    for (int to = 0; to < squares; ++to)
      if (from != to) texts.push_back(ref::moveText(v.n, ref::Move{false, 0, from, to}));
  return texts;
}

std::string flipCase(std::string s) {
  for (char& c : s)
    c = std::isupper(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c))
                                                    : static_cast<char>(std::toupper(c));
  return s;
}

// Classifies one legal move of `r` for the coverage counters.
void classify(ref::Position& r, const ref::Move& m, Coverage& cov) {
  const int mover = r.sideToMove(), opponent = mover ^ 1;
  if (r.variant().stacks && m.drop && r.top(m.to)) ++cov.gobbleFromStack;
  bool revealed = false;
  if (!m.drop) {
    const ref::Piece piece = r.lift(m.from);
    revealed = r.hasLine(opponent);
    r.push(m.from, piece);
  }
  r.play(m);
  const bool both = r.hasLine(0) && r.hasLine(1);
  const int winner = r.winner();
  if (revealed) ++(winner == opponent ? cov.revealMoverLoses : cov.revealMoverSurvives);
  if (both) ++cov.doubleLine;
  if (both && revealed) ++cov.doubleLineByReveal;
  if (winner == mover) ++cov.moverWins;
  r.undo(m);
}

// The reference's symmetry s of a position: (s & 4) mirrors left-right
// first, then (s & 3) quarter turns counter-clockwise (docs of geometry.h).
ref::Position referenceTransform(const ref::Position& r, int s) {
  const int n = r.n();
  ref::Position out(r.variant());
  for (int sq = 0; sq < r.squareCount(); ++sq) {
    int file = sq % n, rank = sq / n;
    if (s & 4) file = n - 1 - file;
    for (int turn = 0; turn < (s & 3); ++turn) {
      const int f = n - 1 - rank, k = file;  // (x, y) -> (-y, x) about the centre
      file = f;
      rank = k;
    }
    for (const ref::Piece& p : r.square(sq)) out.push(rank * n + file, p);
  }
  out.setSideToMove(r.sideToMove());
  return out;
}

// Compares engine and reference on one position and on every legal move from
// it. `board` and `r` must describe the same position.
void checkPosition(Board& board, ref::Position& r, Coverage& cov, Rng& rng) {
  ++cov.positions;
  const Variant& v = board.variant();
  const std::string text = r.text();
  SCOPED_TRACE("position " + text);

  // Same position, same text, consistent keys.
  ASSERT_EQ(ref::Position::fromBoard(board), r);
  ASSERT_EQ(positionToString(board), text);
  ASSERT_EQ(board.key(), board.computeKey());
  ASSERT_TRUE(board.countsValid());
  auto parsed = parsePosition(v, text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_TRUE(*parsed == board);
  ASSERT_EQ(parsed->key(), board.key());

  // Outcome and legal moves.
  ASSERT_EQ(board.winner(), r.winner());
  const std::vector<std::string> expected = r.legalMoveTexts();
  const std::vector<std::string> actual = engineMoveTexts(board);
  ASSERT_EQ(actual, expected);  // both sorted; equal lists => engine has no duplicates
  ASSERT_EQ(countMoves(board), static_cast<int>(expected.size()));
  if (expected.empty() && r.winner() == ref::kNobody) ++cov.noMoveDraws;
  if (v.stacks && r.winner() == ref::kNobody) {
    std::vector<int> h = r.stackHeights(r.sideToMove());
    std::sort(h.begin(), h.end());
    for (size_t i = 1; i < h.size(); ++i)
      if (h[i] > 0 && h[i] == h[i - 1]) {
        ++cov.sameSizeStacks;
        break;
      }
  }

  // Symmetries (sampled): same image, same outcome and move count; the
  // inverse undoes each.
  if (uniform(rng, 8) == 0) {
    for (int sym = 0; sym < kSymmetries; ++sym) {
      const Board image = board.transformed(sym);
      ASSERT_EQ(ref::Position::fromBoard(image), referenceTransform(r, sym)) << "symmetry " << sym;
      ASSERT_EQ(image.key(), image.computeKey());
      ASSERT_EQ(image.winner(), r.winner());
      ASSERT_EQ(countMoves(image), static_cast<int>(expected.size()));
      ASSERT_TRUE(image.transformed(Geometry::inverse(sym)) == board) << "symmetry " << sym;
    }
  }

  // Move parsing: every syntactic move is accepted iff legal (sampled; also
  // in flipped case, as input is case-insensitive).
  if (uniform(rng, 4) == 0) {
    const std::set<std::string> legal(expected.begin(), expected.end());
    for (const std::string& t : allMoveTexts(v)) {
      auto m = parseMove(board, t);
      ASSERT_EQ(m.ok(), legal.count(t) == 1) << t << ": " << m.status();
      if (!m.ok()) {
        EXPECT_FALSE(m.status().message().empty());
        continue;
      }
      EXPECT_EQ(moveToString(*m, v), t);
      auto flipped = parseMove(board, flipCase(t));
      ASSERT_TRUE(flipped.ok()) << flipCase(t) << ": " << flipped.status();
      EXPECT_EQ(*flipped, *m);
    }
  }

  // Every legal move: same resulting position and winner; make/unmake exact.
  const Board before = board;
  const auto byText = engineMovesByText(board);
  for (const ref::Move& m : r.legalMoves()) {
    ++cov.movesChecked;
    const std::string mt = ref::moveText(v.n, m);
    SCOPED_TRACE("move " + mt);
    ASSERT_EQ(byText.count(mt), 1u);
    const Move em = byText.at(mt);
    classify(r, m, cov);
    board.makeMove(em);
    r.play(m);
    ASSERT_EQ(board.key(), board.computeKey());
    ASSERT_TRUE(samePosition(board, r)) << positionToString(board) << " vs " << r.text();
    ASSERT_EQ(board.winner(), r.winner());
    board.unmakeMove(em);
    r.undo(m);
    ASSERT_TRUE(board == before);
    ASSERT_EQ(board.key(), before.key());
  }
}

// Compares perft and its per-move split.
void checkPerft(Board& board, ref::Position& r, int depth) {
  SCOPED_TRACE("perft " + std::to_string(depth) + " of " + r.text());
  const PerftResult divide = perftDivide(board, depth);
  std::map<std::string, uint64_t> engineSplit, refSplit;
  for (const auto& [m, n] : divide.perMove) engineSplit[moveToString(m, board.variant())] = n;
  uint64_t total = 0;
  for (const ref::Move& m : r.legalMoves()) {
    r.play(m);
    const uint64_t n = ref::perft(r, depth - 1);
    r.undo(m);
    refSplit[ref::moveText(r.n(), m)] = n;
    total += n;
  }
  EXPECT_EQ(engineSplit, refSplit);
  EXPECT_EQ(divide.total, total);
  EXPECT_EQ(perft(board, depth), total);
}

// The reference's verdict on a game (win, repetition, then no-move draw).
GameResult referenceResult(const ref::Position& r, int occurrences) {
  const int w = r.winner();
  if (w == 0) return GameResult::kPlayer1Wins;
  if (w == 1) return GameResult::kPlayer2Wins;
  if (occurrences >= 3) return GameResult::kDraw;
  if (r.legalMoves().empty()) return GameResult::kDraw;
  return GameResult::kNone;
}

// Picks a move. Steered games prefer moves that exercise a rare rule or
// return to a position seen before, and otherwise moves that do not end the
// game, so games run long.
ref::Move chooseMove(ref::Position& r, const std::vector<ref::Move>& moves, bool steer,
                     const std::unordered_map<std::string, int>& seen, Rng& rng) {
  if (!steer) return moves[uniform(rng, static_cast<int>(moves.size()))];
  std::vector<ref::Move> rare, quiet, repeat;
  for (const ref::Move& m : moves) {
    Coverage c;
    classify(r, m, c);
    if (c.gobbleFromStack || c.revealMoverLoses || c.revealMoverSurvives || c.doubleLine) rare.push_back(m);
    r.play(m);
    if (r.winner() == ref::kNobody) quiet.push_back(m);
    if (r.winner() == ref::kNobody && seen.count(r.text())) repeat.push_back(m);
    r.undo(m);
  }
  if (!rare.empty() && uniform(rng, 3) == 0) return rare[uniform(rng, static_cast<int>(rare.size()))];
  if (!repeat.empty() && uniform(rng, 3) == 0) return repeat[uniform(rng, static_cast<int>(repeat.size()))];
  if (!quiet.empty() && uniform(rng, 10) != 0) return quiet[uniform(rng, static_cast<int>(quiet.size()))];
  return moves[uniform(rng, static_cast<int>(moves.size()))];
}

// Plays `games` random games of the variant, checking every position, the
// Game's repetition count and result, and perft at `perftDepth` in one
// position out of `perftEvery`.
Coverage playGames(const Variant& v, int games, uint64_t seed, int maxPlies, int perftDepth, int perftEvery) {
  Coverage cov;
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    Board board(v);
    ref::Position r(v);
    Game game(board);
    std::unordered_map<std::string, int> seen{{r.text(), 1}};
    const bool steer = g % 4 != 0;
    for (int ply = 0; ply < maxPlies; ++ply) {
      checkPosition(board, r, cov, rng);
      if (::testing::Test::HasFatalFailure()) return cov;
      if (perftDepth > 0 && uniform(rng, perftEvery) == 0) {
        ++cov.perftSamples;
        checkPerft(board, r, perftDepth);
      }
      const int occurrences = seen[r.text()];
      EXPECT_EQ(game.occurrences(), occurrences) << r.text();
      EXPECT_EQ(game.result(), referenceResult(r, occurrences)) << r.text();
      if (occurrences >= 3) {
        ++cov.repetitions;
        break;
      }
      const std::vector<ref::Move> moves = r.legalMoves();
      if (moves.empty()) break;
      const ref::Move m = chooseMove(r, moves, steer, seen, rng);
      const Move em = engineMove(board, ref::moveText(v.n, m));
      board.makeMove(em);
      game.play(em);
      r.play(m);
      ++seen[r.text()];
      EXPECT_TRUE(game.position() == board);
    }
  }
  return cov;
}

// A random valid position (not necessarily reachable): random per-size
// counts within the supply, each piece on a random square not yet holding
// that size, random side to move.
ref::Position randomPosition(const Variant& v, Rng& rng) {
  ref::Position r(v);
  const int squares = v.n * v.n;
  std::vector<std::vector<ref::Piece>> cells(squares);
  for (int player = 0; player < 2; ++player) {
    std::vector<int> counts(v.sizes);
    if (v.stacks) {
      std::vector<int> heights(v.stackCount());
      for (int& h : heights) h = uniform(rng, v.sizes + 1);
      for (int s = 0; s < v.sizes; ++s)
        for (int h : heights) counts[s] += h <= s;  // stacks whose size-s piece is out
    } else {
      for (int s = 0; s < v.sizes; ++s) counts[s] = uniform(rng, std::min<int>(v.perSize, 5) + 1);
    }
    for (int s = 0; s < v.sizes; ++s)
      for (int k = 0; k < counts[s]; ++k) {
        std::vector<int> free;
        for (int sq = 0; sq < squares; ++sq)
          if (std::none_of(cells[sq].begin(), cells[sq].end(), [&](const ref::Piece& p) { return p.size == s; }))
            free.push_back(sq);
        if (free.empty()) break;
        cells[free[uniform(rng, static_cast<int>(free.size()))]].push_back(ref::Piece{player, s});
      }
  }
  for (int sq = 0; sq < squares; ++sq) {
    std::sort(cells[sq].begin(), cells[sq].end(),
              [](const ref::Piece& a, const ref::Piece& b) { return a.size < b.size; });
    for (const ref::Piece& p : cells[sq]) r.push(sq, p);
  }
  r.setSideToMove(uniform(rng, 2));
  return r;
}

Coverage checkRandomPositions(const Variant& v, int count, uint64_t seed) {
  Coverage cov;
  Rng rng(seed);
  for (int i = 0; i < count; ++i) {
    ref::Position r = randomPosition(v, rng);
    std::string why;
    EXPECT_TRUE(r.valid(&why)) << why;
    auto board = parsePosition(v, r.text());
    EXPECT_TRUE(board.ok()) << r.text() << ": " << board.status();
    if (!board.ok()) continue;
    EXPECT_TRUE(*board == r.toBoard()) << r.text();
    checkPosition(*board, r, cov, rng);
    if (::testing::Test::HasFatalFailure()) break;
  }
  return cov;
}

const Variant kGobblet = Variant::gobblet();
const Variant kGobblers = Variant::gobblers();
const Variant kTicTacToe = Variant::ticTacToe();

// ---------------------------------------------------------------- perft

TEST(RulesCrossCheck, GobblersStartPerftMatchesReference) {
  for (int depth = 1; depth <= 4; ++depth) {
    Board board(kGobblers);
    ref::Position r(kGobblers);
    checkPerft(board, r, depth);
  }
}

TEST(RulesCrossCheck, GobbletStartPerftMatchesReference) {
  for (int depth = 1; depth <= 3; ++depth) {
    Board board(kGobblet);
    ref::Position r(kGobblet);
    checkPerft(board, r, depth);
  }
}

TEST(RulesCrossCheck, FamilyStartPerftMatchesReference) {
  for (const Variant& v : {kTicTacToe, Variant::family(2, 3, true), Variant::family(3, 1, false),
                           Variant::family(1, 9, true), Variant::family(2, 1, true)}) {
    SCOPED_TRACE(v.name());
    Board board(v);
    ref::Position r(v);
    checkPerft(board, r, 3);
  }
}

// Every member of the 4x4 family (Gobblet is one), its start to depth 3.
TEST(RulesCrossCheck, Family4x4StartPerftMatchesReference) {
  for (int sizes = 1; sizes <= 4; ++sizes)
    for (int stacks = 1; stacks <= 3; ++stacks) {
      const Variant v = Variant::family4x4(sizes, stacks);
      SCOPED_TRACE(v.name());
      Board board(v);
      ref::Position r(v);
      checkPerft(board, r, 3);
    }
}

// ---------------------------------------------------------------- random games

TEST(RulesCrossCheck, GobbletRandomGames) {
  const Coverage cov = playGames(kGobblet, 150, 0x6f6b1e7, 60, 2, 25);
  report("gobblet games", cov);
  EXPECT_GT(cov.positions, 2000);
  EXPECT_GT(cov.gobbleFromStack, 0);
  EXPECT_GT(cov.revealMoverLoses, 0);
  EXPECT_GT(cov.revealMoverSurvives, 0);
  EXPECT_GT(cov.doubleLine, 0);
  EXPECT_GT(cov.doubleLineByReveal, 0);
  EXPECT_GT(cov.moverWins, 0);
  EXPECT_GT(cov.sameSizeStacks, 0);
  EXPECT_GT(cov.perftSamples, 0);
}

TEST(RulesCrossCheck, GobblersRandomGames) {
  const Coverage cov = playGames(kGobblers, 300, 0x90bb1e5, 150, 3, 40);
  report("gobblers games", cov);
  EXPECT_GT(cov.positions, 2000);
  EXPECT_GT(cov.revealMoverLoses, 0);
  EXPECT_GT(cov.revealMoverSurvives, 0);
  EXPECT_GT(cov.doubleLine, 0);
  EXPECT_GT(cov.doubleLineByReveal, 0);
  EXPECT_GT(cov.repetitions, 0);
  EXPECT_GT(cov.perftSamples, 0);
}

TEST(RulesCrossCheck, TicTacToeRandomGames) {
  const Coverage cov = playGames(kTicTacToe, 400, 0x7777, 20, 3, 20);
  report("tic-tac-toe games", cov);
  EXPECT_GT(cov.positions, 2000);
  EXPECT_GT(cov.noMoveDraws, 0);
  EXPECT_GT(cov.moverWins, 0);
  EXPECT_EQ(cov.revealMoverLoses + cov.revealMoverSurvives + cov.gobbleFromStack, 0);
}

TEST(RulesCrossCheck, OtherFamilyMembersRandomGames) {
  struct Case {
    Variant v;
    bool expectNoMoves;
  };
  for (const Case& c : {Case{Variant::family(2, 3, true), false}, Case{Variant::family(3, 1, false), true},
                        Case{Variant::family(1, 9, true), false}, Case{Variant::family(2, 2, false), true},
                        Case{Variant::family(3, 3, true), false}}) {
    SCOPED_TRACE(c.v.name());
    const Coverage cov = playGames(c.v, 120, 0x5eed + c.v.sizes * 16 + c.v.perSize, 80, 3, 40);
    report(c.v.name() + " games", cov);
    EXPECT_GT(cov.positions, 500);
    if (c.expectNoMoves) {
      EXPECT_GT(cov.noMoveDraws, 0);
    }
    if (c.v.moving && c.v.sizes > 1) {  // a reveal needs a covered piece
      EXPECT_GT(cov.revealMoverLoses + cov.revealMoverSurvives, 0);
    }
  }
}

// Smaller members of the 4x4 family: the stack rules with fewer sizes and
// stacks (one stack of one size: a game of moving one piece each).
TEST(RulesCrossCheck, Family4x4MembersRandomGames) {
  for (const Variant& v : {Variant::family4x4(1, 1), Variant::family4x4(1, 3), Variant::family4x4(2, 2),
                           Variant::family4x4(3, 1), Variant::family4x4(4, 2), Variant::family4x4(2, 3)}) {
    SCOPED_TRACE(v.name());
    const bool lines = v.sizes * v.perSize >= 4;  // enough pieces for a line
    // Without lines, long games, so that positions come back three times.
    const Coverage cov =
        playGames(v, lines ? 100 : 40, 0x4f4f + v.sizes * 16 + v.perSize, lines ? 80 : 400, 2, lines ? 40 : 160);
    report(v.name() + " games", cov);
    EXPECT_GT(cov.positions, 500);
    if (v.sizes > 1) {
      EXPECT_GT(cov.gobbleFromStack, 0);
    }
    if (lines) {
      EXPECT_GT(cov.moverWins, 0);
    } else {  // nobody can ever win: the games end by repetition
      EXPECT_EQ(cov.moverWins, 0);
      EXPECT_GT(cov.repetitions, 0);
    }
    if (v.sizes >= 2 && v.perSize >= 2) {  // a reveal needs a covered piece
      EXPECT_GT(cov.revealMoverLoses + cov.revealMoverSurvives, 0);
    }
  }
}

// ---------------------------------------------------------------- random boards

TEST(RulesCrossCheck, RandomGobbletPositions) {
  const Coverage cov = checkRandomPositions(kGobblet, 600, 0xb0a2d);
  report("gobblet random boards", cov);
  EXPECT_GT(cov.gobbleFromStack, 0);
  EXPECT_GT(cov.revealMoverLoses, 0);
  EXPECT_GT(cov.revealMoverSurvives, 0);
}

TEST(RulesCrossCheck, RandomFamilyPositions) {
  for (const Variant& v :
       {kGobblers, kTicTacToe, Variant::family(2, 3, true), Variant::family(3, 1, false), Variant::family(1, 9, true),
        Variant::family4x4(2, 2), Variant::family4x4(3, 1), Variant::family4x4(1, 3)}) {
    SCOPED_TRACE(v.name());
    report(v.name() + " random boards", checkRandomPositions(v, 600, 0xfa11 + v.perSize));
  }
}

// ---------------------------------------------------------------- notation

// Engine and reference agree that `text` is invalid, and the engine says why.
void expectRejected(const Variant& v, const std::string& text, const std::string& why) {
  SCOPED_TRACE(why + ": '" + text + "'");
  std::string refError;
  EXPECT_FALSE(ref::Position::parse(v, text, &refError).has_value()) << "the reference accepts it";
  auto parsed = parsePosition(v, text);
  ASSERT_FALSE(parsed.ok()) << "the engine accepts it as " << positionToString(*parsed);
  EXPECT_FALSE(parsed.status().message().empty());
}

// Index of the first square token (letter or bracket) in a position text.
std::vector<size_t> pieceTokens(const std::string& text) {
  std::vector<size_t> at;
  for (size_t i = 0; i < text.size() && text[i] != ' '; ++i) {
    if (text[i] == '[') {
      at.push_back(i);
      i = text.find(']', i);
    } else if (std::isalpha(static_cast<unsigned char>(text[i]))) {
      at.push_back(i);
    }
  }
  return at;
}

TEST(RulesCrossCheck, ValidRandomTextsParseToTheReferencePosition) {
  Rng rng(0x7e47);
  for (const Variant& v : {kGobblet, kGobblers, kTicTacToe, Variant::family(2, 3, true), Variant::family(1, 9, true)}) {
    SCOPED_TRACE(v.name());
    for (int i = 0; i < 500; ++i) {
      const ref::Position r = randomPosition(v, rng);
      std::string error;
      auto again = ref::Position::parse(v, r.text(), &error);
      ASSERT_TRUE(again.has_value()) << r.text() << ": " << error;
      ASSERT_EQ(*again, r);
      auto parsed = parsePosition(v, r.text());
      ASSERT_TRUE(parsed.ok()) << r.text() << ": " << parsed.status();
      ASSERT_EQ(ref::Position::fromBoard(*parsed), r);
      ASSERT_EQ(positionToString(*parsed), r.text());
    }
  }
}

TEST(RulesCrossCheck, MalformedTextsAreRejected) {
  Rng rng(0xbad);
  long cases = 0;
  for (const Variant& v : {kGobblet, kGobblers, kTicTacToe, Variant::family(2, 3, true)}) {
    SCOPED_TRACE(v.name());
    const int n = v.n;
    const char beyond = "SMLX"[v.sizes < 4 ? v.sizes : 3];
    for (int i = 0; i < 200; ++i) {
      const ref::Position r = randomPosition(v, rng);
      const std::string text = r.text();
      const size_t space = text.find(' ');
      const std::string board = text.substr(0, space), side = text.substr(space);
      std::vector<std::string> ranks;
      for (size_t start = 0;;) {
        const size_t slash = board.find('/', start);
        ranks.push_back(board.substr(start, slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
      auto join = [](const std::vector<std::string>& parts) {
        std::string out;
        for (size_t k = 0; k < parts.size(); ++k) {
          if (k) out += '/';
          out += parts[k];
        }
        return out;
      };

      // Wrong dimensions: a rank missing, a rank too many, a rank too long,
      // a rank too short.
      std::vector<std::string> fewer(ranks.begin(), ranks.end() - 1), more = ranks, longer = ranks, shorter = ranks;
      more.push_back(std::to_string(n));
      const int k = uniform(rng, n);
      longer[k] += "1";
      shorter[k] = std::to_string(n - 1);
      expectRejected(v, join(fewer) + side, "a rank missing");
      expectRejected(v, join(more) + side, "a rank too many");
      expectRejected(v, join(longer) + side, "a rank too long");
      expectRejected(v, join(shorter) + side, "a rank too short");
      // Bad side to move.
      expectRejected(v, board + " 3", "side 3");
      expectRejected(v, board, "no side");
      cases += 6;

      const std::vector<size_t> tokens = pieceTokens(text);
      if (tokens.empty()) continue;
      const size_t at = tokens[uniform(rng, static_cast<int>(tokens.size()))];
      const size_t end = text[at] == '[' ? text.find(']', at) + 1 : at + 1;
      auto replaced = [&](const std::string& token) { return text.substr(0, at) + token + text.substr(end); };
      // Unknown letters: not a piece at all, or a size this variant lacks.
      expectRejected(v, replaced("Q"), "unknown letter");
      if (v.sizes < 4) expectRejected(v, replaced(std::string(1, beyond)), "size beyond the variant");
      // Stacks that are not strictly increasing, unclosed or empty.
      if (v.sizes >= 2) {
        expectRejected(v, replaced("[MS]"), "decreasing stack");
        expectRejected(v, replaced("[Ms]"), "decreasing stack");
      }
      expectRejected(v, replaced("[Ss]"), "two pieces of one size");
      expectRejected(v, replaced("[S"), "unclosed bracket");
      expectRejected(v, replaced("[]"), "empty stack");
      cases += 5;
    }
  }
  EXPECT_GT(cases, 2000);
}

// Rewrites the non-canonical spellings the engine tolerates into the
// canonical text: outer whitespace dropped and inner runs of spaces made
// one, a lone piece in brackets "[L]" written "L", consecutive digits summed.
std::string canonicalSpelling(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  if (first == std::string::npos) return "";
  const std::string t = text.substr(first, last - first + 1);
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == ' ' && !out.empty() && out.back() == ' ') continue;
    if (t[i] == '[' && i + 2 < t.size() && t[i + 2] == ']') {
      out += t[i + 1];
      i += 2;
    } else if (std::isdigit(static_cast<unsigned char>(t[i])) && t.find(' ') > i) {
      int sum = 0;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) sum += t[i++] - '0';
      --i;
      out += std::to_string(sum);
    } else {
      out += t[i];
    }
  }
  return out;
}

// Random edits of valid texts: whatever the strict reference parser accepts
// the engine accepts as the same position; whatever else the engine accepts
// must be a tolerated spelling (see canonicalSpelling) of that position.
TEST(RulesCrossCheck, MutatedTextsAgreeWithTheReferenceParser) {
  Rng rng(0x3d17);
  const std::string alphabet = "SMLXsmlxQq0123456789[]/ -";
  long refAccepted = 0, tolerated = 0, rejected = 0;
  for (const Variant& v : {kGobblet, kGobblers, kTicTacToe, Variant::family(2, 3, true)}) {
    SCOPED_TRACE(v.name());
    for (int i = 0; i < 3000; ++i) {
      std::string text = randomPosition(v, rng).text();
      for (int edits = 1 + uniform(rng, 2); edits > 0; --edits) {
        const size_t at = uniform(rng, static_cast<int>(text.size()) + 1);
        const char c = alphabet[uniform(rng, static_cast<int>(alphabet.size()))];
        switch (uniform(rng, 3)) {
          case 0:
            if (at < text.size()) text[at] = c;
            break;
          case 1:
            if (at < text.size()) text.erase(at, 1);
            break;
          default:
            text.insert(at, 1, c);
        }
      }
      std::string error;
      const auto mine = ref::Position::parse(v, text, &error);
      const auto engine = parsePosition(v, text);
      if (mine) {
        ++refAccepted;
        ASSERT_TRUE(engine.ok()) << "'" << text << "': " << engine.status();
        ASSERT_EQ(ref::Position::fromBoard(*engine), *mine) << text;
      } else if (engine.ok()) {
        ++tolerated;
        const auto canonical = ref::Position::parse(v, canonicalSpelling(text), &error);
        ASSERT_TRUE(canonical) << "the engine accepts '" << text << "' as " << positionToString(*engine)
                               << " but the reference rejects '" << canonicalSpelling(text) << "': " << error;
        ASSERT_EQ(ref::Position::fromBoard(*engine), *canonical) << text;
      } else {
        ++rejected;
        ASSERT_FALSE(engine.status().message().empty()) << text;
      }
    }
  }
  std::cout << "[ coverage ] mutated texts: valid " << refAccepted << ", tolerated spellings " << tolerated
            << ", rejected " << rejected << "\n";
  EXPECT_GT(refAccepted, 100);
}

TEST(RulesCrossCheck, ImpossibleCountsAreRejected) {
  // 3x3: one piece more of a size than the supply holds.
  for (const Variant& v : {kGobblers, kTicTacToe, Variant::family(2, 3, true), Variant::family(3, 1, false)}) {
    SCOPED_TRACE(v.name());
    for (int player = 0; player < 2; ++player)
      for (int size = 0; size < v.sizes; ++size) {
        if (v.perSize + 1 > v.n * v.n) continue;
        ref::Position r(v);
        for (int k = 0; k <= v.perSize; ++k) r.push(k, ref::Piece{player, size});
        expectRejected(v, r.text(), "too many pieces");
      }
  }
  // 4x4: a size played out of a stack before the sizes above it.
  Rng rng(0x51ac);
  int impossible = 0;
  for (int i = 0; i < 3000 && impossible < 400; ++i) {
    // Each size on each square with probability 1/3, random owner: counts
    // are often impossible (out of order, or four of a size).
    ref::Position r(kGobblet);
    for (int sq = 0; sq < 16; ++sq)
      for (int size = 0; size < 4; ++size)
        if (uniform(rng, 3) == 0) r.push(sq, ref::Piece{uniform(rng, 2), size});
    if (r.valid()) continue;
    ++impossible;
    expectRejected(kGobblet, r.text(), "impossible stack counts");
  }
  EXPECT_GT(impossible, 100);
  // The classic case: an S on the board while all X are still in the stacks.
  expectRejected(kGobblet, "4/4/4/S3 2", "S out before X");
  expectRejected(kGobblet, "4/4/4/[SMLX]s3 1", "s out before x");
  expectRejected(kGobblet, "X3/X3/X3/X3 2", "four X");
  // Smaller 4x4 members: more of a size than stacks, a size out of order,
  // a size the member does not have.
  const Variant twoOfTwo = Variant::family4x4(2, 2);
  expectRejected(twoOfTwo, "M3/M3/M3/4 2", "three M from two stacks");
  expectRejected(twoOfTwo, "4/4/4/S3 2", "S out before M");
  expectRejected(twoOfTwo, "4/4/4/L3 2", "no L in 4x4:2,2");
  expectRejected(Variant::family4x4(1, 1), "S3/S3/4/4 2", "two S from one stack");
}

}  // namespace
}  // namespace gobblet
