// The WebAssembly engine's entry points (docs/wasm.md): the session of
// protocol/worker_transport.h, wired to the Web Worker's script
// (web/wasm/engine_worker.js) through globalThis.gobbletHost:
//   takeLine() -> string | null   the next line the page sent
//   output(line)                   one engine line for the page
//   yield(waiting) -> Promise      lets the worker read its messages
//                                  (waiting: the search has nothing to do)
// and reads tablebase files hosted beside the site by HTTP range requests
// (synchronous XMLHttpRequest, which a worker may make): only the header,
// dictionary and block table at open, then the blocks probes need
// (tb::openRanges).
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "protocol/worker_transport.h"
#include "tablebase/tablebase.h"

// The bodies of EM_JS and EM_ASYNC_JS are JavaScript, which clang-format
// would break (`!==` as `!= =`): left as written.
// clang-format off
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

// The size of the file at `url` (relative to the worker's script), from a
// HEAD request: >= 0 bytes; -404 for no such file, -N for another HTTP
// status N, -1 if there was no answer, -3 if the server does not say
// "Accept-Ranges: bytes" (a plain `python3 -m http.server`: it would send
// the whole file for every block).
EM_JS(double, gobblet_host_file_size, (const char* url), {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('HEAD', UTF8ToString(url), false);
    xhr.send();
    if (xhr.status !== 200) return xhr.status ? -xhr.status : -1;
    if (!/(^|[ ,])bytes($|[ ,])/.test(xhr.getResponseHeader('Accept-Ranges') || '')) return -3;
    const length = Number(xhr.getResponseHeader('Content-Length'));
    return Number.isSafeInteger(length) && length >= 0 ? length : -1;
  } catch (e) {
    return -1;
  }
});

// Reads `size` bytes at `offset` of `url` into `out` by a range request:
// 0, or -N for an answer other than 206 with exactly those bytes (-200: the
// server sent the whole file: it does not answer range requests), -1 if
// there was no answer.
EM_JS(int, gobblet_host_read_range, (const char* url, double offset, double size, uint8_t* out), {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', UTF8ToString(url), false);
    xhr.responseType = 'arraybuffer';
    xhr.setRequestHeader('Range', 'bytes=' + offset + '-' + (offset + size - 1));
    xhr.send();
    if (xhr.status !== 206) return xhr.status ? -xhr.status : -1;
    const bytes = new Uint8Array(xhr.response);
    if (bytes.length !== size) return -2;
    HEAPU8.set(bytes, out);
    return 0;
  } catch (e) {
    return -1;
  }
});

// clang-format on

namespace {

namespace tb = gobblet::tb;

std::string httpProblem(double code) {
  if (code == -1) return "no answer from the site";
  if (code == -2) return "the server sent a different number of bytes than asked";
  if (code == -3) return "the server does not answer HTTP range requests (no Accept-Ranges: bytes)";
  if (code == -200) return "the server does not answer HTTP range requests (it sent the whole file)";
  return "the site answered HTTP " + std::to_string(static_cast<int>(-code));
}

// A tablebase hosted beside the site (the default path is
// tablebases/<variant>.gtb: see main), read piecewise. Opened once per path.
absl::StatusOr<std::shared_ptr<const tb::Tablebase>> openHosted(const std::string& path) {
  static std::map<std::string, std::shared_ptr<const tb::Tablebase>> opened;
  if (auto it = opened.find(path); it != opened.end()) return it->second;
  const double size = gobblet_host_file_size(path.c_str());
  if (size == -404) return absl::NotFoundError("tablebase file '" + path + "' is not on the site");
  if (size < 0) return absl::UnavailableError("tablebase file '" + path + "': " + httpProblem(size));
  auto read = [path](uint64_t offset, uint64_t bytes) -> absl::StatusOr<std::string> {
    std::string out(bytes, '\0');
    if (bytes == 0) return out;
    const int code = gobblet_host_read_range(path.c_str(), static_cast<double>(offset), static_cast<double>(bytes),
                                             reinterpret_cast<uint8_t*>(out.data()));
    if (code != 0) return absl::UnavailableError(httpProblem(code));
    return out;
  };
  auto tablebase = tb::openRanges(path, static_cast<uint64_t>(size), read);
  if (tablebase.ok()) opened[path] = *tablebase;
  return tablebase;
}

std::optional<std::string> takeLine() {
  char* p = gobblet_host_take_line();
  if (!p) return std::nullopt;
  std::string line(p);
  std::free(p);
  return line;
}

gobblet::SessionConfig config() {
  gobblet::SessionConfig c;
  c.openTablebase = openHosted;
  return c;
}

gobblet::WorkerTransport& transport() {
  static gobblet::WorkerTransport t(
      takeLine, [](const std::string& line) { gobblet_host_output(line.c_str()); },
      [](gobblet::YieldKind kind) { gobblet_host_yield(kind == gobblet::YieldKind::kWaiting ? 1 : 0); }, config());
  return t;
}

}  // namespace

// Handles the lines the page has sent until none is left (the worker calls
// it again when the next arrives). 1: the session goes on; 0: it has quit.
extern "C" EMSCRIPTEN_KEEPALIVE int gobblet_worker_run() { return transport().run() ? 1 : 0; }

// A variant's tablebase is looked for beside the site: tablebases/<name>.gtb
// (tb::defaultPath with GOBBLET_TB_DIR), fetched relative to the worker.
int main() {
  setenv("GOBBLET_TB_DIR", "tablebases", 1);
  return 0;
}
