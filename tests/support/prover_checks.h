// What the prover's tests share (tests/proof/prover_test.cpp, unguided and
// under a garbage guide; tests/protocol/proof_guide_test.cpp, guided by the
// evaluation): a minimax to a few plies, the prover run with its
// certificate checked, and the two agreement checks (random 4x4 games
// against the minimax, a 3x3 variant with moving pieces against the brute
// solver), each with an optional guide.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/check.h"
#include "proof/guide.h"
#include "proof/prover.h"
#include "tests/support/brute_solver.h"

namespace gobblet::proof::checks {

// Can the side to move force a line within `plies` plies (odd)?
inline bool winsWithin(const Board& b, int plies);

// Does the side to move lose within `plies` plies (even): it has a move,
// and after each the opponent has won or wins within plies - 1?
inline bool losesWithin(const Board& b, int plies) {
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

inline bool winsWithin(const Board& b, int plies) {
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
inline const char* const kWinsInFive[] = {"1lL1/2MX/X1xx/L1xl 2", "2lx/1[LX]lx/[mx]lLX/XL2 2", "1x2/2SM/2l1/XL2 1",
                                          "2l1/xX2/1ML1/S3 1"};

inline Board position(const std::string& text, const Variant& v = Variant::gobblet()) {
  auto b = parsePosition(v, text);
  if (!b.ok()) ADD_FAILURE() << text << ": " << b.status();
  return b.ok() ? *b : *parsePosition(v, "4/4/4/XXXL 2");  // over: prove() refuses it
}

// Proves `b`; a win or loss must come with a certificate the checker accepts.
inline ProofResult proveChecked(const Board& b, ProverOptions options = {}) {
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

// Positions of seeded random 4x4 games: whatever a minimax sees within 3
// plies (a win in 1 or 3, a loss in 2), the prover (guided by `guide`, if
// not null) proves, with an accepted certificate no shorter than the
// minimax's distance. Up to `limit` positions of `games` games.
inline void agreeWithMinimaxOnRandomGames(const ProofGuide* guide, int games, int limit) {
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

// Every position of a 3x3 variant with moving pieces (repetitions happen)
// against the brute solver: a win, loss or draw the prover (guided by
// `guide`, if not null) claims is the game's value, and a win's certified
// length is at least its distance. `sample` positions, seeded.
inline void agreeWithTheBruteSolver(const ProofGuide* guide, int sample) {
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

// Under `guide`: tic-tac-toe's start proved drawn, gobblers' start won
// (13 plies or more) by one thread and by two sharing the guide.
inline void expectTicTacToeDrawnAndGobblersWon(const ProofGuide* guide) {
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

}  // namespace gobblet::proof::checks
