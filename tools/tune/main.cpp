// gobblet-tune: fits the evaluation's weights to the results of recorded
// games (Texel tuning, texel.h) and writes them as search/eval_weights.h.
//
//   gobblet-tune [--variant V] [--steps N] [--ridge R] [--validation-every N]
//                [--out FILE] RECORD...
//
// RECORD files are gobblet-match records (line or PGN); docs/search.md gives
// the self-play command that makes them. The tool prints how many games and
// quiet positions it used, the fitted scale K, the error of the compiled-in
// weights and of the fitted (rounded) ones on the training positions and on
// the held-out validation games, and every weight that changed. With --out
// it writes the weights file (weights_file.h); rebuild to use it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/numbers.h"
#include "engine/bounded_integer.h"
#include "engine/variant.h"
#include "tools/tune/texel.h"
#include "tools/tune/training_set.h"
#include "tools/tune/weights_file.h"

namespace {

using namespace gobblet;
using namespace gobblet::tune;

constexpr char kUsage[] =
    "usage: gobblet-tune [--variant V] [--steps N] [--ridge R] [--validation-every N] [--out FILE] RECORD...\n";

// Exit status 2: bad usage; 1: the work failed.
int usage(const std::string& message) {
  std::fprintf(stderr, "error: %s\n%s", message.c_str(), kUsage);
  return 2;
}
int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 1;
}

// "kLine[1][0]" for a weight number.
std::string weightName(int number) {
  for (const EvalWeightGroup& g : kEvalWeightGroups) {
    const int i = number - g.first;
    if (i < 0 || i >= g.rows * g.columns) continue;
    if (g.rows == 1 && g.columns == 1) return g.name;
    if (g.rows == 1) return absl::StrCat(g.name, "[", i, "]");
    return absl::StrCat(g.name, "[", i / g.columns, "][", i % g.columns, "]");
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  CollectOptions collect;
  FitOptions fit;
  std::string out;
  std::vector<std::string> records;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (arg == "--variant" || arg == "--steps" || arg == "--ridge" || arg == "--validation-every" ||
               arg == "--out") {
      if (!hasValue) return usage(arg + " needs a value");
      const std::string value = argv[++i];
      if (arg == "--variant") {
        auto v = Variant::parse(value);
        if (!v.ok()) return usage(std::string(v.status().message()));
        collect.variant = *v;
      } else if (arg == "--out") {
        out = value;
      } else if (arg == "--ridge") {
        if (!absl::SimpleAtod(value, &fit.ridge) || !(fit.ridge >= 0 && fit.ridge <= 1))
          return usage("ridge '" + value + "' is not a number in [0, 1]");
      } else {
        auto n = parseBoundedInteger(value, arg == "--steps" ? 1 : 0, 100000, arg.substr(2));
        if (!n.ok()) return usage(std::string(n.status().message()));
        (arg == "--steps" ? fit.iterations : collect.validationEvery) = static_cast<int>(*n);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return usage("unknown option '" + arg + "'");
    } else {
      records.push_back(arg);
    }
  }
  if (records.empty()) return usage("no record files");

  auto collection = collectPositions(records, collect);
  if (!collection.ok()) return fail(std::string(collection.status().message()));
  const Collection& c = *collection;
  std::printf("games: %d read, %d used; positions after the book: %lld, quiet: %lld (training %zu, validation %zu)\n",
              c.games, c.gamesUsed, static_cast<long long>(c.positions), static_cast<long long>(c.quietPositions),
              c.training.size(), c.validation.size());
  if (c.gamesUsed < c.games)
    std::printf("left out: %d unreadable, %d inconsistent, %d of another variant than %s, %d forfeits; the first: %s: %s\n",
                c.unreadable, c.inconsistent, c.otherVariant, collect.variant.name().c_str(), c.forfeits,
                c.firstLeftOut.c_str(), c.firstLeftOutWhy.c_str());
  if (c.training.size() == 0) return fail("no quiet positions to fit");
  const bool validating = c.validation.size() > 0;

  const EvalWeights before = evalWeights();
  const double k = fitScale(c.training, toWeights(before));
  const double trainBefore = meanSquaredError(c.training, toWeights(before), k);
  const double validBefore = meanSquaredError(c.validation, toWeights(before), k);
  const auto validation = [validating](double error) {
    return validating ? absl::StrFormat("validation %.6f", error) : std::string("no validation set");
  };
  std::printf("K = %.4f; error of the compiled-in weights: training %.6f, %s\n", k, trainBefore,
              validation(validBefore).c_str());
  std::fflush(stdout);

  int steps = 0;
  fit.report = [&steps](int step, double error) {
    steps = step;
    std::printf("step %d: training error %.6f\n", step, error);
    std::fflush(stdout);
  };
  const EvalWeights after = rounded(fitWeights(c.training, toWeights(before), k, fit));
  const double trainAfter = meanSquaredError(c.training, toWeights(after), k);
  const double validAfter = meanSquaredError(c.validation, toWeights(after), k);
  std::printf("error of the fitted weights (rounded): training %.6f, %s\n", trainAfter,
              validation(validAfter).c_str());
  for (int w = 0; w < kEvalWeightCount; ++w)
    if (before[w] != after[w]) std::printf("  %-16s %5d -> %5d\n", weightName(w).c_str(), before[w], after[w]);

  if (!out.empty()) {
    std::string files;
    for (const std::string& path : records)
      absl::StrAppend(&files, files.empty() ? "" : ", ", std::filesystem::path(path).filename().string());
    std::string provenance = absl::StrFormat(
        "fitted by gobblet-tune (%d steps, ridge %g) to %zu quiet positions of %d %s games (%s), K = %.4f; mean "
        "squared error on them %.6f -> %.6f",
        steps, fit.ridge, c.training.size(), c.gamesUsed, collect.variant.name(), files, k, trainBefore, trainAfter);
    absl::StrAppend(&provenance, validating ? absl::StrFormat(", on %zu positions of held-out games %.6f -> %.6f.",
                                                              c.validation.size(), validBefore, validAfter)
                                            : " (no games held out).");
    // Written beside the target and renamed over it: a failed write leaves
    // the old file whole.
    const std::string temporary = out + ".tmp";
    std::ofstream file(temporary);
    file << formatWeightsFile(after, provenance);
    const bool written = static_cast<bool>(file.flush());
    file.close();
    std::error_code error;
    if (written) std::filesystem::rename(temporary, out, error);
    if (!written || error) {
      std::filesystem::remove(temporary, error);
      return fail("cannot write '" + out + "'");
    }
    std::printf("wrote %s\n", out.c_str());
  }
  return 0;
}
