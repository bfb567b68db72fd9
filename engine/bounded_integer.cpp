#include "engine/bounded_integer.h"

#include <charconv>
#include <string>

#include "engine/printable_text.h"

namespace gobblet {

absl::StatusOr<int64_t> parseBoundedInteger(std::string_view text, int64_t lo, int64_t hi, std::string_view what) {
  std::string_view digits = text;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  int64_t value = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  const bool whole = !digits.empty() && ptr == end && !(digits[0] == '-' && text[0] == '+');
  if (whole && (ec == std::errc::result_out_of_range || (ec == std::errc() && (value < lo || value > hi))))
    return absl::InvalidArgumentError(std::string(what) + " " + quoteWord(text) + " is out of range [" +
                                      std::to_string(lo) + ", " + std::to_string(hi) + "]");
  if (!whole || ec != std::errc())
    return absl::InvalidArgumentError(std::string(what) + " " + quoteWord(text) + " is not an integer");
  return value;
}

}  // namespace gobblet
