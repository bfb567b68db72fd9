// parseBoundedInteger: the project's one parser of integers given as text
// (protocol numbers, option values, command-line flags, record fields).
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace gobblet {

// Parses the whole of `text` as a decimal integer in [lo, hi]: an optional
// sign ('+' or '-') and digits, nothing else (no spaces, no trailing bytes).
// `what` names the field in the error, which quotes the text with quoteWord()
// (printable, so that hostile bytes never reach an output stream):
//   "depth 'abc' is not an integer"
//   "depth '5000' is out of range [1, 1000]"
absl::StatusOr<int64_t> parseBoundedInteger(std::string_view text, int64_t lo, int64_t hi, std::string_view what);

}  // namespace gobblet
