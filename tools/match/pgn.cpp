#include "tools/match/pgn.h"

#include <cctype>
#include <ctime>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/notation.h"

namespace gobblet::match {

namespace {

// Longest movetext line written (the PGN export format's limit).
constexpr size_t kMovetextWidth = 79;

std::string tagLine(const std::string& name, const std::string& value) {
  std::string escaped;
  for (char c : value) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return absl::StrCat("[", name, " \"", escaped, "\"]\n");
}

// A game's closing token: a result (referee.h's spelling) or "*" (unfinished).
bool isResultToken(const std::string& token) {
  return token == resultToString(GameResult::kNone) || parseResult(token).ok();
}

absl::Status errorAt(int line, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

// Reads PGN text one game at a time. `pos` and `line` track where it is; on
// error the caller skips to the next tag section with skipToNextGame().
class PgnReader {
 public:
  explicit PgnReader(const std::string& text) : text_(text) {}

  bool atEnd() {
    skipSpaceAndEscapes();
    return pos_ >= text_.size();
  }
  int line() const { return line_; }

  absl::StatusOr<PgnGame> readGame() {
    PgnGame game;
    game.line = line_;
    if (auto status = readTags(game); !status.ok()) return status;
    if (auto status = readMovetext(game); !status.ok()) return status;
    return game;
  }

  // Moves to the next line starting with '[' after the current position.
  void skipToNextGame() {
    while (pos_ < text_.size()) {
      const size_t newline = text_.find('\n', pos_);
      if (newline == std::string::npos) {
        pos_ = text_.size();
        return;
      }
      pos_ = newline + 1;
      ++line_;
      if (pos_ < text_.size() && text_[pos_] == '[') return;
    }
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void advance() {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  // Whitespace, and "%" escape lines (PGN: ignored to the end of the line).
  void skipSpaceAndEscapes() {
    while (pos_ < text_.size()) {
      const bool lineStart = pos_ == 0 || text_[pos_ - 1] == '\n';
      if (lineStart && text_[pos_] == '%') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        advance();
      } else {
        return;
      }
    }
  }

  // [Name "value"] lines until the first non-tag character.
  absl::Status readTags(PgnGame& game) {
    std::map<std::string, int> seen;
    while (true) {
      skipSpaceAndEscapes();
      if (peek() != '[') return absl::OkStatus();
      const int at = line_;
      advance();
      while (peek() == ' ' || peek() == '\t') advance();
      std::string name;
      while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_') name += peek(), advance();
      if (name.empty()) return errorAt(at, "a tag needs a name: [Name \"value\"]");
      while (peek() == ' ' || peek() == '\t') advance();
      if (peek() != '"') return errorAt(at, absl::StrCat("tag ", name, ": expected a quoted value"));
      advance();
      std::string value;
      while (true) {
        if (pos_ >= text_.size() || peek() == '\n')
          return errorAt(at, absl::StrCat("tag ", name, ": unterminated value"));
        if (peek() == '"') break;
        if (peek() == '\\') {
          advance();
          if (pos_ >= text_.size() || peek() == '\n')
            return errorAt(at, absl::StrCat("tag ", name, ": unterminated value"));
        }
        value += peek();
        advance();
      }
      advance();
      while (peek() == ' ' || peek() == '\t') advance();
      if (peek() != ']') return errorAt(at, absl::StrCat("tag ", name, ": expected ']' after the value"));
      advance();
      if (!seen.emplace(name, at).second) return errorAt(at, absl::StrCat("tag ", name, " given twice"));
      game.tags.emplace_back(name, value);
    }
  }

  // Tokens up to and including the result token.
  absl::Status readMovetext(PgnGame& game) {
    while (true) {
      skipSpaceAndEscapes();
      const int at = line_;
      if (pos_ >= text_.size())
        return errorAt(at, absl::StrCat("the game starting at line ", game.line,
                                        " ends without a result (1-0, 0-1, 1/2-1/2 or *)"));
      const char c = peek();
      if (c == '[')
        return errorAt(at, absl::StrCat("a tag inside the moves of the game starting at line ", game.line,
                                        " (its movetext needs a result token)"));
      if (c == '{') {
        while (pos_ < text_.size() && peek() != '}') advance();
        if (pos_ >= text_.size()) return errorAt(at, "comment '{' never closed");
        advance();
        continue;
      }
      if (c == ';') {
        while (pos_ < text_.size() && peek() != '\n') advance();
        continue;
      }
      if (c == '(') return errorAt(at, "variations '(...)' are not supported");
      if (c == ')' || c == '}' || c == ']') return errorAt(at, absl::StrCat("unexpected '", std::string(1, c), "'"));
      std::string token;
      while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(peek())) &&
             std::string("{};()[]").find(peek()) == std::string::npos)
        token += peek(), advance();
      if (isResultToken(token)) {
        game.resultToken = token;
        return absl::OkStatus();
      }
      if (token[0] == '$') continue;  // numeric annotation glyph
      // A move number ("12." or "12...") possibly glued to the move ("12.X@a1").
      size_t digits = 0;
      while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
      if (digits > 0 && digits < token.size() && token[digits] == '.') {
        size_t dots = digits;
        while (dots < token.size() && token[dots] == '.') ++dots;
        token = token.substr(dots);
        if (token.empty()) continue;
      }
      while (!token.empty() && (token.back() == '!' || token.back() == '?')) token.pop_back();
      if (token.empty()) return errorAt(at, "an annotation without a move");
      game.moves.push_back(token);
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 1;
};

// The first of `names` present in `game`, or nullptr.
const std::string* anyTag(const PgnGame& game, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const std::string* value = game.tag(name)) return value;
  return nullptr;
}

// cutegames' [Adjudicated "..."] texts (its src/match/pgn.cpp).
absl::StatusOr<Termination> fromAdjudication(const std::string& text) {
  if (text == "Out of time") return Termination::kTimeForfeit;
  if (text == "Crashed") return Termination::kCrash;
  if (text == "Illegal move") return Termination::kIllegalMove;
  if (text == "Maximum game length") return Termination::kMaxPlies;
  // Both engines were asked to judge the final position and disagreed; the
  // game has no result. Re-refereeing says what the rules make of it.
  if (text == "Gameover mismatch" || text == "Result mismatch" || text == "*") return Termination::kNone;
  return absl::InvalidArgumentError(absl::StrCat("unsupported adjudication '", text, "'"));
}

}  // namespace

std::string pgnDateToday() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y.%m.%d", &utc);
  return text;
}

std::string formatPgn(const GameRecord& r, const PgnHeader& header) {
  std::string out = tagLine("Event", header.event) + tagLine("Date", header.date) +
                    tagLine("Round", absl::StrCat(r.number)) + tagLine("Player1", r.player1) +
                    tagLine("Player2", r.player2) + tagLine("Result", resultToString(r.result)) +
                    tagLine("Variant", r.variant.name()) + tagLine("FEN", r.start) +
                    tagLine("TimeControl", r.timeControl.empty() ? "?" : r.timeControl) +
                    tagLine("Termination", toString(r.termination)) + tagLine("Opening", r.opening) +
                    tagLine("BookPlies", absl::StrCat(r.bookPlies)) +
                    tagLine("PlyCount", absl::StrCat(r.moves.size()));
  if (!r.detail.empty()) out += tagLine("Detail", r.detail);
  if (r.termination == Termination::kIllegalMove) out += tagLine("IllegalMove", r.illegalMove);
  out += "\n";

  // Move numbers count from the start position; player 2 first gives "1...".
  auto start = parsePosition(r.variant, r.start);
  int ply = start.ok() && start->sideToMove() == 1 ? 1 : 0;
  std::vector<std::string> tokens;
  if (ply == 1 && !r.moves.empty()) tokens.push_back("1...");
  for (const std::string& move : r.moves) {
    if (ply % 2 == 0) tokens.push_back(absl::StrCat(ply / 2 + 1, "."));
    tokens.push_back(move);
    ++ply;
  }
  tokens.push_back(resultToString(r.result));
  std::string line;
  for (const std::string& token : tokens) {
    if (!line.empty() && line.size() + 1 + token.size() > kMovetextWidth) out += line + "\n", line.clear();
    line += line.empty() ? token : " " + token;
  }
  return out + line + "\n\n";
}

const std::string* PgnGame::tag(const std::string& name) const {
  for (const auto& [key, value] : tags)
    if (key == name) return &value;
  return nullptr;
}

std::vector<PgnEntry> parsePgn(const std::string& text) {
  std::vector<PgnEntry> entries;
  PgnReader reader(text);
  while (!reader.atEnd()) {
    PgnEntry entry;
    entry.line = reader.line();
    entry.game = reader.readGame();
    if (!entry.game.ok()) reader.skipToNextGame();
    entries.push_back(std::move(entry));
  }
  return entries;
}

absl::StatusOr<GameRecord> recordFromPgn(const PgnGame& game, const Variant& defaultVariant) {
  GameRecord r;
  r.variant = defaultVariant;
  if (const std::string* variant = game.tag("Variant")) {
    auto parsed = Variant::parse(*variant);
    if (!parsed.ok()) return absl::InvalidArgumentError(absl::StrCat("tag Variant: ", parsed.status().message()));
    r.variant = *parsed;
  }
  const std::string* fen = game.tag("FEN");
  r.start = fen == nullptr || *fen == "startpos" ? positionToString(Board(r.variant)) : *fen;
  if (!parsePosition(r.variant, r.start).ok())
    return absl::InvalidArgumentError(absl::StrCat("tag FEN '", r.start, "' is not a ", r.variant.name(),
                                                   " position: ", parsePosition(r.variant, r.start).status().message()));
  if (const std::string* round = game.tag("Round"); round == nullptr || !absl::SimpleAtoi(*round, &r.number))
    r.number = 0;
  if (const std::string* p1 = anyTag(game, {"Player1", "White", "white"})) r.player1 = *p1;
  if (const std::string* p2 = anyTag(game, {"Player2", "Black", "black"})) r.player2 = *p2;
  r.moves = game.moves;

  const std::string* resultTag = game.tag("Result");
  if (resultTag != nullptr && *resultTag != game.resultToken)
    return absl::InvalidArgumentError(
        absl::StrCat("tag Result \"", *resultTag, "\" but the moves end with ", game.resultToken));
  if (game.resultToken != "*") {
    auto result = parseResult(game.resultToken);
    if (!result.ok()) return result.status();
    r.result = *result;
  }

  if (const std::string* termination = game.tag("Termination")) {
    r.termination = parseTermination(*termination);
    if (r.termination == Termination::kNone)
      return absl::InvalidArgumentError(absl::StrCat("unknown Termination \"", *termination, "\""));
  } else if (const std::string* adjudicated = game.tag("Adjudicated")) {
    auto termination = fromAdjudication(*adjudicated);
    if (!termination.ok()) return termination.status();
    r.termination = *termination;
    r.detail = absl::StrCat("adjudicated: ", *adjudicated);
  }  // else: the game ended by rule, reason not given (Termination::kNone)

  if (const std::string* plies = game.tag("PlyCount")) {
    size_t count;
    if (!absl::SimpleAtoi(*plies, &count)) return absl::InvalidArgumentError(absl::StrCat("bad PlyCount \"", *plies, "\""));
    if (count != r.moves.size())
      return absl::InvalidArgumentError(absl::StrCat("PlyCount ", count, " but ", r.moves.size(), " moves"));
  }
  if (const std::string* book = game.tag("BookPlies")) {
    if (!absl::SimpleAtoi(*book, &r.bookPlies) || r.bookPlies < 0 || r.bookPlies > static_cast<int>(r.moves.size()))
      return absl::InvalidArgumentError(absl::StrCat("bad BookPlies \"", *book, "\""));
  }
  if (const std::string* opening = game.tag("Opening")) r.opening = *opening;
  if (const std::string* tc = game.tag("TimeControl"); tc != nullptr && *tc != "?") r.timeControl = *tc;
  if (const std::string* detail = game.tag("Detail")) r.detail = *detail;
  if (const std::string* illegal = game.tag("IllegalMove")) r.illegalMove = *illegal;
  return r;
}

bool looksLikePgn(const std::string& text) {
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) return c == '[';
  return false;
}

}  // namespace gobblet::match
