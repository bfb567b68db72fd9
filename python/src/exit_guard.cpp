#include "exit_guard.h"

#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace gobblet::python {
namespace {

// The active calls' stop functions, and whether the interpreter is exiting.
// Never destroyed: a call may end after the static objects are gone.
struct Registry {
  std::mutex mutex;
  std::condition_variable idle;
  std::list<std::function<void()>> stops;
  bool exiting = false;
};
Registry& registry() {
  static auto* r = new Registry();
  return *r;
}

// The hook: every active call stopped, then waited for (GIL released).
void stopActiveCalls() {
  Registry& r = registry();
  pybind11::gil_scoped_release release;
  std::unique_lock lock(r.mutex);
  r.exiting = true;
  for (const auto& stop : r.stops) stop();
  r.idle.wait_for(lock, kExitWait, [&r] { return r.stops.empty(); });
}

}  // namespace

ActiveCall::ActiveCall(std::function<void()> stop) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (r.exiting) throw std::runtime_error("the interpreter is exiting: no new search, perft or build");
  entry_ = r.stops.insert(r.stops.end(), std::move(stop));
}

ActiveCall::~ActiveCall() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.stops.erase(entry_);
  if (r.stops.empty()) r.idle.notify_all();
}

void registerExitHook(pybind11::module_& module) {
  pybind11::module_::import("atexit").attr("register")(
      pybind11::cpp_function(&stopActiveCalls, pybind11::name("_stop_active_calls"), pybind11::scope(module)));
}

}  // namespace gobblet::python
