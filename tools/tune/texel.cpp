#include "tools/tune/texel.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "match/stats.h"

namespace gobblet::tune {

namespace {

// Levenberg-Marquardt's damping: starts at 0 (a Gauss-Newton step), grows
// tenfold from kFirstDamping x the mean curvature while a step makes the
// objective worse, and shrinks tenfold after a step that helps.
constexpr double kFirstDamping = 1e-3;
constexpr int kMaxRetries = 20;

double scoreOf(const int8_t* features, const double* weights) {
  double s = 0;
  for (int w = 0; w < kEvalWeightCount; ++w) s += features[w] * weights[w];
  return s;
}

constexpr int kN = kEvalWeightCount;
using Matrix = std::array<std::array<double, kN>, kN>;
using Vector = std::array<double, kN>;

// Solves a x = b for a symmetric positive definite a (Cholesky); false if
// a is not positive definite.
bool solve(Matrix a, Vector b, Vector& x) {
  for (int j = 0; j < kN; ++j) {
    double d = a[j][j];
    for (int k = 0; k < j; ++k) d -= a[j][k] * a[j][k];
    if (d <= 0) return false;
    a[j][j] = std::sqrt(d);
    for (int i = j + 1; i < kN; ++i) {
      double s = a[i][j];
      for (int k = 0; k < j; ++k) s -= a[i][k] * a[j][k];
      a[i][j] = s / a[j][j];
    }
  }
  for (int i = 0; i < kN; ++i) {  // L y = b
    for (int k = 0; k < i; ++k) b[i] -= a[i][k] * b[k];
    b[i] /= a[i][i];
  }
  for (int i = kN - 1; i >= 0; --i) {  // L^T x = y
    for (int k = i + 1; k < kN; ++k) b[i] -= a[k][i] * b[k];
    b[i] /= a[i][i];
  }
  x = b;
  return true;
}

}  // namespace

Weights toWeights(const EvalWeights& weights) { return Weights(weights.begin(), weights.end()); }

EvalWeights rounded(const Weights& weights) {
  EvalWeights r{};
  for (int w = 0; w < kEvalWeightCount; ++w)
    r[w] = static_cast<int>(std::lround(std::clamp<double>(weights[w], -kMaxEvalWeight, kMaxEvalWeight)));
  return r;
}

// The Elo formula: a score of s centi-units scaled by K plays like K s Elo.
double expectedScore(double score, double k) { return match::scoreFromElo(k * score); }

double meanSquaredError(const TrainingSet& set, const Weights& weights, double k) {
  if (set.size() == 0) return 0;
  double sum = 0;
  for (size_t i = 0; i < set.size(); ++i) {
    const double e = set.results[i] - expectedScore(scoreOf(set.featuresOf(i), weights.data()), k);
    sum += e * e;
  }
  return sum / static_cast<double>(set.size());
}

double fitScale(const TrainingSet& set, const Weights& weights) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double a = kMinScale, b = kMaxScale;
  double c = b - phi * (b - a), d = a + phi * (b - a);
  double fc = meanSquaredError(set, weights, c), fd = meanSquaredError(set, weights, d);
  while (b - a > 1e-4) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - phi * (b - a);
      fc = meanSquaredError(set, weights, c);
    } else {
      a = c, c = d, fc = fd;
      d = a + phi * (b - a);
      fd = meanSquaredError(set, weights, d);
    }
  }
  return (a + b) / 2;
}

Weights fitWeights(const TrainingSet& set, Weights weights, double k, const FitOptions& options) {
  if (set.size() == 0) return weights;
  const Weights start = weights;
  const double n = static_cast<double>(set.size());
  const double slope = k * std::log(10.0) / 400.0;  // d expected / ds = slope * e * (1 - e)
  const auto objective = [&](const Weights& w) {
    double penalty = 0;
    for (int i = 0; i < kN; ++i) penalty += (w[i] - start[i]) * (w[i] - start[i]);
    return meanSquaredError(set, w, k) + options.ridge * penalty;
  };
  double current = objective(weights), damping = 0;
  for (int it = 1; it <= options.iterations; ++it) {
    // The error's gradient g and Gauss-Newton curvature h, ridge included.
    Matrix h{};
    Vector g{};
    for (size_t i = 0; i < set.size(); ++i) {
      const int8_t* f = set.featuresOf(i);
      const double e = expectedScore(scoreOf(f, weights.data()), k);
      const double d = slope * e * (1 - e);  // d expected / d weight = d * f
      const double r = (e - set.results[i]) * d;
      for (int a = 0; a < kN; ++a) {
        if (f[a] == 0) continue;
        g[a] += r * f[a];
        for (int b = 0; b <= a; ++b) h[a][b] += d * d * f[a] * f[b];
      }
    }
    double meanCurvature = 0;
    for (int a = 0; a < kN; ++a) {
      g[a] = 2 * g[a] / n + 2 * options.ridge * (weights[a] - start[a]);
      for (int b = 0; b <= a; ++b) h[a][b] = h[b][a] = 2 * h[a][b] / n;
      h[a][a] += 2 * options.ridge;
      meanCurvature += h[a][a] / kN;
    }
    // A damped step; more damping until it helps.
    bool improved = false;
    for (int retry = 0; retry < kMaxRetries && !improved; ++retry) {
      Matrix damped = h;
      for (int a = 0; a < kN; ++a) damped[a][a] += damping;
      Vector minusG, step;
      for (int a = 0; a < kN; ++a) minusG[a] = -g[a];
      if (solve(damped, minusG, step)) {
        Weights next = weights;
        for (int a = 0; a < kN; ++a) next[a] += step[a];
        const double value = objective(next);
        if (value < current) {
          weights = next, current = value, improved = true;
          damping /= 10;
          break;
        }
      }
      damping = damping == 0 ? kFirstDamping * meanCurvature : damping * 10;
    }
    if (!improved) break;  // at the minimum (to rounding)
    if (options.report) options.report(it, meanSquaredError(set, weights, k));
  }
  return weights;
}

}  // namespace gobblet::tune
