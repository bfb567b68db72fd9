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
#include "engine/perft.h"           // kMaxPerftDepth
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
  kGo,         // "go [limits...]" (the words: kGoKeywords)
  kStop,       // "stop"
  kPonderHit,  // "ponderhit"
  kQuit,       // "quit"
  kQuery,      // "query <question>" (the words: kQueryKeywords)
  kDisplay,    // "d"
  kMoves,      // "moves"
  kPerft,      // "perft <depth>"
  kBench,      // "bench [depth]"
  kEval,       // "eval"
  kDebug,      // "debug on|off" (the Debug option)
  kAuth,       // "auth <token>" (what it grants: server/token_auth.h)
};

enum class QueryKind { kGameOver, kP1Turn, kResult, kReason, kFen, kLine, kValues, kWdl, kProof };

// The questions of `query`, each with its word: the one list of them. The
// parser reads the word from here, the session names the question by it,
// and the usage error lists them in this order. (UGI's are gameover,
// p1turn and result; the others are ours: docs/protocol.md.)
struct QueryKeyword {
  std::string_view word;
  QueryKind kind;
};
inline constexpr QueryKeyword kQueryKeywords[] = {
    {"gameover", QueryKind::kGameOver}, {"p1turn", QueryKind::kP1Turn}, {"result", QueryKind::kResult},
    {"reason", QueryKind::kReason},     {"fen", QueryKind::kFen},       {"line", QueryKind::kLine},
    {"values", QueryKind::kValues},     {"wdl", QueryKind::kWdl},       {"proof", QueryKind::kProof},
};

// The word of a question: "gameover" for kGameOver.
std::string_view queryWord(QueryKind kind);

// The parsed line. Only the fields of `kind` are meaningful:
//   kSetOption: optionName (words joined by one space), optionValue (the raw
//               rest of the line after "value", trimmed), hasValue;
//   kPosition:  startpos, positionText (the words after "fen" up to "moves",
//               joined by one space), moves;
//   kGo:        limits (player 1 = UCI white), prove (`go prove`: only
//               movetime, nodes and infinite may come with it);
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
  bool prove = false;
  QueryKind query = QueryKind::kGameOver;
  int depth = 0;
  bool debugOn = false;
  std::string token;
};

// Limits on numbers, so that no value can overflow the search's arithmetic.
inline constexpr int kMaxGoDepth = 1000;
inline constexpr int64_t kMaxTimeMs = int64_t{1} << 40;  // ~35 years

// The limits `go` takes, and the field of SearchLimits each one sets.
enum class GoLimit {
  kP1Time,     // time[0], ms (a negative time, a clock that ran out, counts as 0)
  kP2Time,     // time[1]
  kP1Inc,      // inc[0], ms
  kP2Inc,      // inc[1]
  kMovesToGo,  // movesToGo
  kMoveTime,   // moveTime, ms
  kDepth,      // depth (0 is searched as 1: a move needs a ply)
  kNodes,      // nodes
  kMate,       // mate, in moves
  kInfinite,   // infinite (takes no value)
  kPonder,     // ponder (takes no value)
  kProve,      // prove (takes no value): Command::prove, the prover instead of the search
};

// The words of `go`, one entry per limit: the one list of them. The parser
// reads a word, its UCI spelling and its value's bounds from here, and a
// limit may be given once, under either spelling.
struct GoKeyword {
  GoLimit limit;
  std::string_view word;     // the UGI word
  std::string_view uciWord;  // the UCI spelling, where it is another word (else empty)
  bool takesValue;           // false: a switch (infinite, ponder)
  int64_t min, max;          // the value's bounds, both allowed
};
inline constexpr GoKeyword kGoKeywords[] = {
    {GoLimit::kP1Time, "p1time", "wtime", true, -kMaxTimeMs, kMaxTimeMs},
    {GoLimit::kP2Time, "p2time", "btime", true, -kMaxTimeMs, kMaxTimeMs},
    {GoLimit::kP1Inc, "p1inc", "winc", true, 0, kMaxTimeMs},
    {GoLimit::kP2Inc, "p2inc", "binc", true, 0, kMaxTimeMs},
    {GoLimit::kMovesToGo, "movestogo", "", true, 1, 10000},
    {GoLimit::kMoveTime, "movetime", "", true, 0, kMaxTimeMs},
    {GoLimit::kDepth, "depth", "", true, 0, kMaxGoDepth},
    // Node counts may exceed int64 in principle; 2^62 is more than enough.
    {GoLimit::kNodes, "nodes", "", true, 1, int64_t{1} << 62},
    {GoLimit::kMate, "mate", "", true, 1, kMaxGoDepth},
    {GoLimit::kInfinite, "infinite", "", false, 0, 0},
    {GoLimit::kPonder, "ponder", "", false, 0, 0},
    {GoLimit::kProve, "prove", "", false, 0, 0},
};

// Parses one line (without its newline). Errors are InvalidArgument with a
// message naming the offending word, already made printable by quoteWord().
absl::StatusOr<Command> parseCommand(std::string_view line);

}  // namespace gobblet
