#include "engine/variant.h"

#include <cassert>
#include <span>
#include <vector>

#include "engine/bounded_integer.h"
#include "engine/printable_text.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace gobblet {

namespace {

// The family forms' prefixes, "3x3:" and "4x4:".
constexpr std::string_view kFamilyPrefix = kVariantFamilyForm.substr(0, 4);
constexpr std::string_view k4x4FamilyPrefix = kVariant4x4FamilyForm.substr(0, 4);
static_assert(kFamilyPrefix == "3x3:" && k4x4FamilyPrefix == "4x4:");

// A family form's numbers: "2,3,1" after the prefix, each in its range.
struct FamilyField {
  const char* name;
  int lo, hi;
};
absl::StatusOr<std::vector<int>> parseFamilyNumbers(const std::string& text, const std::string& numbers,
                                                    std::string_view prefix, std::span<const FamilyField> fields) {
  const std::vector<std::string> parts = absl::StrSplit(numbers, ',');
  if (parts.size() != fields.size())
    return absl::InvalidArgumentError(absl::StrCat("variant ", quoteWord(text), ": expected ", fields.size(),
                                                   " numbers after '", std::string(prefix), "'"));
  std::vector<int> values;
  for (size_t i = 0; i < fields.size(); ++i) {
    const absl::string_view number = absl::StripAsciiWhitespace(parts[i]);
    auto n =
        parseBoundedInteger(std::string_view(number.data(), number.size()), fields[i].lo, fields[i].hi, fields[i].name);
    if (!n.ok())
      return absl::InvalidArgumentError(absl::StrCat("variant ", quoteWord(text), ": ", n.status().message()));
    values.push_back(static_cast<int>(*n));
  }
  return values;
}

}  // namespace

std::string Variant::name() const {
  for (const NamedVariant& named : kNamedVariants)
    if (named.canonical && named.variant == *this) return std::string(named.name);
  if (stacks) return absl::StrCat(std::string(k4x4FamilyPrefix), sizes, ",", perSize);
  return absl::StrCat(std::string(kFamilyPrefix), sizes, ",", perSize, ",", moving ? 1 : 0);
}

std::string variantNamesText(int boardSide) {
  assert(boardSide == 0 || boardSide == 3 || boardSide == 4);
  std::vector<std::string_view> names;
  for (const NamedVariant& named : kNamedVariants)
    if (boardSide == 0 || named.variant.n == boardSide) names.push_back(named.name);
  if (boardSide != 4) names.push_back(kVariantFamilyForm);
  if (boardSide != 3) names.push_back(kVariant4x4FamilyForm);
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
  // <sizes> 1..4, <stacks> 1..3.
  static constexpr FamilyField k4x4Fields[] = {{"sizes", 1, 4}, {"stacks", 1, 3}};
  // <sizes> 1..3, <per_size> 1..9, <move> 0 or 1.
  static constexpr FamilyField k3x3Fields[] = {{"sizes", 1, 3}, {"per_size", 1, 9}, {"move", 0, 1}};
  if (lower.rfind(k4x4FamilyPrefix, 0) == 0) {
    auto values = parseFamilyNumbers(text, lower.substr(k4x4FamilyPrefix.size()), k4x4FamilyPrefix, k4x4Fields);
    if (!values.ok()) return values.status();
    return family4x4((*values)[0], (*values)[1]);
  }
  if (lower.rfind(kFamilyPrefix, 0) != 0)
    return absl::InvalidArgumentError(
        absl::StrCat("unknown variant ", quoteWord(text), " (expected ", variantNamesText(), ")"));
  auto values = parseFamilyNumbers(text, lower.substr(kFamilyPrefix.size()), kFamilyPrefix, k3x3Fields);
  if (!values.ok()) return values.status();
  return family((*values)[0], (*values)[1], (*values)[2] == 1);
}

}  // namespace gobblet
