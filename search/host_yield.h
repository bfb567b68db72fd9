// Lending the search's thread to its host, where there is no other thread.
//
// Natively a search runs on threads of its own (search/thread_pool.h) and
// `stop` comes from the input thread while it thinks. The WebAssembly
// engine (docs/wasm.md) has one thread, the Web Worker's: while a search
// runs, no input can arrive unless the search gives the worker its turn now
// and then. So the search calls yieldToHost() at every clock check and
// while a `go infinite|ponder` waits for its stop; the host installs, once,
// the function that lets the worker read its messages (and hand `stop` to
// the session) before the search goes on. Native builds install nothing:
// yieldToHost() then does nothing.
#pragma once

#include <functional>

namespace gobblet {

// Can this build start threads? A WebAssembly build without shared memory
// (the one the static site runs: docs/wasm.md) cannot: its thread pool runs
// a job at once on the caller's thread, a search has one thread whatever
// Threads says, and perft/bench run inside the command that starts them.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kHasThreads = false;
#else
inline constexpr bool kHasThreads = true;
#endif

// Why the search yields: it is working (the host may return at once if it
// gave the worker its turn a moment ago), or it has nothing to do until a
// `stop` or `ponderhit` comes (the host may sleep a little).
enum class YieldKind { kWorking, kWaiting };

// Installs the host's function (empty: none). Called once, before the
// first search; not thread-safe.
void setHostYield(std::function<void(YieldKind)> yield);

// Calls the installed function, if any. May run input handling (a `stop`
// sets the search's stop flag) before it returns.
void yieldToHost(YieldKind kind = YieldKind::kWorking);

// Is a function installed? (A search without threads that waits for `stop`
// needs one: with none, nothing could ever stop it.)
bool hostYieldInstalled();

}  // namespace gobblet
