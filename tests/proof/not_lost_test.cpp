// The not-lost prover and its certificates: against the brute solver (an
// exact solve of every reachable state, tests/support/brute_solver.h) on
// every state of tic-tac-toe, a 3x3 member with moving pieces and a small
// 4x4 member: a held claim is never a lost position, a lost claim always
// is, and where the game is drawn both sides are proved not lost (the
// share is printed); against the win prover on Gobblet Gobblers; and
// forged certificates refused with the reason (a losing defender move, an
// attacker move dropped, a node rebound to another position, leaves that
// are no win or no draw, an unreachable node, a cut file, a flipped byte).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/check.h"
#include "proof/database.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "tests/support/brute_solver.h"
#include "tests/support/sanitizers.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::proof {
namespace {

CheckReport checkNotLost(const Certificate& c) {
  auto bytes = encodeCertificate(c);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  std::istringstream in(bytes.ok() ? *bytes : std::string());
  return checkNotLostCertificate(in);
}

Board position(const Variant& v, const std::string& text) {
  auto b = parsePosition(v, text);
  EXPECT_TRUE(b.ok()) << text << ": " << b.status();
  return b.ok() ? *b : Board(v);
}

NotLostOptions smallOptions(uint64_t nodes) {
  NotLostOptions options;
  options.maxNodes = nodes;
  options.hashMiB = 32;
  return options;
}

struct Tally {
  int states = 0, claims = 0, drawn = 0, drawsProved = 0;
};

// Every `stride`-th state of `variant` that is not over, each side as the
// defender: a held claim (its certificate accepted) is never a state the
// defender loses, a lost claim always is one; drawn states count toward
// the share proved drawn.
Tally compareWithBruteSolver(const Variant& variant, int stride, uint64_t nodes) {
  SCOPED_TRACE(variant.name());
  const testing::BruteSolver solver(variant);
  Tally t;
  for (size_t i = 0; i < solver.boards().size(); i += stride) {
    const Board& b = solver.boards()[i];
    if (b.winner() != kNoWinner || countMoves(b) == 0) continue;
    ++t.states;
    const int value = solver.values()[i].value;  // for the side to move
    bool bothHeld = true;
    for (int defender : {b.sideToMove(), b.sideToMove() ^ 1}) {
      const bool defenderLoses = defender == b.sideToMove() ? value < 0 : value > 0;
      auto r = proveNotLost(b, defender, smallOptions(nodes));
      EXPECT_TRUE(r.ok()) << r.status();
      if (!r.ok()) continue;
      const std::string where = absl::StrCat(positionToString(b), " defender ", defender);
      switch (r->defence) {
        case Defence::kHeld:
          ++t.claims;
          EXPECT_FALSE(defenderLoses) << where;
          EXPECT_TRUE(r->certificate && checkNotLost(*r->certificate).accepted) << where;
          break;
        case Defence::kLost:
          ++t.claims;
          EXPECT_TRUE(defenderLoses) << where;
          break;
        case Defence::kUnknown:
          break;
      }
      bothHeld &= r->defence == Defence::kHeld;
    }
    if (value == 0) {
      ++t.drawn;
      t.drawsProved += bothHeld;
    }
  }
  std::printf("%s: %lld states, %d compared, %d claims of %d, %d drawn, %d of them proved drawn\n",
              variant.name().c_str(), static_cast<long long>(solver.states()), t.states, t.claims, 2 * t.states,
              t.drawn, t.drawsProved);
  return t;
}

TEST(NotLost, TicTacToeAgreesWithTheBruteSolverEverywhere) {
  const Tally t = compareWithBruteSolver(Variant::ticTacToe(), 1, 100'000);
  EXPECT_GT(t.states, 500);
  EXPECT_EQ(t.claims, 2 * t.states);  // every state decided for both sides
  EXPECT_EQ(t.drawsProved, t.drawn);
}

// Pieces move: repetitions happen, and certificates cycle.
TEST(NotLost, A3x3MemberWithMovingPiecesAgreesWithTheBruteSolver) {
  const Tally t = compareWithBruteSolver(*Variant::parse("3x3:1,3,1"), testing::kSanitizerStride, 20'000);
  EXPECT_GT(t.states, 700 / testing::kSanitizerStride);
  EXPECT_GT(t.drawn, 100 / testing::kSanitizerStride);
  EXPECT_EQ(t.drawsProved, t.drawn);
}

// Its drawn positions take 10^5 to 10^6 positions searched (docs/proof.md):
// few are proved within this test's budget, but no claim may be wrong.
TEST(NotLost, A3x3MemberWithTwoSizesAgreesWithTheBruteSolver) {
  const Tally t = compareWithBruteSolver(*Variant::parse("3x3:2,2,1"), 197 * testing::kSanitizerStride, 5'000);
  EXPECT_GT(t.states, 900 / testing::kSanitizerStride);
  EXPECT_GT(t.drawn, 25 / testing::kSanitizerStride);
  EXPECT_GT(t.claims, t.states);
}

// Nobody can make a line in 4x4:2,1 (two pieces a side): every state is a
// draw, and the certificate is the whole game from it.
TEST(NotLost, ASmall4x4MemberAgreesWithTheBruteSolver) {
  const Tally t = compareWithBruteSolver(*Variant::parse("4x4:2,1"), 331 * testing::kSanitizerStride, 20'000);
  EXPECT_GT(t.states, 12 / testing::kSanitizerStride);
  EXPECT_EQ(t.drawsProved, t.drawn);
}

// Gobblet Gobblers (too large for a test's tablebase): positions of seeded
// random games, each side as the defender, against the win prover's
// certified wins: a side proved not lost is never the side a win is
// certified against, and a side the win prover certifies never lost.
TEST(NotLost, GobbletGobblersNeverContradictsACertifiedWin) {
  std::mt19937 rng(61);
  int compared = 0, held = 0, wins = 0;
  for (int game = 0; game < 120 / testing::kSanitizerStride; ++game) {
    Board b(Variant::gobblers());
    const int plies = 3 + static_cast<int>(rng() % 10);
    MoveList moves;
    for (int p = 0; p < plies && b.winner() == kNoWinner; ++p) {
      generateMoves(b, moves);
      if (moves.empty()) break;
      b.makeMove(moves[static_cast<int>(rng() % moves.size())]);
    }
    if (b.winner() != kNoWinner || countMoves(b) == 0) continue;
    ++compared;
    ProverOptions winOptions;
    winOptions.maxNodes = 20'000;
    winOptions.hashMiB = 4;
    auto win = prove(b, winOptions);
    ASSERT_TRUE(win.ok());
    int certifiedWinner = -1;
    if (win->certificate) {
      ++wins;
      std::istringstream in(*encodeCertificate(*win->certificate));
      ASSERT_TRUE(checkCertificate(in).accepted);
      certifiedWinner = b.sideToMove() ^ win->certificate->winner;
    }
    for (int defender : {0, 1}) {
      auto r = proveNotLost(b, defender, smallOptions(20'000));
      ASSERT_TRUE(r.ok());
      const std::string where = absl::StrCat(positionToString(b), " defender ", defender);
      if (r->defence == Defence::kHeld) {
        ++held;
        EXPECT_NE(certifiedWinner, defender ^ 1) << where;
      }
      if (certifiedWinner == (defender ^ 1)) {
        EXPECT_NE(r->defence, Defence::kHeld) << where;
      }
    }
  }
  std::printf("gobblers: %d positions, %d certified wins, %d sides proved not lost\n", compared, wins, held);
  EXPECT_GT(compared, 50 / testing::kSanitizerStride);
  EXPECT_GT(wins, 10 / testing::kSanitizerStride);
}

TEST(NotLost, TicTacToeStartIsAProvedDraw) {
  auto r = proveDraw(Board(Variant::ticTacToe()));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->drawn);
  for (int side : {0, 1}) {
    ASSERT_TRUE(r->sides[side].certificate);
    const Certificate& c = *r->sides[side].certificate;
    EXPECT_EQ(c.kind, CertificateKind::kNotLost);
    EXPECT_EQ(c.winner, side);  // player 1 moves first: side 0 is the side to move
    const CheckReport report = checkNotLost(c);
    EXPECT_TRUE(report.accepted) << report.reason;
    EXPECT_EQ(report.kind, CertificateKind::kNotLost);
  }
}

TEST(NotLost, GameOverOrNoPlayerIsAnError) {
  EXPECT_FALSE(proveNotLost(position(Variant::ticTacToe(), "SSS/ss1/3 2"), 1).ok());
  EXPECT_FALSE(proveNotLost(Board(Variant::ticTacToe()), 2).ok());
  EXPECT_FALSE(proveDraw(position(Variant::ticTacToe(), "SSS/ss1/3 2")).ok());
}

TEST(NotLost, TinyBudgetIsUnknown) {
  auto r = proveNotLost(Board(Variant::gobblers()), 1, smallOptions(100));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->defence, Defence::kUnknown);
  EXPECT_FALSE(r->certificate);
  EXPECT_NE(r->note, "");
}

// A node limit is kept to the node, not to the next batch of 64.
TEST(NotLost, ANodeLimitIsKept) {
  for (uint64_t limit : {1, 10, 65, 100}) {
    auto r = proveNotLost(Board(Variant::gobblers()), 1, smallOptions(limit));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->defence, Defence::kUnknown);
    EXPECT_LE(r->nodes, limit);
    EXPECT_GE(r->nodes, limit - 1);
  }
}

TEST(NotLost, TheSideThatLosesGobbletGobblersIsNotProvedNotLost) {
  auto r = proveNotLost(Board(Variant::gobblers()), 1, smallOptions(2'000'000));
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->defence, Defence::kHeld);
}

// A held certificate with a cycle (a child that is not a later node), from
// a drawn position of a member whose pieces move.
const Certificate& cyclingCertificate() {
  static const Certificate c = [] {
    const Variant v = *Variant::parse("3x3:1,3,1");
    const testing::BruteSolver solver(v);
    for (size_t i = 0; i < solver.boards().size(); ++i) {
      const Board& b = solver.boards()[i];
      if (b.winner() != kNoWinner || countMoves(b) == 0 || solver.values()[i].value != 0) continue;
      auto r = proveNotLost(b, b.sideToMove(), smallOptions(20'000));
      if (!r.ok() || !r->certificate || r->certificate->nodes.size() < 8) continue;
      for (size_t n = 0; n < r->certificate->nodes.size(); ++n)
        for (uint32_t child : r->certificate->nodes[n].children)
          if (child <= n) return *r->certificate;
    }
    ADD_FAILURE() << "no certificate with a cycle";
    return Certificate{};
  }();
  return c;
}

TEST(NotLost, CyclesAreRepetitionsAndAccepted) {
  const Certificate& c = cyclingCertificate();
  ASSERT_FALSE(c.nodes.empty());
  const CheckReport report = checkNotLost(c);
  EXPECT_TRUE(report.accepted) << report.reason;
  // Read back as written.
  auto bytes = encodeCertificate(c);
  ASSERT_TRUE(bytes.ok());
  std::istringstream in(*bytes);
  auto back = readCertificate(in);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->kind, CertificateKind::kNotLost);
  EXPECT_EQ(back->position, c.position);
  ASSERT_EQ(back->nodes.size(), c.nodes.size());
  for (size_t i = 0; i < c.nodes.size(); ++i) EXPECT_EQ(back->nodes[i].children, c.nodes[i].children);
  EXPECT_EQ(static_cast<uint8_t>((*bytes)[8]), kNotLostCertificateVersion);
}

// Neither the win checker nor a proof database takes a not-lost
// certificate for a win: the database keeps it as a held entry, which its
// win lookup never returns.
TEST(NotLost, NotTakenForAWin) {
  const Certificate& c = cyclingCertificate();
  auto bytes = encodeCertificate(c);
  ASSERT_TRUE(bytes.ok());
  std::istringstream in(*bytes);
  const CheckReport report = checkCertificate(in);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("not-lost certificate"), std::string::npos) << report.reason;
  const testing::ScratchDir dir("not_lost");
  auto db = ProofDatabase::open(dir.file("d.pdb"), ProofDatabase::Mode::kReadWrite, *Variant::parse("3x3:1,3,1"));
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->append({c}).ok());
  auto root = parsePosition(*Variant::parse("3x3:1,3,1"), c.position);
  ASSERT_TRUE(root.ok());
  EXPECT_FALSE((*db)->find(*root).has_value());
  EXPECT_TRUE((*db)->held(*root, c.winner).has_value());
  EXPECT_EQ((*db)->wins(0) + (*db)->wins(1), 0u);
}

std::string rejection(const Certificate& c) {
  const CheckReport report = checkNotLost(c);
  EXPECT_FALSE(report.accepted);
  return report.reason;
}

bool mentions(const std::string& reason, const std::string& what) { return reason.find(what) != std::string::npos; }

// The first AND node with at least two children that are nodes.
size_t andNodeWithTwoNodeChildren(const Certificate& c) {
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    int nodes = 0;
    for (uint32_t child : c.nodes[i].children) nodes += child < c.nodes.size();
    if (!c.nodes[i].orNode && nodes >= 2) return i;
  }
  return c.nodes.size();
}

TEST(NotLost, ForgedCertificatesAreRefused) {
  const Certificate& good = cyclingCertificate();
  ASSERT_TRUE(checkNotLost(good).accepted);
  const size_t a = andNodeWithTwoNodeChildren(good);
  ASSERT_LT(a, good.nodes.size());
  {  // an attacker move dropped
    Certificate c = good;
    c.nodes[a].children.pop_back();
    EXPECT_TRUE(mentions(rejection(c), "of the attacker's")) << rejection(c);
  }
  {  // a node rebound to another position: two different moves lead to one node
    Certificate c = good;
    std::vector<uint32_t>& children = c.nodes[a].children;
    uint32_t first = kWonLeaf;
    for (uint32_t& child : children) {
      if (child >= c.nodes.size()) continue;
      if (first == kWonLeaf) {
        first = child;
      } else if (child != first) {
        child = first;
        break;
      }
    }
    EXPECT_TRUE(mentions(rejection(c), "reached from two different positions")) << rejection(c);
  }
  {  // a leaf that is no win of the defender, and one that is no draw
    Certificate c = good;
    for (uint32_t& child : c.nodes[a].children)
      if (child < c.nodes.size()) child = kWonLeaf;
    EXPECT_TRUE(mentions(rejection(c), "is not won by the defender")) << rejection(c);
    c = good;
    for (uint32_t& child : c.nodes[a].children)
      if (child < c.nodes.size()) child = kDrawnLeaf;
    EXPECT_TRUE(mentions(rejection(c), "is not drawn")) << rejection(c);
  }
  {  // an unreachable node
    Certificate c = good;
    c.nodes.push_back(c.nodes.back());
    EXPECT_TRUE(mentions(rejection(c), "not reached from the root")) << rejection(c);
  }
  {  // a child that is no node
    Certificate c = good;
    c.nodes.push_back(c.nodes.back());
    c.nodes.back().children.assign(c.nodes.back().children.size(), static_cast<uint32_t>(c.nodes.size() + 5));
    EXPECT_FALSE(encodeCertificate(c).ok());
  }
  {  // database leaves, and no database to name
    Certificate c = good;
    for (uint32_t& child : c.nodes[a].children)
      if (child < c.nodes.size()) child = kDatabaseLeaf;
    EXPECT_TRUE(mentions(rejection(c), "no proof database is given")) << rejection(c);
  }
}

// A defender move changed to one that lets the attacker make a line at
// once: the attacker's node below it must answer that move, and it is a
// loss, whatever the leaf claims.
TEST(NotLost, ALosingDefenderMoveIsRefused) {
  const Variant v = Variant::ticTacToe();
  // Player 2 to move must stop player 1's line a1-b1-c1 at c1.
  const Board root = position(v, "3/1s1/SS1 2");
  auto r = proveNotLost(root, 1, smallOptions(100'000));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->defence, Defence::kHeld);
  Certificate c = *r->certificate;
  ASSERT_TRUE(c.nodes[0].orNode);
  EXPECT_EQ(moveToString(c.nodes[0].move, v), "S@c1");
  MoveList moves;
  generateMoves(root, moves);
  Move bad = Move::none();
  for (Move m : moves)
    if (moveToString(m, v) == "S@a3") bad = m;
  ASSERT_NE(bad, Move::none());
  Board after = root;
  after.makeMove(bad);
  c.nodes[0].move = bad;
  c.nodes[0].children = {static_cast<uint32_t>(c.nodes.size())};
  CertificateNode answers;
  answers.orNode = false;
  answers.children.assign(countMoves(after), kWonLeaf);
  c.nodes.push_back(answers);
  const std::string reason = rejection(c);
  EXPECT_TRUE(mentions(reason, "is won by the attacker")) << reason;
  // The same, the attacker's node given directly at a position it has won.
  Certificate lost;
  lost.kind = CertificateKind::kNotLost;
  lost.variant = v.name();
  lost.position = positionToString(after);
  lost.winner = 1;  // the defender is the side not to move
  lost.nodes = {answers};
  EXPECT_TRUE(mentions(rejection(lost), "is won by the attacker")) << rejection(lost);
}

TEST(NotLost, CutAndFlippedFilesAreRefused) {
  auto bytes = encodeCertificate(cyclingCertificate());
  ASSERT_TRUE(bytes.ok());
  for (size_t cut : {size_t{10}, size_t{40}, bytes->size() / 2, bytes->size() - 1}) {
    std::istringstream in(bytes->substr(0, cut));
    const CheckReport report = checkNotLostCertificate(in);
    EXPECT_FALSE(report.accepted) << cut;
    EXPECT_NE(report.reason, "") << cut;
  }
  for (size_t at = 0; at < bytes->size(); at += 1 + bytes->size() / 97) {
    std::string flipped = *bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    std::istringstream in(flipped);
    EXPECT_FALSE(checkNotLostCertificate(in).accepted) << at;
  }
}

// The not-lost checker takes no win certificate (a win is not what it checks).
TEST(NotLost, AWinCertificateIsNotANotLostOne) {
  ProverOptions options;
  options.hashMiB = 4;
  auto win = prove(position(Variant::gobblers(), "1l1/1L1/3 1"), options);
  ASSERT_TRUE(win.ok() && win->certificate);
  auto bytes = encodeCertificate(*win->certificate);
  std::istringstream in(*bytes);
  const CheckReport report = checkNotLostCertificate(in);
  EXPECT_FALSE(report.accepted);
  EXPECT_EQ(report.kind, CertificateKind::kWin);
}

}  // namespace
}  // namespace gobblet::proof
