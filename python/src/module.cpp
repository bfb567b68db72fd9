// gobblet._core: the Python module's compiled part (the package gobblet
// re-exports it). See docs/python.md.
#include "bindings.h"
#include "engine/version.h"
#include "errors.h"
#include "exit_guard.h"

PYBIND11_MODULE(_core, module) {
  module.doc() = "Gobblet's rules, search, tablebases and proofs (the gobblet engine's libraries).";
  module.attr("__version__") = gobblet::versionNumber();
  gobblet::python::registerErrors(module);
  gobblet::python::bindRules(module);
  gobblet::python::bindSearch(module);
  gobblet::python::bindTablebase(module);
  gobblet::python::bindProof(module);
  gobblet::python::registerExitHook(module);
}
