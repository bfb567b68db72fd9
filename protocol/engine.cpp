#include "protocol/engine.h"

#include <chrono>
#include <new>
#include <system_error>

#include "engine/notation.h"
#include "engine/movegen.h"
#include "engine/perft.h"
#include "engine/printable_text.h"
#include "proof/store_proof.h"
#include "search/host_yield.h"
#include "tablebase/tablebase.h"

namespace gobblet {

namespace {

struct OpenedDatabase {
  std::shared_ptr<proof::ProofDatabase> database;
  bool writable = false;
};

// The proof database at `path` for `variant`: read-write when the file is
// writable or can be made there, else read-only (a file the system lets
// this process read only); with `readOnly` (an engine that writes no
// file) read-only whatever the file, and a missing one is not made.
// Errors: no such file where none can be made, a file that is no proof
// database (or a damaged header), one of another variant.
absl::StatusOr<OpenedDatabase> openProofDatabase(const std::string& path, const Variant& variant, bool readOnly) {
  using Mode = proof::ProofDatabase::Mode;
  if (readOnly) {
    auto readable = proof::ProofDatabase::open(path, Mode::kRead, variant);
    if (!readable.ok()) return readable.status();
    return OpenedDatabase{std::move(*readable), false};
  }
  auto writable = proof::ProofDatabase::open(path, Mode::kReadWrite, variant);
  if (writable.ok()) return OpenedDatabase{std::move(*writable), true};
  if (!absl::IsUnavailable(writable.status())) return writable.status();
  auto readable = proof::ProofDatabase::open(path, Mode::kRead, variant);
  if (!readable.ok()) return absl::IsNotFound(readable.status()) ? writable.status() : readable.status();
  return OpenedDatabase{std::move(*readable), false};
}

}  // namespace

Engine::Engine(EngineLimits limits, NoticeCallback notice)
    : limits_(limits), notice_(std::move(notice)), game_(Board(options_.variant)) {
  options_.hashMiB = static_cast<int>(std::min<int64_t>(options_.hashMiB, limits_.caps.maxHashMiB));
  options_.threads = static_cast<int>(std::min<int64_t>(options_.threads, limits_.caps.maxThreads));
  if (limits_.hashBudget && !reserveHash(options_.hashMiB).ok()) {
    // The budget is spent: the smallest table, which every session may have.
    options_.hashMiB = static_cast<int>(declarationOf(OptionId::kHash).min);
    limits_.hashBudget->reserve(options_.hashMiB, /*force=*/true);
    reservedHashMiB_ = options_.hashMiB;
  }
}

Engine::~Engine() {
  close();
  search_.reset();  // the table goes before its share is given back
  if (limits_.hashBudget) limits_.hashBudget->release(reservedHashMiB_);
}

void Engine::releaseHashAbove(int64_t mib) {
  if (limits_.hashBudget && reservedHashMiB_ > mib) {
    limits_.hashBudget->release(reservedHashMiB_ - mib);
    reservedHashMiB_ = mib;
  }
}

absl::Status Engine::reserveHash(int64_t mib) {
  HashBudget* budget = limits_.hashBudget.get();
  if (!budget || mib <= reservedHashMiB_) return absl::OkStatus();
  if (!budget->reserve(mib - reservedHashMiB_))
    return absl::ResourceExhaustedError(
        "option Hash: " + std::to_string(mib) + " MiB does not fit in this server's hash budget (" +
        std::to_string(budget->totalMiB()) + " MiB for all sessions, " +
        std::to_string(budget->leftMiB() + reservedHashMiB_) + " MiB available to this one): the table stays " +
        std::to_string(options_.hashMiB) + " MiB");
  reservedHashMiB_ = mib;
  return absl::OkStatus();
}

void Engine::close() {
  if (closed_) return;
  closed_ = true;
  releaseHeldBestMove();
  workerStop_ = true;
  if (search_) {
    search_->stop();
    search_->wait();
  }
  joinWorker();
}

absl::Status Engine::busyError(std::string_view command) const {
  return absl::FailedPreconditionError(std::string(command) +
                                       ": not while a search, perft or bench runs (send stop first)");
}

// ---------------------------------------------------------------------------
// Options, the search and the tablebase

absl::Status Engine::setOption(std::string_view name, std::string_view value, bool hasValue) {
  if (busy()) return busyError("setoption");
  EngineOptions next = options_;
  auto id = gobblet::setOption(next, limits_.caps, name, value, hasValue);
  if (!id.ok()) return id.status();
  std::shared_ptr<const nnue::Network> nextNet = net_;
  if (*id == OptionId::kEvalFile) {
    // Read the file now: a bad file is an error, and the net in use stays.
    if (next.evalFile.empty()) {
      nextNet = builtInNet();
    } else {
      auto loaded = loadNetFile(next.evalFile);
      if (!loaded.ok()) return absl::InvalidArgumentError("option EvalFile: " + std::string(loaded.status().message()));
      nextNet = *loaded;
    }
  }
  OpenedDatabase nextDatabase{database_, databaseWritable_};
  if (*id == OptionId::kProofDatabase) {
    // Open the file now: a bad file is an error, and the database in use stays.
    nextDatabase = {};
    if (!next.proofDatabase.empty()) {
      auto opened = openProofDatabase(next.proofDatabase, next.variant, limits_.proofDatabaseReadOnly);
      if (!opened.ok())
        return absl::InvalidArgumentError("option ProofDatabase: " + std::string(opened.status().message()));
      nextDatabase = *std::move(opened);
    }
  }
  if (*id == OptionId::kTablebasePath && !next.tablebasePath.empty()) {
    // Check the file now, so that a bad path is an error and changes nothing.
    auto opened = openTablebase(next.tablebasePath);
    if (!opened.ok())
      return absl::InvalidArgumentError("option TablebasePath: " + std::string(opened.status().message()));
  }
  const int64_t previousReservation = reservedHashMiB_;
  if (absl::Status status = reserveHash(next.hashMiB); !status.ok()) return status;
  const EngineOptions previous = options_;
  const std::shared_ptr<const nnue::Network> previousNet = net_;
  options_ = next;
  net_ = nextNet;
  if (search_) {
    if (absl::Status status = applySearchOptions(); !status.ok()) {
      options_ = previous;  // the hash table did not fit: keep the old settings
      net_ = previousNet;
      (void)applySearchOptions();
      releaseHashAbove(previousReservation);
      return status;
    }
  }
  releaseHashAbove(options_.hashMiB);
  if (*id == OptionId::kProofDatabase) {
    database_ = std::move(nextDatabase.database);
    databaseWritable_ = nextDatabase.writable;
    proved_.clear();  // (a strategy learned from the database before)
    if (database_) {
      const proof::ProofDatabase& d = *database_;
      notice_(NoticeKind::kInfo, "proof database " + quoteWord(options_.proofDatabase) + " opened " +
                                     (databaseWritable_               ? "read-write"
                                      : limits_.proofDatabaseReadOnly ? "read-only"
                                                                      : "read-only (the file is not writable)") +
                                     " for " + d.variant().name() + ": " + std::to_string(d.entries()) + " entries");
      if (d.tail().bytes > 0)
        notice_(NoticeKind::kError, "proof database " + quoteWord(options_.proofDatabase) + ": a damaged tail of " +
                                        std::to_string(d.tail().bytes) + " bytes at offset " +
                                        std::to_string(d.tail().offset) + " dropped (" + d.tail().reason + ")");
    }
  }
  if (*id == OptionId::kVariant && database_ && !(database_->variant() == options_.variant))
    notice_(NoticeKind::kInfo, "proof database " + quoteWord(options_.proofDatabase) + " is for " +
                                   database_->variant().name() + ", not " + options_.variant.name() + ": not used");
  if (*id == OptionId::kVariant || *id == OptionId::kTablebasePath) tablebaseResolved_ = false;
  if (*id == OptionId::kVariant) {
    game_ = Game(Board(options_.variant));
    proved_.clear();
    refusedPosition_.clear();
    if (search_) search_->newGame();
  }
  if (search_ && !tablebaseResolved_) attachTablebase();
  return absl::OkStatus();
}

// Hands the options to the Search. A Hash too large for the machine is an
// error, not a crash: the Search keeps its old table.
absl::Status Engine::applySearchOptions() {
  SearchOptions o;
  o.hashMiB = options_.hashMiB;
  o.threads = options_.threads;
  o.multiPv = options_.multiPv;
  o.moveOverheadMs = options_.moveOverheadMs;
  o.skillLevel = options_.playingLevel();
  o.skillSeed = options_.skillSeed;
  o.net = searchNet();
  if (absl::Status status = search_->setOptions(o); !status.ok())
    return absl::ResourceExhaustedError("option Hash: " + std::string(status.message()));
  return absl::OkStatus();
}

Search& Engine::search() {
  if (!search_) {
    search_ = std::make_unique<Search>(limits_.startThread);
    if (absl::Status status = applySearchOptions(); !status.ok()) {
      notice_(NoticeKind::kError, std::string(status.message()));
      options_.hashMiB = std::min(options_.hashMiB, EngineOptions{}.hashMiB);
      (void)applySearchOptions();
      releaseHashAbove(options_.hashMiB);
    }
  }
  if (!tablebaseResolved_) attachTablebase();
  return *search_;
}

// Finds the tablebase for the current variant: the TablebasePath file if one
// is set, else the default file if it exists. 4x4 Gobblet itself has none;
// the small 4x4 members have one once built.
void Engine::attachTablebase() {
  tablebaseResolved_ = true;
  tablebase_.reset();
  tablebaseProblem_.clear();
  const Variant& v = options_.variant;
  if (chosenTablebase_) {
    const std::shared_ptr<const tb::Tablebase>& chosen = *chosenTablebase_;
    if (chosen && chosen->variant() == v) {
      tablebase_ = chosen;
    } else if (chosen) {
      notice_(NoticeKind::kInfo,
              "the tablebase given is for " + chosen->variant().name() + ", not " + v.name() + ": not used");
    }
    search_->setTablebase(tablebase_);
    return;
  }
  const bool isDefault = options_.tablebasePath.empty();
  if (isDefault && !tb::hasIndex(v)) {
    search_->setTablebase(nullptr);
    return;
  }
  const std::string path = isDefault ? tb::defaultPath(v) : options_.tablebasePath;
  auto opened = openTablebase(path);
  if (!opened.ok()) {
    // No file where the variant's file would be: no tablebase, and nothing to say.
    // A file that cannot be read: the game goes on without it, and says why.
    if (!(isDefault && absl::IsNotFound(opened.status()))) {
      tablebaseProblem_ = unreadableTablebase(path, opened.status());
      notice_(NoticeKind::kError, std::string(opened.status().message()));  // (it names the file)
    }
  } else if (!((*opened)->variant() == v)) {
    notice_(NoticeKind::kInfo, "tablebase " + quoteWord(path) + " is for " + (*opened)->variant().name() + ", not " +
                                   v.name() + ": not used");
  } else {
    tablebase_ = *opened;
    notice_(NoticeKind::kInfo, "tablebase " + quoteWord(path) + " loaded for " + v.name());
  }
  search_->setTablebase(tablebase_);
}

std::string Engine::unreadableTablebase(const std::string& path, const absl::Status& why) const {
  const std::string file = "its file " + quoteWord(path);
  if (absl::IsInvalidArgument(why) || absl::IsDataLoss(why))  // not a tablebase, or damaged
    return file + " is damaged ('gobblet-tb build " + options_.variant.name() + "' makes it anew)";
  // The open's errors begin with the file's name, said already.
  std::string reason(why.message());
  const std::string named = "tablebase file '" + path + "': ";
  if (reason.rfind(named, 0) == 0) reason.erase(0, named.size());
  // A file hosted beside the page (read by limits_.openTablebase) is where it
  // should be: its host is what fails it.
  if (limits_.openTablebase) return reason + " (a host that answers HTTP range requests gives it)";
  return file + " cannot be read: " + reason;
}

absl::StatusOr<std::shared_ptr<const tb::Tablebase>> Engine::openTablebase(const std::string& path) const {
  return limits_.openTablebase ? limits_.openTablebase(path) : tb::open(path);
}

absl::StatusOr<std::vector<tb::RankedMove>> Engine::exactValues() {
  if (!busy()) search();  // (a running job already has the variant's tablebase, resolved before it started)
  if (!tablebase_ && !tablebaseProblem_.empty())
    return absl::FailedPreconditionError("no tablebase for " + options_.variant.name() + ": " + tablebaseProblem_);
  if (!tablebase_)
    return absl::FailedPreconditionError(
        "no tablebase for " + options_.variant.name() +
        (tb::hasIndex(options_.variant) ? " ('gobblet-tb build " + options_.variant.name() + "' makes one)" : ""));
  if (game_.result() != GameResult::kNone) return std::vector<tb::RankedMove>{};
  return tb::rankMoves(*tablebase_, game_.position());
}

absl::Status Engine::useTablebase(std::shared_ptr<const tb::Tablebase> tablebase) {
  if (busy()) return busyError("tablebase");
  chosenTablebase_ = std::move(tablebase);
  tablebaseResolved_ = false;
  if (search_) attachTablebase();
  return absl::OkStatus();
}

absl::Status Engine::useDefaultTablebase() {
  if (busy()) return busyError("tablebase");
  chosenTablebase_.reset();
  tablebaseResolved_ = false;
  if (search_) attachTablebase();
  return absl::OkStatus();
}

std::shared_ptr<const tb::Tablebase> Engine::tablebase() {
  if (!busy()) search();
  return tablebase_;
}

void Engine::prepare() {
  if (!busy()) search();  // the first isready pays for the hash table and the tablebase
}

// ---------------------------------------------------------------------------
// The game

void Engine::newGame() {
  endWork();
  game_ = Game(Board(options_.variant));
  refusedPosition_.clear();
  proved_.clear();
  if (search_) search_->newGame();
}

absl::Status Engine::setPosition(std::optional<std::string_view> positionText, const std::vector<std::string>& moves) {
  absl::StatusOr<Game> game = gameFrom(positionText, moves);
  if (!game.ok()) {
    refusedPosition_ = std::string(game.status().message());
    return game.status();
  }
  game_ = *std::move(game);
  refusedPosition_.clear();
  return absl::OkStatus();
}

absl::Status Engine::setGame(const Game& game) {
  if (busy()) return busyError("position");
  const Variant& v = game.position().variant();
  if (!(v == options_.variant)) {
    options_.variant = v;
    tablebaseResolved_ = false;
    if (search_) {
      search_->newGame();
      attachTablebase();
    }
  }
  game_ = game;
  refusedPosition_.clear();
  return absl::OkStatus();
}

absl::StatusOr<Game> Engine::gameFrom(std::optional<std::string_view> positionText,
                                      const std::vector<std::string>& moves) const {
  const Variant& v = options_.variant;
  Board start(v);
  if (positionText) {
    auto parsed = parsePosition(v, *positionText);
    if (!parsed.ok())
      return absl::InvalidArgumentError("position " + quoteWord(*positionText) + ": " +
                                        std::string(parsed.status().message()));
    start = *parsed;
  }
  Game game(start);
  for (size_t i = 0; i < moves.size(); ++i)
    if (absl::Status st = game.play(moves[i]); !st.ok()) {
      // "position: ply 2: illegal move: … in 'X@a1'": the ply's number, and
      // the move named once (the rules core's reason names it, if it does).
      const std::string reason(st.message());
      const std::string move = quoteWord(moves[i]);
      const bool named = reason.size() > move.size() && reason.ends_with(" in " + move);
      return absl::InvalidArgumentError("position: ply " + std::to_string(i + 1) + (named ? "" : " " + move) + ": " +
                                        reason);
    }
  return game;
}

absl::Status Engine::positionStatus() const {
  if (refusedPosition_.empty()) return absl::OkStatus();
  // The refusal's own text may quote the bad input: it comes last, so
  // that a cut error line still says what to do.
  return absl::FailedPreconditionError("no position: the last 'position' was refused; send a valid one (" +
                                       refusedPosition_ + ")");
}

EvalTerms Engine::evaluate() const { return evaluateTerms(game_.position()); }

std::optional<int> Engine::netEvaluation() const {
  if (!net_ || !netEvaluates(game_.position().variant())) return std::nullopt;
  return gobblet::netEvaluation(*net_, game_.position());
}

// A tablebase's value is exact: a draw is 0 1000 0 whatever the game's
// history (a repetition can only draw); a win or a loss is certain only
// where no earlier position of the game can recur on the way (a repetition
// may draw what the table wins).
WinDrawLoss Engine::chances() {
  if (!busy()) search();  // (resolves the variant's tablebase; a running job already has it)
  if (tablebase_ && game_.result() == GameResult::kNone) {
    const tb::Probe p = tablebase_->probe(game_.position());
    if (p.value == tb::Value::kDraw) return {0, 1000, 0};
    if ((p.value == tb::Value::kWin || p.value == tb::Value::kLoss) && game_.positionsSinceLastDrop().empty())
      return p.value == tb::Value::kWin ? WinDrawLoss{1000, 0, 0} : WinDrawLoss{0, 0, 1000};
  }
  // The search's evaluation's chances (the same at every level): a
  // position's chances are the position's, not the player's.
  return positionChances(game_, options_.searchUsesNet() ? net_.get() : nullptr);
}

const proof::ProofDatabase* Engine::proofDatabase() const {
  if (database_ && database_->variant() == options_.variant) return database_.get();
  for (const std::shared_ptr<const proof::ProofDatabase>& hosted : limits_.hostedDatabases)
    if (hosted && hosted->variant() == options_.variant) return hosted.get();
  return nullptr;
}

std::optional<proof::KnownPosition> Engine::databaseEntry() const {
  const proof::ProofDatabase* database = proofDatabase();
  if (!database || !game_.positionsSinceLastDrop().empty()) return std::nullopt;
  return database->find(game_.position());
}

std::optional<proof::ProofResult> Engine::certifiedEntry() {
  absl::StatusOr<proof::ProofResult> stored = proof::storedProof(*proofDatabase(), game_.position());
  if (!stored.ok()) {
    notice_(NoticeKind::kError,
            "proof database: the entry of this position is not used: " + std::string(stored.status().message()));
    return std::nullopt;
  }
  return *std::move(stored);
}

std::optional<ProvedMoves::Proved> Engine::learnStoredWin(const proof::ProofResult& stored) {
  proved_.learn(*stored.certificate, game_.position().variant(), proofDatabase());
  if (std::optional<ProvedMoves::Proved> proved = proved_.moveFor(game_)) return proved;
  // A strategy larger than ProvedMoves keeps: its first move still wins.
  return ProvedMoves::Proved{stored.certificate->nodes.front().move, stored.plies};
}

std::optional<proof::Certificate> Engine::heldEntry(int defender) {
  const proof::ProofDatabase* database = proofDatabase();
  if (!database || !database->holds(game_.position(), defender)) return std::nullopt;
  absl::StatusOr<proof::NotLostResult> held = proof::storedNotLost(*database, game_.position(), defender);
  if (!held.ok()) {
    notice_(NoticeKind::kError, "proof database: the held entry of player " + std::to_string(defender + 1) +
                                    " here is not used: " + std::string(held.status().message()));
    return std::nullopt;
  }
  return std::move(held->certificate);
}

std::optional<ProvedMoves::Proved> Engine::learnStoredHeld() {
  const int stm = game_.position().sideToMove();
  const std::optional<proof::Certificate> held = heldEntry(stm);
  if (!held) return std::nullopt;
  const bool drawn = heldEntry(stm ^ 1).has_value();
  proved_.learnNotLost(*held, game_.position().variant(), drawn);
  if (std::optional<ProvedMoves::Proved> proved = proved_.moveFor(game_)) return proved;
  // A strategy larger than ProvedMoves keeps: its first move still holds.
  return ProvedMoves::Proved{held->nodes.front().move, 0,
                             drawn ? ProvedMoves::Claim::kDraw : ProvedMoves::Claim::kNotLost};
}

std::optional<Engine::DatabaseValue> Engine::databaseValue() {
  using Kind = DatabaseValue::Kind;
  if (workerBusy_) return std::nullopt;  // (a proof may be appending to the database)
  if (!proofDatabase() || game_.result() != GameResult::kNone) return std::nullopt;
  DatabaseValue value;
  if (databaseEntry()) {
    const std::optional<proof::ProofResult> stored = certifiedEntry();
    if (!stored) return std::nullopt;
    value.kind = stored->outcome == proof::Outcome::kWin ? Kind::kWin : Kind::kLoss;
    value.plies = stored->plies;  // (the checker's count)
    if (value.kind == Kind::kWin) value.move = stored->certificate->nodes.front().move;
    return value;
  }
  const int stm = game_.position().sideToMove();
  const std::optional<proof::Certificate> mine = heldEntry(stm);
  const bool other = heldEntry(stm ^ 1).has_value();
  if (!mine && !other) return std::nullopt;
  value.kind = mine && other ? Kind::kDraw : mine ? Kind::kNotLost : Kind::kNotWon;
  if (mine) value.move = mine->nodes.front().move;
  return value;
}

std::shared_ptr<const nnue::Network> Engine::searchNet() const { return options_.searchUsesNet() ? net_ : nullptr; }

// ---------------------------------------------------------------------------
// Searching

void Engine::go(const SearchLimits& limits, SearchCallbacks callbacks) {
  // A new go replaces a running search (the old one still reports its best
  // move), a perft or a bench.
  stopRunning();
  joinWorker();
  Search& s = search();
  s.wait();  // also covers a search that has reported its best move but not yet ended
  const absl::Status position = positionStatus();
  if (!position.ok() && callbacks.onError) callbacks.onError("go: " + std::string(position.message()));
  if (!position.ok() || game_.result() != GameResult::kNone) {
    // No position (the last one was refused), or a decided one (a line, no
    // move, threefold repetition): nothing to search.
    if (limits.infinite || limits.ponder) {
      std::lock_guard lock(heldMutex_);
      heldBestMove_ = std::move(callbacks.onBestMove);
    } else if (callbacks.onBestMove) {
      callbacks.onBestMove(Move::none(), Move::none());
    }
    return;
  }
  // A certified win, played at full strength (a weakened player plays as it would have).
  const bool playsProofs = !limits.infinite && !limits.ponder && options_.playingLevel() == kMaxSkillLevel;
  std::optional<ProvedMoves::Proved> proved = playsProofs ? proved_.moveFor(game_) : std::nullopt;
  // (A held draw gives way to a stored win: the other side may have erred.)
  if (!proved || proved->claim != ProvedMoves::Claim::kWin) {
    if (const std::optional<proof::ProofResult> stored = databaseEntry() ? certifiedEntry() : std::nullopt) {
      const bool win = stored->outcome == proof::Outcome::kWin;
      notice_(NoticeKind::kInfo, std::string("proof ") + (win ? "win" : "loss") + " in " +
                                     std::to_string(stored->plies) + " plies (database)");
      if (win && playsProofs) proved = learnStoredWin(*stored);  // (a loss: searched, longest)
    }
  }
  // A position the database holds for the side to move, whatever the history.
  bool heldInDatabase = false;
  if (!proved && playsProofs) {
    proved = learnStoredHeld();
    heldInDatabase = proved.has_value();
  }
  if (proved) {
    // Its move, without a search: a win's mate score; a draw's exact 0;
    // not lost: at least 0.
    SearchInfo info;
    info.pv = {proved->move};
    if (proved->claim == ProvedMoves::Claim::kWin) {
      info.depth = proved->plies;
      info.score.isMate = true;
      info.score.value = proved->plies;
      info.wdl = WinDrawLoss{1000, 0, 0};
    } else {
      const bool drawn = proved->claim == ProvedMoves::Claim::kDraw;
      notice_(NoticeKind::kInfo,
              std::string("proof ") + (drawn ? "draw" : "not-lost") + (heldInDatabase ? " (database)" : " (held)"));
      info.depth = 1;
      info.score.exact = drawn;
      info.score.bound = drawn ? SearchScore::kExact : SearchScore::kLower;
      if (drawn) {
        info.wdl = WinDrawLoss{0, 1000, 0};
      } else {
        // Not lost: no loss, exactly; the win and the draw are `query wdl`'s
        // (a tablebase's exact value, else the static evaluation's
        // estimate), its loss share counted a draw.
        const WinDrawLoss estimate = chances();
        info.wdl = WinDrawLoss{estimate.win, estimate.draw + estimate.loss, 0};
      }
    }
    info.isFinal = true;
    if (callbacks.onInfo) callbacks.onInfo(info);
    if (callbacks.onBestMove) callbacks.onBestMove(proved->move, Move::none());
    return;
  }
  searchGame_ = std::make_unique<Game>(game_);
  auto onBestMove = std::move(callbacks.onBestMove);
  callbacks.onBestMove = [this, onBestMove = std::move(onBestMove)](Move best, Move ponder) {
    searching_ = false;
    if (onBestMove) onBestMove(best, ponder);
  };
  if (!options_.debug) callbacks.onDiagnostic = nullptr;
  searching_ = true;
  s.go(*searchGame_, limits, std::move(callbacks));
}

absl::StatusOr<SearchResult> Engine::searchBlocking(const SearchLimits& limits,
                                                    std::function<void(const SearchInfo&)> onInfo) {
  stopAsked_ = false;  // (from here on a stop() is kept)
  if (limits.ponder)
    return absl::InvalidArgumentError("searchBlocking: ponder waits for a ponderhit, which only go() takes");
  if (!kHasThreads && limits.infinite)
    return absl::InvalidArgumentError(
        "searchBlocking: this build runs one thread, so nothing could stop an infinite search");
  if (absl::Status st = positionStatus(); !st.ok()) {
    endWork();  // (as go() does without a position)
    return absl::FailedPreconditionError("searchBlocking: " + std::string(st.message()));
  }
  SearchLimits searched = limits;
  if (game_.result() != GameResult::kNone) searched.infinite = false;  // a decided position answers at once
  SearchResult result;
  SearchCallbacks callbacks;
  // Each callback runs on the search's thread, or on this one before go()
  // returns; search_->wait() below orders them before the return.
  callbacks.onInfo = [&result, onInfo = std::move(onInfo)](const SearchInfo& info) {
    result.info = info;
    if (!info.isFinal && info.multiPv >= 1) {
      const size_t rank = static_cast<size_t>(info.multiPv);
      if (result.lines.size() < rank) result.lines.resize(rank);
      result.lines[rank - 1] = info;
    }
    if (onInfo) onInfo(info);
  };
  callbacks.onBestMove = [&result](Move best, Move ponder) {
    result.best = best;
    result.ponder = ponder;
  };
  callbacks.onError = [&result](const std::string& warning) { result.warnings.push_back(warning); };
  go(searched, std::move(callbacks));
  if (stopAsked_) stopRunning();  // a stop() that came before the search had started
  if (search_) search_->wait();   // (no search was started: go() made its callbacks before it returned)
  return result;
}

void Engine::releaseHeldBestMove() {
  std::function<void(Move, Move)> held;
  {
    std::lock_guard lock(heldMutex_);
    held.swap(heldBestMove_);
  }
  if (held) held(Move::none(), Move::none());
}

void Engine::stop() {
  stopAsked_ = true;
  stopRunning();
}

// searching_ is read first: it is set only once search_ exists, so another
// thread's stop() never reads search_ while go() makes it.
void Engine::stopRunning() {
  releaseHeldBestMove();
  if (searching_ && search_) search_->stop();
  workerStop_ = true;  // harmless when nothing runs: startWorker() clears it
}

void Engine::ponderHit() {
  releaseHeldBestMove();
  if (search_ && searching_) search_->ponderHit();
}

// ---------------------------------------------------------------------------
// perft and bench, on the worker thread

void Engine::endWork() {
  stopRunning();
  joinWorker();
  if (search_) search_->wait();
}

void Engine::joinWorker() {
  if (worker_.joinable()) worker_.join();
}

absl::Status Engine::startWorker(std::function<void()> job) {
  joinWorker();  // the last job has made its last callback; its thread may still be ending
  workerStop_ = false;
  workerBusy_ = true;
  if constexpr (!kHasThreads) {
    job();  // one thread (search/host_yield.h): the command returns when the job is done
    return absl::OkStatus();
  }
  try {
    worker_ = limits_.startThread ? limits_.startThread(std::move(job)) : std::thread(std::move(job));
  } catch (const std::system_error& e) {
    workerBusy_ = false;
    return absl::ResourceExhaustedError("the system refused a thread (" + std::string(e.what()) + ")");
  } catch (const std::bad_alloc& e) {
    workerBusy_ = false;
    return absl::ResourceExhaustedError("no memory for a thread (" + std::string(e.what()) + ")");
  }
  return absl::OkStatus();
}

// A stop ends it within microseconds: perft polls workerStop_ at every
// interior node.
absl::Status Engine::perft(int depth, PerftCallbacks callbacks) {
  if (busy()) return busyError("perft");
  if (absl::Status st = positionStatus(); !st.ok())
    return absl::FailedPreconditionError("perft: " + std::string(st.message()));
  if (depth > limits_.maxPerftDepth)
    return absl::InvalidArgumentError("perft: depth " + std::to_string(depth) + " is above this server's limit of " +
                                      std::to_string(limits_.maxPerftDepth));
  absl::Status started =
      startWorker([this, board = game_.position(), depth, callbacks = std::move(callbacks)]() mutable {
        const auto t0 = std::chrono::steady_clock::now();
        const size_t rootMoves = depth > 0 ? static_cast<size_t>(countMoves(board)) : 0;
        // Without threads a stop can come only between root moves (search/host_yield.h).
        auto onRootMove = [&callbacks](Move move, uint64_t count) {
          if (callbacks.onRootMove) callbacks.onRootMove(move, count);
          yieldToHost();
        };
        const PerftResult r = perftDivide(board, depth, &workerStop_, onRootMove);
        const int64_t ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
        const bool stopped = workerStop_;
        workerBusy_ = false;
        if (callbacks.onDone) callbacks.onDone(r.total, ms, stopped, r.perMove.size(), rootMoves);
      });
  if (!started.ok()) return absl::ResourceExhaustedError("perft: " + std::string(started.message()));
  return absl::OkStatus();
}

// A stop ends the position being searched and the bench.
absl::Status Engine::bench(int depth, BenchCallbacks callbacks) {
  if (!limits_.benchAllowed) return absl::FailedPreconditionError("bench: not available on this server");
  if (busy()) return busyError("bench");
  absl::Status started = startWorker([this, depth, callbacks = std::move(callbacks)] {
    const BenchResult r = runBench(depth, callbacks.onPosition, &workerStop_, limits_.startThread);
    workerBusy_ = false;
    if (callbacks.onDone) callbacks.onDone(r);
  });
  if (!started.ok()) return absl::ResourceExhaustedError("bench: " + std::string(started.message()));
  return absl::OkStatus();
}

namespace {

// The not-lost prover (proof/not_lost.h) after a win prover that proved
// neither a win nor a loss, on what is left of `limits` after `spent`
// (its nodes and seconds): the side to move, then, if held, the other
// side, each on what the one before left, starting from `database` (may
// be null: a held root is answered at once, held and won entries end
// lines). Nothing when the win prover proved something, was stopped, or
// spent a limit.
ProvedDefence proveDefence(const Board& board, const ProveLimits& limits, const proof::ProofResult& spent,
                           size_t hashMiB, const proof::ProofDatabase* database, const std::atomic<bool>* stop) {
  ProvedDefence defence;
  if (spent.outcome == proof::Outcome::kWin || spent.outcome == proof::Outcome::kLoss || stop->load()) return defence;
  const double maxSeconds = static_cast<double>(limits.moveTimeMs) / 1000.0;
  const int stm = board.sideToMove();
  for (int side : {stm, stm ^ 1}) {
    proof::NotLostOptions options;
    options.hashMiB = hashMiB;
    options.stop = stop;
    options.database = database;
    // What is left (0 is no limit: a limit that is spent ends it here).
    const uint64_t nodes = spent.nodes + defence.nodes;
    const double seconds = spent.seconds + defence.seconds;
    if ((limits.nodes > 0 && nodes >= limits.nodes) || (limits.moveTimeMs > 0 && seconds >= maxSeconds)) break;
    if (limits.nodes > 0) options.maxNodes = limits.nodes - nodes;
    if (limits.moveTimeMs > 0) options.maxSeconds = maxSeconds - seconds;
    absl::StatusOr<proof::NotLostResult> r = proof::proveNotLost(board, side, options);
    if (!r.ok()) break;  // (a decided position: refused before)
    defence.nodes += r->nodes;
    defence.seconds += r->seconds;
    (side == stm ? defence.sideToMove : defence.other) = r->defence;
    if (r->defence != proof::Defence::kHeld) break;
    defence.certificates[side == stm ? 0 : 1] = r->certificate->nodes.size();
    if (side == stm) {
      defence.move = r->certificate->nodes.front().move;
      defence.strategy = std::move(r->certificate);
    } else {
      defence.otherStrategy = std::move(r->certificate);
    }
  }
  return defence;
}

}  // namespace

// A stop ends the proof search, in either prover; the answer is then what
// was proved by then ("unknown" from the win prover, or the side to move
// held).
absl::Status Engine::prove(const ProveLimits& limits, ProveCallbacks callbacks) {
  endWork();  // (as a go: a running search, which reports its best move, perft or bench ends first)
  if (absl::Status st = positionStatus(); !st.ok())
    return absl::FailedPreconditionError("go prove: " + std::string(st.message()));
  if (game_.result() != GameResult::kNone) return absl::FailedPreconditionError("go prove: the game is over");
  if (!kHasThreads && limits.nodes == 0 && limits.moveTimeMs == 0)
    return absl::InvalidArgumentError("go prove: this build runs one thread, so give movetime or nodes");
  proof::ProverOptions options;
  options.maxNodes = limits.nodes;
  options.maxSeconds = static_cast<double>(limits.moveTimeMs) / 1000.0;
  options.hashMiB = static_cast<size_t>(options_.hashMiB);
  options.threads = kHasThreads ? options_.threads : 1;
  options.stop = &workerStop_;
  options.history = game_.positionsSinceLastDrop();  // (a proof for this game, its repetitions counted)
  options.database = proofDatabase();                // (known positions are leaves; the root too, history allowing)
  // The ProofGuide option's evaluation (EvalFile's net for "net"), kept alive by the worker.
  std::shared_ptr<const proof::ProofGuide> guide =
      makeProofGuide(options_.proofGuide, game_.position().variant(), net_);
  options.guide = guide.get();
  // What it proves is stored (a writable database): a win or a loss with the
  // positions its strategy reaches by a drop, a held side's not-lost
  // certificates (a draw's two) as held entries; a failed write is said and
  // changes nothing.
  const auto store = [this](const auto& certificates) {
    auto stored = proof::storeProof(*database_, certificates);
    if (!stored.ok()) {
      notice_(NoticeKind::kError, "proof database " + quoteWord(options_.proofDatabase) +
                                      ": nothing appended: " + std::string(stored.status().message()));
    } else {
      notice_(NoticeKind::kInfo, "proof database appended " + std::to_string(stored->appended) + " of " +
                                     std::to_string(stored->offered) + " entries, " +
                                     std::to_string(database_->entries()) + " in all");
    }
  };
  // The prover's table is the search's size, beside it: on a server it is
  // taken from the sessions' hash budget for the proof's time, or, when the
  // budget is spent, it is the smallest table.
  std::shared_ptr<HashBudget> budget = limits_.hashBudget;
  if (budget && !budget->reserve(static_cast<int64_t>(options.hashMiB))) {
    options.hashMiB = static_cast<size_t>(declarationOf(OptionId::kHash).min);
    budget->reserve(static_cast<int64_t>(options.hashMiB), /*force=*/true);
  }
  absl::Status started =
      startWorker([this, board = game_.position(), limits, options, guide, budget, store, database = proofDatabase(),
                   writable = proofDatabaseWritable(), callbacks = std::move(callbacks)] {
        // Memory the process cannot get is an error for this client, not the end of every session.
        absl::StatusOr<proof::ProofResult> result = absl::ResourceExhaustedError("no memory for the proof");
        try {
          result = proof::prove(board, options);
          if (result.ok()) {
            proof::certify(*result, options.history, options.database);  // (said only once the checker accepts it)
            if (result->certified && writable) store(*result->certificate);
          }
        } catch (const std::bad_alloc&) {
          result = absl::ResourceExhaustedError("no memory for the proof");
        }
        ProvedDefence defence;
        if (result.ok()) {
          try {
            defence = proveDefence(board, limits, *result, options.hashMiB, database, &workerStop_);
            if (defence.strategy && writable) {
              std::vector<proof::Certificate> held{*defence.strategy};
              if (defence.otherStrategy) held.push_back(*defence.otherStrategy);
              store(held);
            }
          } catch (const std::bad_alloc&) {
            defence = ProvedDefence{};  // (the win prover's answer stands)
          }
        }
        if (budget) budget->release(static_cast<int64_t>(options.hashMiB));  // (the tables are gone)
        const Move winning = result.ok() ? proof::winningMove(*result) : Move::none();
        if (!winning.isNone())
          proved_.learn(*result->certificate, board.variant(), options.database);  // (go() plays it from now on)
        if (defence.strategy)
          proved_.learnNotLost(*defence.strategy, board.variant(), defence.drawn());  // (played too)
        workerBusy_ = false;
        if (callbacks.onDone) callbacks.onDone(result, winning, defence);
      });
  if (!started.ok()) {
    if (budget) budget->release(static_cast<int64_t>(options.hashMiB));
    return absl::ResourceExhaustedError("go prove: " + std::string(started.message()));
  }
  return absl::OkStatus();
}

}  // namespace gobblet
