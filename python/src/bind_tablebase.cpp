// gobblet.Tablebase: the 3x3 family's exact values, from a tablebase file;
// build_tablebase() writes one (as `gobblet-tb build` does).
#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/notation.h"
#include "errors.h"
#include "interruptible.h"
#include "python_game.h"
#include "tablebase_handle.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

const char* valueWord(tb::Value value) {
  switch (value) {
    case tb::Value::kWin:
      return "win";
    case tb::Value::kDraw:
      return "draw";
    case tb::Value::kLoss:
      return "loss";
    case tb::Value::kUnknown:
      break;
  }
  return "unknown";
}

// A position to probe: a Game (its current position) or position text.
using PositionArg = std::variant<const PythonGame*, std::string>;

Board boardFor(const TablebaseHandle& handle, const PositionArg& position) {
  const Variant& variant = handle.tablebase->variant();
  if (const std::string* text = std::get_if<std::string>(&position)) return parsePositionOrThrow(variant, *text);
  const Board& board = std::get<const PythonGame*>(position)->board();
  if (!(board.variant() == variant))
    throw VariantError("a game of " + board.variant().name() + " probed in the tablebase of " + variant.name());
  return board;
}

TablebaseHandle openTablebase(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const tb::Tablebase>> opened;
  {
    py::gil_scoped_release release;
    opened = tb::open(path);
  }
  if (!opened.ok()) throwFileError(opened.status());
  return TablebaseHandle{*opened, path};
}

struct RankedMove {
  std::string move;
  tb::Probe value;
};

std::vector<RankedMove> rankedMoves(const TablebaseHandle& handle, const PositionArg& position) {
  const Board board = boardFor(handle, position);
  std::vector<RankedMove> out;
  for (const tb::RankedMove& ranked : tb::rankMoves(*handle.tablebase, board))
    out.push_back(RankedMove{moveToString(ranked.move, board.variant()), ranked.value});
  return out;
}

// threads: nullopt for one per core. progress(phase, done, total) is called
// with the GIL taken now and then; an exception it raises ends the calls,
// and is raised when the build returns. Ctrl-C ends the build
// (KeyboardInterrupt, no file).
tb::TableCounts buildTablebase(const VariantArg& variantArg, const std::string& path, std::optional<int> threads,
                               const std::optional<py::function>& progress) {
  const Variant variant = toVariant(variantArg);
  if (!tb::hasIndex(variant))
    throw VariantError("tablebases are for the 3x3 family and the 4x4 family's members, not " + variant.name());
  tb::BuildOptions options;
  options.threads = threads ? *threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (options.threads < 1 || options.threads > tb::kMaxBuildThreads)
    throw py::value_error("threads " + std::to_string(options.threads) + " must be from 1 to " +
                          std::to_string(tb::kMaxBuildThreads));
  std::exception_ptr failure;
  if (progress) {
    options.progress = [&progress, &failure](const std::string& phase, uint64_t done, uint64_t total) {
      py::gil_scoped_acquire acquire;
      if (failure) return;
      try {
        (*progress)(phase, done, total);
      } catch (...) {
        failure = std::current_exception();
      }
    };
  }
  // Ctrl-C stops the solve between two groups (no file is written).
  absl::StatusOr<tb::TableCounts> counts = interruptible([&](const std::atomic<bool>& stop) {
    tb::BuildOptions stoppable = options;
    stoppable.stop = &stop;
    return tb::build(variant, path, stoppable);
  });
  if (failure) std::rethrow_exception(failure);
  if (!counts.ok()) throwFileError(counts.status());
  return *counts;
}

}  // namespace

void bindTablebase(py::module_& m) {
  py::class_<tb::Probe>(m, "Probe", "A tablebase value, for the side to move (or for the mover, in rank_moves).")
      .def_property_readonly(
          "value", [](const tb::Probe& p) { return valueWord(p.value); }, "\"win\", \"draw\", \"loss\" or \"unknown\".")
      .def_readonly("distance", &tb::Probe::distance,
                    "Plies to the end with optimal play (winner fastest, loser slowest); 0 for draws.")
      .def(
          "__str__", [](const tb::Probe& p) { return tb::describe(p); }, "\"win in 13\", \"draw\", ...")
      .def("__repr__", [](const tb::Probe& p) { return "Probe('" + tb::describe(p) + "')"; });

  py::class_<RankedMove>(m, "RankedMove", "A legal move and its exact value for the side that plays it.")
      .def_readonly("move", &RankedMove::move)
      .def_readonly("value", &RankedMove::value)
      .def("__repr__",
           [](const RankedMove& r) { return "<RankedMove " + r.move + ": " + tb::describe(r.value) + ">"; });

  py::class_<tb::TableCounts>(m, "TableCounts", "What a built table holds.")
      .def_readonly("states", &tb::TableCounts::states, "Reachable states, up to symmetry.")
      .def_readonly("terminal", &tb::TableCounts::terminal, "Of them, games over.")
      .def_readonly("wins", &tb::TableCounts::wins)
      .def_readonly("draws", &tb::TableCounts::draws)
      .def_readonly("losses", &tb::TableCounts::losses)
      .def_readonly("start", &tb::TableCounts::start, "The start position's value.")
      .def_readonly("longest", &tb::TableCounts::longest, "The longest distance to the end, in plies.");

  py::class_<TablebaseHandle>(m, "Tablebase", R"doc(
An open tablebase file of a 3x3 variant (docs/tablebase.md): the exact value
of every position. A missing file raises FileNotFoundError, a wrong or
corrupt one TablebaseError.
)doc")
      .def(py::init(&openTablebase), py::arg("path"), "Opens and checks the file at `path`.")
      .def_property_readonly("variant", [](const TablebaseHandle& h) { return h.tablebase->variant(); })
      .def_readonly("path", &TablebaseHandle::path)
      .def(
          "probe",
          [](const TablebaseHandle& h, const PositionArg& position) {
            return h.tablebase->probe(boardFor(h, position));
          },
          py::arg("position"), "The value of a Game's current position, or of position text, for the side to move.")
      .def("rank_moves", &rankedMoves, py::arg("position"),
           "Every legal move with its value for the mover, best first: wins (shortest first), draws, "
           "unknowns, losses (longest first). [] if the game is over.")
      .def("__repr__", [](const TablebaseHandle& h) {
        return "Tablebase('" + h.path + "', variant '" + h.tablebase->variant().name() + "')";
      });

  m.def("build_tablebase", &buildTablebase, py::arg("variant"), py::arg("path"), py::arg("threads") = py::none(),
        py::arg("progress") = py::none(),
        "Solves a 3x3 variant by retrograde analysis and writes its file to `path` (as gobblet-tb build "
        "does), on `threads` threads (default: one per core). `progress(phase, done, total)`, if given, is "
        "called now and then, with the GIL (an exception it raises is raised when the build ends). Small "
        "variants (tictactoe) take a moment; gobblers about a minute on two cores. Releases the GIL; "
        "Ctrl-C (KeyboardInterrupt) ends it without a file.");
  m.def(
      "default_tablebase_path", [](const VariantArg& v) { return tb::defaultPath(toVariant(v)); }, py::arg("variant"),
      "Where the engine looks for the variant's file: $GOBBLET_TB_DIR, else $XDG_DATA_HOME/gobblet, else "
      "~/.local/share/gobblet.");
}

}  // namespace gobblet::python
