#include "errors.h"

#include <cerrno>
#include <system_error>

namespace py = pybind11;

namespace gobblet::python {

void registerErrors(py::module_& module) {
  py::register_exception<VariantError>(module, "VariantError", PyExc_ValueError);
  py::register_exception<PositionError>(module, "PositionError", PyExc_ValueError);
  py::register_exception<IllegalMoveError>(module, "IllegalMoveError", PyExc_ValueError);
  py::register_exception<GameOverError>(module, "GameOverError", PyExc_ValueError);
  py::register_exception<TablebaseError>(module, "TablebaseError", PyExc_OSError);
}

void throwIfMoveRefused(const absl::Status& status) {
  if (status.ok()) return;
  const std::string message(status.message());
  if (absl::IsFailedPrecondition(status)) throw GameOverError(message);
  throw IllegalMoveError(message);
}

void throwFileError(const absl::Status& status) {
  const std::string message(status.message());
  if (absl::IsNotFound(status)) {
    PyErr_SetString(PyExc_FileNotFoundError, message.c_str());
    throw py::error_already_set();
  }
  throw TablebaseError(message);
}

void throwNotFound(const std::string& path) {
  PyErr_SetObject(PyExc_FileNotFoundError,
                  pybind11::make_tuple(ENOENT, std::generic_category().message(ENOENT), path).ptr());
  throw pybind11::error_already_set();
}

}  // namespace gobblet::python
