// The WebAssembly engine's entry points (docs/wasm.md): the session of
// protocol/worker_transport.h, wired to the Web Worker's script
// (web/wasm/engine_worker.js) through globalThis.gobbletHost:
//   takeLine() -> string | null   the next line the page sent
//   output(line)                   one engine line for the page
//   yield(waiting) -> Promise      lets the worker read its messages
//                                  (waiting: the search has nothing to do)
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "protocol/worker_transport.h"

EM_JS(char*, gobblet_host_take_line, (), {
  const line = globalThis.gobbletHost.takeLine();
  if (line === null) return 0;
  const bytes = lengthBytesUTF8(line) + 1;
  const p = _malloc(bytes);
  stringToUTF8(line, p, bytes);
  return p;
});

EM_JS(void, gobblet_host_output, (const char* line), { globalThis.gobbletHost.output(UTF8ToString(line)); });

EM_ASYNC_JS(void, gobblet_host_yield, (int waiting), { await globalThis.gobbletHost.yield(waiting !== 0); });

namespace {

std::optional<std::string> takeLine() {
  char* p = gobblet_host_take_line();
  if (!p) return std::nullopt;
  std::string line(p);
  std::free(p);
  return line;
}

gobblet::WorkerTransport& transport() {
  static gobblet::WorkerTransport t(
      takeLine, [](const std::string& line) { gobblet_host_output(line.c_str()); },
      [](gobblet::YieldKind kind) { gobblet_host_yield(kind == gobblet::YieldKind::kWaiting ? 1 : 0); });
  return t;
}

}  // namespace

// Handles the lines the page has sent until none is left (the worker calls
// it again when the next arrives). 1: the session goes on; 0: it has quit.
extern "C" EMSCRIPTEN_KEEPALIVE int gobblet_worker_run() { return transport().run() ? 1 : 0; }

int main() { return 0; }
