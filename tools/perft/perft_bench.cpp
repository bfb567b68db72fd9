// Micro-benchmarks of the rules core (Google Benchmark):
//   gobblet-rules-bench [--benchmark_filter=...]
// BM_PerftGobbletStart5 reports leaves per second (items_per_second) for
// perft 5 from the 4x4 start, the rules core's speed target: at least 50 M/s.
#include <benchmark/benchmark.h>

#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/perft.h"

namespace {

void perftBench(benchmark::State& state, gobblet::Variant variant, int depth) {
  gobblet::Board board(variant);
  uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = gobblet::perft(board, depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.SetItemsProcessed(static_cast<int64_t>(leaves) * state.iterations());
}

void BM_PerftGobbletStart5(benchmark::State& state) { perftBench(state, gobblet::Variant::gobblet(), 5); }
void BM_PerftGobblersStart5(benchmark::State& state) { perftBench(state, gobblet::Variant::gobblers(), 5); }

// Full generation (not bulk counting) at a 4x4 middlegame-like position.
void BM_GenerateMovesGobblet(benchmark::State& state) {
  gobblet::Board board(gobblet::Variant::gobblet());
  for (gobblet::Move m : {gobblet::Move::drop(3, 0), gobblet::Move::drop(3, 5), gobblet::Move::drop(3, 10),
                          gobblet::Move::drop(3, 15), gobblet::Move::drop(2, 3), gobblet::Move::drop(2, 12)})
    board.makeMove(m);
  gobblet::MoveList list;
  for (auto _ : state) {
    gobblet::generateMoves(board, list);
    benchmark::DoNotOptimize(list.size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(list.size()) * state.iterations());
}

void BM_MakeUnmake(benchmark::State& state) {
  gobblet::Board board(gobblet::Variant::gobblet());
  const gobblet::Move m = gobblet::Move::drop(3, 6);
  for (auto _ : state) {
    board.makeMove(m);
    benchmark::DoNotOptimize(board.key());
    board.unmakeMove(m);
  }
}

BENCHMARK(BM_PerftGobbletStart5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftGobblersStart5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateMovesGobblet);
BENCHMARK(BM_MakeUnmake);

}  // namespace

BENCHMARK_MAIN();
