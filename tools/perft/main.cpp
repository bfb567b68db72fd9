// gobblet-perft: count leaf positions to a depth (see engine/perft.h).
//
//   gobblet-perft [--variant V] [--position TEXT] [--moves M1,M2,...] DEPTH
//
// Prints "<move>: <count>" per root move, then "nodes <total>", then the
// time and speed on standard error.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/bounded_integer.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/perft.h"

namespace {

int usage(const char* why) {
  std::fprintf(stderr,
               "error: %s\nusage: gobblet-perft [--variant gobblet|gobblers|3x3:S,P,M] [--position TEXT] "
               "[--moves M1,M2,...] DEPTH\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gobblet;
  std::string variantText = "gobblet", positionText, movesText;
  int depth = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--variant" || arg == "--position" || arg == "--moves") && i + 1 < argc) {
      (arg == "--variant" ? variantText : arg == "--position" ? positionText : movesText) = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      return usage("help requested"), 0;
    } else if (auto d = parseBoundedInteger(arg, 0, kMaxPerftDepth, "depth"); d.ok()) {
      depth = static_cast<int>(*d);
    } else {
      return usage(std::string(d.status().message()).c_str());
    }
  }
  if (depth < 0) return usage("missing DEPTH");
  auto variant = Variant::parse(variantText);
  if (!variant.ok()) return usage(std::string(variant.status().message()).c_str());
  Board start(*variant);
  if (!positionText.empty()) {
    auto parsed = parsePosition(*variant, positionText);
    if (!parsed.ok()) return usage(std::string(parsed.status().message()).c_str());
    start = *parsed;
  }
  Game game(start);
  if (!movesText.empty())
    for (const std::string& m : std::vector<std::string>(absl::StrSplit(movesText, absl::ByAnyChar(", "), absl::SkipEmpty()))) {
      if (auto status = game.play(m); !status.ok()) return usage(std::string(status.message()).c_str());
    }
  Board board = game.position();
  const auto t0 = std::chrono::steady_clock::now();
  const PerftResult result = perftDivide(board, depth);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& [move, count] : result.perMove)
    std::printf("%s: %llu\n", moveToString(move, *variant).c_str(), static_cast<unsigned long long>(count));
  std::printf("nodes %llu\n", static_cast<unsigned long long>(result.total));
  std::fprintf(stderr, "time %.3f s, %.1f M leaves/s\n", seconds, result.total / seconds / 1e6);
  return 0;
}
