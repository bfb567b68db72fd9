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
#include "file.h"
#include "retrograde.h"

namespace {

using namespace gobblet;
namespace tb = gobblet::tb;

std::shared_ptr<const tb::File> openBenchFile() {
  std::string path;
  if (const char* env = std::getenv("GOBBLET_TB_FILE")) path = env;
  if (path.empty() && std::filesystem::exists(tb::defaultPath(Variant::gobblers())))
    path = tb::defaultPath(Variant::gobblers());
  if (path.empty()) {
    const Variant v = Variant::family(2, 2, true);
    path = (std::filesystem::temp_directory_path() / "gobblet-tb-bench.gtb").string();
    auto solved = tb::solvePacked(v, 2);
    if (!solved.ok() || !tb::writeFile(path, v, *solved).ok()) return nullptr;
  }
  auto table = tb::File::open(path);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", std::string(table.status().message()).c_str());
    return nullptr;
  }
  std::fprintf(stderr, "probing %s (%s)\n", path.c_str(), (*table)->variant().name().c_str());
  return *table;
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

const std::shared_ptr<const tb::File>& benchFile() {
  static const auto table = openBenchFile();
  return table;
}

// Probes cycling through `state.range(0)` positions: 4096 stay in the
// caches (warm), 1M spread over the whole file (a memory miss per probe).
void BM_Probe(benchmark::State& state) {
  const auto& table = benchFile();
  if (!table) {
    state.SkipWithError("no tablebase file");
    return;
  }
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<Board> positions = randomPositions(table->variant(), static_cast<int>(count));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(table->probe(positions[i]));
    if (++i == count) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Probe)->Arg(4096)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
