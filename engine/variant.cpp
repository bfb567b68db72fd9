#include "engine/variant.h"

#include "engine/bounded_integer.h"

#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace gobblet {

std::string Variant::name() const {
  if (*this == gobblet()) return "gobblet";
  if (*this == gobblers()) return "gobblers";
  return absl::StrCat("3x3:", sizes, ",", perSize, ",", moving ? 1 : 0);
}

absl::StatusOr<Variant> Variant::parse(std::string_view textView) {
  // Debian's abseil has its own string_view: work on a std::string.
  const std::string text(textView);
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (lower == "gobblet") return gobblet();
  if (lower == "gobblers") return gobblers();
  if (lower == "tictactoe") return ticTacToe();
  if (lower.rfind("3x3:", 0) != 0)
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown variant '", text, "' (expected gobblet, gobblers, tictactoe or 3x3:<sizes>,<per_size>,<move 0|1>)"));
  const std::vector<std::string> parts = absl::StrSplit(lower.substr(4), ',');
  if (parts.size() != 3)
    return absl::InvalidArgumentError(absl::StrCat("variant '", text, "': expected 3 numbers after '3x3:'"));
  // <sizes> 1..3, <per_size> 1..9, <move> 0 or 1.
  static constexpr struct {
    const char* name;
    int lo, hi;
  } kFields[3] = {{"sizes", 1, 3}, {"per_size", 1, 9}, {"move", 0, 1}};
  int values[3];
  for (int i = 0; i < 3; ++i) {
    auto n = parseBoundedInteger(parts[i], kFields[i].lo, kFields[i].hi, kFields[i].name);
    if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat("variant '", text, "': ", n.status().message()));
    values[i] = static_cast<int>(*n);
  }
  return family(values[0], values[1], values[2] == 1);
}

}  // namespace gobblet
