// ReaperBlocker: blocks a SessionReaper's thread until released — what a
// reaper busy with other sessions looks like to the next connection. Tests
// use it to show that a connection does not wait for the reaper (e.g. to
// stop a hung-up client's search).
#pragma once

#include <future>

#include "server/session_reaper.h"

namespace gobblet::testing {

struct ReaperBlocker {
  std::promise<void> promise;
  bool released = false;
  explicit ReaperBlocker(SessionReaper& reaper) {
    std::shared_future<void> future = promise.get_future().share();
    reaper.retire(nullptr, [future] { future.wait(); });
  }
  void release() {
    if (!released) promise.set_value();
    released = true;
  }
  ~ReaperBlocker() { release(); }
};

}  // namespace gobblet::testing
