// parallelFor (engine/parallel_for.h): every index once, whatever the
// threads and the chunks; worker 0 on the calling thread; the work done, and
// done the same, when threads cannot be started; a body's exception brought
// back to the caller after every thread is joined.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "engine/parallel_for.h"
#include "tests/support/limited_starter.h"

namespace gobblet {
namespace {

// Runs parallelFor over [0, count) and returns how often each index was
// visited; checks that every call with worker 0 ran on the calling thread,
// and every other on another thread, and that workers are in [0, threads).
std::vector<int> visits(uint64_t count, int threads, uint64_t chunk, const ThreadStarter& start = {},
                        std::set<int>* workersSeen = nullptr) {
  std::vector<std::atomic<int>> seen(count);
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex mutex;
  parallelFor(
      count, threads, chunk,
      [&](int worker, uint64_t i) {
        EXPECT_GE(worker, 0);
        EXPECT_LT(worker, std::max(threads, 1));
        EXPECT_EQ(worker == 0, std::this_thread::get_id() == caller) << "worker " << worker;
        seen[i].fetch_add(1);
        if (workersSeen) {
          std::lock_guard lock(mutex);
          workersSeen->insert(worker);
        }
      },
      start);
  std::vector<int> out;
  for (const auto& s : seen) out.push_back(s.load());
  return out;
}

using testing::LimitedStarter;

TEST(ParallelFor, EveryIndexExactlyOnceForAnyThreadsAndChunks) {
  for (int threads : {0, 1, 2, 3, 4, 8, 17})
    for (uint64_t chunk : {0, 1, 3, 64, 1000})
      for (uint64_t count : {0, 1, 5, 64, 1001}) {
        const std::vector<int> v = visits(count, threads, chunk);
        for (uint64_t i = 0; i < count; ++i)
          ASSERT_EQ(v[i], 1) << "index " << i << " of " << count << ", threads " << threads << ", chunk " << chunk;
      }
}

TEST(ParallelFor, ChunksAreConsecutiveAndInOrder) {
  std::vector<std::vector<uint64_t>> perWorker(4);
  parallelFor(1000, 4, 10, [&](int worker, uint64_t i) { perWorker[worker].push_back(i); });
  uint64_t total = 0;
  for (const auto& indices : perWorker) {
    total += indices.size();
    for (size_t k = 0; k < indices.size(); ++k)
      if (indices[k] % 10 != 0) {
        ASSERT_TRUE(k > 0 && indices[k - 1] == indices[k] - 1) << indices[k];
      }
  }
  EXPECT_EQ(total, 1000u);
}

TEST(ParallelFor, OneThreadRunsEverythingOnTheCallerAndStartsNone) {
  LimitedStarter limited{100};
  std::set<int> workers;
  const std::vector<int> v = visits(500, 1, 7, limited.starter(), &workers);
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 500);
  EXPECT_EQ(workers, std::set<int>{0});
  EXPECT_EQ(limited.tries.load(), 0);
}

TEST(ParallelFor, StartsNoMoreThreadsThanThereAreChunks) {
  LimitedStarter limited{100};
  visits(3, 8, 1, limited.starter());
  EXPECT_EQ(limited.tries.load(), 2);  // three chunks: the caller and two threads
  LimitedStarter one{100};
  visits(10, 8, 10, one.starter());
  EXPECT_EQ(one.tries.load(), 0);
}

TEST(ParallelFor, StartsTheThreadsItIsAskedFor) {
  LimitedStarter limited{100};
  visits(4000, 4, 1, limited.starter());
  EXPECT_EQ(limited.tries.load(), 3);  // the caller and three threads
}

TEST(ParallelFor, WorkIsDoneWhenThreadsCannotBeStarted) {
  for (int allowed : {0, 1, 2}) {
    LimitedStarter limited{allowed};
    std::set<int> workers;
    const std::vector<int> v = visits(2000, 6, 5, limited.starter(), &workers);
    for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 1) << "index " << i << ", threads allowed " << allowed;
    EXPECT_EQ(limited.tries.load(), allowed + 1) << "no further thread is tried after a refusal";
    EXPECT_LE(workers.size(), static_cast<size_t>(allowed + 1));
    // Which worker takes a chunk is not fixed: the threads started may take
    // every chunk before the caller asks. With none started, the caller
    // does it all.
    if (allowed == 0) {
      EXPECT_EQ(workers, std::set<int>{0}) << "the calling thread does the work";
    }
    for (int w : workers) EXPECT_LE(w, allowed);
  }
}

TEST(ParallelFor, TasksPerWorkerAllRunWhenThreadsCannotBeStarted) {
  // The form of the match runner and the server: one long task per worker.
  // With no thread at all, the caller runs each of them in turn.
  LimitedStarter none{0};
  std::vector<int> ran(4, 0);
  parallelFor(
      4, 4,
      [&](int worker, uint64_t task) {
        EXPECT_EQ(worker, 0);
        ++ran[task];
      },
      none.starter());
  EXPECT_EQ(ran, std::vector<int>(4, 1));
}

TEST(ParallelFor, TheSameResultWithOrWithoutThreads) {
  // A sum over per-worker partial sums, as the tablebase's counters are kept.
  auto sum = [](int threads, const ThreadStarter& start) {
    std::vector<uint64_t> partial(static_cast<size_t>(threads), 0);
    parallelFor(
        100000, threads, 333, [&](int w, uint64_t i) { partial[w] += i * i % 7919; }, start);
    return std::accumulate(partial.begin(), partial.end(), uint64_t{0});
  };
  LimitedStarter none{0}, two{2};
  const uint64_t expected = sum(1, {});
  EXPECT_EQ(sum(8, {}), expected);
  EXPECT_EQ(sum(8, none.starter()), expected);
  EXPECT_EQ(sum(8, two.starter()), expected);
}

TEST(ParallelFor, AnExceptionReachesTheCallerAfterEveryThreadIsJoined) {
  for (int threads : {1, 4}) {
    std::atomic<int> finished{0};
    try {
      parallelFor(100000, threads, 10, [&](int, uint64_t i) {
        if (i == 5000) throw std::runtime_error("index 5000");
        finished.fetch_add(1);
      });
      ADD_FAILURE() << "no exception, threads " << threads;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "index 5000");
    }
    const int after = finished.load();
    EXPECT_LT(after, 100000 - 1) << "the hand-out stops";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(finished.load(), after) << "no thread still runs after the return";
  }
}

}  // namespace
}  // namespace gobblet
