// ThreadPool: the resident threads of one Search.
//
// The threads are made once, when the thread count is set, park between
// searches, and a go() wakes them: thread 0 runs the search's main line,
// threads 1.. its Lazy SMP helpers. A go() starts no thread, because on a
// loaded machine a new thread waits for a time slice before it runs at all
// (milliseconds; a parked one wakes in tens of microseconds,
// tools/bench/search_latency_bench.cpp).
//
//   slot:   0           1          ...  size()-1
//   runs:   Impl::run   helper 1        helper size()-1
//
// Each slot runs one job at a time. Threads: the owner calls resize() and
// the destructor while no job runs; start() and waitFor() may be called
// from any thread (thread 0's job starts and waits for the helpers).
//
// A thread the system refuses (std::system_error: a task limit such as
// `ulimit -u`, a container's pids limit) is not fatal: resize() says so and
// the pool keeps the threads it has, possibly none.
//
// A build without threads (search/host_yield.h, kHasThreads) has one slot
// and no thread: start() runs the job on the caller's thread and returns
// when it is done.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "engine/parallel_for.h"

namespace gobblet {

class ThreadPool {
 public:
  // `start` makes each thread (empty: std::thread); tests pass one that refuses.
  explicit ThreadPool(ThreadStarter start = {}) : start_(std::move(start)) {}
  ~ThreadPool();  // ends and joins the threads; precondition: no job runs
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Gives the pool `threads` threads (>= 1), making or ending threads as
  // needed. When the system refuses a thread, none more is tried and the
  // error says how many the pool has (size(): possibly 0, possibly fewer
  // than before). Precondition: no job runs.
  absl::Status resize(int threads);
  int size() const { return static_cast<int>(threads_.size()); }

  // Runs `job` on slot `slot`'s thread and returns at once.
  // Precondition: 0 <= slot < size(), and the slot's previous job is done.
  void start(int slot, std::function<void()> job);
  // Returns once slot `slot` has no job (at once if it has none).
  void waitFor(int slot);

 private:
  struct Slot {
    std::function<void()> job;
    bool busy = false;  // from start() until the job has returned
    bool quit = false;  // set by resize()/the destructor: the thread ends
  };
  void loop(int slot);
  void endThreadsFrom(int first);

  std::mutex mutex_;
  std::condition_variable wake_;  // a slot got a job, or must quit
  std::condition_variable done_;  // a slot's job returned
  std::vector<Slot> slots_;       // guarded by mutex_ (its size changes only in resize)
  std::vector<std::thread> threads_;
  ThreadStarter start_;
};

}  // namespace gobblet
