// LimitedStarter: a ThreadStarter (engine/parallel_for.h) that starts
// `allowed` threads, then refuses as std::thread does when the system has
// no thread left to give (a task limit: `ulimit -u`, a container's pids
// limit): std::system_error, resource_unavailable_try_again.
#pragma once

#include <atomic>
#include <functional>
#include <system_error>
#include <thread>

#include "engine/parallel_for.h"

namespace gobblet::testing {

struct LimitedStarter {
  int allowed;
  std::atomic<int> tries{0};  // threads asked for, refused ones included

  ThreadStarter starter() {
    return [this](std::function<void()> work) {
      if (tries.fetch_add(1) >= allowed)
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
      return std::thread(std::move(work));
    };
  }
};

}  // namespace gobblet::testing
