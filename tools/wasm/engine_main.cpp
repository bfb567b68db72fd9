// The WebAssembly engine's entry points (docs/wasm.md): the session of
// protocol/worker_transport.h, wired to the Web Worker's script
// (web/wasm/engine_worker.js) through globalThis.gobbletHost:
//   takeLine() -> string | null   the next line the page sent
//   output(line)                   one engine line for the page
//   yield(waiting) -> Promise      lets the worker read its messages
//                                  (waiting: the search has nothing to do)
// reads the proof database files the person loads into the page (the
// worker writes them into Emscripten's in-memory files, MEMFS: the engine
// opens them by path, read-only), and reads tablebase files hosted beside
// the site by HTTP range requests
// (synchronous XMLHttpRequest, which a worker may make): only the header,
// dictionary and block table at open, then the blocks probes need
// (tb::openRanges). Each request has a time limit (a stalled one would hold
// the engine, which waits for it, forever); after one timed out, the file
// is left alone for a while and its probes answer at once without it.
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
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

// The yield returns the host's promise. Built for JavaScript Promise
// Integration (GOBBLET_WASM_JSPI: the worker wraps this import in
// WebAssembly.Suspending and the entry point in WebAssembly.promising), the
// engine's stack is suspended while it is pending, with no cost in between;
// built with Asyncify, every function that may be on the stack then is
// rewritten to unwind and rewind it, which slows the search (docs/wasm.md).
#if defined(GOBBLET_WASM_JSPI)
EM_JS(void, gobblet_host_yield, (int waiting), { return globalThis.gobbletHost.yield(waiting !== 0); });
#else
EM_ASYNC_JS(void, gobblet_host_yield, (int waiting), { await globalThis.gobbletHost.yield(waiting !== 0); });
#endif

// The size of the file at `url` (relative to the worker's script), from a
// HEAD request answered within `limitMs`: >= 0 bytes; -404 for no such
// file, -N for another HTTP status N, -1 if there was no answer, -3 if the
// server does not say "Accept-Ranges: bytes" (a plain `python3 -m
// http.server`: it would send the whole file for every block), -4 if the
// site did not answer in time (a worker's synchronous request may have a
// timeout: send() then throws a TimeoutError).
EM_JS(double, gobblet_host_file_size, (const char* url, double limitMs), {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('HEAD', UTF8ToString(url), false);
    xhr.timeout = limitMs;
    xhr.send();
    if (xhr.status !== 200) return xhr.status ? -xhr.status : -1;
    // (String(null) is "null": no header reads as no "bytes". No empty quotes
    // here: C's preprocessor, which passes this text, warns of them.)
    if (!/(^|[ ,])bytes($|[ ,])/.test(String(xhr.getResponseHeader('Accept-Ranges')))) return -3;
    const length = Number(xhr.getResponseHeader('Content-Length'));
    return Number.isSafeInteger(length) && length >= 0 ? length : -1;
  } catch (e) {
    return e && e.name === 'TimeoutError' ? -4 : -1;
  }
});

// Reads `size` bytes at `offset` of `url` into `out` by a range request
// answered within `limitMs`: 0, or -N for an answer other than 206 with
// exactly those bytes (-200: the server sent the whole file: it does not
// answer range requests), -1 if there was no answer, -4 if not in time.
EM_JS(int, gobblet_host_read_range, (const char* url, double offset, double size, uint8_t* out, double limitMs), {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', UTF8ToString(url), false);
    xhr.responseType = 'arraybuffer';
    xhr.timeout = limitMs;
    xhr.setRequestHeader('Range', 'bytes=' + offset + '-' + (offset + size - 1));
    xhr.send();
    if (xhr.status !== 206) return xhr.status ? -xhr.status : -1;
    const bytes = new Uint8Array(xhr.response);
    if (bytes.length !== size) return -2;
    HEAPU8.set(bytes, out);
    return 0;
  } catch (e) {
    return e && e.name === 'TimeoutError' ? -4 : -1;
  }
});

// clang-format on

namespace {

namespace tb = gobblet::tb;

// How long the site may take to answer one request, in seconds: the HEAD,
// the header or a block (about 400 bytes) within kAnswerWithinS; a longer
// read (the open's dictionary and block table, 0.9 MB for gobblers: 4 s) a
// second more per whole kSlowestBytesPerS bytes, so that a slow connection
// still opens a file.
constexpr double kAnswerWithinS = 5;
constexpr double kSlowestBytesPerS = 256 * 1024;
// After a request for a file was not answered in time, the file is not
// asked again for this long (seconds): its probes answer at once without
// its values (unknown), and a new open of it is refused at once. Then it is
// tried again.
constexpr double kRestAfterTimeoutS = 60;
constexpr double kTimedOut = -4;  // the host functions' code for "not answered in time"

// The time limit of a request for `bytes` bytes, in whole seconds.
double limitS(double bytes) { return kAnswerWithinS + std::floor(bytes / kSlowestBytesPerS); }

std::string httpProblem(double code, double limitSeconds) {
  if (code == -1) return "no answer from the site";
  if (code == -2) return "the server sent a different number of bytes than asked";
  if (code == -3) return "the server does not answer HTTP range requests (no Accept-Ranges: bytes)";
  if (code == kTimedOut) return absl::StrCat("the site did not answer within ", limitSeconds, " s");
  if (code == -200) return "the server does not answer HTTP range requests (it sent the whole file)";
  return "the site answered HTTP " + std::to_string(static_cast<int>(-code));
}

// The files left alone after a request timed out: until when (the
// worker's clock, emscripten_get_now, ms) and why.
struct Rest {
  double untilMs = 0;
  std::string why;
};
std::map<std::string, Rest>& resting() {
  static std::map<std::string, Rest> files;
  return files;
}

// An error if `path` is left alone now (a request for it timed out less
// than kRestAfterTimeoutS ago), saying why and for how much longer.
absl::Status restStatus(const std::string& path) {
  auto it = resting().find(path);
  if (it == resting().end()) return absl::OkStatus();
  const double leftMs = it->second.untilMs - emscripten_get_now();
  if (leftMs <= 0) {
    resting().erase(it);  // tried again
    return absl::OkStatus();
  }
  return absl::UnavailableError(absl::StrCat(it->second.why, "; not asked again for ", std::ceil(leftMs / 1000), " s"));
}

// Leaves `path` alone for kRestAfterTimeoutS: `why` its request timed out.
void rest(const std::string& path, const std::string& why) {
  resting()[path] = Rest{emscripten_get_now() + kRestAfterTimeoutS * 1000, why};
}

// Reads `bytes` bytes at `offset` of the hosted file `path` (opened: a
// probe's block, whose failure the probe does not report): the bytes, or
// why not. A request that times out leaves the file alone (rest); a block's
// timeout is said as an info string, since its probe answers unknown and
// says nothing.
absl::StatusOr<std::string> readHosted(const std::string& path, uint64_t offset, uint64_t bytes, bool opened) {
  std::string out(bytes, '\0');
  if (bytes == 0) return out;
  if (absl::Status s = restStatus(path); !s.ok()) return s;
  const double limit = limitS(static_cast<double>(bytes));
  const int code = gobblet_host_read_range(path.c_str(), static_cast<double>(offset), static_cast<double>(bytes),
                                           reinterpret_cast<uint8_t*>(out.data()), limit * 1000);
  if (code == 0) return out;
  const std::string problem = httpProblem(code, limit);
  if (code == kTimedOut) {
    rest(path, problem);
    if (opened) {
      const std::string note =
          absl::StrCat("info string tablebase '", path, "': reading ", bytes, " bytes at ", offset, ": ", problem,
                       "; its probes answer without its values for ", kRestAfterTimeoutS, " s");
      gobblet_host_output(note.c_str());
    }
  }
  return absl::UnavailableError(problem);
}

// A tablebase hosted beside the site (the default path is
// tablebases/<variant>.gtb: see main), read piecewise. Opened once per path.
absl::StatusOr<std::shared_ptr<const tb::Tablebase>> openHosted(const std::string& path) {
  static std::map<std::string, std::shared_ptr<const tb::Tablebase>> opened;
  if (auto it = opened.find(path); it != opened.end()) return it->second;
  auto failed = [&path](const std::string& problem) {
    return absl::UnavailableError("tablebase file '" + path + "': " + problem);
  };
  if (absl::Status s = restStatus(path); !s.ok()) return failed(std::string(s.message()));
  const double size = gobblet_host_file_size(path.c_str(), limitS(0) * 1000);
  if (size == -404) return absl::NotFoundError("tablebase file '" + path + "' is not on the site");
  if (size == kTimedOut) rest(path, httpProblem(size, limitS(0)));
  if (size < 0) return failed(httpProblem(size, limitS(0)));
  auto isOpen = std::make_shared<bool>(false);
  auto read = [path, isOpen](uint64_t offset, uint64_t bytes) { return readHosted(path, offset, bytes, *isOpen); };
  auto tablebase = tb::openRanges(path, static_cast<uint64_t>(size), read);
  if (tablebase.ok()) {
    *isOpen = true;
    opened[path] = *tablebase;
  }
  return tablebase;
}

std::optional<std::string> takeLine() {
  char* p = gobblet_host_take_line();
  if (!p) return std::nullopt;
  std::string line(p);
  std::free(p);
  return line;
}

// The session's limits: tablebases read from the site; the ProofDatabase
// option's file one the page loaded into the worker's in-memory files
// (web/wasm/engine_worker.js), opened for reading only: `go prove` appends
// nothing, and no file is made.
gobblet::SessionConfig config() {
  gobblet::SessionConfig c;
  c.openTablebase = openHosted;
  c.proofDatabaseReadOnly = true;
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
