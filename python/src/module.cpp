// gobblet._core: the Python module's compiled part (the package gobblet
// re-exports it). See docs/python.md.
#include "bindings.h"
#include "engine/version.h"
#include "errors.h"
#include "exit_guard.h"

PYBIND11_MODULE(_core, module) {
  module.doc() = "Gobblet's rules, search, tablebases and proofs (the gobblet engine's libraries).";
  // The classes and exceptions are gobblet's (the package re-exports them):
  // made while the module is named so, their __module__ and the signatures
  // in the docstrings say gobblet.Game, not gobblet._core.Game.
  const pybind11::object name = module.attr("__name__");
  module.attr("__name__") = "gobblet";
  module.attr("__version__") = gobblet::versionNumber();
  gobblet::python::registerErrors(module);
  // Each part after those whose classes its signatures name (Engine takes a Tablebase).
  gobblet::python::bindRules(module);
  gobblet::python::bindTablebase(module);
  gobblet::python::bindSearch(module);
  gobblet::python::bindProof(module);
  gobblet::python::bindPgn(module);
  gobblet::python::bindPuzzles(module);
  gobblet::python::registerExitHook(module);
  module.attr("__name__") = name;
}
