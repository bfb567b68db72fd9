// Match statistics: Elo difference, its 95% interval, likelihood of
// superiority and the sequential probability ratio test (SPRT).
//
// Everything is computed from the first player's win/draw/loss counts. A game
// scores 1, 1/2 or 0; the Elo difference of a score s is the logistic
// -400 log10(1/s - 1). The SPRT is the generalized (trinomial) one used by
// Fishtest: the log-likelihood ratio of "Elo = elo1" against "Elo = elo0",
// each hypothesis taking the most likely draw ratio that fits its score.
#pragma once

#include <string>

namespace gobblet::match {

struct Score {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  // Points per game, 0..1; 0.5 when no game was played.
  double ratio() const;
};

// Elo difference for a score ratio in (0, 1); +-infinity at the ends.
double eloFromScore(double score);
// Score ratio expected for an Elo difference.
double scoreFromElo(double elo);

// An Elo estimate with a symmetric 95% error margin (both in Elo). The margin
// comes from the per-game variance of the score; it is infinite while all
// games have the same outcome.
struct EloEstimate {
  double elo = 0;
  double margin95 = 0;
};
EloEstimate estimateElo(const Score& score);

// Likelihood of superiority: probability that the first player is the
// stronger one, from wins and losses only (draws carry no information here).
// 0.5 when there are neither wins nor losses.
double likelihoodOfSuperiority(const Score& score);

// SPRT parameters: H0 "Elo = elo0", H1 "Elo = elo1", error rates alpha, beta.
struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  double lowerBound() const;  // log(beta / (1 - alpha)): accept H0 below
  double upperBound() const;  // log((1 - beta) / alpha): accept H1 above
};
enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

// Log-likelihood ratio of H1 against H0 for the observed counts (0 before
// the first game). Without both a win and a loss, each missing outcome gets a
// pseudo-count of 0.001 so that both hypotheses stay representable.
double sprtLogLikelihoodRatio(const Score& score, const SprtParams& params);
SprtDecision sprtDecision(double llr, const SprtParams& params);
std::string toString(SprtDecision decision);

}  // namespace gobblet::match
