#include "match/resume.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "match/input_limits.h"
#include "match/record_file_reader.h"

namespace gobblet::match {

namespace {

constexpr char kMatchLinePrefix[] = "gobblet-match match:";

std::vector<std::pair<std::string, std::string>> matchFields(const TournamentSettings& settings) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"variant", settings.variant.name()},
      {"format", settings.format == Format::kGauntlet ? "gauntlet" : "roundrobin"},
      {"seed", absl::StrCat(settings.seed)},
      {"random-plies", absl::StrCat(settings.randomPlies)},
      {"openings", settings.openingsPath},
      {"max-plies", absl::StrCat(settings.game.maxPlies)},
  };
  for (size_t i = 0; i < settings.engines.size(); ++i) {
    const EngineConfig& e = settings.engines[i];
    const std::string key = absl::StrCat("engine", i + 1, ".");
    std::string options;
    for (const auto& [name, value] : e.options) absl::StrAppend(&options, options.empty() ? "" : " ", name, "=", value);
    fields.emplace_back(key + "name", e.name);
    fields.emplace_back(key + "cmd", e.command);
    fields.emplace_back(key + "proto", e.protocol == Protocol::kUci ? "uci" : "ugi");
    fields.emplace_back(key + "limits", e.limits.describe());
    fields.emplace_back(key + "options", options);
  }
  return fields;
}

// Where a record file's whole lines end: the bytes up to and including its
// last newline, and how many lines that is. A record is always written in
// whole lines; bytes after the last newline are a write that was cut.
struct WholeLines {
  uint64_t bytes = 0;
  int64_t lines = 0;
  bool partialTail = false;  // bytes follow the last newline
};

absl::StatusOr<WholeLines> wholeLinesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open record file '", path, "'"));
  WholeLines whole;
  uint64_t offset = 0;
  char block[65536];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    const auto got = static_cast<size_t>(in.gcount());
    for (size_t i = 0; i < got; ++i)
      if (block[i] == '\n') {
        ++whole.lines;
        whole.bytes = offset + i + 1;
      }
    offset += got;
  }
  whole.partialTail = offset > whole.bytes;
  return whole;
}

// The offset of the start of line `line` (1-based; at most one past the
// file's whole lines).
uint64_t offsetOfLine(const std::string& path, int64_t line) {
  std::ifstream in(path, std::ios::binary);
  uint64_t offset = 0;
  int64_t at = 1;
  char block[65536];
  while (at < line && (in.read(block, sizeof block) || in.gcount() > 0)) {
    const auto got = static_cast<size_t>(in.gcount());
    for (size_t i = 0; i < got && at < line; ++i)
      if (block[i] == '\n') {
        ++at;
        if (at == line) return offset + i + 1;
      }
    offset += got;
  }
  return offset;
}

// The first non-blank line of the file (at most kMaxInputLineBytes).
std::string firstLine(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  FileLines lines(in, kMaxInputLineBytes);
  while (std::optional<FileLines::Line> line = lines.next()) {
    if (line->overlong) return "";
    if (!absl::StripAsciiWhitespace(line->text).empty()) return line->text;
  }
  return "";
}

// Whether two engine commands run the same: equal as text, or the same
// words where the first, the program, names the same file another way
// (bin/../bin/gobblet and bin/gobblet).
bool sameCommand(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const std::vector<std::string> wordsA = absl::StrSplit(a, ' ', absl::SkipEmpty());
  const std::vector<std::string> wordsB = absl::StrSplit(b, ' ', absl::SkipEmpty());
  if (wordsA.empty() || wordsA.size() != wordsB.size() ||
      !std::equal(wordsA.begin() + 1, wordsA.end(), wordsB.begin() + 1))
    return false;
  std::error_code ec;
  return std::filesystem::equivalent(wordsA[0], wordsB[0], ec) && !ec;
}

}  // namespace

std::string matchLine(const TournamentSettings& settings) {
  std::string line = kMatchLinePrefix;
  for (const auto& [key, value] : matchFields(settings)) absl::StrAppend(&line, " ", key, "=", quoteRecordField(value));
  return line;
}

std::string recordHeader(const TournamentSettings& settings, bool pgn) {
  return absl::StrCat(pgn ? "% " : "# ", matchLine(settings));
}

absl::StatusOr<ResumableRecord> openRecordForResume(const std::string& path, const TournamentSettings& settings) {
  // Nothing is written to the file before it is known to be this match's
  // record with games that all read: only then is a cut end taken off.
  ResumableRecord result;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return absl::NotFoundError(absl::StrCat("cannot open record file '", path, "'"));
  if (!std::filesystem::is_regular_file(path, ec))
    return absl::InvalidArgumentError(
        absl::StrCat("'", path, "' is not a regular file: it cannot be a record to resume"));
  const absl::StatusOr<WholeLines> whole = wholeLinesOf(path);
  if (!whole.ok()) return whole.status();
  if (whole->lines == 0)  // not even the match line was written whole
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' holds no whole line: it cannot be resumed"));

  // 1. The match line.
  const std::string first = firstLine(path);
  const std::string notResumable =
      absl::StrCat("'", path, "' does not start with the match line that --record writes ('# ", kMatchLinePrefix,
                   " ...', or '% ", kMatchLinePrefix, " ...' in PGN): it cannot be resumed");
  const std::string text(absl::StripLeadingAsciiWhitespace(first));
  if (text.size() < 2 || (text[0] != '#' && text[0] != '%')) return absl::InvalidArgumentError(notResumable);
  const std::string line(absl::StripLeadingAsciiWhitespace(absl::string_view(text).substr(1)));
  if (line.rfind(kMatchLinePrefix, 0) != 0) return absl::InvalidArgumentError(notResumable);
  result.pgn = text[0] == '%';
  auto theirs = splitRecordFields(line.substr(sizeof kMatchLinePrefix - 1));
  if (!theirs.ok())
    return absl::InvalidArgumentError(absl::StrCat("the match line of '", path, "': ", theirs.status().message()));
  const auto ours = matchFields(settings);
  for (const auto& [key, value] : ours) {
    auto it = theirs->find(key);
    if (it == theirs->end())
      return absl::InvalidArgumentError(absl::StrCat("'", path, "' was written by another match: it has no ", key,
                                                     ", this match has ", key, "=", quoteRecordField(value)));
    const bool command = key.size() > 4 && key.compare(key.size() - 4, 4, ".cmd") == 0;
    if (it->second != value && !(command && sameCommand(it->second, value)))
      return absl::InvalidArgumentError(absl::StrCat("'", path, "' was written by another match: ", key, " is ",
                                                     quoteRecordField(it->second), " there, ", quoteRecordField(value),
                                                     " here"));
  }
  if (theirs->size() != ours.size())
    for (const auto& [key, value] : *theirs)
      if (std::find_if(ours.begin(), ours.end(), [&](const auto& f) { return f.first == key; }) == ours.end())
        return absl::InvalidArgumentError(absl::StrCat("'", path, "' was written by another match: it has ", key, "=",
                                                       quoteRecordField(value), ", this match has none"));

  // 2. The games, up to the file's whole lines. A record line cut by a
  // crash is a partial last line; a PGN game cut anywhere is the last game,
  // unreadable or running into the partial line: it is dropped whole.
  auto reader = RecordFileReader::open(path, settings.variant);
  if (!reader.ok()) return reader.status();
  std::vector<RecordFileEntry> entries;
  while (std::optional<RecordFileEntry> entry = (*reader)->next()) {
    if (entry->line > whole->lines) break;  // in the partial last line
    entries.push_back(*std::move(entry));
  }
  int64_t cutLine = 0;  // the line a cut last PGN game starts on
  for (size_t i = 0; i < entries.size(); ++i) {
    RecordFileEntry& entry = entries[i];
    const bool last = i + 1 == entries.size();
    if (result.pgn && last && (!entry.record.ok() || whole->partialTail)) {
      cutLine = entry.line;
      break;
    }
    if (!entry.record.ok())
      return absl::InvalidArgumentError(absl::StrCat(entry.where, ": ", entry.record.status().message()));
    result.games.push_back(*std::move(entry.record));
  }
  if (cutLine == 0 && !whole->partialTail) return result;

  // 3. The cut end taken off, so that new games follow whole lines and games.
  const uint64_t keep = cutLine ? offsetOfLine(path, cutLine) : whole->bytes;
  std::filesystem::resize_file(path, keep, ec);
  if (ec)
    return absl::InvalidArgumentError(absl::StrCat("cannot cut the unfinished end of '", path, "': ", ec.message()));
  (cutLine ? result.droppedPartialGame : result.droppedPartialLine) = true;
  return result;
}

}  // namespace gobblet::match
