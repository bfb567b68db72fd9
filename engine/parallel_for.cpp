#include "engine/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <vector>

namespace gobblet {

void parallelForChunks(uint64_t count, int threads, uint64_t chunk,
                       const std::function<void(int worker, uint64_t begin, uint64_t end)>& run,
                       const ThreadStarter& start) {
  if (count == 0) return;
  chunk = std::max<uint64_t>(chunk, 1);
  const uint64_t chunks = count / chunk + (count % chunk != 0);
  const int workers = static_cast<int>(std::min<uint64_t>(chunks, static_cast<uint64_t>(std::max(threads, 1))));
  if (workers == 1) {  // no thread, no counter: the plain loop
    for (uint64_t begin = 0; begin < count; begin += chunk) run(0, begin, std::min(count, begin + chunk));
    return;
  }

  std::atomic<uint64_t> next{0};
  std::atomic<bool> stopped{false};
  std::mutex failureMutex;
  std::exception_ptr failure;
  auto work = [&](int worker) {
    try {
      while (!stopped.load(std::memory_order_relaxed)) {
        const uint64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
        if (begin >= count) break;
        run(worker, begin, std::min(count, begin + chunk));
      }
    } catch (...) {
      std::lock_guard lock(failureMutex);
      if (!failure) failure = std::current_exception();
      stopped = true;
    }
  };

  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(workers - 1));
  for (int w = 1; w < workers; ++w) {
    try {
      pool.push_back(start ? start([&work, w] { work(w); }) : std::thread(work, w));
    } catch (const std::system_error&) {
      break;  // no more threads: the ones started and the calling thread do the rest
    } catch (const std::bad_alloc&) {
      break;
    }
  }
  work(0);
  for (std::thread& t : pool)
    if (t.joinable()) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace gobblet
