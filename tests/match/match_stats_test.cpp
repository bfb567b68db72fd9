// Elo, error margin, LOS and SPRT of the match runner against values worked
// out independently (closed forms, or the textbook formulas written out here).
#include <cmath>

#include <gtest/gtest.h>

#include "match/stats.h"

namespace gobblet::match {
namespace {

TEST(MatchStats, EloOfKnownScores) {
  // 0.75 = 1 / (1 + 10^(-d/400))  <=>  d = 400 log10(3) = 190.8485...
  EXPECT_NEAR(eloFromScore(0.75), 190.8485, 1e-3);
  EXPECT_NEAR(eloFromScore(0.25), -190.8485, 1e-3);
  EXPECT_EQ(eloFromScore(0.5), 0.0);
  EXPECT_NEAR(eloFromScore(10.0 / 11.0), 400.0, 1e-9);  // 10:1 odds = 400 Elo
  EXPECT_TRUE(std::isinf(eloFromScore(1.0)) && eloFromScore(1.0) > 0);
  EXPECT_TRUE(std::isinf(eloFromScore(0.0)) && eloFromScore(0.0) < 0);
  for (double elo : {-300.0, -35.5, 0.0, 12.0, 250.0}) EXPECT_NEAR(eloFromScore(scoreFromElo(elo)), elo, 1e-9);
}

TEST(MatchStats, ScoreRatio) {
  EXPECT_DOUBLE_EQ((Score{3, 2, 1}).ratio(), 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(Score{}.ratio(), 0.5);
}

TEST(MatchStats, EloMarginFromTheScoreVariance) {
  // 100 wins, 100 draws, 100 losses: score 1/2, per-game variance
  // (100 * 1/4 + 0 + 100 * 1/4) / 300 = 1/6, standard error sqrt(1/6/300);
  // margin = half the Elo width of 1/2 +- 1.96 standard errors = 32.19.
  const EloEstimate e = estimateElo(Score{100, 100, 100});
  EXPECT_NEAR(e.elo, 0.0, 1e-12);
  const double se = std::sqrt(1.0 / 6.0 / 300.0);
  const double expected = (eloFromScore(0.5 + 1.959964 * se) - eloFromScore(0.5 - 1.959964 * se)) / 2;
  EXPECT_NEAR(e.margin95, expected, 1e-3);
  EXPECT_NEAR(e.margin95, 32.19, 0.01);
  // All games alike: no variance, the margin is unknown (infinite).
  EXPECT_TRUE(std::isinf(estimateElo(Score{0, 7, 0}).margin95));
  EXPECT_TRUE(std::isinf(estimateElo(Score{5, 0, 0}).margin95));
  // More games, narrower interval.
  EXPECT_LT(estimateElo(Score{400, 400, 400}).margin95, e.margin95);
}

TEST(MatchStats, LikelihoodOfSuperiority) {
  // LOS = Phi((W - L) / sqrt(W + L)): 10 wins, 5 losses -> Phi(5 / sqrt(15)) = 0.9016.
  EXPECT_NEAR(likelihoodOfSuperiority(Score{10, 50, 5}), 0.9016, 1e-4);
  EXPECT_NEAR(likelihoodOfSuperiority(Score{5, 0, 10}), 1 - 0.9016, 1e-4);
  EXPECT_EQ(likelihoodOfSuperiority(Score{0, 9, 0}), 0.5);
  EXPECT_EQ(likelihoodOfSuperiority(Score{7, 0, 7}), 0.5);
}

TEST(MatchStats, SprtBounds) {
  const SprtParams p{0, 5, 0.05, 0.05};
  EXPECT_NEAR(p.lowerBound(), std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(p.upperBound(), 2.944439, 1e-6);
  EXPECT_EQ(sprtDecision(3.0, p), SprtDecision::kAcceptH1);
  EXPECT_EQ(sprtDecision(-3.0, p), SprtDecision::kAcceptH0);
  EXPECT_EQ(sprtDecision(0.1, p), SprtDecision::kContinue);
}

TEST(MatchStats, SprtWithoutDrawsIsTheBinomialRatio) {
  // No draws: each hypothesis' most likely distribution is simply
  // P(win) = its expected score, so LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)).
  const SprtParams p{0, 10, 0.05, 0.05};
  const double s0 = 0.5, s1 = 1 / (1 + std::pow(10.0, -10.0 / 400));
  const double byHand = 60 * std::log(s1 / s0) + 40 * std::log((1 - s1) / (1 - s0));
  EXPECT_NEAR(sprtLogLikelihoodRatio(Score{60, 0, 40}, p), byHand, 1e-9);
  const SprtParams q{-20, 15, 0.05, 0.05};
  const double t0 = scoreFromElo(-20), t1 = scoreFromElo(15);
  EXPECT_NEAR(sprtLogLikelihoodRatio(Score{33, 0, 41}, q), 33 * std::log(t1 / t0) + 41 * std::log((1 - t1) / (1 - t0)),
              1e-9);
}

TEST(MatchStats, SprtWithDrawsMatchesTheNormalApproximation) {
  // For many games the trinomial LLR approaches the normal form
  // N (s1 - s0) (2 s - s0 - s1) / (2 var), var the per-game score variance.
  const Score score{1200, 3000, 1000};
  const SprtParams p{0, 10, 0.05, 0.05};
  const double n = score.games(), s = score.ratio();
  const double var = (score.wins * (1 - s) * (1 - s) + score.draws * (0.5 - s) * (0.5 - s) + score.losses * s * s) / n;
  const double s0 = scoreFromElo(0), s1 = scoreFromElo(10);
  const double approx = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
  const double llr = sprtLogLikelihoodRatio(score, p);
  EXPECT_NEAR(llr, approx, 0.02 * std::abs(approx));
  EXPECT_GT(llr, p.upperBound());  // 13.4 Elo measured over 5200 games: H1
}

TEST(MatchStats, SprtDirectionAndEdgeCases) {
  const SprtParams p{0, 5, 0.05, 0.05};
  EXPECT_EQ(sprtLogLikelihoodRatio(Score{}, p), 0.0);
  EXPECT_GT(sprtLogLikelihoodRatio(Score{30, 0, 0}, p), 0.0);  // only wins: finite, positive
  EXPECT_LT(sprtLogLikelihoodRatio(Score{0, 0, 30}, p), 0.0);  // only losses
  EXPECT_TRUE(std::isfinite(sprtLogLikelihoodRatio(Score{0, 40, 0}, p)));
  // An even score of many games supports elo0 = 0 over elo1 = 5.
  EXPECT_EQ(sprtDecision(sprtLogLikelihoodRatio(Score{9000, 12000, 9000}, p), p), SprtDecision::kAcceptH0);
  EXPECT_EQ(sprtDecision(sprtLogLikelihoodRatio(Score{300, 100, 100}, p), p), SprtDecision::kAcceptH1);
  // Swapping the players negates the evidence for a symmetric test.
  const SprtParams sym{-5, 5, 0.05, 0.05};
  EXPECT_NEAR(sprtLogLikelihoodRatio(Score{50, 30, 40}, sym), -sprtLogLikelihoodRatio(Score{40, 30, 50}, sym), 1e-9);
}

}  // namespace
}  // namespace gobblet::match
