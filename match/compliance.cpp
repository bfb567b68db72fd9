#include "match/compliance.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/printable_text.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "match/engine_process.h"

namespace gobblet::match {

namespace {

// How long `go infinite` runs before the checker sends isready.
constexpr int64_t kInfiniteSearchMs = 400;
// Lines of a failed step's exchange shown (the last ones).
constexpr size_t kShownExchangeLines = 14;
// The exchange a step keeps for its report: its last lines only.
constexpr size_t kKeptExchangeLines = 256;
// Seeded random games tried when looking for a won game or a position
// without legal moves, and their ply limit.
constexpr int kSearchGames = 2000;
constexpr int kSearchPlies = 200;
// The game played in cutegames' order of commands: plies, clock, increment.
constexpr int kCutegamesPlies = 6;
constexpr int64_t kCutegamesClockMs = 2000;
constexpr int64_t kCutegamesIncrementMs = 50;

std::vector<std::string> words(const std::string& line) {
  return absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
}

std::string firstWord(const std::string& line) {
  const std::vector<std::string> w = words(line);
  return w.empty() ? "" : w[0];
}

// A game used by a step: a start position and moves from it.
struct TestGame {
  Board start;
  std::vector<Move> moves;
  bool useFen = true;  // "position fen <start>" rather than "position startpos"

  Game replay() const {
    Game game(start);
    for (Move m : moves) game.play(m);
    return game;
  }
  std::string positionCommand() const {
    std::string line = useFen ? "position fen " + positionToString(start) : "position startpos";
    if (!moves.empty()) {
      line += " moves";
      for (Move m : moves) absl::StrAppend(&line, " ", moveToString(m, start.variant()));
    }
    return line;
  }
};

// `plies` seeded random moves from the start position, none ending the game;
// the first `inFen` of them folded into the start position.
std::optional<TestGame> randomRunningGame(const Variant& v, int plies, int inFen, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int attempt = 0; attempt < 100; ++attempt) {
    Game game{Board(v)};
    std::vector<Move> moves;
    bool ok = true;
    for (int i = 0; i < plies && ok; ++i) {
      MoveList list;
      generateMoves(game.position(), list);
      if (list.empty())
        ok = false;
      else
        moves.push_back(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))]), game.play(moves.back());
      if (game.result() != GameResult::kNone) ok = false;
    }
    if (!ok) continue;
    TestGame t{Board(v), {}, true};
    Game folded{Board(v)};
    for (int i = 0; i < inFen; ++i) folded.play(moves[i]);
    t.start = folded.position();
    t.moves.assign(moves.begin() + inFen, moves.end());
    return t;
  }
  return std::nullopt;
}

// A seeded random game from the start that ends for `reason`.
std::optional<TestGame> randomGameEndingBy(const Variant& v, EndReason reason, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int attempt = 0; attempt < kSearchGames; ++attempt) {
    Game game{Board(v)};
    std::vector<Move> moves;
    EndReason why = EndReason::kNone;
    for (int i = 0; i < kSearchPlies && why == EndReason::kNone; ++i) {
      MoveList list;
      generateMoves(game.position(), list);
      if (list.empty()) break;
      moves.push_back(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))]);
      game.play(moves.back());
      game.result(&why);
    }
    if (why == reason) return TestGame{Board(v), moves, false};
  }
  return std::nullopt;
}

// Threefold repetition: each side places its largest piece in a corner, then
// both shuttle it to a neighbouring square and back twice. Checked by the
// referee (nullopt when the variant does not allow it, e.g. no moving).
std::optional<TestGame> repetitionGame(const Variant& v) {
  const std::string size(1, "SMLX"[v.sizes - 1]);
  const std::string a = squareName(v, 0), b = squareName(v, v.n);                                  // a1, a2
  const std::string c = squareName(v, v.squares() - 1), d = squareName(v, v.squares() - 1 - v.n);  // top right, below
  std::vector<std::string> texts = {size + "@" + a, size + "@" + c};
  for (int round = 0; round < 2; ++round)
    for (const std::string& m : {a + b, c + d, b + a, d + c}) texts.push_back(m);
  Game game{Board(v)};
  TestGame t{Board(v), {}, false};
  for (const std::string& text : texts) {
    auto move = parseMove(game.position(), text);
    if (!move.ok() || game.result() != GameResult::kNone) return std::nullopt;
    game.play(*move);
    t.moves.push_back(*move);
  }
  EndReason why;
  game.result(&why);
  if (why != EndReason::kRepetition) return std::nullopt;
  return t;
}

// Checks one "option ..." line; returns why it is malformed, or "".
std::string optionProblem(const std::string& line, std::set<std::string>& names) {
  const std::vector<std::string> w = words(line);
  static const std::set<std::string> kKeywords = {"name", "type", "default", "min", "max", "var"};
  std::vector<std::pair<std::string, std::string>> fields;  // keyword -> value (words joined)
  for (size_t i = 1; i < w.size(); ++i) {
    if (kKeywords.count(w[i]) && !(fields.size() == 1 && fields[0].first == "name" && w[i] != "type")) {
      fields.emplace_back(w[i], "");
    } else if (fields.empty()) {
      return absl::StrCat("'", w[i], "' before 'name'");
    } else {
      std::string& value = fields.back().second;
      value += value.empty() ? w[i] : " " + w[i];
    }
  }
  if (fields.size() < 2 || fields[0].first != "name" || fields[1].first != "type")
    return "expected 'option name <name> type <type> ...'";
  const std::string name = fields[0].second, type = fields[1].second;
  if (name.empty()) return "empty option name";
  if (!names.insert(absl::AsciiStrToLower(name)).second) return absl::StrCat("option '", name, "' listed twice");
  std::optional<std::string> def, min, max;
  std::vector<std::string> vars;
  for (size_t i = 2; i < fields.size(); ++i) {
    const auto& [key, value] = fields[i];
    if (key == "var") {
      vars.push_back(value);
      continue;
    }
    std::optional<std::string>* slot = key == "default" ? &def : key == "min" ? &min : key == "max" ? &max : nullptr;
    if (slot == nullptr) return absl::StrCat("unexpected '", key, "'");
    if (slot->has_value()) return absl::StrCat("'", key, "' given twice");
    *slot = value;
  }
  auto integer = [](const std::optional<std::string>& text, int64_t& out) {
    return text.has_value() && absl::SimpleAtoi(*text, &out);
  };
  if (type == "check") {
    if (!def || (*def != "true" && *def != "false")) return "a check option needs 'default true' or 'default false'";
    if (absl::AsciiStrToLower(name) == "ownbook" && *def != "false") return "OwnBook must default to false (UGI)";
  } else if (type == "spin") {
    int64_t d, lo, hi;
    if (!integer(def, d) || !integer(min, lo) || !integer(max, hi))
      return "a spin option needs integer default, min and max";
    if (!(lo <= d && d <= hi)) return "a spin option's default must lie within min..max";
  } else if (type == "combo") {
    if (vars.empty()) return "a combo option needs 'var' values";
    if (!def || std::find(vars.begin(), vars.end(), *def) == vars.end())
      return "a combo option's default must be one of its vars";
  } else if (type == "string") {
    if (!def) return "a string option needs a default ('<empty>' for none)";
  } else if (type == "button") {
    if (def) return "a button option has no default";
  } else {
    return absl::StrCat("unknown type '", type, "' (check, spin, combo, button or string)");
  }
  if (type != "spin" && (min || max)) return "only spin options have min and max";
  if (type != "combo" && !vars.empty()) return "only combo options have vars";
  return "";
}

// The checker: one engine process and the exchange of the current step.
class Checker {
 public:
  Checker(const ComplianceSettings& settings, const std::function<void(const StepReport&)>& onStep)
      : s_(settings), onStep_(onStep), ugi_(settings.protocol == Protocol::kUgi) {}

  std::vector<StepReport> run();

 private:
  // --- talking to the engine; every line is logged in exchange_
  bool send(const std::string& line) {
    log("> " + line);
    return process_ && process_->writeLine(line).ok();
  }
  // The next line; more than kMaxStepOutputBytes in one step is an error
  // (an engine flooding info lines must not fill the checker's memory).
  absl::StatusOr<std::string> read(Clock::time_point deadline) {
    if (!process_) return absl::FailedPreconditionError("no engine");
    auto line = process_->readLine(deadline);
    if (!line.ok()) return line;
    log("< " + *line);
    stepBytes_ += line->size() + 1;
    if (stepBytes_ > kMaxStepOutputBytes)
      return absl::ResourceExhaustedError(
          absl::StrCat("too much output: over ", kMaxStepOutputBytes >> 20, " MiB in one step"));
    return line;
  }
  // Keeps the exchange's last kKeptExchangeLines lines, counting the others.
  void log(std::string line) {
    exchange_.push_back(std::move(line));
    if (exchange_.size() > kKeptExchangeLines) {
      exchange_.pop_front();
      ++exchangeDropped_;
    }
  }
  void newExchange() {
    exchange_.clear();
    exchangeDropped_ = 0;
    stepBytes_ = 0;
  }
  Clock::time_point in(int64_t ms) const { return Clock::now() + std::chrono::milliseconds(ms); }
  std::string describe(const absl::Status& status, const std::string& waitingFor) {
    if (absl::IsDeadlineExceeded(status)) return absl::StrCat("no ", waitingFor, " in time");
    if (absl::IsUnavailable(status)) return absl::StrCat("the engine exited while we waited for ", waitingFor);
    if (absl::IsResourceExhausted(status)) return absl::StrCat(status.message(), " (waiting for ", waitingFor, ")");
    return absl::StrCat(status.message(), " (waiting for ", waitingFor, ")");
  }
  // Reads until a line whose first word is `token`; the lines before it go
  // to `before` when given.
  absl::StatusOr<std::string> waitFor(const std::string& token, Clock::time_point deadline,
                                      std::vector<std::string>* before = nullptr) {
    while (true) {
      auto line = read(deadline);
      if (!line.ok()) return absl::Status(line.status().code(), describe(line.status(), token));
      if (firstWord(*line) == token) return *line;
      if (before) before->push_back(*line);
    }
  }
  // isready -> readyok; the lines in between go to `before`.
  absl::Status sync(std::vector<std::string>* before = nullptr) {
    if (!send("isready")) return absl::UnavailableError("cannot write to the engine");
    return waitFor("readyok", in(s_.timeoutMs), before).status();
  }

  // --- engine lifetime
  absl::Status start();    // process plus ugi/ugiok; the lines before ugiok go to hello_
  absl::Status restart();  // start(), options, isready

  // --- steps
  using StepBody = std::function<StepReport()>;
  void step(const std::string& name, const StepBody& body);
  StepReport pass() { return StepReport{"", StepOutcome::kPass, "", {}}; }
  StepReport fail(const std::string& why) { return StepReport{"", StepOutcome::kFail, why, {}}; }
  StepReport skip(const std::string& why) { return StepReport{"", StepOutcome::kSkip, why, {}}; }

  StepReport checkHello(const std::string& what);
  StepReport checkOptions();
  StepReport checkHelloLines();
  StepReport setOptionsAndSync();
  StepReport sendPositionAndSync(const TestGame& game, bool askTurn);
  StepReport checkGo(const TestGame& game, const std::string& goLine, int64_t allowanceMs);
  StepReport checkInfinite(const TestGame& game);
  StepReport checkQueries(const std::optional<TestGame>& game, const std::string& missing);
  StepReport checkQuit();
  StepReport checkCutegamesGame(const TestGame& opening);
  // Sends `query <what>` and returns the value of the "response <value>"
  // answer, or the failure.
  absl::StatusOr<std::string> query(const std::string& what);
  // The bestmove line, the lines before it and after it (up to readyok):
  // exactly one bestmove of two words, a legal move, the info lines.
  StepReport judgeSearch(const Game& game, const std::string& bestmove, const std::vector<std::string>& before,
                         const std::vector<std::string>& after);

  std::string go(const std::string& ugiArgs) const;

  const ComplianceSettings& s_;
  const std::function<void(const StepReport&)>& onStep_;
  const bool ugi_;
  std::unique_ptr<EngineProcess> process_;
  std::vector<std::string> hello_;    // lines before ugiok
  std::deque<std::string> exchange_;  // of the current step: its last lines
  size_t exchangeDropped_ = 0;        // lines of the step before those
  size_t stepBytes_ = 0;              // read in the current step
  std::vector<StepReport> reports_;
  bool handshakeFailed_ = false;
  bool variantOption_ = false;  // the engine lists an option named Variant
};

absl::Status Checker::start() {
  if (process_) process_->stop();
  process_ = std::make_unique<EngineProcess>();
  if (auto status = process_->start(s_.command); !status.ok()) return status;
  hello_.clear();
  if (!send(ugi_ ? "ugi" : "uci")) return absl::UnavailableError("cannot write to the engine");
  return waitFor(ugi_ ? "ugiok" : "uciok", in(s_.timeoutMs), &hello_).status();
}

absl::Status Checker::restart() {
  if (auto status = start(); !status.ok()) return status;
  if (variantOption_ || s_.variant != Variant::gobblet())
    if (!send("setoption name Variant value " + s_.variant.name()))
      return absl::UnavailableError("cannot write to the engine");
  return sync();
}

void Checker::step(const std::string& name, const StepBody& body) {
  newExchange();
  StepReport report = handshakeFailed_ ? skip("the engine did not complete the handshake") : body();
  report.name = name;
  if (report.outcome == StepOutcome::kFail) {
    report.exchange.assign(exchange_.begin(), exchange_.end());
    report.earlierLines = exchangeDropped_;
    if (name != "handshake" && name != "quit") {
      // Later steps start from a fresh engine in a known state.
      newExchange();
      if (!restart().ok()) handshakeFailed_ = true;
    }
  }
  reports_.push_back(report);
  onStep_(report);
}

StepReport Checker::checkHello(const std::string& what) {
  int count = 0;
  for (const std::string& line : hello_) {
    const std::vector<std::string> w = words(line);
    if (w.size() >= 2 && w[0] == "id" && w[1] == what) {
      ++count;
      if (w.size() < 3) return fail(absl::StrCat("empty '", line, "'"));
    }
  }
  if (count == 0) return fail(absl::StrCat("no 'id ", what, " ...' line before ", ugi_ ? "ugiok" : "uciok"));
  if (count > 1) return fail(absl::StrCat(count, " 'id ", what, "' lines"));
  return pass();
}

StepReport Checker::checkOptions() {
  std::set<std::string> names;
  for (const std::string& line : hello_) {
    if (firstWord(line) != "option") continue;
    log("< " + line);
    if (const std::string problem = optionProblem(line, names); !problem.empty())
      return fail(absl::StrCat("'", line, "': ", problem));
  }
  variantOption_ = names.count("variant") > 0;
  return pass();
}

StepReport Checker::checkHelloLines() {
  // A banner printed at startup, before the first id line, is no answer to
  // ugi (UCI engines commonly print one) and is tolerated.
  bool answering = false;
  for (const std::string& line : hello_) {
    const std::string first = firstWord(line);
    answering = answering || first == "id";
    if (answering && first != "id" && first != "option" && !first.empty()) {
      log("< " + line);
      return fail(absl::StrCat("unexpected line between id and ", ugi_ ? "ugiok" : "uciok", ": '", line, "'"));
    }
  }
  return pass();
}

StepReport Checker::setOptionsAndSync() {
  if (variantOption_ || s_.variant != Variant::gobblet())
    if (!send("setoption name Variant value " + s_.variant.name())) return fail("cannot write to the engine");
  if (auto status = sync(); !status.ok()) return fail(std::string(status.message()));
  return pass();
}

StepReport Checker::sendPositionAndSync(const TestGame& game, bool askTurn) {
  if (!send(game.positionCommand())) return fail("cannot write to the engine");
  if (auto status = sync(); !status.ok()) return fail(std::string(status.message()));
  if (askTurn && ugi_) {
    auto answer = query("p1turn");
    if (!answer.ok()) return fail(std::string(answer.status().message()));
    const std::string expected = game.replay().position().sideToMove() == 0 ? "true" : "false";
    if (*answer != expected)
      return fail(absl::StrCat("query p1turn: the engine says ", *answer, ", the rules say ", expected,
                               " (the engine did not take the position)"));
  }
  return pass();
}

StepReport Checker::judgeSearch(const Game& game, const std::string& bestmove, const std::vector<std::string>& before,
                                const std::vector<std::string>& after) {
  std::vector<std::string> problems;
  const std::vector<std::string> w = words(bestmove);
  if (w.size() != 2)
    problems.push_back(absl::StrCat("'", bestmove, "': bestmove must be exactly two words, 'bestmove <move>'"));
  if (w.size() < 2) {
    problems.push_back("no move after 'bestmove'");
  } else if (auto move = parseMove(game.position(), w[1]); !move.ok()) {
    problems.push_back(absl::StrCat("'", w[1], "' is not a legal move here: ", move.status().message()));
  }
  for (const std::string& line : after)
    if (firstWord(line) == "bestmove") problems.push_back(absl::StrCat("a second bestmove: '", line, "'"));
  const std::string* lastInfo = nullptr;
  bool scored = false;
  for (const std::string& line : before) {
    if (firstWord(line) != "info") continue;
    lastInfo = &line;
    const std::vector<std::string> iw = words(line);
    scored = scored || std::find(iw.begin(), iw.end(), "score") != iw.end();
  }
  if (!scored) problems.push_back("no 'info ... score ...' line before bestmove");
  if (lastInfo != nullptr) {
    const std::vector<std::string> last = words(*lastInfo);
    std::vector<std::string> missing;
    for (const char* key : {"nodes", "time", "nps"}) {
      auto at = std::find(last.begin(), last.end(), key);
      uint64_t value;
      if (at == last.end() || at + 1 == last.end() || !absl::SimpleAtoi(*(at + 1), &value)) missing.push_back(key);
    }
    if (!missing.empty())
      problems.push_back(absl::StrCat("the last info before bestmove ('", *lastInfo, "') lacks ",
                                      absl::StrJoin(missing, ", "), " (UGI: nodes, time and nps)"));
  }
  if (!problems.empty()) return fail(absl::StrJoin(problems, "; "));
  return pass();
}

StepReport Checker::checkGo(const TestGame& game, const std::string& goLine, int64_t allowanceMs) {
  if (StepReport r = sendPositionAndSync(game, false); r.outcome != StepOutcome::kPass) return r;
  if (!send(goLine)) return fail("cannot write to the engine");
  const Clock::time_point begin = Clock::now();
  std::vector<std::string> before, after;
  auto bestmove = waitFor("bestmove", begin + std::chrono::milliseconds(allowanceMs), &before);
  const int64_t elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin).count();
  if (!bestmove.ok())
    return fail(absl::IsDeadlineExceeded(bestmove.status()) ? absl::StrCat("no bestmove within ", allowanceMs, " ms")
                                                            : std::string(bestmove.status().message()));
  if (auto status = sync(&after); !status.ok()) return fail(absl::StrCat("after bestmove: ", status.message()));
  StepReport r = judgeSearch(game.replay(), *bestmove, before, after);
  if (r.outcome == StepOutcome::kPass && elapsed > allowanceMs)
    return fail(absl::StrCat("bestmove after ", elapsed, " ms, allowed ", allowanceMs));
  return r;
}

StepReport Checker::checkInfinite(const TestGame& game) {
  if (StepReport r = sendPositionAndSync(game, false); r.outcome != StepOutcome::kPass) return r;
  if (!send("go infinite")) return fail("cannot write to the engine");
  std::vector<std::string> before, after;
  std::optional<std::string> bestmove;
  // The search runs on; nothing but info lines may come before stop (a
  // search may also end by itself, e.g. a solved position: UGI allows it).
  const Clock::time_point until = in(kInfiniteSearchMs);
  while (!bestmove) {
    auto line = read(until);
    if (absl::IsDeadlineExceeded(line.status())) break;
    if (!line.ok()) return fail(describe(line.status(), "the search to go on"));
    if (firstWord(*line) == "bestmove")
      bestmove = *line;
    else
      before.push_back(*line);
  }
  // isready during the search.
  if (!send("isready")) return fail("cannot write to the engine");
  std::vector<std::string> waiting;
  auto ready = waitFor("readyok", in(s_.timeoutMs), &waiting);
  if (!ready.ok()) return fail(absl::StrCat("isready during go infinite: ", ready.status().message()));
  for (const std::string& line : waiting) {
    if (firstWord(line) == "bestmove" && !bestmove)
      bestmove = line;
    else
      (bestmove ? after : before).push_back(line);
  }
  if (!send("stop")) return fail("cannot write to the engine");
  if (!bestmove) {
    auto line = waitFor("bestmove", in(s_.timeoutMs), &before);
    if (!line.ok()) return fail(absl::StrCat("after stop: ", line.status().message()));
    bestmove = *line;
  }
  if (auto status = sync(&after); !status.ok()) return fail(absl::StrCat("after bestmove: ", status.message()));
  return judgeSearch(game.replay(), *bestmove, before, after);
}

StepReport Checker::checkQueries(const std::optional<TestGame>& game, const std::string& missing) {
  if (!ugi_) return skip("UCI has no query command");
  if (!game) return skip(missing);
  if (StepReport r = sendPositionAndSync(*game, false); r.outcome != StepOutcome::kPass) return r;
  const Game replayed = game->replay();
  const GameResult result = replayed.result();
  const std::pair<std::string, std::string> expected[] = {
      {"gameover", result == GameResult::kNone ? "false" : "true"},
      {"p1turn", replayed.position().sideToMove() == 0 ? "true" : "false"},
      {"result", resultWord(result)}};
  std::vector<std::string> wrong;
  for (const auto& [what, answer] : expected) {
    auto value = query(what);
    if (absl::IsInvalidArgument(value.status()))
      wrong.push_back(std::string(value.status().message()));
    else if (!value.ok())
      return fail(std::string(value.status().message()));
    else if (*value != answer)
      wrong.push_back(absl::StrCat("query ", what, ": the engine says ", *value, ", the rules say ", answer));
  }
  if (!wrong.empty()) return fail(absl::StrJoin(wrong, "; "));
  return pass();
}

absl::StatusOr<std::string> Checker::query(const std::string& what) {
  if (!send("query " + what)) return absl::UnavailableError("cannot write to the engine");
  auto line = waitFor("response", in(s_.timeoutMs));
  if (!line.ok())
    return absl::Status(line.status().code(), absl::StrCat("query ", what, ": ", line.status().message()));
  const std::vector<std::string> w = words(*line);
  if (w.size() != 2)
    return absl::InvalidArgumentError(absl::StrCat("query ", what, ": '", *line, "' is not 'response <value>'"));
  return w[1];
}

// cutegames' own order (src/match/play.cpp, src/games/ugigame.hpp): isready
// then uginewgame with no isready after it; queries right after position
// with no isready between; gameover asked before every go, on clocks.
StepReport Checker::checkCutegamesGame(const TestGame& opening) {
  if (!ugi_) return skip("UCI has no query command");
  if (auto status = sync(); !status.ok()) return fail(std::string(status.message()));
  if (!send("uginewgame")) return fail("cannot write to the engine");
  Game game = opening.replay();
  int64_t clocks[2] = {kCutegamesClockMs, kCutegamesClockMs};
  for (int ply = 0; ply < kCutegamesPlies && game.result() == GameResult::kNone; ++ply) {
    TestGame now = opening;
    now.moves = game.moves();
    if (auto status = sync(); !status.ok()) return fail(std::string(status.message()));
    const std::string expected[2] = {game.position().sideToMove() == 0 ? "true" : "false", "false"};
    const char* queries[2] = {"p1turn", "gameover"};
    for (int q = 0; q < 2; ++q) {
      if (!send(now.positionCommand())) return fail("cannot write to the engine");
      auto answer = query(queries[q]);
      if (!answer.ok()) return fail(std::string(answer.status().message()));
      if (*answer != expected[q])
        return fail(absl::StrCat("ply ", ply + 1, ": query ", queries[q], ": the engine says ", *answer,
                                 ", the rules say ", expected[q]));
    }
    const int mover = game.position().sideToMove();
    const std::string goLine = absl::StrCat("go p1time ", clocks[0], " p2time ", clocks[1], " p1inc ",
                                            kCutegamesIncrementMs, " p2inc ", kCutegamesIncrementMs);
    if (!send(goLine)) return fail("cannot write to the engine");
    const Clock::time_point begin = Clock::now();
    const int64_t allowance = clocks[mover] + s_.marginMs;
    auto bestmove = waitFor("bestmove", begin + std::chrono::milliseconds(allowance));
    if (!bestmove.ok())
      return fail(absl::StrCat("ply ", ply + 1, ": ",
                               absl::IsDeadlineExceeded(bestmove.status())
                                   ? absl::StrCat("no bestmove within ", allowance, " ms")
                                   : std::string(bestmove.status().message())));
    const int64_t elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin).count();
    clocks[mover] = std::max<int64_t>(1, clocks[mover] - elapsed) + kCutegamesIncrementMs;
    // cutegames takes the second word of a two-word line, and skips others.
    const std::vector<std::string> w = words(*bestmove);
    if (w.size() != 2)
      return fail(absl::StrCat("ply ", ply + 1, ": '", *bestmove, "' is not two words: cutegames would wait forever"));
    auto move = parseMove(game.position(), w[1]);
    if (!move.ok())
      return fail(absl::StrCat("ply ", ply + 1, ": '", w[1], "' is not legal: ", move.status().message()));
    game.play(*move);
  }
  return pass();
}

StepReport Checker::checkQuit() {
  if (!send("quit")) return fail("cannot write to the engine");
  const Clock::time_point deadline = in(s_.timeoutMs);
  while (true) {
    auto line = read(deadline);
    if (absl::IsUnavailable(line.status())) break;  // end of its output
    if (!line.ok()) return fail(absl::StrCat("still running ", s_.timeoutMs, " ms after quit"));
  }
  // Its output is closed; give it what is left of the timeout to exit.
  const auto left =
      std::max<int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
  process_->stop(std::chrono::milliseconds(left));
  const std::string how = process_->exitDescription();
  if (how.rfind("exit code", 0) != 0) return fail(absl::StrCat("the process did not exit by itself (", how, ")"));
  return pass();
}

std::string Checker::go(const std::string& ugiArgs) const {
  std::string line = "go " + ugiArgs;
  if (ugi_) return line;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"p1time", "wtime"},
                                 {"p2time", "btime"},
                                 {"p1inc", "winc"},
                                 {"p2inc", "binc"}})
    if (const size_t at = line.find(from); at != std::string::npos) line.replace(at, from.size(), to);
  return line;
}

std::vector<StepReport> Checker::run() {
  const Variant& v = s_.variant;
  const std::string hello = ugi_ ? "ugi" : "uci";
  step("handshake", [&] {
    absl::Status status = start();
    if (!status.ok()) {
      handshakeFailed_ = true;
      return fail(absl::StrCat(status.message(), " (sent '", hello, "')"));
    }
    for (const std::string& line : hello_) log("< " + line);
    return pass();
  });
  step("id name", [&] { return checkHello("name"); });
  step("id author", [&] { return checkHello("author"); });
  step("option lines", [&] { return checkOptions(); });
  step("handshake lines", [&] { return checkHelloLines(); });
  step("isready after options", [&] { return setOptionsAndSync(); });
  step(ugi_ ? "uginewgame + isready" : "ucinewgame + isready", [&] {
    if (!send(ugi_ ? "uginewgame" : "ucinewgame")) return fail("cannot write to the engine");
    if (auto status = sync(); !status.ok()) return fail(std::string(status.message()));
    return pass();
  });

  // Running games: player 1 to move (4 plies, 2 in the FEN) and player 2
  // to move (5 plies, 3 in the FEN); seeded, so every run is the same.
  const std::optional<TestGame> p1ToMove = randomRunningGame(v, 4, 2, 11);
  const std::optional<TestGame> p2ToMove = randomRunningGame(v, 5, 3, 12);
  if (!p1ToMove || !p2ToMove) {
    step("test positions", [&] { return fail("no running test position found in " + v.name()); });
    return reports_;
  }
  const TestGame startpos{Board(v), {}, false};
  const TestGame fenOnly{p2ToMove->replay().position(), {}, true};
  step("position startpos + isready", [&] { return sendPositionAndSync(startpos, true); });
  step("position fen + isready", [&] { return sendPositionAndSync(fenOnly, true); });
  step("position fen moves + isready", [&] { return sendPositionAndSync(*p1ToMove, true); });

  // Every limit; the clocks in both orders, with and without increments,
  // for either side to move (player 2's clock short when it moves).
  const int64_t m = s_.marginMs, t = s_.timeoutMs;
  struct GoStep {
    const TestGame* game;
    std::string args;
    int64_t allowanceMs;
  };
  const GoStep goSteps[] = {
      {&*p1ToMove, "p1time 5000 p2time 5000", 5000 + m},
      {&*p2ToMove, "p2time 4000 p1time 60000", 4000 + m},
      {&*p1ToMove, "p1time 5000 p2time 5000 p1inc 100 p2inc 100", 5000 + m},
      {&*p2ToMove, "p2inc 100 p1inc 100 p2time 4000 p1time 60000", 4000 + m},
      {&*p1ToMove, "movetime 300", 300 + m},
      {&*p2ToMove, "depth 3", t},
      {&*p1ToMove, "nodes 5000", t},
  };
  for (const GoStep& g : goSteps) {
    const std::string line = go(g.args);
    step(line, [&] { return checkGo(*g.game, line, g.allowanceMs); });
  }
  step("go infinite + isready + stop", [&] { return checkInfinite(*p2ToMove); });
  step("cutegames' order of commands", [&] { return checkCutegamesGame(*p1ToMove); });

  const std::optional<TestGame> won = randomGameEndingBy(v, EndReason::kLine, 21);
  const std::optional<TestGame> repeated = repetitionGame(v);
  const std::optional<TestGame> stuck = randomGameEndingBy(v, EndReason::kNoMoves, 22);
  step("query: running game", [&] { return checkQueries(p2ToMove, ""); });
  step("query: won game", [&] { return checkQueries(won, "no won game found in " + v.name()); });
  step("query: threefold repetition",
       [&] { return checkQueries(repeated, "no threefold repetition can be built in " + v.name()); });
  step("query: no legal move", [&] {
    return checkQueries(stuck, absl::StrCat("no position without a legal move in ", kSearchGames, " random ", v.name(),
                                            " games (the rules may make it impossible)"));
  });
  step("quit", [&] { return checkQuit(); });
  if (process_) process_->stop();
  return reports_;
}

}  // namespace

std::vector<StepReport> runCompliance(const ComplianceSettings& settings,
                                      const std::function<void(const StepReport&)>& onStep) {
  Checker checker(settings, onStep);
  return checker.run();
}

// What a report shows of the engine's words (the reasons quote its lines,
// the exchange is its lines) goes through printableText: an engine's ESC,
// BEL or NUL bytes must not reach the operator's terminal.
std::string formatStep(const StepReport& report) {
  constexpr size_t kShownBytes = 600;
  switch (report.outcome) {
    case StepOutcome::kPass:
      return "PASS " + report.name;
    case StepOutcome::kSkip:
      return absl::StrCat("SKIP ", report.name, ": ", printableText(report.why, kShownBytes));
    case StepOutcome::kFail:
      break;
  }
  std::string text = absl::StrCat("FAIL ", report.name, ": ", printableText(report.why, kShownBytes));
  const size_t n = report.exchange.size();
  const size_t earlier = report.earlierLines + (n > kShownExchangeLines ? n - kShownExchangeLines : 0);
  if (earlier > 0) absl::StrAppend(&text, "\n     ... (", earlier, " earlier lines)");
  for (size_t i = n > kShownExchangeLines ? n - kShownExchangeLines : 0; i < n; ++i)
    absl::StrAppend(&text, "\n     ", printableText(report.exchange[i], kShownBytes));
  return text;
}

}  // namespace gobblet::match
