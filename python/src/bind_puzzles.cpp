// gobblet.puzzles() and Puzzle: the puzzle set with proofs (proof/puzzle_file.h)
// from Python, and its check by the independent checker (proof/puzzle_check.h).
// The default set, the package's own copy of the repository's puzzles/, is
// found by gobblet/__init__.py, which passes its folder here.
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "errors.h"
#include "proof/puzzle_check.h"
#include "proof/puzzle_file.h"
#include "python_game.h"

namespace py = pybind11;

namespace gobblet::python {
namespace {

// The folder's file `name`, which must be there.
std::string fileIn(const std::string& folder, const char* name) {
  const std::string path = (std::filesystem::path(folder) / name).string();
  if (std::error_code error; !std::filesystem::is_regular_file(path, error)) throwNotFound(path);
  return path;
}

std::vector<proof::Puzzle> readPuzzles(const std::string& folder) {
  const std::string path = fileIn(folder, proof::kPuzzlesFileName);
  absl::StatusOr<std::vector<proof::Puzzle>> puzzles;
  {
    py::gil_scoped_release release;
    puzzles = proof::readPuzzlesFile(path);
  }
  if (!puzzles.ok()) throw std::invalid_argument(std::string(puzzles.status().message()));
  return *puzzles;
}

py::dict checkOne(const proof::Puzzle& puzzle, const std::string& folder) {
  const std::string path = fileIn(folder, proof::kPuzzleProofsFileName);
  proof::PuzzleReport report;
  std::string problem;
  {
    py::gil_scoped_release release;
    auto proofs = proof::readPuzzleProofsFile(path);
    if (!proofs.ok()) {
      problem = std::string(proofs.status().message());
    } else {
      problem = "puzzle " + std::to_string(puzzle.id) + ": no proofs in " + path;
      for (const proof::PuzzleProofs& p : *proofs)
        if (p.id == puzzle.id) {
          report = proof::checkPuzzle(puzzle, p);
          problem.clear();
          break;
        }
    }
  }
  py::dict d;
  d["accepted"] = problem.empty() && report.accepted;
  d["reason"] = problem.empty() ? report.reason : problem;
  d["alternatives"] = report.alternatives;
  d["nodes"] = report.nodes;
  return d;
}

}  // namespace

void bindPuzzles(py::module_& m) {
  py::class_<proof::Puzzle>(m, "Puzzle",
                            "A position where the side to move has exactly one winning move, proved (docs/puzzles.md).")
      .def_readonly("id", &proof::Puzzle::id, "1, 2, ... in the file.")
      .def_readonly("rating", &proof::Puzzle::rating, "The difficulty grade, 1 (easiest) to 5.")
      .def_readonly("position", &proof::Puzzle::position, "The position (docs/notation.md); the side to move wins.")
      .def_readonly("solution", &proof::Puzzle::solution, "The one winning move.")
      .def_readonly("line", &proof::Puzzle::line,
                    "The proof's principal line: the solution, then the longest defence and the winner's answers.")
      .def_readonly("plies", &proof::Puzzle::plies, "The proved length: the moves of `line`.")
      .def(
          "game", [](const proof::Puzzle& p) { return PythonGame(Variant::gobblet(), p.position, {}); },
          "A Game at the puzzle's position.")
      .def("__repr__", [](const proof::Puzzle& p) {
        return "<Puzzle " + std::to_string(p.id) + " rating " + std::to_string(p.rating) + ": " + p.solution +
               " wins in " + std::to_string(p.plies) + " plies>";
      });

  m.def("_read_puzzles", &readPuzzles, py::arg("folder"));
  m.def("_check_puzzle", &checkOne, py::arg("puzzle"), py::arg("folder"));
  m.def(
      "_check_puzzles",
      [](const std::string& folder) {
        fileIn(folder, proof::kPuzzlesFileName);
        fileIn(folder, proof::kPuzzleProofsFileName);
        proof::PuzzleSetReport report;
        {
          py::gil_scoped_release release;
          report = proof::checkPuzzleSet(folder);
        }
        py::dict d;
        d["accepted"] = report.accepted;
        d["reason"] = report.reason;
        d["puzzles"] = report.puzzles;
        d["accepted_puzzles"] = report.acceptedPuzzles;
        d["alternatives"] = report.alternatives;
        d["nodes"] = report.nodes;
        d["rejections"] = report.rejections;
        return d;
      },
      py::arg("folder"));
}

}  // namespace gobblet::python
