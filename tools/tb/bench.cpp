// gobblet-tb-bench: probe latency of a tablebase file (Google Benchmark).
//
// The file is $GOBBLET_TB_FILE, else the default gobblers file if it
// exists, else a 3x3:2,2,1 tablebase built into a temporary file. Probes
// cycle through 4096 positions from random games, so the figure is a warm
// probe of a varied set (index computation + one byte read).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include "engine/movegen.h"
#include "search/retrograde.h"
#include "search/tablebase_file.h"

namespace {

using namespace gobblet;

std::shared_ptr<const TablebaseFile> openBenchFile() {
  std::string path;
  if (const char* env = std::getenv("GOBBLET_TB_FILE")) path = env;
  if (path.empty() && std::filesystem::exists(Tablebase::defaultPath(Variant::gobblers())))
    path = Tablebase::defaultPath(Variant::gobblers());
  if (path.empty()) {
    const Variant v = Variant::family(2, 2, true);
    path = (std::filesystem::temp_directory_path() / "gobblet-tb-bench.gtb").string();
    auto solved = solveRetrograde(v, 2);
    if (!solved.ok() || !writeTablebaseFile(path, v, *solved).ok()) return nullptr;
  }
  auto tb = TablebaseFile::open(path);
  if (!tb.ok()) {
    std::fprintf(stderr, "%s\n", std::string(tb.status().message()).c_str());
    return nullptr;
  }
  std::fprintf(stderr, "probing %s (%s)\n", path.c_str(), (*tb)->variant().name().c_str());
  return *tb;
}

std::vector<Board> randomPositions(const Variant& v, int count) {
  std::mt19937_64 rng(12345);
  std::vector<Board> out;
  while (static_cast<int>(out.size()) < count) {
    Board b(v);
    const int plies = static_cast<int>(rng() % 20);
    for (int i = 0; i < plies; ++i) {
      MoveList moves;
      generateMoves(b, moves);
      if (moves.empty()) break;
      b.makeMove(moves[static_cast<int>(rng() % moves.size())]);
    }
    out.push_back(b);
  }
  return out;
}

const std::shared_ptr<const TablebaseFile>& benchFile() {
  static const auto tb = openBenchFile();
  return tb;
}

// Probes cycling through `state.range(0)` positions: 4096 stay in the
// caches (warm), 1M spread over the whole file (a memory miss per probe).
void BM_Probe(benchmark::State& state) {
  const auto& tb = benchFile();
  if (!tb) {
    state.SkipWithError("no tablebase file");
    return;
  }
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<Board> positions = randomPositions(tb->variant(), static_cast<int>(count));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(tb->probe(positions[i]));
    if (++i == count) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Probe)->Arg(4096)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
