#include "engine/variant.h"

#include <cassert>
#include <vector>

#include "engine/bounded_integer.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace gobblet {

namespace {

// The family form's prefix, "3x3:" (kVariantFamilyForm).
constexpr std::string_view kFamilyPrefix = kVariantFamilyForm.substr(0, 4);
static_assert(kFamilyPrefix == "3x3:");

}  // namespace

std::string Variant::name() const {
  for (const NamedVariant& named : kNamedVariants)
    if (named.canonical && named.variant == *this) return std::string(named.name);
  return absl::StrCat(std::string(kFamilyPrefix), sizes, ",", perSize, ",", moving ? 1 : 0);
}

std::string variantNamesText(int boardSide) {
  assert(boardSide == 0 || boardSide == 3 || boardSide == 4);
  std::vector<std::string_view> names;
  for (const NamedVariant& named : kNamedVariants)
    if (boardSide == 0 || named.variant.n == boardSide) names.push_back(named.name);
  if (boardSide != 4) names.push_back(kVariantFamilyForm);  // the family is 3x3
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ").append(names[i]);
  return out;
}

absl::StatusOr<Variant> Variant::parse(std::string_view textView) {
  // Debian's abseil has its own string_view: work on a std::string.
  const std::string text(textView);
  // Lower case, one blank between words: "Gobblet  Gobblers" is "gobblet gobblers".
  const std::string lower =
      absl::StrJoin(absl::StrSplit(absl::AsciiStrToLower(text), absl::ByAnyChar(" \t"), absl::SkipEmpty()), " ");
  for (const NamedVariant& named : kNamedVariants) {
    if (lower == named.name) return named.variant;
    for (std::string_view alias : named.aliases)
      if (lower == alias) return named.variant;
  }
  if (lower.rfind(kFamilyPrefix, 0) != 0)
    return absl::InvalidArgumentError(absl::StrCat("unknown variant '", text, "' (expected ", variantNamesText(), ")"));
  const std::vector<std::string> parts = absl::StrSplit(lower.substr(kFamilyPrefix.size()), ',');
  if (parts.size() != 3)
    return absl::InvalidArgumentError(
        absl::StrCat("variant '", text, "': expected 3 numbers after '", std::string(kFamilyPrefix), "'"));
  // <sizes> 1..3, <per_size> 1..9, <move> 0 or 1.
  static constexpr struct {
    const char* name;
    int lo, hi;
  } kFields[3] = {{"sizes", 1, 3}, {"per_size", 1, 9}, {"move", 0, 1}};
  int values[3];
  for (int i = 0; i < 3; ++i) {
    const absl::string_view number = absl::StripAsciiWhitespace(parts[i]);
    auto n = parseBoundedInteger(std::string_view(number.data(), number.size()), kFields[i].lo, kFields[i].hi,
                                 kFields[i].name);
    if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat("variant '", text, "': ", n.status().message()));
    values[i] = static_cast<int>(*n);
  }
  return family(values[0], values[1], values[2] == 1);
}

}  // namespace gobblet
