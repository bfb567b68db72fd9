// The bench: a fixed set of positions searched to a fixed depth.
#include <time.h>

#include <atomic>
#include <chrono>
#include <system_error>
#include <thread>
#include <string>

#include "engine/notation.h"
#include "search/eval_file.h"
#include "search/search.h"

namespace gobblet {

namespace {

struct BenchPosition {
  const char* variant;
  const char* position;
};

// 4x4 from the start to the late middlegame, then a few of the 3x3 family.
constexpr BenchPosition kPositions[] = {
    {"gobblet", "4/4/4/4 1"},
    {"gobblet", "4/4/4/X3 2"},
    {"gobblet", "1X2/4/4/3x 1"},
    {"gobblet", "X3/4/4/X2x 2"},
    {"gobblet", "X3/x3/4/X2x 1"},
    {"gobblet", "4/1M2/2[Lx]1/X3 2"},
    {"gobblet", "Xx1X/4/4/xX1x 1"},
    {"gobblet", "X3/1x2/1X2/x[lX]2 2"},
    {"gobblet", "X2X/1[Lx]2/1x2/X2x 1"},
    {"gobblet", "2l1/1XX1/Xxx1/x3 2"},
    {"gobblet", "3x/x1X1/3X/X1[Lx]1 1"},
    {"gobblet", "4/1xXL/X1x1/[Lx]2X 2"},
    {"gobblet", "1x2/X2[Lx]/1x2/X2X 1"},
    {"gobblet", "1[Lx]1X/4/1x1X/2Xx 2"},
    {"gobblet", "X3/1x[lX]1/1xxl/mX2 1"},
    {"gobblet", "X[Lx]l1/4/3[Lx]/X1Xx 2"},
    {"gobblet", "XM2/x1L1/X[Lx]2/X2[Sx] 1"},
    {"gobblet", "XlLx/2[Lx][Mx]/4/X[lX]2 2"},
    {"gobblet", "[Mx]3/XX2/1[mX]1l/[Lx]s1x 1"},
    {"gobblet", "3X/L[mLx][Mx][Lx]/ls2/X2X 1"},
    {"gobblet", "x[LX]2/4/lxXL/X[Lx]l1 2"},
    {"gobblet", "2[Lx][lX]/[Lx]Mm1/m[lX]1[Lx]/[mX]l2 2"},
    {"gobblet", "X1[lX]1/[lX]x2/l3/1[Lx]mx 1"},
    {"gobblet", "M1[SlX][Lx]/m[MlX]xM/mLX1/[Lx]1l1 1"},
    {"gobblers", "3/3/3 1"},
    {"gobblers", "1l1/1L1/3 1"},
    {"gobblers", "1M1/1ls/1M1 1"},
    {"gobblers", "2L/1l1/2l 1"},
    {"tictactoe", "3/3/3 1"},
    {"3x3:2,3,1", "3/3/3 1"},
};

constexpr int kDefaultDepth = 6;

double processCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

}  // namespace

BenchResult runBench(int depth, std::function<void(const std::string&)> log, const std::atomic<bool>* stop,
                     const ThreadStarter& startThread, bool handWritten) {
  if (depth <= 0) depth = kDefaultDepth;
  BenchResult result;
  Search search(startThread);
  SearchOptions options;
  options.hashMiB = 16;
  options.threads = 1;
  if (!handWritten) options.net = builtInNet();  // the default evaluation: the built-in net for 4x4 Gobblet
  if (absl::Status status = search.setOptions(options); !status.ok() && log)
    log("error: " + std::string(status.message()) + " (the node count is not the signature)");
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = processCpuSeconds();
  // A watcher turns a stop request into Search::stop() for the position
  // being searched; the loop below checks it between positions.
  std::atomic<bool> finished{false};
  std::thread watcher;
  if (stop) {
    std::function<void()> watch = [&] {
      while (!finished.load()) {
        if (stop->load()) search.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    };
    try {
      watcher = startThread ? startThread(std::move(watch)) : std::thread(std::move(watch));
    } catch (const std::exception& e) {  // std::system_error, std::bad_alloc
      if (log) log("error: the system refused a thread (" + std::string(e.what()) + "); a stop acts between positions");
    }
  }
  int index = 0;
  for (const BenchPosition& p : kPositions) {
    if (stop && stop->load()) {
      result.stopped = true;
      break;
    }
    ++index;
    const Variant variant = *Variant::parse(p.variant);
    const Board board = *parsePosition(variant, p.position);
    search.newGame();
    SearchLimits limits;
    limits.depth = depth;
    const double positionCpu0 = processCpuSeconds();
    const Search::Result r = search.searchSync(Game(board), limits);
    if (r.best == Move::none() && !r.error.empty()) {  // no search ran: the counts mean nothing
      result.error = r.error;
      break;
    }
    const Search::Stats stats = search.lastStats();
    result.nodes += r.info.nodes;
    if (variant == Variant::gobblet()) {
      result.gobbletNodes += r.info.nodes;
      result.gobbletCpuSeconds += processCpuSeconds() - positionCpu0;
    }
    result.cutoffs += stats.cutoffs;
    result.firstMoveCutoffs += stats.firstMoveCutoffs;
    if (log)
      log("position " + std::to_string(index) + " " + p.variant + " " + p.position + " bestmove " +
          moveToString(r.best, variant) + " nodes " + std::to_string(r.info.nodes));
  }
  if (stop && stop->load()) result.stopped = true;
  finished = true;
  if (watcher.joinable()) watcher.join();
  result.cpuSeconds = processCpuSeconds() - cpu0;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace gobblet
