// gobblet-perft: count leaf positions to a depth (see engine/perft.h).
//
//   gobblet-perft [--variant V] [--position TEXT] [--moves M1,M2,...] DEPTH
//
// Prints "<move>: <count>" per root move, then "nodes <total>", then the
// time and speed on standard error.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "tools/command_line/command_line.h"

namespace cli = gobblet::cli;

namespace {

// What gobblet-perft accepts.
cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-perft";
  p.summary = "Counts the leaf positions of the game tree to DEPTH plies, split by root move.";
  p.syntax.options = {
      cli::text("--variant", "V", gobblet::variantNamesText()).withDefault("gobblet"),
      cli::text("--position", "TEXT", "start from this position (docs/notation.md) instead of the variant's start"),
      cli::text("--moves", "M1,M2,...", "then play these moves (separated by commas or spaces)"),
  };
  p.syntax.positionals = {cli::integerPositional("DEPTH", 0, gobblet::kMaxPerftDepth, "the plies to count")};
  return p;
}

// The count, with the arguments checked.
int countLeaves(const cli::Arguments& args, const cli::UsageFn& usage) {
  using namespace gobblet;
  const int depth = static_cast<int>(args.integer("DEPTH"));
  auto variant = Variant::parse(args.text("--variant"));
  if (!variant.ok()) return usage(variant.status().message());
  Board start(*variant);
  if (const std::string positionText = args.text("--position"); !positionText.empty()) {
    auto position = parsePosition(*variant, positionText);
    if (!position.ok()) return usage(position.status().message());
    start = *position;
  }
  Game game(start);
  const std::string moves = args.text("--moves");
  for (const std::string& m : std::vector<std::string>(absl::StrSplit(moves, absl::ByAnyChar(", "), absl::SkipEmpty())))
    if (auto status = game.play(m); !status.ok()) return usage(status.message());
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

}  // namespace

int main(int argc, char** argv) { return cli::runMain(commandLine(), argc, argv, countLeaves); }
