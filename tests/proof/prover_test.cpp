// The prover against plain exhaustive searches: wins in 1, 3 and 5 plies and
// losses in 2 on 4x4 (a minimax to that depth, written here), every
// position of a small 3x3 variant with moving pieces against the brute
// solver (repetitions included), the draws of tic-tac-toe, budgets, threads;
// and the same guided by the evaluation (protocol/proof_guide.h) or by a
// guide of extreme or garbage values, which must change nothing proved.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/check.h"
#include "proof/proof_table.h"
#include "proof/prover.h"
#include "protocol/proof_guide.h"
#include "search/tactics.h"
#include "search/wdl.h"
#include "tests/support/brute_solver.h"
#include "tests/support/peak_memory.h"
#include "tests/support/sanitizers.h"

namespace gobblet::proof {
namespace {

// Can the side to move force a line within `plies` plies (odd)?
bool winsWithin(const Board& b, int plies);

// Does the side to move lose within `plies` plies (even): it has a move,
// and after each the opponent has won or wins within plies - 1?
bool losesWithin(const Board& b, int plies) {
  MoveList moves;
  generateMoves(b, moves);
  if (moves.empty()) return false;
  for (Move m : moves) {
    Board a = b;
    a.makeMove(m);
    const int w = a.winner();
    if (w == (b.sideToMove() ^ 1)) continue;
    if (w != kNoWinner || plies < 2 || !winsWithin(a, plies - 1)) return false;
  }
  return true;
}

bool winsWithin(const Board& b, int plies) {
  MoveList moves;
  generateMoves(b, moves);
  for (Move m : moves) {
    Board a = b;
    a.makeMove(m);
    const int w = a.winner();
    if (w == b.sideToMove()) return true;
    if (w == kNoWinner && plies >= 3 && losesWithin(a, plies - 1)) return true;
  }
  return false;
}

// Wins in exactly 5 plies (found by the minimax below on seeded random games).
const char* const kWinsInFive[] = {"1lL1/2MX/X1xx/L1xl 2", "2lx/1[LX]lx/[mx]lLX/XL2 2", "1x2/2SM/2l1/XL2 1",
                                   "2l1/xX2/1ML1/S3 1"};

Board position(const std::string& text, const Variant& v = Variant::gobblet()) {
  auto b = parsePosition(v, text);
  if (!b.ok()) ADD_FAILURE() << text << ": " << b.status();
  return b.ok() ? *b : *parsePosition(v, "4/4/4/XXXL 2");  // over: prove() refuses it
}

// Proves `b`; a win or loss must come with a certificate the checker accepts.
ProofResult proveChecked(const Board& b, ProverOptions options = {}) {
  if (options.maxNodes == 0) options.maxNodes = 2'000'000;
  if (options.hashMiB == ProverOptions{}.hashMiB) options.hashMiB = 16;
  auto r = prove(b, options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  if (r->outcome == Outcome::kWin || r->outcome == Outcome::kLoss) {
    EXPECT_TRUE(r->certificate.has_value()) << positionToString(b) << ": " << r->certificateStatus;
    if (r->certificate) {
      auto bytes = encodeCertificate(*r->certificate);
      EXPECT_TRUE(bytes.ok()) << bytes.status();
      std::istringstream in(*bytes);
      const CheckReport report = checkCertificate(in);
      EXPECT_TRUE(report.accepted) << positionToString(b) << ": " << report.reason;
      EXPECT_EQ(report.winner, r->outcome == Outcome::kWin ? 0 : 1);
      EXPECT_EQ(report.plies, r->plies);
    }
  }
  return *r;
}

// A table of 2 GiB costs nothing up front: its pages come as stores write
// them (a stopped proof answers at once); one the process cannot have
// (beyond any address space) is an error, not an exception.
TEST(ProofTable, TakingATableCostsNothingUpFront) {
  resetPeakResident();
  const uint64_t before = peakResidentBytes();
  auto table = ProofTable::create(2048);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->entries(), (size_t{2048} << 20) / 32);
  EXPECT_LT(peakResidentBytes() - before, uint64_t{64} << 20) << "bytes: the table was filled";
  ProofValue v;
  const Board start(Variant::gobblet());
  EXPECT_FALSE((*table)->lookup(start, 0, &v));
  (*table)->store(start, 0, ProofValue{0, kInfinity, 3, false}, 7);
  ASSERT_TRUE((*table)->lookup(start, 0, &v));
  EXPECT_TRUE(v.proved());
  EXPECT_EQ(v.dist, 3);
  auto huge = ProofTable::create(size_t{1} << 29);  // 512 TiB
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(Prover, WinInOne) {
  const Board b = position("xl2/1m2/4/XXX1 1");
  ASSERT_TRUE(winsWithin(b, 1));
  const ProofResult r = proveChecked(b);
  EXPECT_EQ(r.outcome, Outcome::kWin);
  EXPECT_EQ(r.plies, 1);
}

// Player 2 threatens rank 4 (d4) and file a (a1) with pieces player 1
// cannot gobble from a stack on both lines at once: player 1 loses in 2.
TEST(Prover, LossInTwo) {
  const Board b = position("xxl1/x3/l3/1XX1 1");
  ASSERT_FALSE(winsWithin(b, 1));
  ASSERT_TRUE(losesWithin(b, 2));
  const ProofResult r = proveChecked(b);
  EXPECT_EQ(r.outcome, Outcome::kLoss);
  EXPECT_EQ(r.plies, 2);
}

TEST(Prover, AlreadyOverIsAnError) { EXPECT_FALSE(prove(position("4/4/4/XXXL 2")).ok()); }

// A guide of extreme and garbage chances (not a number, infinities, huge,
// negative), by turns: clamped, they may slow a proof, never change one.
class GarbageGuide final : public ProofGuide {
 public:
  void chances(const Board&, std::span<const Move> moves, int, std::span<double> out) const override {
    static constexpr double kValues[] = {std::numeric_limits<double>::quiet_NaN(),
                                         std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity(),
                                         1e300,
                                         -5,
                                         0,
                                         1,
                                         std::numeric_limits<double>::denorm_min()};
    for (size_t i = 0; i < moves.size(); ++i) out[i] = kValues[(i + moves[i].raw()) % std::size(kValues)];
  }
};

const std::shared_ptr<const ProofGuide> kNetGuide = makeProofGuide(ProofGuideKind::kNet, Variant::gobblet());
const std::shared_ptr<const ProofGuide> kEvalGuide = makeProofGuide(ProofGuideKind::kEval, Variant::gobblet());

// Positions of seeded random 4x4 games: whatever a minimax sees within 3
// plies (a win in 1 or 3, a loss in 2), the prover (guided by `guide`, if
// not null) proves, with an accepted certificate no shorter than the
// minimax's distance. Up to `limit` positions of `games` games.
void agreeWithMinimaxOnRandomGames(const ProofGuide* guide, int games, int limit) {
  std::mt19937 rng(7);
  int wins1 = 0, wins3 = 0, losses2 = 0, positions = 0;
  ProverOptions options;
  options.guide = guide;
  for (int game = 0; game < games && positions < limit; ++game) {
    Board b;
    for (int ply = 0; ply < 40 && b.winner() == kNoWinner; ++ply) {
      MoveList moves;
      generateMoves(b, moves);
      if (moves.empty()) break;
      if (ply >= 6) {
        ++positions;
        const std::string where = positionToString(b);
        const bool win1 = winsWithin(b, 1), win3 = win1 || winsWithin(b, 3), loss2 = losesWithin(b, 2);
        if (win3 || loss2) {
          const ProofResult r = proveChecked(b, options);
          EXPECT_EQ(r.outcome, win3 ? Outcome::kWin : Outcome::kLoss) << where;
          EXPECT_TRUE(!win1 || r.plies == 1) << where << ": " << r.plies;
          EXPECT_TRUE(!win3 || win1 || r.plies >= 3) << where << ": " << r.plies;
          EXPECT_TRUE(!loss2 || r.plies == 2) << where << ": " << r.plies;
          wins1 += win1, wins3 += win3 && !win1, losses2 += loss2;
        }
      }
      b.makeMove(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(wins1, 5);
  EXPECT_GT(wins3, 2);
  EXPECT_GT(losses2, limit >= 300 ? 2 : 0);
  std::printf("wins in 1: %d, in 3: %d, losses in 2: %d of %d positions\n", wins1, wins3, losses2, positions);
}

TEST(Prover, AgreesWithMinimaxOnRandomGames) { agreeWithMinimaxOnRandomGames(nullptr, 300, 1500); }

TEST(GuidedProver, AgreesWithMinimaxOnRandomGames) {
  agreeWithMinimaxOnRandomGames(kNetGuide.get(), 300, 600 / testing::kSanitizerStride);
  agreeWithMinimaxOnRandomGames(kEvalGuide.get(), 300, 300 / testing::kSanitizerStride);
  const GarbageGuide garbage;
  agreeWithMinimaxOnRandomGames(&garbage, 300, 300 / testing::kSanitizerStride);
}

// Wins in exactly 5 plies (no win in 3), found in seeded random games;
// listed so that the slow minimax runs only where it finds the win.
// Guided, the same wins with as long a certified strategy at least.
TEST(Prover, WinsInFive) {
  const GarbageGuide garbage;
  for (const char* text : kWinsInFive) {
    const Board b = position(text);
    ASSERT_FALSE(winsWithin(b, 3)) << text;
    ASSERT_TRUE(winsWithin(b, 5)) << text;
    for (const ProofGuide* guide : {static_cast<const ProofGuide*>(nullptr), kNetGuide.get(), kEvalGuide.get(),
                                    static_cast<const ProofGuide*>(&garbage)}) {
      ProverOptions options;
      options.guide = guide;
      const ProofResult r = proveChecked(b, options);
      EXPECT_EQ(r.outcome, Outcome::kWin) << text;
      EXPECT_GE(r.plies, 5) << text;
    }
  }
}

// Every position of a 3x3 variant with moving pieces (repetitions happen)
// against the brute solver: a win, loss or draw the prover (guided by
// `guide`, if not null) claims is the game's value, and a win's certified
// length is at least its distance. `sample` positions, seeded.
void agreeWithTheBruteSolver(const ProofGuide* guide, int sample) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  const testing::BruteSolver solver(v);
  std::vector<size_t> order(solver.boards().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(3);
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  int claimed = 0, checked = 0, wins = 0, draws = 0;
  for (size_t i : order) {
    if (checked == sample) break;
    const Board& b = solver.boards()[i];
    if (b.winner() != kNoWinner || countMoves(b) == 0) continue;
    ++checked;
    const testing::BruteValue value = solver.values()[i];
    ProverOptions options;
    options.maxNodes = 20'000;
    options.hashMiB = 1;  // 3x3:2,2,1 has 10^5 states: a small table, cleared 2 x 200 times
    options.guide = guide;
    const ProofResult r = proveChecked(b, options);
    const std::string where = positionToString(b);
    switch (r.outcome) {
      case Outcome::kWin:
        EXPECT_EQ(value.value, 1) << where;
        EXPECT_GE(r.plies, value.distance) << where;
        break;
      case Outcome::kLoss:
        EXPECT_EQ(value.value, -1) << where;
        EXPECT_GE(r.plies, value.distance) << where;
        break;
      case Outcome::kDraw:
        EXPECT_EQ(value.value, 0) << where;
        break;
      case Outcome::kUnknown:
        break;
    }
    claimed += r.outcome != Outcome::kUnknown;
    wins += value.value != 0, draws += value.value == 0;
  }
  std::printf("%lld states; of %d checked (%d won or lost, %d drawn) %d decided\n",
              static_cast<long long>(solver.states()), checked, wins, draws, claimed);
  EXPECT_GT(checked, sample / 2);
  EXPECT_GT(claimed, wins * 9 / 10);
}

TEST(Prover, AgreesWithTheBruteSolverWhenPiecesMove) { agreeWithTheBruteSolver(nullptr, 200); }

// The 3x3 variants have no net: "net" is the hand-written evaluation there.
TEST(GuidedProver, AgreesWithTheBruteSolverWhenPiecesMove) {
  const std::shared_ptr<const ProofGuide> guide = makeProofGuide(ProofGuideKind::kNet, *Variant::parse("3x3:2,2,1"));
  ASSERT_NE(guide, nullptr);
  agreeWithTheBruteSolver(guide.get(), 120 / testing::kSanitizerStride);
  const GarbageGuide garbage;
  agreeWithTheBruteSolver(&garbage, 120 / testing::kSanitizerStride);
}

TEST(Prover, TicTacToeIsADrawNeverAWin) {
  const ProofResult r = proveChecked(Board(Variant::ticTacToe()));
  EXPECT_EQ(r.outcome, Outcome::kDraw);
}

TEST(Prover, GobbletGobblersIsAFirstPlayerWin) {
  const ProofResult r = proveChecked(Board(Variant::gobblers()));
  EXPECT_EQ(r.outcome, Outcome::kWin);
  EXPECT_GE(r.plies, 13);  // the first player's fastest forced win takes 13 plies
}

TEST(Prover, TwoThreadsProveTheSame) {
  ProverOptions options;
  options.threads = 2;
  const ProofResult r = proveChecked(Board(Variant::gobblers()), options);
  EXPECT_EQ(r.outcome, Outcome::kWin);
}

// Guided, the same results, from threads sharing the guide too (under
// TSan, a guide that is not safe from several threads is a failure).
TEST(GuidedProver, TicTacToeDrawAndGobblersWinThreadsIncluded) {
  const GarbageGuide garbage;
  const std::shared_ptr<const ProofGuide> eval = makeProofGuide(ProofGuideKind::kEval, Variant::gobblers());
  for (const ProofGuide* guide : {eval.get(), static_cast<const ProofGuide*>(&garbage)}) {
    ProverOptions options;
    options.guide = guide;
    EXPECT_EQ(proveChecked(Board(Variant::ticTacToe()), options).outcome, Outcome::kDraw);
    for (int threads : {1, 2}) {
      options.threads = threads;
      const ProofResult r = proveChecked(Board(Variant::gobblers()), options);
      EXPECT_EQ(r.outcome, Outcome::kWin);
      EXPECT_GE(r.plies, 13);
    }
  }
}

// The net guides 4x4 positions from several threads at once, to the same
// results as no guide.
TEST(GuidedProver, NetGuideWithTwoThreadsAgreesWithNoGuide) {
  for (const char* text : {"XM2/x1L1/X[Lx]2/X2[Sx] 1", "1x2/2SM/2l1/XL2 1", "xxl1/x3/l3/1XX1 1"}) {
    const Board b = position(text);
    const ProofResult plain = proveChecked(b);
    ProverOptions options;
    options.guide = kNetGuide.get();
    options.threads = 2;
    const ProofResult guided = proveChecked(b, options);
    EXPECT_NE(plain.outcome, Outcome::kUnknown) << text;
    EXPECT_EQ(guided.outcome, plain.outcome) << text;
  }
}

// A guide's answer made a chance: clamped to [0, 1], not a number is 1/2.
TEST(GuidedProver, GuideChanceClamps) {
  EXPECT_EQ(guideChance(std::numeric_limits<double>::quiet_NaN()), 0.5);
  EXPECT_EQ(guideChance(std::numeric_limits<double>::infinity()), 1.0);
  EXPECT_EQ(guideChance(-std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_EQ(guideChance(1e300), 1.0);
  EXPECT_EQ(guideChance(-5), 0.0);
  EXPECT_EQ(guideChance(0.25), 0.25);
}

// The evaluation's guides answer, for each move, the position's chance of a
// win in the search's model (search/wdl.h positionChances(), for the side
// to move after the move; its loss for the other side).
TEST(GuidedProver, EvaluationChancesAreTheModels) {
  const Board b = position("1x2/2SM/2l1/XL2 1");
  MoveList moves;
  generateMoves(b, moves);
  std::vector<Move> quiet;  // (positionChances() counts a win in one as won: the guide is asked for no other)
  for (Move m : moves) {
    Board a = b;
    a.makeMove(m);
    if (a.winner() == kNoWinner && winningMove(a).isNone()) quiet.push_back(m);
  }
  ASSERT_GT(quiet.size(), 10u);
  using NetGuide = std::pair<std::shared_ptr<const ProofGuide>, std::shared_ptr<const nnue::Network>>;
  for (const auto& [guide, net] : {NetGuide{kNetGuide, builtInNet()}, NetGuide{kEvalGuide, nullptr}}) {
    ASSERT_NE(guide, nullptr);
    std::vector<double> forFirst(quiet.size(), -1), forSecond(quiet.size(), -1);
    guide->chances(b, quiet, 0, forFirst);
    guide->chances(b, quiet, 1, forSecond);
    for (size_t i = 0; i < quiet.size(); ++i) {
      Board a = b;
      a.makeMove(quiet[i]);
      const WinDrawLoss wdl = positionChances(Game(a), net.get());
      ASSERT_EQ(a.sideToMove(), 1);
      EXPECT_DOUBLE_EQ(forSecond[i], wdl.win / 1000.0) << quiet[i].raw();
      EXPECT_DOUBLE_EQ(forFirst[i], wdl.loss / 1000.0) << quiet[i].raw();
    }
  }
  EXPECT_EQ(makeProofGuide(ProofGuideKind::kNone, Variant::gobblet()), nullptr);
}

TEST(Prover, TinyBudgetIsUnknown) {
  ProverOptions options;
  options.maxNodes = 100;
  const ProofResult r = proveChecked(Board(), options);
  EXPECT_EQ(r.outcome, Outcome::kUnknown);
  EXPECT_LT(r.nodes, 1000u);
}

TEST(Prover, StopFlagStops) {
  std::atomic<bool> stop{true};
  ProverOptions options;
  options.stop = &stop;
  const ProofResult r = proveChecked(Board(), options);
  EXPECT_EQ(r.outcome, Outcome::kUnknown);
}

}  // namespace
}  // namespace gobblet::proof
