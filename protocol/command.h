// Command: one controller -> engine line of the UGI/UCI protocol, parsed.
//
// The parser is purely syntactic: it splits a line into words, recognises
// the command and its keywords and converts numbers, but knows nothing of
// the game (a position's text and the moves stay text; the session checks
// them against the variant). It never throws and accepts any bytes, so it is
// the fuzz target for hostile input (tests/fuzz/).
//
// Command words and keywords are case-insensitive; words are separated by
// any run of spaces and tabs, and carriage returns at the end of a line are
// dropped (so CRLF input works). A line with any other control character
// (bytes 0x00-0x1f, 0x7f; a carriage return before the end) is refused
// whole.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/printable_text.h"  // quoteWord(), used by every error message
#include "engine/perft.h"  // kMaxPerftDepth
#include "search/search.h"

namespace gobblet {

enum class CommandKind {
  kEmpty,      // blank line: ignored
  kUgi,        // "ugi"
  kUci,        // "uci"
  kIsReady,    // "isready"
  kSetOption,  // "setoption name <id> [value <x>]"
  kNewGame,    // "uginewgame" / "ucinewgame"
  kPosition,   // "position startpos|fen <text> [moves ...]"
  kGo,         // "go [limits...]"
  kStop,       // "stop"
  kPonderHit,  // "ponderhit"
  kQuit,       // "quit"
  kQuery,      // "query gameover|p1turn|result|reason|fen|line"
  kDisplay,    // "d"
  kMoves,      // "moves"
  kPerft,      // "perft <depth>"
  kBench,      // "bench [depth]"
  kEval,       // "eval"
  kDebug,      // "debug on|off" (the Debug option)
  kAuth,       // "auth <token>" (what it grants: server/token_auth.h)
};

enum class QueryKind { kGameOver, kP1Turn, kResult, kReason, kFen, kLine, kValues };

// The parsed line. Only the fields of `kind` are meaningful:
//   kSetOption: optionName (words joined by one space), optionValue (the raw
//               rest of the line after "value", trimmed), hasValue;
//   kPosition:  startpos, positionText (the words after "fen" up to "moves",
//               joined by one space), moves;
//   kGo:        limits (player 1 = UCI white);
//   kQuery:     query;
//   kPerft, kBench: depth (0 = bench default);
//   kDebug:     debugOn;
//   kAuth:      token.
struct Command {
  CommandKind kind = CommandKind::kEmpty;
  std::string optionName, optionValue;
  bool hasValue = false;
  bool startpos = true;
  std::string positionText;
  std::vector<std::string> moves;
  SearchLimits limits;
  QueryKind query = QueryKind::kGameOver;
  int depth = 0;
  bool debugOn = false;
  std::string token;
};

// Limits on numbers, so that no value can overflow the search's arithmetic.
inline constexpr int kMaxGoDepth = 1000;
inline constexpr int64_t kMaxTimeMs = int64_t{1} << 40;  // ~35 years

// Parses one line (without its newline). Errors are InvalidArgument with a
// message naming the offending word, already made printable by quoteWord().
absl::StatusOr<Command> parseCommand(std::string_view line);

// A score as the protocol writes it after `score`: "cp 31", "mate -5
// upperbound" (mate counts plies, > 0 when the side to move wins).
std::string scoreWords(const SearchScore& score);

}  // namespace gobblet
