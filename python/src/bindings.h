// The parts of the module, each adding its classes and functions.
#pragma once

#include <pybind11/pybind11.h>

namespace gobblet::python {

void bindRules(pybind11::module_& module);      // Variant, Game, perft (bind_rules.cpp)
void bindSearch(pybind11::module_& module);     // Engine, SearchResult, Line, Score (bind_search.cpp)
void bindTablebase(pybind11::module_& module);  // Tablebase, build_tablebase (bind_tablebase.cpp)

}  // namespace gobblet::python
