#include "match/stats.h"

#include <cmath>
#include <algorithm>
#include <limits>

namespace gobblet::match {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the normal law

// The most likely outcome distribution q with mean `target`, given the
// observed frequencies p of the outcomes a (1, 1/2, 0): q_i = p_i / (1 +
// theta (a_i - target)) where theta solves sum q_i = 1. The left side of
// sum p_i (a_i - t) / (1 + theta (a_i - t)) = 0 decreases in theta, so
// bisection over the interval keeping every q_i positive finds it.
// Requires an outcome above and an outcome below `target` with p_i > 0.
void constrainedDistribution(const double p[3], double target, double q[3]) {
  static constexpr double a[3] = {1.0, 0.5, 0.0};
  double lo = -kInfinity, hi = kInfinity;
  for (int i = 0; i < 3; ++i) {
    if (p[i] <= 0) continue;
    const double d = a[i] - target;
    if (d > 0) lo = std::max(lo, -1.0 / d);
    if (d < 0) hi = std::min(hi, -1.0 / d);
  }
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double theta = (lo + hi) / 2;
    double f = 0;
    for (int i = 0; i < 3; ++i) f += p[i] * (a[i] - target) / (1 + theta * (a[i] - target));
    (f > 0 ? lo : hi) = theta;
  }
  const double theta = (lo + hi) / 2;
  for (int i = 0; i < 3; ++i) q[i] = p[i] / (1 + theta * (a[i] - target));
}

}  // namespace

double Score::ratio() const {
  const int n = games();
  return n == 0 ? 0.5 : (wins + 0.5 * draws) / n;
}

double eloFromScore(double score) {
  if (score <= 0) return -kInfinity;
  if (score >= 1) return kInfinity;
  return -400.0 * std::log10(1.0 / score - 1.0) + 0.0;  // + 0.0: no "-0" for an even score
}

double scoreFromElo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

EloEstimate estimateElo(const Score& score) {
  EloEstimate e;
  const int n = score.games();
  if (n == 0) return e;
  const double s = score.ratio();
  e.elo = eloFromScore(s);
  const double variance =
      (score.wins * (1 - s) * (1 - s) + score.draws * (0.5 - s) * (0.5 - s) + score.losses * s * s) / n;
  const double stdError = std::sqrt(variance / n);
  const double low = s - kZ95 * stdError, high = s + kZ95 * stdError;
  e.margin95 = variance == 0 || low <= 0 || high >= 1 ? kInfinity : (eloFromScore(high) - eloFromScore(low)) / 2;
  return e;
}

double likelihoodOfSuperiority(const Score& score) {
  const int decisive = score.wins + score.losses;
  if (decisive == 0) return 0.5;
  return 0.5 * (1 + std::erf((score.wins - score.losses) / std::sqrt(2.0 * decisive)));
}

double SprtParams::lowerBound() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upperBound() const { return std::log((1 - beta) / alpha); }

double sprtLogLikelihoodRatio(const Score& score, const SprtParams& params) {
  double counts[3] = {double(score.wins), double(score.draws), double(score.losses)};
  // Without both a win and a loss, some score target may lie outside the
  // observed outcomes; a tiny pseudo-count for each missing outcome keeps the
  // model defined (as Fishtest does).
  if (score.wins == 0 || score.losses == 0)
    for (double& c : counts)
      if (c == 0) c = 1e-3;
  const double n = counts[0] + counts[1] + counts[2];
  const double p[3] = {counts[0] / n, counts[1] / n, counts[2] / n};
  double q0[3], q1[3];
  constrainedDistribution(p, scoreFromElo(params.elo0), q0);
  constrainedDistribution(p, scoreFromElo(params.elo1), q1);
  double llr = 0;
  for (int i = 0; i < 3; ++i)
    if (p[i] > 0) llr += counts[i] * std::log(q1[i] / q0[i]);
  return score.games() == 0 ? 0 : llr;
}

SprtDecision sprtDecision(double llr, const SprtParams& params) {
  if (llr >= params.upperBound()) return SprtDecision::kAcceptH1;
  if (llr <= params.lowerBound()) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

std::string toString(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kAcceptH0:
      return "H0 accepted";
    case SprtDecision::kAcceptH1:
      return "H1 accepted";
    default:
      return "continue";
  }
}

}  // namespace gobblet::match
