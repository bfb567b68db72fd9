// gobblet-bench: the fixed search bench (see runBench in search/search.h).
//
//   gobblet-bench [DEPTH] [--quiet] [--hand-written] [--param NAME=VALUE]...
//
// --param sets a search tuning value (search/search_params.h): the bench of
// a parameter change without a rebuild.
// Prints one line per position (unless --quiet), then the engine that ran
// it ("Engine          : Gobblet 0.1.0+g... (x86-64-v2)", engine/version.h)
// and, Stockfish style, "Nodes searched  : N" (the deterministic
// signature), "Nodes/second    : M" (wall clock), the same per CPU second,
// the 4x4 positions' nodes per CPU second (those the net evaluates; with
// --hand-written, the hand-written evaluation: the net's speed against it,
// tools/bench/compare_tiers.sh) and the first-move cutoff rate.
#include <cstdio>
#include <string>

#include "engine/version.h"
#include "search/search.h"
#include "search/search_params.h"
#include "tools/command_line/command_line.h"

namespace cli = gobblet::cli;

namespace {

// What gobblet-bench accepts.
cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-bench";
  p.summary = "Searches the fixed bench positions and prints the node signature and the speed.";
  p.syntax.options = {
      cli::flag("--quiet", "no line per position on standard error"),
      cli::flag("--hand-written",
                "the hand-written evaluation instead of the net (its speed against the net's; not the signature)"),
      cli::text("--param", "NAME=VALUE", "a search tuning value (gobblet --params lists them)").repeated(),
  };
  p.syntax.positionals = {
      cli::integerPositional("DEPTH", 1, 64, "the depth of every search, if not the bench's own", /*optional=*/true)};
  return p;
}

// The bench, with the arguments checked.
int bench(const cli::Arguments& args, const cli::UsageFn& usage) {
  for (const std::string& param : args.all("--param"))
    if (const absl::Status st = gobblet::setSearchParam(param); !st.ok()) return usage(st.message());
  const int depth = static_cast<int>(args.integer("DEPTH"));
  const bool quiet = args.has("--quiet");
  const gobblet::BenchResult r = gobblet::runBench(
      depth,
      [quiet](const std::string& line) {
        if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
      },
      nullptr, {}, args.has("--hand-written"));
  if (!r.error.empty()) {
    std::fprintf(stderr, "gobblet-bench: %s\n", r.error.c_str());
    return 1;
  }
  const double nps = r.seconds > 0 ? r.nodes / r.seconds : 0;
  std::printf("Engine          : %s\n", gobblet::engineName().c_str());
  std::printf("Total time (ms) : %.0f\n", r.seconds * 1000);
  std::printf("Nodes searched  : %llu\n", static_cast<unsigned long long>(r.nodes));
  std::printf("Nodes/second    : %.0f\n", nps);
  std::printf("Nodes/CPU-second: %.0f (differs from the above only on a loaded machine)\n",
              r.cpuSeconds > 0 ? r.nodes / r.cpuSeconds : 0.0);
  std::printf("4x4 nodes/CPU-s : %.0f (the 4x4 Gobblet positions, evaluated by the %s)\n",
              r.gobbletCpuSeconds > 0 ? r.gobbletNodes / r.gobbletCpuSeconds : 0.0,
              args.has("--hand-written") ? "hand-written evaluation" : "net");
  std::printf("First-move cutoffs: %.1f%% of %llu\n", r.cutoffs ? 100.0 * r.firstMoveCutoffs / r.cutoffs : 0.0,
              static_cast<unsigned long long>(r.cutoffs));
  std::printf("%llu nodes %.0f nps\n", static_cast<unsigned long long>(r.nodes), nps);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return cli::runMain(commandLine(), argc, argv, bench); }
