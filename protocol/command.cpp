#include "protocol/command.h"

#include "engine/bounded_integer.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace gobblet {

namespace {

// The separators of words: spaces and tabs. (Carriage returns end a line
// of CRLF input: parseCommand strips them from the end.)
bool isSpace(char c) { return c == ' ' || c == '\t'; }

// Any other ASCII control character (NUL, ESC, a newline that a transport
// did not split, DEL ...) has no place in a word: such a line is refused
// whole, so that bytes a page or a file smuggled in never reach a command.
bool isControl(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// A word of the line and where it starts (for "the raw rest of the line").
struct Word {
  std::string_view text;
  size_t offset;
};

std::vector<Word> splitWords(std::string_view line) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    if (i > start) words.push_back({line.substr(start, i - start), start});
  }
  return words;
}

// Case-insensitive comparison with a lowercase ASCII keyword.
bool is(std::string_view word, std::string_view keyword) {
  if (word.size() != keyword.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != keyword[i]) return false;
  }
  return true;
}

absl::Status error(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

std::string join(const std::vector<Word>& words, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out += ' ';
    out += words[i].text;
  }
  return out;
}

absl::Status parseSetOption(std::string_view line, const std::vector<Word>& words, Command& c) {
  if (words.size() < 2 || !is(words[1].text, "name")) return error("setoption expects 'name <id> [value <x>]'");
  size_t valueAt = 2;
  while (valueAt < words.size() && !is(words[valueAt].text, "value")) ++valueAt;
  if (valueAt == 2) return error("setoption: missing option name after 'name'");
  c.optionName = join(words, 2, valueAt);
  if (valueAt < words.size()) {
    c.hasValue = true;
    std::string_view rest = line.substr(words[valueAt].offset + words[valueAt].text.size());
    while (!rest.empty() && isSpace(rest.front())) rest.remove_prefix(1);
    while (!rest.empty() && isSpace(rest.back())) rest.remove_suffix(1);
    c.optionValue = std::string(rest);
  }
  return absl::OkStatus();
}

absl::Status parsePositionCommand(const std::vector<Word>& words, Command& c) {
  if (words.size() < 2) return error("position expects 'startpos' or 'fen <position>'");
  size_t movesAt = words.size();
  for (size_t i = 2; i < words.size(); ++i)
    if (is(words[i].text, "moves")) {
      movesAt = i;
      break;
    }
  if (is(words[1].text, "startpos")) {
    c.startpos = true;
    if (movesAt != 2 && words.size() > 2)
      return error("position startpos: unexpected " + quoteWord(words[2].text) + " (expected 'moves')");
  } else if (is(words[1].text, "fen")) {
    c.startpos = false;
    if (movesAt == 2) return error("position fen: missing the position text");
    c.positionText = join(words, 2, movesAt);
  } else {
    return error("position: expected 'startpos' or 'fen', not " + quoteWord(words[1].text));
  }
  for (size_t i = movesAt + 1; i < words.size(); ++i) c.moves.emplace_back(words[i].text);
  return absl::OkStatus();
}

// Sets the field of `limit` to `value` (within its keyword's bounds).
void setLimit(SearchLimits& l, GoLimit limit, int64_t value) {
  switch (limit) {
    case GoLimit::kP1Time:  // remaining time: GUIs may send a negative value once the clock ran out
    case GoLimit::kP2Time:
      l.time[limit == GoLimit::kP1Time ? 0 : 1] = std::max<int64_t>(value, 0);
      break;
    case GoLimit::kP1Inc:
    case GoLimit::kP2Inc:
      l.inc[limit == GoLimit::kP1Inc ? 0 : 1] = value;
      break;
    case GoLimit::kMovesToGo:
      l.movesToGo = static_cast<int>(value);
      break;
    case GoLimit::kMoveTime:
      l.moveTime = value;
      break;
    case GoLimit::kDepth:  // UGI allows depth 0; a move needs one ply, so it is searched as depth 1
      l.depth = std::max(1, static_cast<int>(value));
      break;
    case GoLimit::kNodes:
      l.nodes = static_cast<uint64_t>(value);
      break;
    case GoLimit::kMate:
      l.mate = static_cast<int>(value);
      break;
    case GoLimit::kInfinite:
      l.infinite = true;
      break;
    case GoLimit::kPonder:
      l.ponder = true;
      break;
    case GoLimit::kProve:  // not a search limit: parseGo sets Command::prove
      break;
  }
}

absl::Status parseGo(const std::vector<Word>& words, Command& c) {
  uint32_t seen = 0;  // one bit per limit, to refuse repeats
  static_assert(std::size(kGoKeywords) <= 32);
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view key = words[i].text;
    const GoKeyword* keyword = nullptr;
    for (const GoKeyword& k : kGoKeywords)
      if (is(key, k.word) || (!k.uciWord.empty() && is(key, k.uciWord))) keyword = &k;
    if (keyword == nullptr) {
      if (is(key, "searchmoves")) return error("go: 'searchmoves' is not supported");
      return error("go: unknown limit " + quoteWord(key));
    }
    const uint32_t bit = 1u << static_cast<int>(keyword->limit);
    if (seen & bit) return error("go: " + quoteWord(key) + " given twice");
    seen |= bit;
    int64_t value = 0;
    if (keyword->takesValue) {
      if (i + 1 >= words.size()) return error("go: " + quoteWord(key) + " needs a value");
      const absl::StatusOr<int64_t> v = parseBoundedInteger(words[++i].text, keyword->min, keyword->max, key);
      if (!v.ok()) return v.status();
      value = *v;
    }
    setLimit(c.limits, keyword->limit, value);
    c.prove = c.prove || keyword->limit == GoLimit::kProve;
  }
  // The prover spends nodes or time, or runs until stopped; nothing else applies.
  constexpr uint32_t kProveLimits =
      1u << static_cast<int>(GoLimit::kProve) | 1u << static_cast<int>(GoLimit::kMoveTime) |
      1u << static_cast<int>(GoLimit::kNodes) | 1u << static_cast<int>(GoLimit::kInfinite);
  if (c.prove && (seen & ~kProveLimits) != 0)
    for (const GoKeyword& k : kGoKeywords)
      if (seen & ~kProveLimits & 1u << static_cast<int>(k.limit))
        return error("go prove: " + quoteWord(k.word) + " does not apply (movetime, nodes or infinite do)");
  return absl::OkStatus();
}

// "'gameover', 'p1turn', ... or 'values'": the questions, for the usage error.
std::string queryWordsText() {
  std::string out;
  for (size_t i = 0; i < std::size(kQueryKeywords); ++i) {
    if (i > 0) out += i + 1 < std::size(kQueryKeywords) ? ", " : " or ";
    out.append("'").append(kQueryKeywords[i].word).append("'");
  }
  return out;
}

absl::Status expectNoMore(const std::vector<Word>& words, size_t used) {
  if (words.size() > used) return error(std::string(words[0].text) + ": unexpected " + quoteWord(words[used].text));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Command> parseCommand(std::string_view line) {
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF
  const std::vector<Word> words = splitWords(line);
  Command c;
  if (words.empty()) return c;
  for (const Word& w : words)
    for (size_t i = 0; i < w.text.size(); ++i)
      if (isControl(w.text[i]))
        return error("control character " + printableText(w.text.substr(i, 1), 8) + " in the word " +
                     quoteWord(w.text) + ": a line must be printable text (line refused)");
  const std::string_view head = words[0].text;
  absl::Status status;
  struct Simple {
    const char* name;
    CommandKind kind;
  };
  static constexpr Simple kSimple[] = {
      {"ugi", CommandKind::kUgi},
      {"uci", CommandKind::kUci},
      {"isready", CommandKind::kIsReady},
      {"uginewgame", CommandKind::kNewGame},
      {"ucinewgame", CommandKind::kNewGame},
      {"stop", CommandKind::kStop},
      {"ponderhit", CommandKind::kPonderHit},
      {"quit", CommandKind::kQuit},
      {"d", CommandKind::kDisplay},
      {"moves", CommandKind::kMoves},
      {"eval", CommandKind::kEval},
  };
  for (const Simple& s : kSimple)
    if (is(head, s.name)) {
      c.kind = s.kind;
      if (auto st = expectNoMore(words, 1); !st.ok()) return st;
      return c;
    }
  if (is(head, "setoption")) {
    c.kind = CommandKind::kSetOption;
    status = parseSetOption(line, words, c);
  } else if (is(head, "position")) {
    c.kind = CommandKind::kPosition;
    status = parsePositionCommand(words, c);
  } else if (is(head, "go")) {
    c.kind = CommandKind::kGo;
    status = parseGo(words, c);
  } else if (is(head, "query")) {
    c.kind = CommandKind::kQuery;
    if (words.size() < 2) return error("query expects " + queryWordsText());
    const QueryKeyword* question = nullptr;
    for (const QueryKeyword& q : kQueryKeywords)
      if (is(words[1].text, q.word)) question = &q;
    if (question == nullptr) return error("query: unknown question " + quoteWord(words[1].text));
    c.query = question->kind;
    status = expectNoMore(words, 2);
  } else if (is(head, "perft")) {
    c.kind = CommandKind::kPerft;
    if (words.size() < 2) return error("perft expects a depth");
    auto d = parseBoundedInteger(words[1].text, 0, kMaxPerftDepth, "perft depth");
    if (!d.ok()) return d.status();
    c.depth = static_cast<int>(*d);
    status = expectNoMore(words, 2);
  } else if (is(head, "bench")) {
    c.kind = CommandKind::kBench;
    if (words.size() >= 2) {
      auto d = parseBoundedInteger(words[1].text, 1, 64, "bench depth");
      if (!d.ok()) return d.status();
      c.depth = static_cast<int>(*d);
    }
    status = expectNoMore(words, 2);
  } else if (is(head, "debug")) {
    c.kind = CommandKind::kDebug;
    if (words.size() < 2 || !(is(words[1].text, "on") || is(words[1].text, "off")))
      return error("debug expects 'on' or 'off'");
    c.debugOn = is(words[1].text, "on");
    status = expectNoMore(words, 2);
  } else if (is(head, "auth")) {
    c.kind = CommandKind::kAuth;
    if (words.size() < 2) return error("auth expects a token");
    c.token = std::string(words[1].text);
    status = expectNoMore(words, 2);
  } else {
    return error("unknown command " + quoteWord(head));
  }
  if (!status.ok()) return status;
  return c;
}

std::string_view queryWord(QueryKind kind) {
  for (const QueryKeyword& q : kQueryKeywords)
    if (q.kind == kind) return q.word;
  return "?";
}

}  // namespace gobblet
