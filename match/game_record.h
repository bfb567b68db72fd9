// GameRecord: one finished game, as written to the record file.
//
// One line per game, fields as key=value separated by spaces; values that
// may hold spaces are in double quotes with \" and \\ escaped:
//
//   game=3 p1="d4" p2="d6" variant=gobblet opening="random-2" start="4/4/4/4 1"
//   book=4 moves="L@a1 L@d4 ..." result=1-0 reason=line detail=""
//
//   start   the opening's start position (notation.h text)
//   book    how many of `moves` came from the opening
//   moves   every move from `start`, in order (the opening's first)
//   result  1-0 / 0-1 / 1/2-1/2, player 1 first
//   reason  a Termination name (referee.h)
//   detail  free text: the illegal move, how an engine died, ...
//   illegal the rejected move text (only for reason=illegal-move)
//
// `gobblet-match --replay FILE` re-referees every line (replay.h). The same
// records can be written and read as PGN (pgn.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/game.h"
#include "engine/variant.h"
#include "match/referee.h"

namespace gobblet::match {

struct GameRecord {
  int number = 0;
  std::string player1, player2;  // engine names
  Variant variant;
  std::string opening;
  std::string start;  // position text
  int bookPlies = 0;
  std::vector<std::string> moves;
  GameResult result = GameResult::kNone;
  Termination termination = Termination::kNone;
  std::string detail;
  std::string illegalMove;
  // Both players' limits (TimeControl::describe(), "p1 | p2" when they
  // differ). Written to PGN records only; the line format leaves it out.
  std::string timeControl;
};

// The record as one line (no newline).
std::string formatRecord(const GameRecord& record);
// Parses a line written by formatRecord; unknown keys are errors, so typos
// in hand-edited files are caught. Checks the syntax of every field (the
// variant, the result, the reason) but not the moves: see verifyRecord().
absl::StatusOr<GameRecord> parseRecord(const std::string& line);

// The pieces of the line format, for other lines of the same form (the
// match line of resume.h): a value in double quotes with " and \ escaped
// (a newline becomes a space), and a line split into key -> value with the
// quoting undone (InvalidArgument on a malformed line or a repeated key).
std::string quoteRecordField(const std::string& text);
absl::StatusOr<std::map<std::string, std::string>> splitRecordFields(const std::string& line);

}  // namespace gobblet::match
