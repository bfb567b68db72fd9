// The module's exceptions, and the one place an absl::Status becomes one.
//
// Bad input is a ValueError subclass that names it (VariantError,
// PositionError, IllegalMoveError, GameOverError); a tablebase file that
// is missing is a FileNotFoundError, one that is wrong a TablebaseError
// (an OSError). The messages are the rules core's and the tablebase's own,
// which quote the text they refuse.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include <pybind11/pybind11.h>

namespace gobblet::python {

struct VariantError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct PositionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct IllegalMoveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct GameOverError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct TablebaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Adds the exception classes to the module.
void registerErrors(pybind11::module_& module);

// Throws the exception for a refused move: IllegalMoveError for bad or
// illegal move text, GameOverError for a move after the end. Ok: nothing.
void throwIfMoveRefused(const absl::Status& status);

// Throws FileNotFoundError for a missing file, else TablebaseError.
[[noreturn]] void throwFileError(const absl::Status& status);

// Throws FileNotFoundError(ENOENT, ..., path) for `path`, as open() does
// for a file that is not there.
[[noreturn]] void throwNotFound(const std::string& path);

}  // namespace gobblet::python
