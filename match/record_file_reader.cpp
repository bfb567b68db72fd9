#include "match/record_file_reader.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "match/input_limits.h"

namespace gobblet::match {

absl::StatusOr<std::unique_ptr<RecordFileReader>> RecordFileReader::open(const std::string& path,
                                                                         const Variant& defaultVariant) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))  // (reading one as a file never ends on some systems)
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is a directory, not a record file"));
  std::unique_ptr<RecordFileReader> reader(new RecordFileReader(path, defaultVariant));
  if (!reader->in_) return absl::NotFoundError(absl::StrCat("cannot open record file '", path, "'"));
  return reader;
}

RecordFileReader::RecordFileReader(const std::string& path, const Variant& defaultVariant)
    : path_(path), defaultVariant_(defaultVariant), in_(path, std::ios::binary), lines_(in_, kMaxInputLineBytes) {}

std::optional<RecordFileEntry> RecordFileReader::next() {
  if (!formatKnown_) {
    // Blank lines before the first text belong to neither format: skip them.
    const FileLines::Line* first;
    while ((first = lines_.peek()) != nullptr && !first->overlong && absl::StripAsciiWhitespace(first->text).empty())
      lines_.next();
    if (first == nullptr) return std::nullopt;
    formatKnown_ = true;
    // PGN starts with a tag, or with an escape line ('%': the match line of
    // a resumable record, resume.h); record lines with "game=".
    const char c = first->overlong ? ' ' : absl::StripLeadingAsciiWhitespace(first->text)[0];
    if (c == '[' || c == '%') pgn_.emplace(lines_);
  }
  if (pgn_) {
    std::optional<PgnEntry> entry = pgn_->next();
    if (!entry) return std::nullopt;
    RecordFileEntry e;
    e.where = absl::StrCat(path_, ":", entry->line, ": game ", ++games_);
    e.record = entry->game.ok() ? recordFromPgn(*entry->game, defaultVariant_) : entry->game.status();
    e.line = entry->line;
    return e;
  }
  while (std::optional<FileLines::Line> line = lines_.next()) {
    const std::string where = absl::StrCat(path_, ":", line->number);
    if (line->overlong)
      return RecordFileEntry{
          where, absl::InvalidArgumentError(absl::StrCat("a line longer than ", kMaxInputLineBytes, " bytes")),
          line->number};
    if (absl::StripAsciiWhitespace(line->text).empty() || line->text[0] == '#') continue;
    return RecordFileEntry{where, parseRecord(line->text), line->number};
  }
  return std::nullopt;
}

}  // namespace gobblet::match
