// WorkerTransport: the engine's session inside a Web Worker (the
// WebAssembly engine of the static site, docs/wasm.md).
//
// The page posts protocol lines to the worker; web/wasm/engine_worker.js
// keeps them in a queue and lets the engine run when one arrives; each
// output line goes back by postMessage. There is one thread: a `go` runs
// its whole search inside run(), and the search lends the thread to the
// worker now and then (search/host_yield.h). What arrived meanwhile is
// handled at once, as the native engine's input thread would handle it,
// except the three commands that would wait for the search to end (`go`,
// `ucinewgame`, `quit`): for these the search is stopped (its bestmove
// comes first, as natively, where a new `go` replaces a running one) and
// the line waits, with every line after it, until the search has ended.
#pragma once

#include <deque>
#include <functional>
#include <optional>
#include <string>

#include "protocol/session.h"
#include "search/host_yield.h"

namespace gobblet {

class WorkerTransport {
 public:
  // The next line the page sent, or nullopt if there is none yet.
  using TakeLine = std::function<std::optional<std::string>()>;
  // Gives the worker its turn (reads its messages), then returns.
  using Yield = std::function<void(YieldKind)>;

  WorkerTransport(TakeLine take, Session::Output output, Yield yield, SessionConfig config = {});

  // Handles every line the page has sent, until none is left. Returns
  // false once `quit` has been handled (the session is closed).
  bool run();

 private:
  void yieldToWorker(YieldKind kind);       // the host yield (search/host_yield.h)
  void handle(const std::string& line);     // a line of run(): the job it starts runs inside
  void handleNow(const std::string& line);  // an overlong line is reported, not handled

  TakeLine take_;
  Yield yield_;
  Session session_;
  std::deque<std::string> waiting_;  // lines that wait for the job to end, in order
  bool inJob_ = false;               // inside a line's handling (a search, perft or bench may run)
  bool quit_ = false;
  int64_t lastYieldNs_ = 0;
};

}  // namespace gobblet
