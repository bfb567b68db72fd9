// The parts of the module, each adding its classes and functions.
#pragma once

#include <pybind11/pybind11.h>

namespace gobblet::python {

void bindRules(pybind11::module_& module);      // Variant, Game, perft (bind_rules.cpp)
void bindSearch(pybind11::module_& module);     // Engine, SearchResult, Line, Score (bind_search.cpp)
void bindTablebase(pybind11::module_& module);  // Tablebase, build_tablebase (bind_tablebase.cpp)
void bindProof(pybind11::module_& module);      // prove, Proof, check_certificate (bind_proof.cpp)
void bindPgn(pybind11::module_& module);        // read_pgn, read_pgn_file, write_pgn, PgnGame (bind_pgn.cpp)
void bindPuzzles(pybind11::module_& module);    // Puzzle, the puzzle set read and checked (bind_puzzles.cpp)

}  // namespace gobblet::python
