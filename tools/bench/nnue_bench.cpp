// The net's kernels, one at a time, on the built-in net and the positions
// of random games: the evaluation from an accumulator, the update by a
// move, the refresh. Where the net's share of the search's time goes
// (docs/nnue.md, "Speed"); the search's own figure is gobblet-bench's.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "search/eval_file.h"
#include "search/nnue/network.h"

namespace gobblet::nnue {
namespace {

// The net measured: the built-in one, or --net FILE's.
std::shared_ptr<const Network> gNet;

// A position of a random game, the move to the next, and both
// accumulators: the same 2,000 for every run (a fixed seed).
struct Step {
  Board before, after;
  Move move;
  Accumulator accBefore, accAfter;
};

const std::vector<Step>& steps() {
  static const std::vector<Step> all = [] {
    const Network& net = *gNet;
    std::vector<Step> out;
    std::mt19937_64 rng(1);
    while (out.size() < 2000) {
      Board board(Variant::gobblet());
      for (int ply = 0; ply < 40 && board.winner() == kNoWinner && out.size() < 2000; ++ply) {
        MoveList list;
        generateMoves(board, list);
        if (list.size() == 0) break;
        Step s;
        s.before = board;
        s.move = list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))];
        board.makeMove(s.move);
        s.after = board;
        refreshAccumulator(net, s.before, s.accBefore);
        refreshAccumulator(net, s.after, s.accAfter);
        out.push_back(s);
      }
    }
    return out;
  }();
  return all;
}

// Runs `kernel` on the steps in turn, one a benchmark iteration.
template <typename Kernel>
void overSteps(benchmark::State& state, Kernel kernel) {
  const std::vector<Step>& all = steps();
  size_t i = 0;
  for (auto _ : state) {
    kernel(all[i]);
    i = i + 1 == all.size() ? 0 : i + 1;
  }
}

void BM_Evaluate(benchmark::State& state) {
  overSteps(state, [](const Step& s) { benchmark::DoNotOptimize(evaluate(*gNet, s.accAfter, s.after.sideToMove())); });
}
BENCHMARK(BM_Evaluate);

void BM_UpdateAccumulator(benchmark::State& state) {
  Accumulator out;
  overSteps(state, [&out](const Step& s) {
    updateAccumulator(*gNet, s.before, s.after, s.move, s.accBefore, out);
    benchmark::DoNotOptimize(out);
  });
}
BENCHMARK(BM_UpdateAccumulator);

void BM_RefreshAccumulator(benchmark::State& state) {
  Accumulator out;
  overSteps(state, [&out](const Step& s) {
    refreshAccumulator(*gNet, s.after, out);
    benchmark::DoNotOptimize(out);
  });
}
BENCHMARK(BM_RefreshAccumulator);

}  // namespace
}  // namespace gobblet::nnue

// Google Benchmark's flags, and --net FILE: a net file instead of the built-in net.
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  gobblet::nnue::gNet = gobblet::builtInNet();
  if (argc == 3 && std::strcmp(argv[1], "--net") == 0) {
    auto net = gobblet::loadNetFile(argv[2]);
    if (!net.ok()) {
      std::fprintf(stderr, "gobblet-nnue-bench: %s\n", std::string(net.status().message()).c_str());
      return 1;
    }
    gobblet::nnue::gNet = *net;
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: gobblet-nnue-bench [benchmark flags] [--net FILE]\n");
    return 2;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
