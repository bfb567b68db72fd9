// gobblet.read_pgn(), read_pgn_file(), write_pgn() and PgnGame: the match
// runner's PGN reader and writer (match/pgn.h), the project's one PGN code,
// from Python.
#include <cerrno>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "engine/notation.h"
#include "errors.h"
#include "match/file_lines.h"
#include "match/input_limits.h"
#include "match/pgn.h"
#include "match/referee.h"
#include "python_game.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

// One game read: its tags and moves, or the error that made it unreadable.
struct PythonPgnGame {
  match::PgnGame game;
  std::optional<std::string> error;

  // The game as a record: its variant (the Variant tag, else
  // `defaultVariant`), start position (the FEN tag) and moves; ValueError
  // for an unreadable game or bad tags.
  match::GameRecord record(const VariantArg& defaultVariant) const {
    if (error) throw py::value_error("the game could not be read: " + *error);
    absl::StatusOr<match::GameRecord> r = match::recordFromPgn(game, toVariant(defaultVariant));
    if (!r.ok())
      throw py::value_error("PGN game at line " + std::to_string(game.line) + ": " + std::string(r.status().message()));
    return *r;
  }
  PythonGame start(const VariantArg& defaultVariant) const {
    const match::GameRecord r = record(defaultVariant);
    return PythonGame(r.variant, r.start, {});
  }
  PythonGame replayed(const VariantArg& defaultVariant) const {
    const match::GameRecord r = record(defaultVariant);
    return PythonGame(r.variant, r.start, r.moves);
  }
};

std::vector<PythonPgnGame> fromEntries(std::vector<match::PgnEntry> entries) {
  std::vector<PythonPgnGame> out;
  for (match::PgnEntry& entry : entries) {
    PythonPgnGame g;
    if (entry.game.ok()) {
      g.game = std::move(*entry.game);
    } else {
      g.game.line = entry.line;
      g.error = std::string(entry.game.status().message());
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<PythonPgnGame> readPgnFile(const std::string& path) {
  std::vector<match::PgnEntry> entries;
  {
    py::gil_scoped_release release;
    std::ifstream in(path, std::ios::binary);
    if (in) {
      match::FileLines lines(in, match::kMaxInputLineBytes);
      match::PgnStream stream(lines);
      while (std::optional<match::PgnEntry> entry = stream.next()) entries.push_back(std::move(*entry));
    }
    if (!in.is_open()) {
      const int error = errno;
      py::gil_scoped_acquire acquire;
      PyErr_SetObject(error == ENOENT ? PyExc_FileNotFoundError : PyExc_OSError,
                      py::make_tuple(error, std::generic_category().message(error), path).ptr());
      throw py::error_already_set();
    }
  }
  return fromEntries(std::move(entries));
}

// The game as the match runner writes it: the tags of match/pgn.h, the
// result and the termination as the rules core says (an unfinished game:
// "*").
std::string writePgn(const PythonGame& game, const std::string& player1, const std::string& player2, int round,
                     const std::string& event, const std::optional<std::string>& date) {
  match::Referee referee(game.game().start(), match::kMaxGamePlies);
  match::GameRecord r;
  r.number = round;
  r.player1 = player1;
  r.player2 = player2;
  r.variant = game.variant();
  r.start = positionToString(game.game().start());
  for (Move m : game.game().moves()) {
    r.moves.push_back(moveToString(m, game.variant()));
    if (absl::Status st = referee.play(r.moves.back()); !st.ok()) throw std::runtime_error(std::string(st.message()));
  }
  const match::Verdict verdict = referee.verdict();
  r.result = verdict.result;
  r.termination = verdict.termination;
  match::PgnHeader header;
  header.event = event;
  header.date = date.value_or(match::pgnDateToday());
  return match::formatPgn(r, header);
}

}  // namespace

void bindPgn(py::module_& m) {
  py::class_<PythonPgnGame>(m, "PgnGame", R"doc(
One game read from PGN (read_pgn, read_pgn_file): its tags in file order,
its main line's moves as text (comments, move numbers, NAGs and variations
left out) and the closing result token; or, for a game that could not be
read, `error` naming the line and what is wrong (the games after it are
still read).
)doc")
      .def_property_readonly(
          "tags",
          [](const PythonPgnGame& g) {
            py::dict out;
            for (const auto& [name, value] : g.game.tags) out[py::str(name)] = value;
            return out;
          },
          "{name: value} in file order.")
      .def_property_readonly(
          "moves", [](const PythonPgnGame& g) { return g.game.moves; }, "The moves, as text, oldest first.")
      .def_property_readonly(
          "result", [](const PythonPgnGame& g) { return g.game.resultToken; },
          "The closing token: \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\".")
      .def_property_readonly(
          "line", [](const PythonPgnGame& g) { return g.game.line; }, "The line (1-based) where the game starts.")
      .def_readonly("error", &PythonPgnGame::error, "Why the game could not be read; None when it was.")
      .def("start", &PythonPgnGame::start, py::arg("default_variant") = std::string("gobblet"),
           "A Game at the game's start: the variant of its Variant tag (else `default_variant`), the position "
           "of its FEN tag (none or \"startpos\": the start). ValueError for an unreadable game or bad tags.")
      .def("game", &PythonPgnGame::replayed, py::arg("default_variant") = std::string("gobblet"),
           "start() with the moves played: IllegalMoveError or GameOverError naming a move the rules refuse.")
      .def("__repr__", [](const PythonPgnGame& g) {
        if (g.error) return "<PgnGame line " + std::to_string(g.game.line) + " error: " + *g.error + ">";
        return "<PgnGame line " + std::to_string(g.game.line) + ", " + std::to_string(g.game.moves.size()) +
               " moves, " + g.game.resultToken + ">";
      });

  m.def(
      "read_pgn", [](const std::string& text) { return fromEntries(match::parsePgn(text)); }, py::arg("text"),
      "The games of PGN text, in order: a list of PgnGame (what gobblet-match writes, and cutegames' PGN).");
  m.def("read_pgn_file", &readPgnFile, py::arg("path"),
        "The games of a PGN file, as read_pgn(); read a line at a time, in bounded memory. FileNotFoundError "
        "where there is no file.");
  m.def("write_pgn", &writePgn, py::arg("game"), py::kw_only(), py::arg("player1") = "?", py::arg("player2") = "?",
        py::arg("round") = 1, py::arg("event") = "gobblet", py::arg("date") = py::none(),
        "The game as PGN text, as gobblet-match writes its records (docs/match.md): the tags Event, Date (None: "
        "today), Round, Player1, Player2, Result, Variant, FEN, Termination, PlyCount..., then the moves and "
        "the result the rules give (\"*\" while the game runs). read_pgn() reads it back.");
}

}  // namespace gobblet::python
