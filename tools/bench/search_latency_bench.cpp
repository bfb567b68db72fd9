// Micro-benchmarks of the search's start-up latency (Google Benchmark):
//   gobblet-search-latency-bench [--benchmark_filter=...] [--benchmark_repetitions=N]
// How long from Search::go() to the first info line, and to the best move
// of a `go depth 1`, with 1 and 2 threads: the cost of starting a search
// (threads, workers), which the resident thread pool (search/thread_pool.h)
// keeps to tens of microseconds.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>

#include "engine/game.h"
#include "search/search.h"

namespace {

using Clock = std::chrono::steady_clock;

// One go() per iteration, timed from the call to `until` (the first info, or
// the best move); the search is then waited for, outside the timing.
void latencyBench(benchmark::State& state, bool toBestMove) {
  gobblet::Search search;
  gobblet::SearchOptions options;
  options.threads = static_cast<int>(state.range(0));
  options.hashMiB = 16;
  (void)search.setOptions(options);
  const gobblet::Game game{gobblet::Board(gobblet::Variant::gobblet())};
  gobblet::SearchLimits limits;
  limits.depth = 1;
  for (auto _ : state) {
    std::atomic<bool> reached{false};
    gobblet::SearchCallbacks callbacks;
    if (toBestMove)
      callbacks.onBestMove = [&](gobblet::Move, gobblet::Move) { reached.store(true, std::memory_order_release); };
    else
      callbacks.onInfo = [&](const gobblet::SearchInfo&) { reached.store(true, std::memory_order_release); };
    const auto start = Clock::now();
    search.go(game, limits, std::move(callbacks));
    while (!reached.load(std::memory_order_acquire)) {
    }
    const auto end = Clock::now();
    search.wait();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
}

void BM_GoToFirstInfo(benchmark::State& state) { latencyBench(state, false); }
void BM_GoDepth1ToBestMove(benchmark::State& state) { latencyBench(state, true); }

}  // namespace

BENCHMARK(BM_GoToFirstInfo)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GoDepth1ToBestMove)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
