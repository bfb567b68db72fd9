// PGN: game records as Portable Game Notation, written and read.
//
// Written (formatPgn), one game per block, a blank line between games:
//
//   [Event "gobblet-match"]
//   [Date "2026.11.23"]
//   [Round "3"]
//   [Player1 "d4"]
//   [Player2 "d6"]
//   [Result "1-0"]
//   [Variant "gobblet"]
//   [FEN "4/4/4/4 1"]
//   [TimeControl "10+0.1"]
//   [Termination "line"]
//   [Opening "random-2"]
//   [BookPlies "2"]
//   [PlyCount "7"]
//   (optional: [Detail "..."], [IllegalMove "..."])
//
//   1. X@a1 X@d4 2. a1b2 ... 1-0
//
// Moves are in our notation (docs/notation.md), numbered from the start
// position ("1... x" when player 2 moves first); Termination is a reason
// name of referee.h; the rest mirrors GameRecord (docs/match.md).
//
// Read (parsePgn + recordFromPgn): our own form and what cutegames writes
// (src/match/pgn.cpp there): White/Black (any case) for the players,
// [FEN "startpos"] or no FEN for the start position, no Variant tag (the
// caller's default applies), [Adjudicated "..."] instead of Termination and
// no Adjudicated tag when the engines claimed the end by rule. Movetext may
// hold move numbers, {comments}, ;comments, $NAGs and (variations), which
// are skipped: the game is its main line (as the browser board exports it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "match/file_lines.h"
#include "match/game_record.h"

namespace gobblet::match {

// The header fields a game record does not hold.
struct PgnHeader {
  std::string event = "gobblet-match";
  std::string date = "????.??.??";  // "YYYY.MM.DD"
};

// Today's date (UTC) in PGN form, "YYYY.MM.DD".
std::string pgnDateToday();

// One game in PGN form, ending with a blank line.
std::string formatPgn(const GameRecord& record, const PgnHeader& header);

// One game as read: tags in file order, the move texts, the closing result
// token and the line (1-based) where the game starts.
struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::string> moves;
  std::string resultToken;
  int64_t line = 0;

  // The value of tag `name` (exact case), or nullptr.
  const std::string* tag(const std::string& name) const;
};

// One entry per game read: either the game or an InvalidArgument naming the
// line and what is wrong with it. A bad game does not hide the games after
// it: reading resumes at the next line that starts with '['.
struct PgnEntry {
  int64_t line = 0;  // where the game starts
  absl::StatusOr<PgnGame> game;
};

// Reads PGN games one at a time from lines of a file (file_lines.h), in
// bounded memory: a game over kMaxPgnGameBytes or kMaxGamePlies, or with a
// line over the FileLines' cap, is an error entry (input_limits.h).
class PgnStream {
 public:
  explicit PgnStream(FileLines& lines) : lines_(lines) {}

  // The next game, or nothing at the end of the input.
  std::optional<PgnEntry> next();

 private:
  static constexpr int kEnd = -1;  // end of input, an overlong line, or over the game's cap
  int peek();
  void advance();
  bool stopped() { return peek() == kEnd; }
  int64_t lineNumber();
  void skipSpaceAndEscapes();
  void skipToNextGame();
  absl::StatusOr<PgnGame> readGame();
  absl::Status readTags(PgnGame& game);
  absl::Status readMovetext(PgnGame& game);
  absl::Status skipVariation();

  FileLines& lines_;
  std::optional<FileLines::Line> line_;  // the line being read
  size_t column_ = 0;                    // in line_; its size: at the newline
  int64_t lastLine_ = 0;                 // number of the last line taken
  size_t gameBytes_ = 0;                 // read since the game's start
  bool betweenGames_ = true;             // skipping the space before a game
  bool overlong_ = false;                // line_ exceeded the line cap
};

// Every game of `text` (PgnStream over the text).
std::vector<PgnEntry> parsePgn(const std::string& text);

// The game as a record, to be verified with verifyRecord(). `defaultVariant`
// applies when there is no Variant tag (cutegames writes none). Checks the
// tags (variant, result, termination, ply count) but not the moves.
absl::StatusOr<GameRecord> recordFromPgn(const PgnGame& game, const Variant& defaultVariant);

// Whether `text` looks like PGN (its first non-blank character is '[').
bool looksLikePgn(const std::string& text);

}  // namespace gobblet::match
