// gobblet.Engine: the engine (protocol/engine.h), run from Python.
//
// search() starts the Engine's search on its own threads and waits with the
// GIL released. The search's reports (SearchInfo, best move) are handed to
// the waiting Python thread through a queue, so the Python callback runs on
// the caller's thread and its exceptions reach the caller; stop() (from any
// Python thread) and Ctrl-C end the search early.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/notation.h"
#include "errors.h"
#include "exit_guard.h"
#include "options.h"
#include "python_game.h"
#include "score.h"
#include "protocol/command.h"  // kGoKeywords
#include "protocol/engine.h"
#include "tablebase/tablebase.h"
#include "tablebase_handle.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

// One line of the search (one `info` of the protocol), its moves as text.
struct Line {
  int depth = 0, seldepth = 0, multipv = 1;
  Score score{SearchScore{}, 1};
  uint64_t nodes = 0;
  int64_t timeMs = 0;
  uint64_t nps = 0;
  int hashfull = 0;
  uint64_t tbhits = 0;
  std::vector<std::string> pv;
  std::tuple<int, int, int> wdl;  // per mille, side to move (search/wdl.h)
};

// `turn`: the side to move (1 or 2), whose view the engine's score is.
Line toLine(const SearchInfo& info, const Variant& variant, int turn) {
  Line line{info.depth,
            info.selDepth,
            info.multiPv,
            Score(info.score, turn),
            info.nodes,
            info.timeMs,
            info.nps,
            info.hashfull,
            info.tbHits,
            {},
            {}};
  for (Move m : info.pv) line.pv.push_back(moveToString(m, variant));
  line.wdl = {info.wdl.win, info.wdl.draw, info.wdl.loss};
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

// The static evaluation (the `eval` command's table and net line) for Python.
struct Evaluation {
  int value = 0;           // side to move's view: the evaluation the search uses (the net's or `total`)
  std::string source;      // "net" or "hand-written": which one `value` is
  std::optional<int> net;  // the net's value (side to move's view) where the net evaluates the variant
  int total = 0;           // the hand-written evaluation: side to move's view, tempo included
  int forPlayer1 = 0;      // the sum of the terms' nets, player 1's view
  int tempo = 0;
  int sideToMove = 1;
  std::vector<std::pair<std::string, std::pair<int, int>>> terms;  // name -> (player 1, player 2)
};

// What Python may give for a tablebase: a Tablebase, None (none), or
// "default" (the variant's own file, as gobblet finds it).
using TablebaseChoice = std::variant<std::string, std::optional<TablebaseHandle>>;

// Marks an Engine busy for a scope: one search() or new_game() at a time;
// a second one meanwhile raises RuntimeError(`refusal`).
class Busy {
 public:
  Busy(std::atomic<bool>& flag, const char* refusal) : flag_(flag) {
    if (flag_.exchange(true)) throw std::runtime_error(refusal);
  }
  ~Busy() { flag_ = false; }
  Busy(const Busy&) = delete;
  Busy& operator=(const Busy&) = delete;

 private:
  std::atomic<bool>& flag_;
};

// gobblet.Engine: the protocol's Engine (protocol/engine.h), the same one
// gobblet drives, with Python's conventions on top: keyword limits, values
// checked with ValueError, the GIL released while it thinks, the engine's
// notices kept in `messages` (errors also as RuntimeWarning).
class PythonEngine {
 public:
  PythonEngine(int hashMiB, int threads, const TablebaseChoice& tablebase, int skillLevel, int64_t skillSeed,
               const std::optional<py::dict>& options)
      : engine_(EngineLimits{}, [this](NoticeKind kind, const std::string& text) { noticed(kind, text); }) {
    setOption("hash_mib", "Hash", hashMiB);
    setOption("threads", "Threads", threads);
    setSkillLevel(skillLevel);
    setSkillSeed(skillSeed);
    defaultThreads_ = threads;
    if (options)
      for (const auto& [name, value] : *options) setOptionNamed(py::str(name), value);
    setTablebase(tablebase);
    if (std::holds_alternative<std::string>(tablebase)) noteMissingTablebases();
    {
      py::gil_scoped_release release;
      engine_.prepare();  // the hash table and the tablebase now, not in the first search's time
    }
    flushNotices();
  }

  SearchOutcome search(const PythonGame& game, std::optional<int> depth, std::optional<int64_t> movetimeMs,
                       std::optional<uint64_t> nodes, std::optional<int> mate, std::optional<int64_t> p1timeMs,
                       std::optional<int64_t> p2timeMs, int64_t p1incMs, int64_t p2incMs, int movestogo, bool ponder,
                       std::optional<int> multipv, std::optional<int> threads,
                       const std::optional<py::function>& callback) {
    SearchLimits limits;
    if (depth) limits.depth = static_cast<int>(checkedLimit("depth", *depth, 1, GoLimit::kDepth));
    if (mate) limits.mate = static_cast<int>(checkedLimit("mate", *mate, 1, GoLimit::kMate));
    limits.ponder = ponder;
    if (movetimeMs) limits.moveTime = checkedLimit("movetime_ms", *movetimeMs, 1, GoLimit::kMoveTime);
    if (nodes) limits.nodes = checkedLimit("nodes", *nodes, 1, GoLimit::kNodes);
    if (p1timeMs) limits.time[0] = checkedLimit("p1time_ms", *p1timeMs, 0, GoLimit::kP1Time);
    if (p2timeMs) limits.time[1] = checkedLimit("p2time_ms", *p2timeMs, 0, GoLimit::kP2Time);
    limits.inc[0] = checkedLimit("p1inc_ms", p1incMs, 0, GoLimit::kP1Inc);
    limits.inc[1] = checkedLimit("p2inc_ms", p2incMs, 0, GoLimit::kP2Inc);
    limits.movesToGo = static_cast<int>(checkedLimit("movestogo", movestogo, 0, GoLimit::kMovesToGo));
    const int mover = game.board().sideToMove();
    if ((p1timeMs || p2timeMs) && limits.time[mover] < 0)
      throw py::value_error("p" + std::to_string(mover + 1) + "time_ms is needed: player " + std::to_string(mover + 1) +
                            " is to move and the other clock is given");
    limits.infinite = !depth && !movetimeMs && !nodes && !mate && !p1timeMs && !p2timeMs;
    if (game.game().result() != GameResult::kNone) return SearchOutcome{};  // nothing to search
    const Busy busy(busy_, "this Engine is already searching (one search at a time)");
    stopRequested_ = false;  // before the GIL is let go: a stop() or ponder_hit() from now on is kept
    ponderHitRequested_ = false;
    const ActiveCall call([this] { stop(); });  // stopped at the interpreter's exit
    if (multipv) setOption("multipv", "MultiPV", *multipv);
    setOption("threads", "Threads", threads.value_or(defaultThreads_));
    useGame(game);
    return run(game.game().position().variant(), mover + 1, limits, callback);
  }

  Evaluation evaluate(const PythonGame& game) {
    if (busy_) throw std::runtime_error("evaluate() while the Engine is searching");
    useGame(game);
    const EvalTerms t = engine_.evaluate();
    Evaluation e;
    e.net = engine_.netEvaluation();
    const bool usesNet = e.net && engine_.options().searchUsesNet();
    e.value = usesNet ? *e.net : t.total;
    e.source = usesNet ? "net" : "hand-written";
    e.total = t.total;
    e.forPlayer1 = t.forPlayer1;
    e.tempo = t.tempo;
    e.sideToMove = game.board().sideToMove() + 1;
    const std::pair<const char*, const EvalTerm*> terms[] = {{"visible", &t.visible},
                                                             {"in_hand", &t.inHand},
                                                             {"captives", &t.captives},
                                                             {"lines", &t.lines},
                                                             {"line_safety", &t.lineSafety}};
    for (const auto& [name, term] : terms) e.terms.push_back({name, {term->player[0], term->player[1]}});
    return e;
  }

  // The chances of the game's position without a search (`query wdl`).
  std::tuple<int, int, int> chances(const PythonGame& game) {
    const Busy busy(busy_, "chances() while the Engine is searching");  // (the GIL is let go below)
    useGame(game);
    WinDrawLoss wdl;
    {
      py::gil_scoped_release release;  // (may open the variant's tablebase)
      wdl = engine_.chances();
    }
    flushNotices();
    return {wdl.win, wdl.draw, wdl.loss};
  }

  // Asks a running search to finish; it returns its best line so far.
  void stop() {
    stopRequested_ = true;
    engine_.stop();
  }

  // The pondered move was played: a search started with ponder=True goes on
  // under its limits (they count from its start).
  void ponderHit() {
    ponderHitRequested_ = true;
    engine_.ponderHit();
  }

  // Any option of the protocol's table by name (case-insensitive).
  void setOptionNamed(const std::string& name, py::handle value) {
    const OptionDeclaration& d = optionNamed(name);
    if (busy_) throw std::runtime_error("option " + std::string(d.name) + " set while the Engine is searching");
    const std::string text = valueText(d, value);
    if (absl::Status st = engine_.setOption(d.name, text, true); !st.ok())
      throw py::value_error(std::string(st.message()));
    if (d.id == OptionId::kThreads) defaultThreads_ = engine_.options().threads;
    flushNotices();
  }
  py::object optionNamedValue(const std::string& name) const {
    return optionValue(engine_.options(), optionNamed(name));
  }
  std::vector<OptionInfo> options() const { return describeOptions(engine_.limits().caps); }

  void newGame() {
    const Busy busy(busy_, "new_game() while the Engine is searching");
    py::gil_scoped_release release;  // (busy: no search() can start meanwhile)
    engine_.newGame();
  }

  void setTablebase(const TablebaseChoice& choice) {
    if (busy_) throw std::runtime_error("set_tablebase() while the Engine is searching");
    usesDefaultTablebase_ = false;
    if (const std::string* word = std::get_if<std::string>(&choice)) {
      if (*word != "default")
        throw py::value_error("tablebase: a Tablebase, None or \"default\", not \"" + *word + "\"");
      check(engine_.useDefaultTablebase());
      usesDefaultTablebase_ = true;
    } else {
      const std::optional<TablebaseHandle>& handle = std::get<std::optional<TablebaseHandle>>(choice);
      check(engine_.useTablebase(handle ? handle->tablebase : nullptr));
    }
    flushNotices();
  }

  // The playing strength (search/skill.h): the options Skill Level and Skill Seed.
  int skillLevel() const { return engine_.options().skillLevel; }
  void setSkillLevel(int level) {
    if (busy_) throw std::runtime_error("skill_level set while the Engine is searching");
    setOption("skill_level", "Skill Level", level);
  }
  int64_t skillSeed() const { return static_cast<int64_t>(engine_.options().skillSeed); }
  void setSkillSeed(int64_t seed) {
    if (busy_) throw std::runtime_error("skill_seed set while the Engine is searching");
    setOption("skill_seed", "Skill Seed", seed);
  }

  // The evaluation (search/eval_file.h): the options Use NNUE and EvalFile.
  bool useNnue() const { return engine_.options().useNnue; }
  void setUseNnue(bool use) {
    if (busy_) throw std::runtime_error("use_nnue set while the Engine is searching");
    check(engine_.setOption("Use NNUE", use ? "true" : "false", true));
  }
  std::string evalFile() const { return engine_.options().evalFile.empty() ? "<default>" : engine_.options().evalFile; }
  void setEvalFile(const std::string& path) {
    if (busy_) throw std::runtime_error("eval_file set while the Engine is searching");
    if (absl::Status st = engine_.setOption("EvalFile", path, true); !st.ok())
      throw py::value_error("eval_file: " + std::string(st.message()));
  }

  bool searching() const { return busy_; }
  int hashMiB() const { return engine_.options().hashMiB; }
  int threads() const { return defaultThreads_; }
  std::vector<std::string> messages() const { return messages_; }

 private:
  // `value` if it is from `min` to what `go` takes for `limit` (its bound
  // in kGoKeywords); else ValueError, naming the value as given.
  template <typename Number>
  static int64_t checkedLimit(const char* name, Number value, int64_t min, GoLimit limit) {
    int64_t max = 0;
    for (const GoKeyword& keyword : kGoKeywords)
      if (keyword.limit == limit) max = keyword.max;
    bool inRange = false;
    if constexpr (std::is_unsigned_v<Number>)
      inRange = value <= static_cast<uint64_t>(max) && static_cast<int64_t>(value) >= min;
    else
      inRange = value >= min && value <= max;
    if (!inRange)
      throw py::value_error(std::string(name) + " " + std::to_string(value) + " must be from " + std::to_string(min) +
                            " to " + std::to_string(max));
    return static_cast<int64_t>(value);
  }
  static void check(const absl::Status& status) {
    if (!status.ok()) throw std::runtime_error(std::string(status.message()));
  }
  // One of the engine's options (kOptionTable: its bounds are the engine's).
  void setOption(const char* pythonName, const char* option, int64_t value) {
    const std::string text = std::to_string(value);
    if (absl::Status st = engine_.setOption(option, text, true); !st.ok())
      throw py::value_error(std::string(pythonName) + " " + text + ": " + std::string(st.message()));
  }

  // Notices come on the calling thread, maybe without the GIL: kept, and
  // handed to Python by flushNotices().
  void noticed(NoticeKind kind, const std::string& text) {
    if (kind == NoticeKind::kDiagnostic) return;
    std::lock_guard<std::mutex> lock(noticeMutex_);
    pending_.push_back({kind, text});
  }
  void flushNotices() {
    std::vector<std::pair<NoticeKind, std::string>> notices;
    {
      std::lock_guard<std::mutex> lock(noticeMutex_);
      notices.swap(pending_);
    }
    for (const auto& [kind, text] : notices) {
      messages_.push_back(text);
      if (kind == NoticeKind::kError && PyErr_WarnEx(PyExc_RuntimeWarning, text.c_str(), 1) != 0)
        throw py::error_already_set();
    }
  }

  // The game to work on, and a message when its variant's default
  // tablebase file is missing (once per variant).
  void useGame(const PythonGame& game) {
    check(engine_.setGame(game.game()));
    const Variant& v = game.variant();
    if (!usesDefaultTablebase_ || !engine_.options().tablebasePath.empty() || !tb::hasIndex(v) ||
        told_.count(v.name()) != 0)
      return;
    if (engine_.tablebase() == nullptr && !std::filesystem::exists(tb::defaultPath(v))) {
      told_.insert(v.name());
      const std::string name = variantName(v);
      messages_.push_back("no tablebase for " + name + ": " + tb::defaultPath(v) +
                          " does not exist, so its games are searched without one (gobblet.build_tablebase(\"" + name +
                          "\", gobblet.default_tablebase_path(\"" + name + "\")) or `gobblet-tb build " + name +
                          "` makes it)");
    }
    flushNotices();
  }

  // At the start: which named variants' tablebase files are missing.
  void noteMissingTablebases() {
    std::string missing;
    for (const NamedVariant& named : kNamedVariants) {
      const std::string name = named.variant.name();
      if (!tb::hasIndex(named.variant) || std::filesystem::exists(tb::defaultPath(named.variant))) continue;
      told_.insert(name);
      missing += (missing.empty() ? "" : ", ") + std::string(named.name) + " (" + tb::defaultPath(named.variant) + ")";
    }
    if (!missing.empty())
      messages_.push_back("no tablebase built for " + missing +
                          ": their games are searched without one until it is built "
                          "(gobblet.build_tablebase(variant, gobblet.default_tablebase_path(variant)))");
  }

  // `turn`: the side to move (1 or 2).
  SearchOutcome run(const Variant& variant, int turn, const SearchLimits& limits,
                    const std::optional<py::function>& callback) {
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
      engine_.go(limits, std::move(callbacks));
      if (stopRequested_) engine_.stop();            // a stop() that came while go() started
      if (ponderHitRequested_) engine_.ponderHit();  // a ponder_hit() likewise
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
          Line line = toLine(info, variant, turn);
          if (info.isFinal) {
            outcome.depth = info.depth;
            outcome.nodes = info.nodes;
            outcome.timeMs = info.timeMs;
          } else if (callback && !failure) {
            try {
              (*callback)(line);
            } catch (...) {
              failure = std::current_exception();
              engine_.stop();
            }
          }
          latest[info.multiPv] = std::move(line);
        }
        if (!failure && PyErr_CheckSignals() != 0) {
          failure = std::make_exception_ptr(py::error_already_set());
          engine_.stop();
        }
      }
    }
    flushNotices();
    if (failure) std::rethrow_exception(failure);
    if (!queue.best.isNone()) outcome.bestMove = moveToString(queue.best, variant);
    if (!queue.ponder.isNone()) outcome.ponderMove = moveToString(queue.ponder, variant);
    for (auto& [rank, line] : latest) outcome.lines.push_back(std::move(line));
    return outcome;
  }

  int defaultThreads_ = 1;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stopRequested_{false};
  std::atomic<bool> ponderHitRequested_{false};
  bool usesDefaultTablebase_ = true;  // set_tablebase("default"): the variant's file where gobblet finds it
  std::set<std::string> told_;        // the variants whose missing tablebase a message has named
  std::mutex noticeMutex_;
  std::vector<std::pair<NoticeKind, std::string>> pending_;
  std::vector<std::string> messages_;
  // Last: made after, and closed before, what its notice callback uses.
  Engine engine_;
};

}  // namespace

void bindSearch(py::module_& m) {
  py::class_<Score>(m, "Score", R"doc(
A score in the protocol's terms (docs/protocol.md), with its point of view.

The engine scores from the side to move's view (`turn`); `kind`, `value`,
`bound` and str() are from `player`'s view, which is `turn` for the scores
a search gives. `pov(p)` is the same score from player p's view (negated
for the other player, a lower bound becoming an upper one), `relative` the
side to move's, `player1()` / `player2()` each player's (as python-chess's
PovScore: relative, pov(color), white(), black()).
)doc")
      .def_property_readonly("kind", &Score::kind,
                             "\"cp\": centi-units from `player`'s view; \"mate\": an exact result.")
      .def_property_readonly("value", &Score::value,
                             "cp: the evaluation; mate: plies to the end, > 0 when `player` wins.")
      .def_property_readonly("bound", &Score::bound, "\"exact\", \"lower\" or \"upper\" (from `player`'s view).")
      .def_property_readonly("is_mate", &Score::isMate)
      .def_property_readonly("turn", &Score::turn, "The side to move of the scored position: 1 or 2.")
      .def_property_readonly("player", &Score::player, "Whose view kind, value, bound and str() are: 1 or 2.")
      .def_property_readonly("relative", &Score::relative, "The score from the side to move's view.")
      .def("pov", &Score::pov, py::arg("player"), "The score from player `player`'s view (1 or 2).")
      .def(
          "player1", [](const Score& s) { return s.pov(1); }, "The score from player 1's view.")
      .def(
          "player2", [](const Score& s) { return s.pov(2); }, "The score from player 2's view.")
      .def(py::self == py::self)
      .def("__hash__", [](const Score& s) { return py::hash(py::make_tuple(s.text(), s.player(), s.turn())); })
      .def("__str__", &Score::text,
           "As the protocol writes it after `score`, from `player`'s view: \"cp 31\", \"mate -5 upperbound\".")
      .def("__repr__", [](const Score& s) {
        return "Score('" + s.text() + "', player=" + std::to_string(s.player()) + ", turn=" + std::to_string(s.turn()) +
               ")";
      });

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
      .def_readonly("wdl", &Line::wdl,
                    "The chances of the score, per mille, for the side to move: (win, draw, loss), adding up to "
                    "1000 (the protocol's `wdl` with UCI_ShowWDL; docs/search.md, \"Win/draw/loss\").")
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
      .def_property_readonly(
          "score",
          [](const SearchOutcome& o) -> std::optional<Score> {
            if (o.lines.empty()) return std::nullopt;
            return o.lines.front().score;
          },
          "The best line's score; None if the game is over.")
      .def("__repr__", [](const SearchOutcome& o) {
        return "<SearchResult best_move " + o.bestMove.value_or("None") + " depth " + std::to_string(o.depth) +
               (o.lines.empty() ? std::string() : " " + o.lines.front().score.text()) + ">";
      });

  py::class_<Evaluation>(m, "Evaluation", R"doc(
The static evaluation of a position (the `eval` command): the value the
search uses, which is the net's where the search evaluates with the net
(Use NNUE, 4x4 Gobblet) and the hand-written evaluation's
total elsewhere, and the hand-written evaluation's terms.
)doc")
      .def_readonly("value", &Evaluation::value,
                    "The engine's evaluation, centi-units from the side to move's view: what the search uses "
                    "(`source` says which).")
      .def_readonly("source", &Evaluation::source,
                    "\"net\" (value is the net's) or \"hand-written\" (value is `total`).")
      .def_readonly("net", &Evaluation::net,
                    "The net's evaluation (side to move's view) where the net evaluates the variant, also when the "
                    "search does not use it (use_nnue False, a lower skill level); else None.")
      .def_readonly("total", &Evaluation::total,
                    "The hand-written evaluation: centi-units from the side to move's view, tempo included.")
      .def_readonly("for_player1", &Evaluation::forPlayer1, "The sum of the terms' nets, from player 1's view.")
      .def_readonly("tempo", &Evaluation::tempo, "The side to move's bonus.")
      .def_readonly("side_to_move", &Evaluation::sideToMove, "1 or 2.")
      .def_property_readonly(
          "terms",
          [](const Evaluation& e) {
            py::dict out;
            for (const auto& [name, shares] : e.terms) out[py::str(name)] = py::make_tuple(shares.first, shares.second);
            return out;
          },
          "{term: (player 1's share, player 2's share)} for visible, in_hand, captives, lines, line_safety.")
      .def("__repr__", [](const Evaluation& e) {
        return "<Evaluation value " + std::to_string(e.value) + " (" + e.source + "; player " +
               std::to_string(e.sideToMove) + " to move)>";
      });

  py::class_<OptionInfo>(m, "Option", "One of the engine's options (the protocol's option table).")
      .def_readonly("name", &OptionInfo::name, "As the protocol spells it (set_option takes any case).")
      .def_readonly("type", &OptionInfo::type, "\"spin\" (int), \"check\" (bool), \"combo\" or \"string\" (str).")
      .def_readonly("default", &OptionInfo::defaultValue, "The default value (None: a string option's default).")
      .def_readonly("min", &OptionInfo::min, "A spin's lowest value; else None.")
      .def_readonly("max", &OptionInfo::max, "A spin's highest value; else None.")
      .def_readonly("choices", &OptionInfo::choices, "A combo's listed values; else [].")
      .def_readonly("help", &OptionInfo::help, "What the option does, in one line.")
      .def("__repr__", [](const OptionInfo& o) {
        std::string out = "<Option " + o.name + " " + o.type + " default " + std::string(py::repr(o.defaultValue));
        if (!o.min.is_none()) out += " min " + std::string(py::str(o.min)) + " max " + std::string(py::str(o.max));
        return out + ">";
      });

  py::class_<PythonEngine>(m, "Engine", R"doc(
The engine: the same Engine that `gobblet` drives (iterative-deepening
alpha-beta, transposition table, the variant's tablebase).

An Engine allocates its hash table when it is made and keeps it between
searches (new_game() clears it). It probes the variant's tablebase where
gobblet finds it (default_tablebase_path) unless told otherwise
(`tablebase`, set_tablebase). One search at a time per Engine; stop() may be
called from any thread.
)doc")
      .def(py::init<int, int, const TablebaseChoice&, int, int64_t, const std::optional<py::dict>&>(),
           py::arg("hash_mib") = 16, py::arg("threads") = 1, py::kw_only(),
           py::arg("tablebase") = std::string("default"), py::arg("skill_level") = kMaxSkillLevel,
           py::arg("skill_seed") = 0, py::arg("options") = py::none(),
           "An engine with a hash table of `hash_mib` MiB searching on `threads` threads by default. "
           "`tablebase`: \"default\" (the variant's file where gobblet finds it), None (none) or a Tablebase. "
           "`skill_level` 0 (a beginner) to 20 (full strength) and `skill_seed` (0: new draws each search) as "
           "the options Skill Level and Skill Seed. `options`: {name: value} of any of the protocol's options "
           "(Engine.options lists them), set as set_option() does.")
      .def("search", &PythonEngine::search, py::arg("game"), py::kw_only(), py::arg("depth") = py::none(),
           py::arg("movetime_ms") = py::none(), py::arg("nodes") = py::none(), py::arg("mate") = py::none(),
           py::arg("p1time_ms") = py::none(), py::arg("p2time_ms") = py::none(), py::arg("p1inc_ms") = 0,
           py::arg("p2inc_ms") = 0, py::arg("movestogo") = 0, py::arg("ponder") = false,
           py::arg("multipv") = py::none(), py::arg("threads") = py::none(), py::arg("callback") = py::none(),
           R"doc(
Searches the game's current position and returns a SearchResult.

Limits: `depth` (plies), `movetime_ms` (less the option MoveOverhead, at
most a tenth of it), `nodes`, `mate` (a win in that many moves: it ends
when found), and the clocks as in `go`: `p1time_ms`/`p2time_ms` (the time
left of each player; the mover's is needed), `p1inc_ms`/`p2inc_ms`
(increments), `movestogo`; the engine's time management shares the mover's
time out, keeping MoveOverhead in hand. With none of them the search runs
until stop() (from another thread) or Ctrl-C. `ponder=True` is `go ponder`:
the game's position is the one after the expected reply, and the search
does not end by itself until ponder_hit() (the reply was played: the limits
apply from here, counted from the start) or stop() (another reply: its
result is not wanted). `multipv` lines are searched (1..256; default: the
option MultiPV), on `threads` threads (default: the Engine's). `callback(line)`, if
given, is called with each Line as the search reports it (each iteration,
each MultiPV rank), on this thread; an exception it raises stops the search
and propagates. The GIL is released while the engine thinks. A game that is
over gives a result with best_move None.
)doc")
      .def("evaluate", &PythonEngine::evaluate, py::arg("game"),
           "The static evaluation of the game's current position, as `eval` prints it: `value` is the "
           "engine's evaluation, the net's while the search uses the net (use_nnue, full strength, 4x4 "
           "Gobblet) and the hand-written one's otherwise (`source` says which); the hand-written terms too.")
      .def("chances", &PythonEngine::chances, py::arg("game"),
           "The chances of the game's current position without a search (`query wdl`): (win, draw, loss) per "
           "mille for the side to move, adding up to 1000; exact where the tablebase knows the value, else "
           "from the evaluation a full-strength search uses, whatever the Skill Level (docs/search.md, "
           "\"Win/draw/loss\").")
      .def("ponder_hit", &PythonEngine::ponderHit,
           "The expected reply was played (from any thread): a search started with ponder=True goes on "
           "under its limits, as `ponderhit`.")
      .def("set_option", &PythonEngine::setOptionNamed, py::arg("name"), py::arg("value"),
           "Sets one of the protocol's options (Engine.options; name case-insensitive): a bool for a check "
           "option, an int for a spin, a str for a combo or string option (None: a string option's default). "
           "KeyError for an unknown name, TypeError for a value of the wrong type, ValueError out of bounds.")
      .def("get_option", &PythonEngine::optionNamedValue, py::arg("name"),
           "The value in force of an option (None: a string option at its default).")
      .def_property_readonly("options", &PythonEngine::options,
                             "The protocol's options, as the handshake lists them: a list of Option (name, type, "
                             "default, min, max, choices, help).")
      .def("stop", &PythonEngine::stop,
           "Ends the running search early (from any thread): search() returns its best line so far.")
      .def("new_game", &PythonEngine::newGame, "Clears the hash table and the move-ordering history.")
      .def("set_tablebase", &PythonEngine::setTablebase, py::arg("tablebase"),
           "Which tablebase the search probes: a Tablebase (used for its variant's games), None (none), or "
           "\"default\" (the variant's file where gobblet finds it).")
      .def_property("skill_level", &PythonEngine::skillLevel, &PythonEngine::setSkillLevel,
                    "Playing strength, 0 (a beginner) to 20 (full strength): the option Skill Level.")
      .def_property("skill_seed", &PythonEngine::skillSeed, &PythonEngine::setSkillSeed,
                    "The weaker levels' draws: 0 new each search, another value the same moves again.")
      .def_property("use_nnue", &PythonEngine::useNnue, &PythonEngine::setUseNnue,
                    "Evaluate 4x4 Gobblet with the net (eval_file) instead of the hand-written evaluation: the "
                    "option Use NNUE.")
      .def_property("eval_file", &PythonEngine::evalFile, &PythonEngine::setEvalFile,
                    "The net's file, or \"<default>\" for the built-in net: the option EvalFile. A file that is "
                    "not a net of this engine raises ValueError with the reason and the net in use stays.")
      .def_property_readonly("searching", &PythonEngine::searching, "Is a search running?")
      .def_property_readonly("hash_mib", &PythonEngine::hashMiB, "The hash table's size in MiB.")
      .def_property_readonly("threads", &PythonEngine::threads,
                             "The default number of search threads (the option Threads).")
      .def_property_readonly("messages", &PythonEngine::messages,
                             "What the engine said, oldest first: tablebases loaded or not used, errors (each "
                             "error is also a RuntimeWarning).");
}

}  // namespace gobblet::python
