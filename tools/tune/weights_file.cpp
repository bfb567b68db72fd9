#include "tools/tune/weights_file.h"

#include <sstream>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace gobblet::tune {

namespace {

constexpr char kHeader[] =
    "// The evaluation's weights (data), in centi-units. \"rank\" counts down from\n"
    "// the largest size: rank 0 is the largest piece of the variant (X in 4x4, L\n"
    "// in Gobblers), which no piece can gobble. search/evaluate.h numbers them and\n"
    "// says how each is used; gobblet-tune (tools/tune) fits them to game results\n"
    "// and writes this file anew (docs/search.md), or edit it by hand.\n"
    "//\n";
constexpr char kProvenancePrefix[] = "// Values: ";
constexpr char kContinuationPrefix[] = "//   ";
constexpr size_t kWidth = 100;
constexpr char kNoProvenance[] = "(not given)";

void writeComment(std::ostringstream& out, const std::string& text) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) out << "// " << line << "\n";
}

}  // namespace

std::string formatWeightsFile(const EvalWeights& weights, const std::string& provenance) {
  std::ostringstream out;
  out << kHeader;
  // The provenance, words wrapped at kWidth columns.
  std::string line = kProvenancePrefix;
  bool first = true;
  // Words longer than the width stay whole on a line of their own.
  for (absl::string_view word :
       absl::StrSplit(provenance.empty() ? kNoProvenance : provenance, ' ', absl::SkipEmpty())) {
    if (!first && line.size() + 1 + word.size() > kWidth) {
      out << line << "\n";
      line = kContinuationPrefix;
      first = true;
    }
    if (!first) line += ' ';
    line.append(word.data(), word.size());
    first = false;
  }
  out << line << "\n\n#pragma once\n\nnamespace gobblet::eval_weights {\n";
  for (const EvalWeightGroup& g : kEvalWeightGroups) {
    out << "\n";
    writeComment(out, g.comment);
    if (g.rows == 1 && g.columns == 1) {
      out << "constexpr int " << g.name << " = " << weights[g.first] << ";\n";
      continue;
    }
    const auto row = [&](int r) {
      std::string s = "{";
      for (int c = 0; c < g.columns; ++c) s += (c ? ", " : "") + std::to_string(weights[g.first + r * g.columns + c]);
      return s + "}";
    };
    if (g.rows == 1) {
      out << "constexpr int " << g.name << "[" << g.columns << "] = " << row(0) << ";\n";
      continue;
    }
    out << "constexpr int " << g.name << "[" << g.rows << "][" << g.columns << "] = {\n";
    for (int r = 0; r < g.rows; ++r) out << "    " << row(r) << ",\n";
    out << "};\n";
  }
  out << "\n}  // namespace gobblet::eval_weights\n";
  return out.str();
}

std::string provenanceOf(const std::string& fileText) {
  if (!absl::StartsWith(fileText, kHeader)) return "";
  std::vector<std::string> words;
  std::istringstream lines(fileText.substr(sizeof(kHeader) - 1));
  std::string line;
  for (bool first = true; std::getline(lines, line); first = false) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, first ? kProvenancePrefix : kContinuationPrefix)) break;
    words.emplace_back(rest);
  }
  return absl::StrJoin(words, " ");
}

}  // namespace gobblet::tune
