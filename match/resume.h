// Resume: continuing an interrupted match from its record (--resume FILE).
//
// A record written by --record starts with the match line: what a resumed
// match must share with the one that wrote it, as key="value" fields (the
// line format's quoting, game_record.h), after '#' in record lines and '%'
// (a PGN escape line) in PGN, so that readers of either format skip it:
//
//   # gobblet-match match: variant="gobblers" format="roundrobin" seed="1" random-plies="2" openings=""
//     max-plies="400" engine1.name="a" engine1.cmd="..." engine1.proto="ugi" engine1.limits="nodes 200"
//     engine1.options="Hash=4" engine2.name=...            (one line)
//
// --games, --concurrency, --sprt, --timeout and --margin are not on it: a
// resumed match may play more games, on more cores, with another test or
// more patient timeouts. The games of the record are checked against the
// schedule by the tournament (TournamentSettings::resumed): each must be the
// game of its number (players, variant, opening) and replay consistently.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/game_record.h"
#include "match/tournament.h"

namespace gobblet::match {

// The match line's fields, without the leading '#' or '%'.
std::string matchLine(const TournamentSettings& settings);
// The record's first line: "# <match line>" or, for PGN, "% <match line>".
std::string recordHeader(const TournamentSettings& settings, bool pgn);

struct ResumableRecord {
  bool pgn = false;                 // the record's format, which new games keep
  std::vector<GameRecord> games;    // as read, in file order
  bool droppedPartialLine = false;  // a last line without its newline was cut off
  bool droppedPartialGame = false;  // a last PGN game cut short was cut off
};

// Reads the record FILE of an interrupted match for --resume: its first
// non-blank line must be the match line of `settings` (a differing field is
// named: "engine2.limits is "nodes 300" in FILE, "nodes 200" here"), and
// every game must read. A last line without a newline (the match was killed
// while writing it, or the disk was full), and in PGN a last game cut short
// anywhere, are cut off the file, so that new games are appended after
// whole lines and games; that game is played again. The file is changed
// only after all of that is checked. NotFound if FILE cannot be opened,
// InvalidArgument for anything else (a directory, a device...).
absl::StatusOr<ResumableRecord> openRecordForResume(const std::string& path, const TournamentSettings& settings);

}  // namespace gobblet::match
