// interruptible(work): a long call that Ctrl-C stops.
//
// Python handles SIGINT by setting a flag that only the main thread, with
// the GIL, turns into KeyboardInterrupt (PyErr_CheckSignals). A C++ loop
// that holds no GIL never looks: `perft(12)` ran on after Ctrl-C. So the
// work runs on a thread of its own with the GIL released, while the calling
// thread wakes every 50 ms to check Python's signals; on an exception from
// them (KeyboardInterrupt) it sets `stop`, which the work polls, waits for
// the work to return and raises that exception.
//
//   caller (GIL now and then)          worker (no GIL)
//   wait 50 ms / PyErr_CheckSignals    result = work(stop)
//   ... Ctrl-C: stop = true  ------->  returns early
//   join, raise KeyboardInterrupt
//
// Where the system refuses the thread, the work runs on the calling thread,
// GIL released, and cannot be interrupted. The interpreter's exit stops the
// work too (exit_guard.h).
#pragma once

#include <pybind11/pybind11.h>

#include "exit_guard.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace gobblet::python {

template <typename Work>
auto interruptible(Work work) -> decltype(work(std::declval<const std::atomic<bool>&>())) {
  using Result = decltype(work(std::declval<const std::atomic<bool>&>()));
  std::atomic<bool> stop{false};
  const ActiveCall call([&stop] { stop = true; });
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::optional<Result> result;
  std::exception_ptr failure;
  std::thread worker;
  try {
    worker = std::thread([&] {
      try {
        result.emplace(work(stop));
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      finished.notify_all();
    });
  } catch (const std::system_error&) {
    pybind11::gil_scoped_release release;
    return work(stop);
  }
  bool interrupted = false;
  for (;;) {
    {
      pybind11::gil_scoped_release release;
      std::unique_lock lock(mutex);
      if (finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {  // the error stays set until raised below
      interrupted = true;
      stop = true;
    }
  }
  worker.join();
  if (interrupted) throw pybind11::error_already_set();
  if (failure) std::rethrow_exception(failure);
  return *std::move(result);
}

}  // namespace gobblet::python
