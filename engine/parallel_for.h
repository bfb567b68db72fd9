// parallelFor: the one fork-join loop of the project. Every layer that
// spreads a range of work over a few threads and waits for all of them (the
// tablebase's builder, writer and verifier, the match runner's workers, the
// network server's I/O threads) does it through here.
#pragma once

#include <cstdint>
#include <functional>
#include <thread>
#include <utility>

namespace gobblet {

// Starts a thread that runs `work`, as std::thread's constructor does, and
// throws as it does (std::system_error when the system cannot create one,
// e.g. under a low task limit, `ulimit -u`). Tests pass one that refuses.
using ThreadStarter = std::function<std::thread(std::function<void()> work)>;

// Runs run(worker, begin, end) over consecutive chunks [begin, end) that
// cover [0, count) exactly once, each at most `chunk` long: the body of
// parallelFor, which is what callers use.
void parallelForChunks(uint64_t count, int threads, uint64_t chunk,
                       const std::function<void(int worker, uint64_t begin, uint64_t end)>& run,
                       const ThreadStarter& start = {});

// Calls body(worker, i) exactly once for every i in [0, count), on at most
// `threads` threads (below 1 counts as 1), and returns when every call has
// returned.
//
// Where it runs: worker 0 is always the calling thread; workers 1, 2, ...
// are threads started here (by `start`, if given, else std::thread) and
// joined before the return, never more than there are chunks to share.
// The indices are handed out in chunks of `chunk` (0 counts as 1) from one
// counter, each chunk in increasing order, to whichever worker asks next:
// which worker runs an index, and in what order the chunks run, is not
// fixed, so body must give the same result whatever the worker. Its
// `worker` argument, in [0, threads), lets it keep per-worker state (a
// buffer, a counter) without locks, and tells the calling thread's calls
// (worker 0: progress reports) apart. With one thread, or one chunk,
// everything runs on the calling thread and no thread is started.
//
// A thread that cannot be started (std::system_error, std::bad_alloc) is
// not an error: no further one is tried, and the work is shared by the
// threads already started and the calling thread, so the calls made, and
// their result, are the same; only the time differs.
//
// Exceptions: one thrown by body, on any worker, stops the hand-out (the
// chunks not yet begun are skipped, the calls under way finish), every
// thread is joined, and the first exception is rethrown on the calling
// thread. Nothing is thrown otherwise.
template <typename Body>
void parallelFor(uint64_t count, int threads, uint64_t chunk, Body&& body, const ThreadStarter& start = {}) {
  parallelForChunks(
      count, threads, chunk,
      [&body](int worker, uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) body(worker, i);
      },
      start);
}

// The same with chunks of one index: the form for a few long tasks (one
// per worker, each taking work from a shared queue until none is left).
template <typename Body>
void parallelFor(uint64_t count, int threads, Body&& body, const ThreadStarter& start = {}) {
  parallelFor(count, threads, 1, std::forward<Body>(body), start);
}

}  // namespace gobblet
