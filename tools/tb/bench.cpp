// gobblet-tb-bench: probe latency of a tablebase file, and what the 3x3
// builder's reach pass spends a number on (Google Benchmark).
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
#include "index.h"
#include "moves.h"
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

// The reach pass's work on one number of gobblers, step by step (each
// step adds to the one before; the differences are each step's cost):
//   0  decode the number into a state
//   1  and tell a hole of the numbering
//   2  and make its first parent that is no finished game
//   3  and number that parent
//   4  and rule the state: finished, won in 1, or open
// over consecutive numbers of gobblers' largest slice, by the general walks
// (decode, isCanonical, forEachLiveParent, indexOf). The reach pass goes
// faster (retrograde.cpp: Index::decodeInRow, holes told per row by
// Index::isHoleInRow, firstLiveUnmove numbered from the layers' codes); it adds the parents' symbols (memory misses,
// prefetched), the marks, and for the states whose first parent is not reached the others.
void BM_ReachStep(benchmark::State& state) {
  static const tb::Index index(Variant::gobblers());
  static const tb::MoveRules rules(Variant::gobblers());
  int slice = 0;
  for (int s = 0; s < static_cast<int>(index.slices().size()); ++s)
    if (index.slices()[s].size > index.slices()[slice].size) slice = s;
  const uint64_t size = index.slices()[slice].size, offset = index.slices()[slice].offset;
  const int step = static_cast<int>(state.range(0));
  uint64_t i = 0, sum = 0;
  for (auto _ : state) {
    tb::State st;
    index.decode(slice, i, &st);
    sum += st.ours[0] ^ st.theirs[2];
    if (step >= 1 && index.isCanonical(slice, st, offset + i)) {
      if (step >= 2)
        tb::forEachLiveParent(rules, st, [&](const tb::State& p, bool, int) {
          sum += step >= 3 ? index.indexOf(p) : p.ours[1];
          return true;
        });
      if (step >= 4) sum += tb::outcome(rules, st) != 0 ? 1 : tb::hasWinInOne(rules, st) ? 2 : 3;
    }
    if (++i == size) i = 0;
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReachStep)->DenseRange(0, 4);

}  // namespace

BENCHMARK_MAIN();
