// gobblet.Engine: the search, run from Python.
//
// search() starts the engine's Search on its own threads and waits with the
// GIL released. The search's reports (SearchInfo, best move) are handed to
// the waiting Python thread through a queue, so the Python callback runs on
// the caller's thread and its exceptions reach the caller; stop() (from any
// Python thread) and Ctrl-C end the search early.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/notation.h"
#include "errors.h"
#include "python_game.h"
#include "search/search.h"
#include "tablebase_handle.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

// A score in the protocol's terms: "cp" (centi-units, side to move's view)
// or "mate" (plies to the end, > 0: the side to move wins).
struct Score {
  std::string kind;
  int value = 0;
  std::string bound;  // "exact", "lower" or "upper"

  std::string text() const {
    std::string out = kind + " " + std::to_string(value);
    if (bound != "exact") out += " " + bound + "bound";
    return out;
  }
};

Score toScore(const SearchScore& s) {
  return Score{s.isMate ? "mate" : "cp", s.value,
               s.bound == SearchScore::kLower ? "lower" : s.bound == SearchScore::kUpper ? "upper" : "exact"};
}

// One line of the search (one `info` of the protocol), its moves as text.
struct Line {
  int depth = 0, seldepth = 0, multipv = 1;
  Score score;
  uint64_t nodes = 0;
  int64_t timeMs = 0;
  uint64_t nps = 0;
  int hashfull = 0;
  uint64_t tbhits = 0;
  std::vector<std::string> pv;
};

Line toLine(const SearchInfo& info, const Variant& variant) {
  Line line{info.depth, info.selDepth, info.multiPv, toScore(info.score), info.nodes, info.timeMs,
            info.nps,   info.hashfull, info.tbHits,  {}};
  for (Move m : info.pv) line.pv.push_back(moveToString(m, variant));
  return line;
}

struct SearchOutcome {
  std::optional<std::string> bestMove, ponderMove;
  std::vector<Line> lines;  // the latest line of each MultiPV rank, best first
  int depth = 0;
  uint64_t nodes = 0;
  int64_t timeMs = 0;
};

// What the search threads hand to the waiting Python thread.
struct ReportQueue {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<SearchInfo> infos;
  bool done = false;
  Move best, ponder;
};

class PythonEngine {
 public:
  PythonEngine(int hashMiB, int threads) {
    if (hashMiB < 1 || hashMiB > kMaxHashMiB)
      throw py::value_error("hash_mib " + std::to_string(hashMiB) + " is out of range 1.." +
                            std::to_string(kMaxHashMiB));
    options_.hashMiB = hashMiB;
    options_.threads = checkedThreads(threads);
    applyOptions();
  }

  SearchOutcome search(const PythonGame& game, std::optional<int> depth, std::optional<int64_t> movetimeMs,
                       std::optional<uint64_t> nodes, int multipv, std::optional<int> threads,
                       const std::optional<py::function>& callback) {
    SearchLimits limits;
    if (depth) limits.depth = checkedPositive("depth", *depth);
    if (movetimeMs) limits.moveTime = checkedPositive("movetime_ms", *movetimeMs);
    if (nodes) limits.nodes = checkedPositive("nodes", static_cast<int64_t>(*nodes));
    limits.infinite = !depth && !movetimeMs && !nodes;
    if (multipv < 1 || multipv > kMaxMultiPv)
      throw py::value_error("multipv " + std::to_string(multipv) + " is out of range 1.." +
                            std::to_string(kMaxMultiPv));
    options_.multiPv = multipv;
    options_.threads = checkedThreads(threads.value_or(defaultThreads_));
    if (game.game().result() != GameResult::kNone) return SearchOutcome{};  // nothing to search
    if (busy_.exchange(true)) throw std::runtime_error("this Engine is already searching (one search at a time)");
    struct Idle {
      std::atomic<bool>& busy;
      ~Idle() { busy = false; }
    } idle{busy_};
    applyOptions();
    return run(game.game(), limits, callback);
  }

  // Asks a running search to finish; it returns its best line so far.
  void stop() {
    stopRequested_ = true;
    search_.stop();
  }

  void newGame() {
    if (busy_) throw std::runtime_error("new_game() while the Engine is searching");
    search_.newGame();
  }

  void setTablebase(const std::optional<TablebaseHandle>& handle) {
    if (busy_) throw std::runtime_error("set_tablebase() while the Engine is searching");
    search_.setTablebase(handle ? handle->tablebase : nullptr);
  }

  bool searching() const { return busy_; }
  int hashMiB() const { return search_.options().hashMiB; }
  int threads() const { return defaultThreads_; }

 private:
  static int checkedThreads(int threads) {
    if (threads < 1 || threads > kMaxSearchThreads)
      throw py::value_error("threads " + std::to_string(threads) + " is out of range 1.." +
                            std::to_string(kMaxSearchThreads));
    return threads;
  }
  static int64_t checkedPositive(const char* name, int64_t value) {
    if (value < 1) throw py::value_error(std::string(name) + " " + std::to_string(value) + " must be at least 1");
    return value;
  }

  void applyOptions() {
    if (absl::Status status = search_.setOptions(options_); !status.ok())
      throw std::runtime_error("search options refused: " + std::string(status.message()));
    if (defaultThreads_ == 0) defaultThreads_ = options_.threads;
  }

  SearchOutcome run(const Game& game, const SearchLimits& limits, const std::optional<py::function>& callback) {
    const Game searched = game;  // Search::go keeps a reference until the best move
    const Variant variant = game.position().variant();
    ReportQueue queue;
    SearchCallbacks callbacks;
    callbacks.onInfo = [&queue](const SearchInfo& info) {
      std::lock_guard<std::mutex> lock(queue.mutex);
      queue.infos.push_back(info);
      queue.ready.notify_one();
    };
    callbacks.onBestMove = [&queue](Move best, Move ponder) {
      std::lock_guard<std::mutex> lock(queue.mutex);
      queue.best = best;
      queue.ponder = ponder;
      queue.done = true;
      queue.ready.notify_one();
    };

    SearchOutcome outcome;
    std::map<int, Line> latest;  // by MultiPV rank
    std::exception_ptr failure;  // the callback's exception, or KeyboardInterrupt
    {
      py::gil_scoped_release release;
      stopRequested_ = false;
      search_.go(searched, limits, callbacks);
      if (stopRequested_) search_.stop();  // a stop() that came while go() started
      for (bool done = false; !done;) {
        std::deque<SearchInfo> infos;
        {
          std::unique_lock<std::mutex> lock(queue.mutex);
          queue.ready.wait_for(lock, std::chrono::milliseconds(100),
                               [&] { return !queue.infos.empty() || queue.done; });
          infos.swap(queue.infos);
          done = queue.done;
        }
        py::gil_scoped_acquire acquire;
        for (const SearchInfo& info : infos) {
          Line line = toLine(info, variant);
          if (info.isFinal) {
            outcome.depth = info.depth;
            outcome.nodes = info.nodes;
            outcome.timeMs = info.timeMs;
          } else if (callback && !failure) {
            try {
              (*callback)(line);
            } catch (...) {
              failure = std::current_exception();
              search_.stop();
            }
          }
          latest[info.multiPv] = std::move(line);
        }
        if (!failure && PyErr_CheckSignals() != 0) {
          failure = std::make_exception_ptr(py::error_already_set());
          search_.stop();
        }
      }
      search_.wait();
    }
    if (failure) std::rethrow_exception(failure);
    if (!queue.best.isNone()) outcome.bestMove = moveToString(queue.best, variant);
    if (!queue.ponder.isNone()) outcome.ponderMove = moveToString(queue.ponder, variant);
    for (auto& [rank, line] : latest) outcome.lines.push_back(std::move(line));
    return outcome;
  }

  Search search_;
  SearchOptions options_;
  int defaultThreads_ = 0;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stopRequested_{false};
};

}  // namespace

void bindSearch(py::module_& m) {
  py::class_<Score>(m, "Score", "A score in the protocol's terms (docs/protocol.md).")
      .def_readonly("kind", &Score::kind,
                    "\"cp\": centi-units from the side to move's view; \"mate\": an exact result.")
      .def_readonly("value", &Score::value,
                    "cp: the evaluation; mate: plies to the end, > 0 when the side to move wins.")
      .def_readonly("bound", &Score::bound, "\"exact\", \"lower\" or \"upper\".")
      .def_property_readonly("is_mate", [](const Score& s) { return s.kind == "mate"; })
      .def("__str__", &Score::text, "As the protocol writes it after `score`: \"cp 31\", \"mate -5 upperbound\".")
      .def("__repr__", [](const Score& s) { return "Score('" + s.text() + "')"; });

  py::class_<Line>(m, "Line", "One line of a search (one `info` of the protocol).")
      .def_readonly("depth", &Line::depth)
      .def_readonly("seldepth", &Line::seldepth)
      .def_readonly("multipv", &Line::multipv, "1-based rank of the line.")
      .def_readonly("score", &Line::score)
      .def_readonly("nodes", &Line::nodes)
      .def_readonly("time_ms", &Line::timeMs)
      .def_readonly("nps", &Line::nps)
      .def_readonly("hashfull", &Line::hashfull, "Per mille.")
      .def_readonly("tbhits", &Line::tbhits)
      .def_readonly("pv", &Line::pv, "The principal variation, as move text.")
      .def("__repr__", [](const Line& l) {
        std::string pv;
        for (const std::string& mv : l.pv) pv += (pv.empty() ? "" : " ") + mv;
        return "<Line depth " + std::to_string(l.depth) + " multipv " + std::to_string(l.multipv) + " " +
               l.score.text() + " pv " + pv + ">";
      });

  py::class_<SearchOutcome>(m, "SearchResult", "What Engine.search() found.")
      .def_readonly("best_move", &SearchOutcome::bestMove, "The move to play; None if the game is over.")
      .def_readonly("ponder_move", &SearchOutcome::ponderMove, "The expected reply, if any.")
      .def_readonly("lines", &SearchOutcome::lines, "The latest line of each MultiPV rank, best first.")
      .def_readonly("depth", &SearchOutcome::depth, "Depth of the final report.")
      .def_readonly("nodes", &SearchOutcome::nodes, "Nodes searched.")
      .def_readonly("time_ms", &SearchOutcome::timeMs, "Milliseconds spent.")
      .def_property_readonly("score", [](const SearchOutcome& o) -> std::optional<Score> {
        if (o.lines.empty()) return std::nullopt;
        return o.lines.front().score;
      }, "The best line's score; None if the game is over.")
      .def("__repr__", [](const SearchOutcome& o) {
        return "<SearchResult best_move " + o.bestMove.value_or("None") + " depth " + std::to_string(o.depth) +
               (o.lines.empty() ? std::string() : " " + o.lines.front().score.text()) + ">";
      });

  py::class_<PythonEngine>(m, "Engine", R"doc(
The engine's search (iterative-deepening alpha-beta, the same as `gobblet`).

An Engine keeps its hash table between searches (new_game() clears it). One
search at a time per Engine; stop() may be called from any thread.
)doc")
      .def(py::init<int, int>(), py::arg("hash_mib") = 16, py::arg("threads") = 1,
           "An engine with a hash table of `hash_mib` MiB searching on `threads` threads by default.")
      .def("search", &PythonEngine::search, py::arg("game"), py::kw_only(), py::arg("depth") = py::none(),
           py::arg("movetime_ms") = py::none(), py::arg("nodes") = py::none(), py::arg("multipv") = 1,
           py::arg("threads") = py::none(), py::arg("callback") = py::none(),
           R"doc(
Searches the game's current position and returns a SearchResult.

Limits: `depth` (plies), `movetime_ms`, `nodes`; with none of them the search
runs until stop() (from another thread) or Ctrl-C. `multipv` lines are
searched (1..256), on `threads` threads (default: the Engine's).
`callback(line)`, if given, is called with each Line as the search reports
it (each iteration, each MultiPV rank), on this thread; an exception it
raises stops the search and propagates. The GIL is released while the engine
thinks. A game that is over gives a result with best_move None.
)doc")
      .def("stop", &PythonEngine::stop,
           "Ends the running search early (from any thread): search() returns its best line so far.")
      .def("new_game", &PythonEngine::newGame, "Clears the hash table and the move-ordering history.")
      .def("set_tablebase", &PythonEngine::setTablebase, py::arg("tablebase"),
           "Lets the search probe a Tablebase (of the variant searched); None: no tablebase.")
      .def_property_readonly("searching", &PythonEngine::searching, "Is a search running?")
      .def_property_readonly("hash_mib", &PythonEngine::hashMiB, "The hash table's size in MiB.")
      .def_property_readonly("threads", &PythonEngine::threads, "The default number of search threads.");
}

}  // namespace gobblet::python
