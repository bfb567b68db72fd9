#include "protocol/session.h"

#include <chrono>
#include <filesystem>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "protocol/position_display.h"
#include "protocol/printable_text.h"
#include "search/evaluate.h"
#include "search/tablebase/tablebase.h"

namespace gobblet {

namespace {

constexpr const char* kEngineName = "Gobblet 0.1";
constexpr const char* kEngineAuthor = "the gobblet authors";

std::string message(const absl::Status& status) { return std::string(status.message()); }

// "score cp 31", "score mate -5 upperbound": mate counts plies, > 0 when the
// side to move wins.
std::string formatScore(const SearchScore& s) {
  std::string out = std::string(s.isMate ? "score mate " : "score cp ") + std::to_string(s.value);
  if (s.bound == SearchScore::kLower) out += " lowerbound";
  if (s.bound == SearchScore::kUpper) out += " upperbound";
  return out;
}

std::string formatInfo(const SearchInfo& i, const Variant& v) {
  std::string out = "info depth " + std::to_string(i.depth) + " seldepth " + std::to_string(i.selDepth) +
                    " multipv " + std::to_string(i.multiPv) + " " + formatScore(i.score) + " nodes " +
                    std::to_string(i.nodes) + " nps " + std::to_string(i.nps) + " time " +
                    std::to_string(i.timeMs) + " hashfull " + std::to_string(i.hashfull) + " tbhits " +
                    std::to_string(i.tbHits);
  if (!i.pv.empty()) {
    out += " pv";
    for (Move m : i.pv) out.append(" ").append(moveToString(m, v));
  }
  return out;
}

}  // namespace

Session::Session(Output output, SessionConfig config)
    : output_(std::move(output)), config_(config), game_(Board(options_.variant)) {
  options_.hashMiB = std::min(options_.hashMiB, config_.optionLimits.maxHashMiB);
}

Session::~Session() { close(); }

void Session::emit(const std::string& line) {
  std::lock_guard lock(outputMutex_);
  output_(line);
}

void Session::error(const std::string& message) {
  static const std::string kPrefix = "info string error: ";
  emit(kPrefix + printableText(message, kMaxErrorLineBytes - kPrefix.size()));
}

void Session::close() {
  if (closed_) return;
  closed_ = true;
  if (heldNoneBestMove_) {
    heldNoneBestMove_ = false;
    emit("bestmove (none)");
  }
  workerStop_ = true;
  if (search_) {
    search_->stop();
    search_->wait();
  }
  joinWorker();
}

void Session::reportOverlongLine(size_t maxBytes) {
  error("line longer than " + std::to_string(maxBytes) + " bytes ignored");
}

bool Session::handleLine(std::string_view line) {
  if (closed_) return false;
  auto parsed = parseCommand(line);
  if (!parsed.ok()) {
    error(message(parsed.status()));
    return true;
  }
  const Command& c = *parsed;
  switch (c.kind) {
    case CommandKind::kEmpty: break;
    case CommandKind::kUgi: handshake(false); break;
    case CommandKind::kUci: handshake(true); break;
    case CommandKind::kIsReady: isReady(); break;
    case CommandKind::kSetOption: setOptionCommand(c); break;
    case CommandKind::kNewGame: newGame(); break;
    case CommandKind::kPosition: position(c); break;
    case CommandKind::kGo: go(c); break;
    case CommandKind::kStop: stopSearch(); break;
    case CommandKind::kPonderHit:
      if (heldNoneBestMove_) {
        heldNoneBestMove_ = false;
        emit("bestmove (none)");
      } else if (search_ && searching_) {
        search_->ponderHit();
      }
      break;
    case CommandKind::kQuit: close(); return false;
    case CommandKind::kQuery: query(c); break;
    case CommandKind::kDisplay: display(); break;
    case CommandKind::kMoves: listMoves(); break;
    case CommandKind::kPerft: perftCommand(c.depth); break;
    case CommandKind::kBench: bench(c.depth); break;
    case CommandKind::kEval: eval(); break;
    case CommandKind::kAuth: error("auth: not expected here (no token is required, or it was already given)"); break;
  }
  return true;
}

void Session::handshake(bool uci) {
  emit(std::string("id name ") + kEngineName);
  emit(std::string("id author ") + kEngineAuthor);
  for (const std::string& line : optionDescriptions(config_.optionLimits)) emit(line);
  emit(uci ? "uciok" : "ugiok");
}

void Session::isReady() {
  if (!busy()) search();  // the first isready pays for the hash table and the tablebase
  emit("readyok");
}

SearchOptions Session::searchOptions() const {
  SearchOptions o;
  o.hashMiB = options_.hashMiB;
  o.threads = options_.threads;
  o.multiPv = options_.multiPv;
  o.moveOverheadMs = options_.moveOverheadMs;
  return o;
}

Search& Session::search() {
  if (!search_) {
    search_ = std::make_unique<Search>();
    if (!applySearchOptions()) {
      options_.hashMiB = EngineOptions{}.hashMiB;
      applySearchOptions();
    }
  }
  if (!tablebaseResolved_) attachTablebase();
  return *search_;
}

// Finds the tablebase for the current variant: the TablebasePath file if one
// is set, else the default file if it exists. A 4x4 game has none.
void Session::attachTablebase() {
  tablebaseResolved_ = true;
  tablebase_.reset();
  const Variant& v = options_.variant;
  std::string path = options_.tablebasePath;
  if (path.empty()) {
    if (v.n != 3) {
      search_->setTablebase(nullptr);
      return;
    }
    path = tb::defaultPath(v);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      search_->setTablebase(nullptr);
      return;
    }
  }
  auto opened = tb::open(path);
  if (!opened.ok()) {
    error("tablebase " + quoteWord(path) + ": " + message(opened.status()));
  } else if (!((*opened)->variant() == v)) {
    emit("info string tablebase " + quoteWord(path) + " is for " + (*opened)->variant().name() + ", not " + v.name() +
         ": not used");
  } else {
    tablebase_ = *opened;
    emit("info string tablebase " + quoteWord(path) + " loaded for " + v.name());
  }
  search_->setTablebase(tablebase_);
}

void Session::setOptionCommand(const Command& c) {
  if (busy()) {
    busyError("setoption");
    return;
  }
  EngineOptions next = options_;
  OptionId id;
  if (auto st = setOption(next, config_.optionLimits, c.optionName, c.optionValue, c.hasValue, &id); !st.ok()) {
    error(message(st));
    return;
  }
  if (id == OptionId::kTablebasePath && !next.tablebasePath.empty()) {
    // Check the file now, so that a bad path is an error and changes nothing.
    auto opened = tb::open(next.tablebasePath);
    if (!opened.ok()) {
      error("option TablebasePath: " + quoteWord(next.tablebasePath) + ": " + message(opened.status()));
      return;
    }
  }
  const EngineOptions previous = options_;
  options_ = next;
  if (search_ && !applySearchOptions()) {
    options_ = previous;  // the hash table did not fit: keep the old settings
    applySearchOptions();
    return;
  }
  if (id == OptionId::kVariant || id == OptionId::kTablebasePath) tablebaseResolved_ = false;
  if (id == OptionId::kVariant) {
    game_ = Game(Board(options_.variant));
    if (search_) search_->newGame();
  }
  if (search_ && !tablebaseResolved_) attachTablebase();
}

// Hands the options to the Search. A Hash too large for the machine is an
// error, not a crash: the Search keeps its old table and false is returned.
bool Session::applySearchOptions() {
  if (absl::Status status = search_->setOptions(searchOptions()); !status.ok()) {
    error("option Hash: " + message(status));
    return false;
  }
  return true;
}

void Session::newGame() {
  stopSearch();
  joinWorker();
  if (search_) search_->wait();
  game_ = Game(Board(options_.variant));
  if (search_) search_->newGame();
}

void Session::position(const Command& c) {
  const Variant& v = options_.variant;
  Board start(v);
  if (!c.startpos) {
    auto parsed = parsePosition(v, c.positionText);
    if (!parsed.ok()) {
      error("position " + quoteWord(c.positionText) + ": " + message(parsed.status()));
      return;
    }
    start = *parsed;
  }
  Game game(start);
  for (size_t i = 0; i < c.moves.size(); ++i)
    if (auto st = game.play(c.moves[i]); !st.ok()) {
      error("position: move " + std::to_string(i + 1) + " " + quoteWord(c.moves[i]) + ": " + message(st));
      return;
    }
  game_ = std::move(game);
}

void Session::go(const Command& c) {
  // A new go replaces a running search (the old one still gets its
  // bestmove), a perft or a bench.
  stopSearch();
  joinWorker();
  Search& s = search();
  s.wait();  // also covers a search that has sent its bestmove but not yet ended
  const SearchLimits& limits = c.limits;
  if (game_.result() != GameResult::kNone) {
    // Decided (a line, no move, threefold repetition): nothing to search.
    if (limits.infinite || limits.ponder) heldNoneBestMove_ = true;
    else emit("bestmove (none)");
    return;
  }
  searchGame_ = std::make_unique<Game>(game_);
  const Variant variant = options_.variant;
  SearchCallbacks callbacks;
  callbacks.onInfo = [this, variant](const SearchInfo& info) { emit(formatInfo(info, variant)); };
  callbacks.onMessage = [this](const std::string& text) { emit("info string " + text); };
  callbacks.onBestMove = [this, variant](Move best, Move ponder) {
    std::string line = "bestmove " + moveToString(best, variant);
    if (!best.isNone() && !ponder.isNone()) line += " ponder " + moveToString(ponder, variant);
    searching_ = false;
    emit(line);
  };
  searching_ = true;
  s.go(*searchGame_, limits, std::move(callbacks));
}

void Session::stopSearch() {
  if (heldNoneBestMove_) {
    heldNoneBestMove_ = false;
    emit("bestmove (none)");
  }
  if (search_ && searching_) search_->stop();
  workerStop_ = true;  // harmless when nothing runs: startWorker() clears it
}

void Session::joinWorker() {
  if (worker_.joinable()) worker_.join();
}

void Session::startWorker(std::function<void()> job) {
  joinWorker();  // the last job has sent its last line, its thread may still be ending
  workerStop_ = false;
  workerBusy_ = true;
  worker_ = std::thread(std::move(job));
}

void Session::busyError(const std::string& command) {
  error(command + ": not while a search, perft or bench runs (send stop first)");
}

void Session::query(const Command& c) {
  switch (c.query) {
    case QueryKind::kGameOver:
      emit(std::string("response ") + (game_.result() != GameResult::kNone ? "true" : "false"));
      break;
    case QueryKind::kP1Turn:
      emit(std::string("response ") + (game_.position().sideToMove() == 0 ? "true" : "false"));
      break;
    case QueryKind::kResult: emit(std::string("response ") + resultWord(game_.result())); break;
    case QueryKind::kFen: emit("response " + positionToString(game_.position())); break;
  }
}

void Session::display() {
  for (const std::string& line : describeGame(game_)) emit(line);
}

void Session::listMoves() {
  MoveList list;
  generateMoves(game_.position(), list);
  std::string line = "moves";
  for (Move m : list) line.append(" ").append(moveToString(m, options_.variant));
  emit(line);
}

// perft on the worker thread, divided by root move: one line per root
// move as soon as it is counted, then the total. A stop ends it within a
// few microseconds (perft polls workerStop_ at every interior node).
void Session::perftCommand(int depth) {
  if (busy()) {
    busyError("perft");
    return;
  }
  if (depth > config_.maxPerftDepth) {
    error("perft: depth " + std::to_string(depth) + " is above this server's limit of " +
          std::to_string(config_.maxPerftDepth));
    return;
  }
  startWorker([this, board = game_.position(), variant = options_.variant, depth]() mutable {
    const auto t0 = std::chrono::steady_clock::now();
    MoveList list;
    if (depth > 0) generateMoves(board, list);
    uint64_t total = depth > 0 ? 0 : 1;
    int counted = 0;
    for (Move m : list) {
      board.makeMove(m);
      const uint64_t n = perft(board, depth - 1, &workerStop_);
      board.unmakeMove(m);
      if (workerStop_) break;
      emit(moveToString(m, variant) + ": " + std::to_string(n));
      total += n;
      ++counted;
    }
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    const bool stopped = workerStop_;
    workerBusy_ = false;
    if (stopped)
      emit("info string perft stopped after " + std::to_string(counted) + " of " + std::to_string(list.size()) +
           " root moves");
    else
      emit("nodes " + std::to_string(total) + " time " + std::to_string(ms));
  });
}

// The search's bench on the worker thread; a stop ends the position being
// searched and the bench.
void Session::bench(int depth) {
  if (!config_.benchAllowed) {
    error("bench: not available on this server");
    return;
  }
  if (busy()) {
    busyError("bench");
    return;
  }
  startWorker([this, depth] {
    const BenchResult r =
        runBench(depth, [this](const std::string& line) { emit("info string " + line); }, &workerStop_);
    workerBusy_ = false;
    if (r.stopped) {
      emit("info string bench stopped");
      return;
    }
    const uint64_t ms = static_cast<uint64_t>(r.seconds * 1000);
    const uint64_t nps = r.seconds > 0 ? static_cast<uint64_t>(r.nodes / r.seconds) : 0;
    emit("bench nodes " + std::to_string(r.nodes) + " time " + std::to_string(ms) + " nps " + std::to_string(nps));
  });
}

// The static evaluation of the current position as a small table: each
// term's share for both players and the net (player 1 minus player 2), then
// the total from the side to move's view, which is what the search uses.
void Session::eval() {
  const Board& board = game_.position();
  const EvalTerms t = evaluateTerms(board);
  const auto row = [](const std::string& name, const std::string& p1, const std::string& p2, const std::string& net) {
    std::string line = "info string eval " + name;
    for (const std::string* cell : {&p1, &p2, &net}) line += std::string(cell->size() < 9 ? 9 - cell->size() : 1, ' ') + *cell;
    return line;
  };
  const std::pair<const char*, const EvalTerm*> terms[] = {{"visible    ", &t.visible},  {"in hand    ", &t.inHand},
                                                           {"captives   ", &t.captives}, {"lines      ", &t.lines},
                                                           {"line safety", &t.lineSafety}};
  emit(row("term       ", "player1", "player2", "net"));
  for (const auto& [name, term] : terms)
    emit(row(name, std::to_string(term->player[0]), std::to_string(term->player[1]), std::to_string(term->net())));
  emit(row("sum        ", "", "", std::to_string(t.forPlayer1)));
  emit(row("tempo      ", "", "", std::to_string(t.tempo)));
  emit("info string eval total " + std::to_string(t.total) + " (side to move: player " +
       std::to_string(board.sideToMove() + 1) + ")");
}

}  // namespace gobblet
