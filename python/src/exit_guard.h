// ExitGuard: the module's long calls (a search, a perft, a build) and the
// interpreter's exit.
//
// A daemon thread may still be inside such a call when the interpreter
// exits: the process's static objects are then destroyed under the C++
// threads of the call, which died of SIGSEGV (4 runs of 10). So each long
// call is an ActiveCall for its duration, with a way to stop it, and an
// `atexit` hook of the module, which Python runs before it finalizes (while
// daemon threads still run), stops every active call and waits, the GIL
// released, until each has returned (at most kExitWait). From then on a
// new long call raises RuntimeError.
//
//   daemon thread                         main thread at exit
//   ActiveCall call(stop)  (counted)      atexit hook: exiting = true
//   ... C++ work, GIL released  <-------  stop() of every active call
//   returns; ~ActiveCall (uncounted) ---> wait until none is active
#pragma once

#include <chrono>
#include <functional>
#include <list>

#include <pybind11/pybind11.h>

namespace gobblet::python {

inline constexpr std::chrono::seconds kExitWait{30};

class ActiveCall {
 public:
  // Counts the call; `stop` ends it early (from another thread). Raises
  // RuntimeError if the interpreter is exiting.
  explicit ActiveCall(std::function<void()> stop);
  ~ActiveCall();
  ActiveCall(const ActiveCall&) = delete;
  ActiveCall& operator=(const ActiveCall&) = delete;

 private:
  std::list<std::function<void()>>::iterator entry_;
};

// Registers the atexit hook (once, when the module is imported).
void registerExitHook(pybind11::module_& module);

}  // namespace gobblet::python
