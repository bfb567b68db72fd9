#include "protocol/command.h"

#include "engine/bounded_integer.h"

#include <algorithm>
#include <charconv>

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

absl::Status parseGo(const std::vector<Word>& words, Command& c) {
  SearchLimits& l = c.limits;
  uint32_t seen = 0;  // one bit per keyword, to refuse repeats
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view key = words[i].text;
    struct Field {
      const char* names[2];
      int id;
    };
    static constexpr Field kFields[] = {
        {{"p1time", "wtime"}, 0}, {{"p2time", "btime"}, 1}, {{"p1inc", "winc"}, 2}, {{"p2inc", "binc"}, 3},
        {{"movestogo", nullptr}, 4}, {{"movetime", nullptr}, 5}, {{"depth", nullptr}, 6},
        {{"nodes", nullptr}, 7},     {{"mate", nullptr}, 8},     {{"infinite", nullptr}, 9},
        {{"ponder", nullptr}, 10},
    };
    int id = -1;
    for (const Field& f : kFields)
      if (is(key, f.names[0]) || (f.names[1] && is(key, f.names[1]))) id = f.id;
    if (id < 0) {
      if (is(key, "searchmoves")) return error("go: 'searchmoves' is not supported");
      return error("go: unknown limit " + quoteWord(key));
    }
    if (seen & (1u << id)) return error("go: " + quoteWord(key) + " given twice");
    seen |= 1u << id;
    if (id == 9) {
      l.infinite = true;
      continue;
    }
    if (id == 10) {
      l.ponder = true;
      continue;
    }
    if (i + 1 >= words.size()) return error("go: " + quoteWord(key) + " needs a value");
    const std::string_view value = words[++i].text;
    const std::string name(key);
    absl::StatusOr<int64_t> v;
    switch (id) {
      case 0:
      case 1:  // Remaining time: GUIs may send a negative value once the clock ran out.
        if (!(v = parseBoundedInteger(value, -kMaxTimeMs, kMaxTimeMs, name)).ok()) return v.status();
        l.time[id] = *v < 0 ? 0 : *v;
        break;
      case 2:
      case 3:
        if (!(v = parseBoundedInteger(value, 0, kMaxTimeMs, name)).ok()) return v.status();
        l.inc[id - 2] = *v;
        break;
      case 4:
        if (!(v = parseBoundedInteger(value, 1, 10000, name)).ok()) return v.status();
        l.movesToGo = static_cast<int>(*v);
        break;
      case 5:
        if (!(v = parseBoundedInteger(value, 0, kMaxTimeMs, name)).ok()) return v.status();
        l.moveTime = *v;
        break;
      case 6:  // UGI allows depth 0; a move needs one ply, so it is searched as depth 1
        if (!(v = parseBoundedInteger(value, 0, kMaxGoDepth, name)).ok()) return v.status();
        l.depth = std::max(1, static_cast<int>(*v));
        break;
      case 7: {
        // Node counts may exceed int64 in principle; 2^62 is more than enough.
        if (!(v = parseBoundedInteger(value, 1, int64_t{1} << 62, name)).ok()) return v.status();
        l.nodes = static_cast<uint64_t>(*v);
        break;
      }
      case 8:
        if (!(v = parseBoundedInteger(value, 1, kMaxGoDepth, name)).ok()) return v.status();
        l.mate = static_cast<int>(*v);
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status expectNoMore(const std::vector<Word>& words, size_t used) {
  if (words.size() > used)
    return error(std::string(words[0].text) + ": unexpected " + quoteWord(words[used].text));
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
      {"ugi", CommandKind::kUgi},          {"uci", CommandKind::kUci},
      {"isready", CommandKind::kIsReady},  {"uginewgame", CommandKind::kNewGame},
      {"ucinewgame", CommandKind::kNewGame}, {"stop", CommandKind::kStop},
      {"ponderhit", CommandKind::kPonderHit}, {"quit", CommandKind::kQuit},
      {"d", CommandKind::kDisplay},        {"moves", CommandKind::kMoves},
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
    if (words.size() < 2)
      return error("query expects 'gameover', 'p1turn', 'result', 'reason', 'fen', 'line' or 'values'");
    if (is(words[1].text, "gameover")) c.query = QueryKind::kGameOver;
    else if (is(words[1].text, "p1turn")) c.query = QueryKind::kP1Turn;
    else if (is(words[1].text, "result")) c.query = QueryKind::kResult;
    else if (is(words[1].text, "reason")) c.query = QueryKind::kReason;
    else if (is(words[1].text, "fen")) c.query = QueryKind::kFen;
    else if (is(words[1].text, "line")) c.query = QueryKind::kLine;
    else if (is(words[1].text, "values")) c.query = QueryKind::kValues;
    else return error("query: unknown question " + quoteWord(words[1].text));
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

std::string scoreWords(const SearchScore& score) {
  std::string out = std::string(score.isMate ? "mate " : "cp ") + std::to_string(score.value);
  if (score.bound == SearchScore::kLower) out += " lowerbound";
  if (score.bound == SearchScore::kUpper) out += " upperbound";
  return out;
}

}  // namespace gobblet
