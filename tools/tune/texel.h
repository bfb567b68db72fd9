// Texel tuning: the evaluation's weights fitted to game results.
//
// A position's evaluation s (centi-units, player 1's view: the dot product
// of its features with the weights, training_set.h) predicts player 1's
// expected score
//
//   expected(s) = 1 / (1 + 10^(-K s / 400))
//
// and the error of a set of weights is the mean over the positions of
// (result - expected(s))^2. First K is fitted with the weights fixed (the
// scale that turns today's centi-units into an expected score), then the
// weights with K fixed: they minimise
//
//   error(w) + ridge * sum over w of (w - start)^2
//
// by damped Gauss-Newton steps (Levenberg-Marquardt; the model is linear in
// the weights inside the sigmoid, so each step solves one 42 x 42 system).
// The ridge keeps what the games cannot tell apart where it was: weights no
// position uses, and the directions along which the features add up to a
// constant (a size's visible, in-hand and buried pieces always number the
// same) stay at their start values.
#pragma once

#include <functional>
#include <vector>

#include "tools/tune/training_set.h"

namespace gobblet::tune {

using Weights = std::vector<double>;  // kEvalWeightCount values

Weights toWeights(const EvalWeights& weights);
// Rounded to integers within +-kMaxEvalWeight (the form the engine compiles).
EvalWeights rounded(const Weights& weights);

double expectedScore(double score, double k);

// Mean squared error of the set's results against the expected scores;
// 0 for an empty set.
double meanSquaredError(const TrainingSet& set, const Weights& weights, double k);

// The K in [kMinScale, kMaxScale] of least error (golden-section search;
// the error is unimodal in K for fixed weights).
inline constexpr double kMinScale = 0.01, kMaxScale = 10.0;
double fitScale(const TrainingSet& set, const Weights& weights);

struct FitOptions {
  int iterations = 30;  // Gauss-Newton steps (each one pass over the set)
  double ridge = 1e-7;  // per centi-unit squared of change
  // Called after each step taken (one that lowered the objective) with its
  // number and the training error.
  std::function<void(int, double)> report;
};

// The weights of least regularised error from `start` with K fixed.
Weights fitWeights(const TrainingSet& set, Weights start, double k, const FitOptions& options);

}  // namespace gobblet::tune
