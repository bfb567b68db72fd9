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
#include "engine/printable_text.h"
#include "engine/variant.h"
#include "tools/command_line/command_line.h"
#include "tools/tune/texel.h"
#include "tools/tune/training_set.h"
#include "tools/tune/weights_file.h"

namespace {

using namespace gobblet;
using namespace gobblet::tune;
namespace cli = gobblet::cli;

// What gobblet-tune accepts.
cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-tune";
  p.summary = "Fits the evaluation's weights to the results of recorded games (Texel tuning).";
  const FitOptions fit;
  const CollectOptions collect;
  p.syntax.options = {
      cli::text("--variant", "V", "the variant of the games to use").withDefault(collect.variant.name()),
      cli::integer("--steps", "N", 1, 100000, "Gauss-Newton steps of the fit, at most").withDefault(fit.iterations),
      cli::text("--ridge", "R", "0 to 1: the ridge that keeps what the games cannot tell apart at its start value")
          .withDefault(absl::StrFormat("%g", fit.ridge)),
      cli::integer("--validation-every", "N", 0, 100000,
                   "hold out the games of every Nth opening for validation, 0 for none")
          .withDefault(collect.validationEvery),
      cli::text("--out", "FILE", "write the fitted weights there, as search/eval_weights.h is written"),
  };
  p.syntax.positionals = {cli::positionals("RECORD", "gobblet-match record files (record lines or PGN)")};
  return p;
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

// The fit, with the arguments checked.
int runTune(const cli::Program& program, const cli::Arguments& args, const cli::UsageFn& usage) {
  CollectOptions collect;
  FitOptions fit;
  if (args.has("--variant")) {
    auto v = Variant::parse(args.text("--variant"));
    if (!v.ok()) return usage(v.status().message());
    collect.variant = *v;
  }
  if (args.has("--ridge")) {
    const std::string ridge = args.text("--ridge");
    if (!absl::SimpleAtod(ridge, &fit.ridge) || !(fit.ridge >= 0 && fit.ridge <= 1))
      return usage("--ridge " + quoteWord(ridge) + " is not a number in [0, 1]");
  }
  fit.iterations = static_cast<int>(args.integer("--steps"));
  collect.validationEvery = static_cast<int>(args.integer("--validation-every"));
  const std::string out = args.text("--out");
  const std::vector<std::string> records = args.all("RECORD");

  auto collection = collectPositions(records, collect);
  if (!collection.ok()) return cli::failure(program, collection.status().message());
  const Collection& c = *collection;
  std::printf("games: %d read, %d used; positions after the book: %lld, quiet: %lld (training %zu, validation %zu)\n",
              c.games, c.gamesUsed, static_cast<long long>(c.positions), static_cast<long long>(c.quietPositions),
              c.training.size(), c.validation.size());
  if (c.gamesUsed < c.games)
    std::printf(
        "left out: %d unreadable, %d inconsistent, %d of another variant than %s, %d forfeits; the first: %s: %s\n",
        c.unreadable, c.inconsistent, c.otherVariant, collect.variant.name().c_str(), c.forfeits,
        printableText(c.firstLeftOut, 300).c_str(), printableText(c.firstLeftOutWhy, 600).c_str());
  if (c.training.size() == 0) return cli::failure(program, "no quiet positions to fit");
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
  std::printf("error of the fitted weights (rounded): training %.6f, %s\n", trainAfter, validation(validAfter).c_str());
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
      return cli::failure(program, "cannot write '" + out + "'");
    }
    std::printf("wrote %s\n", out.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const cli::Program program = commandLine();
  return cli::runMain(program, argc, argv, [&program](const cli::Arguments& args, const cli::UsageFn& usage) {
    return runTune(program, args, usage);
  });
}
