// RecordFileReader: the games of a record file, read one at a time.
//
// A record file holds record lines (game_record.h; blank lines and lines
// starting with '#' are skipped) or PGN (pgn.h) when its first non-blank
// character is '[' (or '%', an escape line: resume.h). It is read a line
// and a game at a time (file_lines.h), so the memory taken is bounded by
// input_limits.h whatever the file's size: a line over kMaxInputLineBytes,
// a PGN game over kMaxPgnGameBytes or a game over kMaxGamePlies moves is an unreadable entry naming its line, and
// reading goes on with the next line (record lines) or game (PGN).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "match/file_lines.h"
#include "match/game_record.h"
#include "match/pgn.h"

namespace gobblet::match {

// One game of a record file, read but not verified.
struct RecordFileEntry {
  std::string where;  // "FILE:LINE" (record lines) or "FILE:LINE: game N" (PGN)
  absl::StatusOr<GameRecord> record;
  int64_t line = 0;  // the line it starts on (1-based)
};

class RecordFileReader {
 public:
  // Opens `path`; `defaultVariant` is the variant of PGN games without a
  // Variant tag. NotFound if the file cannot be opened, InvalidArgument if
  // it is a directory.
  static absl::StatusOr<std::unique_ptr<RecordFileReader>> open(const std::string& path, const Variant& defaultVariant);

  // The next game, or nothing at the end of the file.
  std::optional<RecordFileEntry> next();

 private:
  RecordFileReader(const std::string& path, const Variant& defaultVariant);

  std::string path_;
  Variant defaultVariant_;
  std::ifstream in_;
  FileLines lines_;
  std::optional<PgnStream> pgn_;  // set once the file is known to be PGN
  bool formatKnown_ = false;
  int games_ = 0;  // PGN games read
};

}  // namespace gobblet::match
