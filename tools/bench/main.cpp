// gobblet-bench: the fixed search bench (see runBench in search/search.h).
//
//   gobblet-bench [DEPTH] [--quiet] [--param NAME=VALUE]...
//
// --param sets a search tuning value (search/search_params.h): the bench of
// a parameter change without a rebuild.
// Prints one line per position (unless --quiet), then, Stockfish style,
// "Nodes searched  : N" (the deterministic signature), "Nodes/second    : M"
// (wall clock), the same per CPU second, and the first-move cutoff rate.
#include <cstdio>
#include <string>

#include "engine/bounded_integer.h"
#include "search/search.h"
#include "search/search_params.h"

int main(int argc, char** argv) {
  int depth = 0;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quiet") {
      quiet = true;
    } else if (arg == "--param") {
      if (i + 1 == argc) {
        std::fprintf(stderr, "error: --param needs NAME=VALUE after it\n");
        return 2;
      }
      if (const absl::Status st = gobblet::setSearchParam(argv[++i]); !st.ok()) {
        std::fprintf(stderr, "error: %s\n", std::string(st.message()).c_str());
        return 2;
      }
    } else if (auto d = gobblet::parseBoundedInteger(arg, 1, 64, "depth"); d.ok()) {
      depth = static_cast<int>(*d);
    } else {
      std::fprintf(stderr, "error: %s\nusage: gobblet-bench [DEPTH 1..64] [--quiet] [--param NAME=VALUE]...\n",
                   std::string(d.status().message()).c_str());
      return 2;
    }
  }
  const gobblet::BenchResult r = gobblet::runBench(depth, [quiet](const std::string& line) {
    if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
  });
  const double nps = r.seconds > 0 ? r.nodes / r.seconds : 0;
  std::printf("Total time (ms) : %.0f\n", r.seconds * 1000);
  std::printf("Nodes searched  : %llu\n", static_cast<unsigned long long>(r.nodes));
  std::printf("Nodes/second    : %.0f\n", nps);
  std::printf("Nodes/CPU-second: %.0f (differs from the above only on a loaded machine)\n",
              r.cpuSeconds > 0 ? r.nodes / r.cpuSeconds : 0.0);
  std::printf("First-move cutoffs: %.1f%% of %llu\n", r.cutoffs ? 100.0 * r.firstMoveCutoffs / r.cutoffs : 0.0,
              static_cast<unsigned long long>(r.cutoffs));
  std::printf("%llu nodes %.0f nps\n", static_cast<unsigned long long>(r.nodes), nps);
  return 0;
}
