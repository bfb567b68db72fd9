#include "match/resume.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
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

// Cuts a last line without its newline off the file; true if it did.
absl::StatusOr<bool> dropPartialLastLine(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open record file '", path, "'"));
  const std::streamoff size = in.tellg();
  if (size <= 0) return false;
  // Back from the end, a block at a time, to the last newline.
  std::streamoff end = size, keep = 0;
  char last;
  in.seekg(size - 1);
  in.get(last);
  if (last == '\n') return false;
  while (end > 0) {
    const std::streamoff begin = std::max<std::streamoff>(0, end - 4096);
    std::string block(static_cast<size_t>(end - begin), '\0');
    in.seekg(begin);
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    if (const size_t at = block.rfind('\n'); at != std::string::npos) {
      keep = begin + static_cast<std::streamoff>(at) + 1;
      break;
    }
    end = begin;
  }
  in.close();
  std::error_code ec;
  std::filesystem::resize_file(path, static_cast<uintmax_t>(keep), ec);
  if (ec)
    return absl::InvalidArgumentError(absl::StrCat("cannot cut the partial last line of '", path, "': ", ec.message()));
  return true;
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
  ResumableRecord result;
  auto dropped = dropPartialLastLine(path);
  if (!dropped.ok()) return dropped.status();
  result.droppedPartialLine = *dropped;

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
    if (it->second != value)
      return absl::InvalidArgumentError(absl::StrCat("'", path, "' was written by another match: ", key, " is ",
                                                     quoteRecordField(it->second), " there, ", quoteRecordField(value),
                                                     " here"));
  }
  if (theirs->size() != ours.size())
    for (const auto& [key, value] : *theirs)
      if (std::find_if(ours.begin(), ours.end(), [&](const auto& f) { return f.first == key; }) == ours.end())
        return absl::InvalidArgumentError(absl::StrCat("'", path, "' was written by another match: it has ", key, "=",
                                                       quoteRecordField(value), ", this match has none"));

  // 2. The games.
  auto reader = RecordFileReader::open(path, settings.variant);
  if (!reader.ok()) return reader.status();
  while (std::optional<RecordFileEntry> entry = (*reader)->next()) {
    if (!entry->record.ok())
      return absl::InvalidArgumentError(absl::StrCat(entry->where, ": ", entry->record.status().message()));
    result.games.push_back(*std::move(entry->record));
  }
  return result;
}

}  // namespace gobblet::match
