#include "match/pgn.h"

#include <cctype>
#include <ctime>
#include <map>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/notation.h"
#include "match/input_limits.h"

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

absl::Status errorAt(int64_t line, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

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
                    tagLine("BookPlies", absl::StrCat(r.bookPlies)) + tagLine("PlyCount", absl::StrCat(r.moves.size()));
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

int PgnStream::peek() {
  if (!line_) {
    line_ = lines_.next();
    column_ = 0;
    if (!line_) return kEnd;
    lastLine_ = line_->number;
    overlong_ = overlong_ || line_->overlong;
  }
  if (overlong_ || gameBytes_ > kMaxPgnGameBytes) return kEnd;
  return column_ < line_->text.size() ? static_cast<unsigned char>(line_->text[column_]) : '\n';
}

void PgnStream::advance() {
  if (peek() == kEnd) return;
  if (!betweenGames_) ++gameBytes_;
  if (column_ < line_->text.size()) {
    ++column_;
  } else {  // past the newline: the next line is taken when needed
    line_.reset();
    column_ = 0;
  }
}

int64_t PgnStream::lineNumber() { return line_ ? line_->number : lastLine_ + 1; }

// Whitespace, and "%" escape lines (PGN: ignored to the end of the line).
void PgnStream::skipSpaceAndEscapes() {
  while (!stopped()) {
    if (peek() == '%' && column_ == 0) {
      while (!stopped() && peek() != '\n') advance();
    } else if (std::isspace(peek())) {
      advance();
    } else {
      return;
    }
  }
}

// Moves to the next line starting with '[' after the current position.
void PgnStream::skipToNextGame() {
  line_.reset();
  overlong_ = false;
  while (const FileLines::Line* next = lines_.peek()) {
    if (!next->overlong && !next->text.empty() && next->text[0] == '[') return;
    lastLine_ = next->number;
    lines_.next();
  }
}

absl::StatusOr<PgnGame> PgnStream::readGame() {
  PgnGame game;
  game.line = lineNumber();
  gameBytes_ = 0;
  betweenGames_ = false;
  absl::Status status = readTags(game);
  if (status.ok()) status = readMovetext(game);
  // A cap reached shows as the end of the input to the parsing above: say
  // which cap instead.
  if (overlong_) return errorAt(lineNumber(), absl::StrCat("a line longer than ", kMaxInputLineBytes, " bytes"));
  if (gameBytes_ > kMaxPgnGameBytes)
    return errorAt(lineNumber(), absl::StrCat("the game starting at line ", game.line, " is longer than ",
                                              kMaxPgnGameBytes, " bytes"));
  if (!status.ok()) return status;
  return game;
}

// [Name "value"] lines until the first non-tag character.
absl::Status PgnStream::readTags(PgnGame& game) {
  std::map<std::string, int64_t> seen;
  while (true) {
    skipSpaceAndEscapes();
    if (peek() != '[') return absl::OkStatus();
    const int64_t at = lineNumber();
    advance();
    while (peek() == ' ' || peek() == '\t') advance();
    std::string name;
    while (std::isalnum(peek()) || peek() == '_') name += static_cast<char>(peek()), advance();
    if (name.empty()) return errorAt(at, "a tag needs a name: [Name \"value\"]");
    while (peek() == ' ' || peek() == '\t') advance();
    if (peek() != '"') return errorAt(at, absl::StrCat("tag ", name, ": expected a quoted value"));
    advance();
    std::string value;
    while (true) {
      if (stopped() || peek() == '\n') return errorAt(at, absl::StrCat("tag ", name, ": unterminated value"));
      if (peek() == '"') break;
      if (peek() == '\\') {
        advance();
        if (stopped() || peek() == '\n') return errorAt(at, absl::StrCat("tag ", name, ": unterminated value"));
      }
      value += static_cast<char>(peek());
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

// A variation "( ... )" (the main line is the game): up to its ')', nested
// ones, comments and ';' comments in it included. A tag line before its end
// (the next game) or the end of the input leaves it unclosed: an error.
absl::Status PgnStream::skipVariation() {
  const int64_t opened = lineNumber();
  int depth = 0;
  while (!stopped()) {
    const int c = peek();
    if (c == '[' && column_ == 0) break;
    if (c == '{') {
      while (!stopped() && peek() != '}') advance();
    } else if (c == ';') {
      while (!stopped() && peek() != '\n') advance();
      continue;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      advance();
      return absl::OkStatus();
    }
    advance();
  }
  return errorAt(opened, "a variation '(' is never closed");
}

// Tokens up to and including the result token.
absl::Status PgnStream::readMovetext(PgnGame& game) {
  while (true) {
    skipSpaceAndEscapes();
    const int64_t at = lineNumber();
    if (stopped())
      return errorAt(
          at, absl::StrCat("the game starting at line ", game.line, " ends without a result (1-0, 0-1, 1/2-1/2 or *)"));
    const char c = static_cast<char>(peek());
    if (c == '[')
      return errorAt(at, absl::StrCat("a tag inside the moves of the game starting at line ", game.line,
                                      " (its movetext needs a result token)"));
    if (c == '{') {
      while (!stopped() && peek() != '}') advance();
      if (stopped()) return errorAt(at, "comment '{' never closed");
      advance();
      continue;
    }
    if (c == ';') {
      while (!stopped() && peek() != '\n') advance();
      continue;
    }
    if (c == '(') {
      if (absl::Status skipped = skipVariation(); !skipped.ok()) return skipped;
      continue;
    }
    if (c == ')' || c == '}' || c == ']') return errorAt(at, absl::StrCat("unexpected '", std::string(1, c), "'"));
    std::string token;
    while (!stopped() && !std::isspace(peek()) &&
           std::string("{};()[]").find(static_cast<char>(peek())) == std::string::npos)
      token += static_cast<char>(peek()), advance();
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
    if (game.moves.size() == static_cast<size_t>(kMaxGamePlies))
      return errorAt(at,
                     absl::StrCat("the game starting at line ", game.line, " has more than ", kMaxGamePlies, " moves"));
    game.moves.push_back(token);
  }
}

std::optional<PgnEntry> PgnStream::next() {
  betweenGames_ = true;  // the space between games counts in no game's bytes
  gameBytes_ = 0;
  skipSpaceAndEscapes();
  if (stopped() && !overlong_) return std::nullopt;
  PgnEntry entry;
  entry.line = lineNumber();
  entry.game = readGame();
  if (!entry.game.ok()) skipToNextGame();
  return entry;
}

std::vector<PgnEntry> parsePgn(const std::string& text) {
  std::istringstream in(text);
  FileLines lines(in, kMaxInputLineBytes);
  PgnStream stream(lines);
  std::vector<PgnEntry> entries;
  while (std::optional<PgnEntry> entry = stream.next()) entries.push_back(*std::move(entry));
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
    return absl::InvalidArgumentError(absl::StrCat("tag FEN '", r.start, "' is not a ", r.variant.name(), " position: ",
                                                   parsePosition(r.variant, r.start).status().message()));
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
    // "none" is what formatPgn writes for a game still running.
    if (r.termination == Termination::kNone && *termination != toString(Termination::kNone))
      return absl::InvalidArgumentError(absl::StrCat("unknown Termination \"", *termination, "\""));
  } else if (const std::string* adjudicated = game.tag("Adjudicated")) {
    auto termination = fromAdjudication(*adjudicated);
    if (!termination.ok()) return termination.status();
    r.termination = *termination;
    r.detail = absl::StrCat("adjudicated: ", *adjudicated);
  }  // else: the game ended by rule, reason not given (Termination::kNone)

  if (const std::string* plies = game.tag("PlyCount")) {
    size_t count;
    if (!absl::SimpleAtoi(*plies, &count))
      return absl::InvalidArgumentError(absl::StrCat("bad PlyCount \"", *plies, "\""));
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
