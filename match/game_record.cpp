#include "match/game_record.h"

#include <cstdint>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/bounded_integer.h"
#include "match/input_limits.h"

namespace gobblet::match {

std::string quoteRecordField(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

absl::StatusOr<std::map<std::string, std::string>> splitRecordFields(const std::string& line) {
  std::map<std::string, std::string> fields;
  size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i == line.size()) break;
    const size_t eq = line.find('=', i);
    if (eq == std::string::npos || eq == i || line.substr(i, eq - i).find(' ') != std::string::npos)
      return absl::InvalidArgumentError(absl::StrCat("expected key=value at column ", i + 1));
    const std::string key = line.substr(i, eq - i);
    std::string value;
    i = eq + 1;
    if (i < line.size() && line[i] == '"') {
      for (++i;; ++i) {
        if (i >= line.size()) return absl::InvalidArgumentError(absl::StrCat("unterminated quote in '", key, "'"));
        if (line[i] == '"') break;
        if (line[i] == '\\' && ++i >= line.size())
          return absl::InvalidArgumentError(absl::StrCat("unterminated quote in '", key, "'"));
        value += line[i];
      }
      ++i;
      if (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
        return absl::InvalidArgumentError(absl::StrCat("text after the closing quote of '", key, "'"));
    } else {
      const size_t end = line.find_first_of(" \t\r", i);
      value = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? line.size() : end;
    }
    if (!fields.emplace(key, value).second)
      return absl::InvalidArgumentError(absl::StrCat("duplicate key '", key, "'"));
  }
  return fields;
}

namespace {

std::string quoted(const std::string& text) { return quoteRecordField(text); }

}  // namespace

std::string formatRecord(const GameRecord& r) {
  std::string line = absl::StrCat("game=", r.number, " p1=", quoted(r.player1), " p2=", quoted(r.player2),
                                  " variant=", r.variant.name(), " opening=", quoted(r.opening),
                                  " start=", quoted(r.start), " book=", r.bookPlies,
                                  " moves=", quoted(absl::StrJoin(r.moves, " ")), " result=", resultToString(r.result),
                                  " reason=", toString(r.termination), " detail=", quoted(r.detail));
  if (r.termination == Termination::kIllegalMove) absl::StrAppend(&line, " illegal=", quoted(r.illegalMove));
  return line;
}

absl::StatusOr<GameRecord> parseRecord(const std::string& line) {
  auto fields = splitRecordFields(line);
  if (!fields.ok()) return fields.status();
  GameRecord r;
  static const char* const kRequired[] = {"game",  "p1",   "p2",    "variant", "opening",
                                          "start", "book", "moves", "result",  "reason"};
  for (const char* key : kRequired)
    if (!fields->count(key)) return absl::InvalidArgumentError(absl::StrCat("missing field '", key, "'"));
  for (const auto& [key, value] : *fields) {
    if (key == "game") {
      auto number = parseBoundedInteger(value, 0, INT32_MAX, "game number");
      if (!number.ok()) return number.status();
      r.number = static_cast<int>(*number);
    } else if (key == "p1") {
      r.player1 = value;
    } else if (key == "p2") {
      r.player2 = value;
    } else if (key == "variant") {
      auto variant = Variant::parse(value);
      if (!variant.ok()) return variant.status();
      r.variant = *variant;
    } else if (key == "opening") {
      r.opening = value;
    } else if (key == "start") {
      r.start = value;
    } else if (key == "book") {
      auto plies = parseBoundedInteger(value, 0, INT32_MAX, "book ply count");
      if (!plies.ok()) return plies.status();
      r.bookPlies = static_cast<int>(*plies);
    } else if (key == "moves") {
      // Counted before they are split: a long game costs no more than its line.
      int64_t count = 0;
      for ([[maybe_unused]] absl::string_view move : absl::StrSplit(value, ' ', absl::SkipEmpty())) ++count;
      if (count > kMaxGamePlies)
        return absl::InvalidArgumentError(absl::StrCat(count, " moves: a game has at most ", kMaxGamePlies));
      r.moves = absl::StrSplit(value, ' ', absl::SkipEmpty());
    } else if (key == "result") {
      auto result = parseResult(value);
      if (!result.ok()) return result.status();
      r.result = *result;
    } else if (key == "reason") {
      r.termination = parseTermination(value);
      if (r.termination == Termination::kNone)
        return absl::InvalidArgumentError(absl::StrCat("unknown reason '", value, "'"));
    } else if (key == "detail") {
      r.detail = value;
    } else if (key == "illegal") {
      r.illegalMove = value;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown field '", key, "'"));
    }
  }
  if (r.bookPlies > static_cast<int>(r.moves.size())) return absl::InvalidArgumentError("more book plies than moves");
  return r;
}

}  // namespace gobblet::match
