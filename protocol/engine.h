// Engine: the engine as every front end sees it (Stockfish's engine.h).
//
// One object per conversation owns the game (start position plus the moves
// played), the options, the Search, the tablebase of the variant and a
// worker thread for perft, bench and the prover. Its calls never wait for
// thinking: go(), perft(), bench() and prove() start the work and return,
// and the results come back through callbacks; searchBlocking() alone
// waits, for a program that wants the best move as a value. It knows no
// protocol text: the Session turns UGI lines into these calls and the
// callbacks into lines, so stdin, TCP and WebSocket all drive the same
// engine through the same session.
//
// Threads: one controlling thread makes the calls; stop() and busy() are
// also safe from any other thread. Callbacks run on the search thread, the
// worker thread or (for a decided position, and for notices) the calling
// thread; the front end serialises its output.
//
// Contract of the jobs:
//   - every go() gets exactly one onBestMove, also when it is stopped,
//     replaced by another go(), or the engine closes; on a decided position
//     (a line, no legal move, threefold repetition) the best move is
//     Move::none(), at once, or for `infinite`/`ponder` at the next stop(),
//     ponderHit() or close();
//   - the last onInfo before an onBestMove carries depth, score, nodes,
//     time and nps;
//   - every perft() / bench() / prove() that starts ends with exactly one onDone;
//   - a win prove() certified is played as one: a later go() (not infinite,
//     not ponder, at full strength) at a position of its strategy answers
//     with the strategy's move at once (protocol/proved_moves.h), until the
//     variant or the game is new; so is a side to move prove() proved not
//     lost (ProvedDefence: a draw, or only its side held), whatever the
//     game's history (a repetition only ever draws), with a notice "proof
//     draw (held)" or "proof not-lost (held)" first, unless the proof
//     database (below) holds a win there, which is played instead;
//   - with a proof database (the ProofDatabase option, proof/database.h),
//     prove() starts from what it holds (both provers) and adds what it
//     proves (a win, a loss, the held sides), and a go() at a position it
//     holds, where it may be used (see proofDatabase()), says so first (a
//     notice "proof win|loss in N plies (database)"); a win is then played
//     as one (as above: the entry's certificate, checked and moved onto the
//     game's board if it was proved for another image of it), a loss
//     searched. Failing those, a go() (at full strength, not infinite nor
//     ponder) at a position the database holds for the side to move plays
//     the held entry's strategy at once, whatever the game's history (a
//     repetition only ever draws: no "no history since the last drop" as
//     for a win), said "proof draw (database)" where it holds the other
//     side too, else "proof not-lost (database)", and keeps it as a
//     proved strategy (ProvedMoves), so the next moves are held too.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/game.h"
#include "engine/perft.h"
#include "proof/certified.h"
#include "proof/database.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "protocol/engine_options.h"
#include "protocol/hash_budget.h"
#include "protocol/proved_moves.h"
#include "search/eval_file.h"
#include "search/evaluate.h"
#include "search/search.h"
#include "search/wdl.h"

namespace gobblet {

// What a front end lets one engine spend: a server sharing its cores with
// many clients keeps perft short and bench off, and caps the options.
struct EngineLimits {
  OptionCaps caps;
  int maxPerftDepth = kMaxPerftDepth;
  bool benchAllowed = true;
  // The server's budget for all its sessions' hash tables (null: none, as
  // on stdin): see protocol/hash_budget.h.
  std::shared_ptr<HashBudget> hashBudget;
  // How a tablebase path is opened (empty: tb::open, a file on this
  // machine). The WebAssembly engine reads hosted files by HTTP range
  // requests instead (docs/wasm.md). NotFound means "no such file": for
  // the default path of a variant that is no error, the game has no
  // tablebase.
  std::function<absl::StatusOr<std::shared_ptr<const tb::Tablebase>>(const std::string& path)> openTablebase;
  // Proof databases the front end opened for all its engines (the
  // program's --proof-db, read-only, checked whole when opened): an
  // engine whose variant has one uses it where its ProofDatabase option
  // names none of that variant. Many engines may share one: they only read.
  std::vector<std::shared_ptr<const proof::ProofDatabase>> hostedDatabases;
  // The ProofDatabase option's file opened for reading only, never made nor
  // appended to (the WebAssembly engine's: its files are those its page
  // loaded into memory, docs/wasm.md); else read-write where the file allows.
  bool proofDatabaseReadOnly = false;
  // How the engine makes its threads (the search's, perft's and bench's;
  // empty: std::thread). One the system refuses (a task limit) fails that
  // command with an error, never the process; tests pass one that refuses.
  ThreadStarter startThread;
};

// Lines the engine volunteers, for the front end to show: kInfo (a
// tablebase loaded, or not used), kError (a problem met on the way that
// refuses nothing: the engine plays on without it: a tablebase that cannot
// be opened, a hash table that did not fit; the session says it as a
// warning, never as the refusal of the command it came with), kDiagnostic
// (search statistics; only sent while the Debug option is on).
enum class NoticeKind { kInfo, kError, kDiagnostic };
using NoticeCallback = std::function<void(NoticeKind, const std::string&)>;

struct PerftCallbacks {
  std::function<void(Move, uint64_t)> onRootMove;  // each root move's count, as soon as it is known
  // total and milliseconds; stopped: counted of rootMoves root moves were done.
  std::function<void(uint64_t total, int64_t ms, bool stopped, size_t counted, size_t rootMoves)> onDone;
};

// `go prove`: what the prover may spend (0: no limit; with neither it runs
// until stop()).
struct ProveLimits {
  uint64_t nodes = 0;
  int64_t moveTimeMs = 0;
};

// What `go prove` adds where the win prover proved neither a win nor a
// loss and budget remains: the not-lost prover (proof/not_lost.h) on the
// rest, for the side to move, then (held) for the other side; untried, a
// side stays kUnknown. Held is certified: the checker accepted the side's
// not-lost certificate.
struct ProvedDefence {
  proof::Defence sideToMove = proof::Defence::kUnknown;
  proof::Defence other = proof::Defence::kUnknown;  // tried once the side to move is held
  size_t certificates[2] = {0, 0};                  // nodes of the side to move's and the other's certificates
  uint64_t nodes = 0;                               // what the not-lost prover spent
  double seconds = 0;
  Move move = Move::none();                         // side to move held: its strategy's move
  std::optional<proof::Certificate> strategy;       // side to move held: its certificate (go() plays it from then on)
  std::optional<proof::Certificate> otherStrategy;  // both held: the other side's certificate (stored with the first)
  // Both sides held: the position is a draw.
  bool drawn() const { return sideToMove == proof::Defence::kHeld && other == proof::Defence::kHeld; }
};

struct ProveCallbacks {
  // The prover's answer (an error for a position it cannot take), a win or
  // a loss certified (proof/certified.h: the checker accepted its
  // certificate), the move of a proved win (its certificate's first move;
  // else Move::none()), and what the not-lost prover added after (for an
  // error: nothing).
  std::function<void(const absl::StatusOr<proof::ProofResult>&, Move winningMove, const ProvedDefence& defence)> onDone;
};

// What searchBlocking() found.
struct SearchResult {
  Move best = Move::none();    // Move::none() on a decided position (a line, no legal move, threefold repetition)
  Move ponder = Move::none();  // the reply the search expects, if it has one
  // The search's last line (SearchInfo::isFinal): its depth, score, wdl,
  // nodes, time, nps and the best move's pv, with the final counts. All
  // zero, with an empty pv, on a decided position.
  SearchInfo info;
  // The latest line of each MultiPV rank the search reported, best first
  // (lines[k].multiPv == k + 1); empty when it reported none (a decided
  // position, a proved win's move).
  std::vector<SearchInfo> lines;
  // What the search worked around (a hash table or a thread the system
  // refused), in the order it said so.
  std::vector<std::string> warnings;
};

struct BenchCallbacks {
  std::function<void(const std::string&)> onPosition;  // one line per bench position
  std::function<void(const BenchResult&)> onDone;      // result.stopped after a stop()
};

class Engine {
 public:
  Engine(EngineLimits limits, NoticeCallback notice);
  ~Engine();  // close()
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const EngineLimits& limits() const { return limits_; }
  const EngineOptions& options() const { return options_; }

  // Applies one option (see kOptionTable). Refused while busy(), and for a
  // bad name or value; then nothing changes. A Hash that cannot be
  // allocated, or that the server's hash budget cannot give, keeps the old
  // table and all the old options.
  absl::Status setOption(std::string_view name, std::string_view value, bool hasValue);

  // Makes ready what the first search needs (the hash table, the variant's
  // tablebase), so that it is paid for at `isready`, not in the first move.
  // Does nothing while busy: a running job already has what it needs.
  void prepare();

  // Stops whatever runs (its last callback is still made), waits for it,
  // then forgets the game and clears the search's tables.
  void newGame();

  // The game from `positionText` (nullopt: the start) and the moves. On an
  // error (bad text, an illegal move, or a move after the game ended) the
  // previous game stays but is no longer the position to work on: until a
  // position is accepted (or newGame(), or a new Variant), positionStatus()
  // is that error and go() / perft() are refused — a controller whose
  // `position` was refused must not get a move for a position it did not send.
  absl::Status setPosition(std::optional<std::string_view> positionText, const std::vector<std::string>& moves);
  // The game to work on, as a Game of the rules core; its variant becomes
  // the Variant option (as `setoption name Variant` would, the tablebase
  // follows). Refused while busy().
  absl::Status setGame(const Game& game);
  const Game& game() const { return game_; }
  // Ok, or FailedPrecondition naming the refused position (see setPosition).
  absl::Status positionStatus() const;

  // Starts a search of the current game; replaces a running search (which
  // still reports its best move), perft or bench. Without a position (after
  // a refused one) it reports positionStatus() through onError, and the
  // best move Move::none() as for a decided position (at once, or for
  // `infinite`/`ponder` at the next stop, ponderhit or close).
  void go(const SearchLimits& limits, SearchCallbacks callbacks);
  // Searches the current game as go() does and waits for the best move:
  // the call for a program that wants the answer, not a stream of lines.
  // `onInfo` (optional) sees every line as go()'s does, on the search's
  // thread. Contract:
  //   - like go(), it first ends what runs: a search started by go()
  //     (which reports its best move to its own callbacks), perft, bench or
  //     proof;
  //   - it returns once the search has ended (busy() is false again), with
  //     the best move and the last line; a decided position answers at
  //     once with Move::none(), whatever the limits;
  //   - stop() from another thread ends it, with the best move found so
  //     far; a stop() made after this call began and before its search
  //     started is kept, so the search then ends at once;
  //   - `infinite` runs until such a stop(), and is refused in a build
  //     without threads (search/host_yield.h), where nothing could send
  //     it; `ponder` is refused (a ponderhit is for go());
  //   - without a position (after a refused one) it returns
  //     positionStatus()'s error, searching nothing.
  absl::StatusOr<SearchResult> searchBlocking(const SearchLimits& limits,
                                              std::function<void(const SearchInfo&)> onInfo = nullptr);
  // Ends what runs, without waiting: the search reports its best move, a
  // perft or bench its onDone. Thread-safe.
  void stop();
  void ponderHit();  // the pondered move was played

  // Starts perft / bench on the worker thread. Refused while busy() and
  // above the limits.
  absl::Status perft(int depth, PerftCallbacks callbacks);
  absl::Status bench(int depth, BenchCallbacks callbacks);
  // Starts the prover (proof/prover.h) on the game's position, on the worker
  // thread: its table takes Hash MiB (from the hash budget while it runs, if
  // there is one: else the smallest table), its searchers Threads. Where it
  // proves neither a win nor a loss, unstopped, with nodes or time left (or
  // no limit), the not-lost prover (proof/not_lost.h) takes the rest and the
  // same table's memory: ProvedDefence. A proof
  // holds in the game: it reaches none of the game's positions since its last
  // drop. With a proof database (proofDatabase()) both provers start from
  // what the database holds, and a certified win or loss is appended to a
  // writable one with the positions its strategy reaches by a drop, a held
  // side's not-lost certificates (a draw's two) as held entries
  // (proof/store_proof.h; a notice says how many, or why none). Like go(), it replaces a running search (which
  // reports its best move), perft or bench. Refused without a position, at a
  // decided one, and, in a build without threads, without a limit (stop()
  // could not reach it).
  absl::Status prove(const ProveLimits& limits, ProveCallbacks callbacks);

  EvalTerms evaluate() const;
  // The net's evaluation of the position (EvalFile's net, used by the
  // search with Use NNUE), if the variant is the net's (4x4 Gobblet).
  std::optional<int> netEvaluation() const;
  // The chances of the position without a search (`query wdl`): exact
  // where the tablebase knows the value, else by the evaluation a
  // full-strength search uses (search/wdl.h), whatever the Skill Level or
  // UCI_Elo: the level changes how the engine plays, not a position's chances.
  WinDrawLoss chances();

  // The proof database in use: the ProofDatabase option's if it is of the
  // game's variant, else a hosted one of that variant (EngineLimits), else
  // null. proofDatabaseWritable(): whether prove() appends to it (the
  // option's file, writable; a hosted one is read only). Its entries are
  // used where the game's history since its last drop is empty
  // (proof/database.h).
  const proof::ProofDatabase* proofDatabase() const;
  bool proofDatabaseWritable() const { return databaseWritable_ && proofDatabase() == database_.get(); }
  // The database's value of the game's position (`query proof`) for its
  // side to move, each entry's certificate passing the checker (given the
  // database) on the game's board: a win or a loss (kWin, kLoss: where the
  // entry may be used, see proofDatabase(); the winner's plies at most),
  // else the held entries, whatever the history (a repetition only ever
  // draws): both sides held (kDraw), the side to move only (kNotLost), the
  // other side only (kNotWon: the side to move cannot win). `move`: the
  // side to move's strategy's first move (kWin, kDraw, kNotLost). nullopt
  // where the database holds none of these, and while prove() runs (it
  // may be appending). A rejected entry is said (a notice) and not used.
  struct DatabaseValue {
    enum class Kind { kWin, kLoss, kDraw, kNotLost, kNotWon };
    Kind kind = Kind::kWin;
    int plies = 0;  // kWin, kLoss
    Move move;
  };
  std::optional<DatabaseValue> databaseValue();

  // The tablebase the search probes and exactValues() reads. By default
  // the variant's own: the TablebasePath option's file, else the default
  // file (tb::defaultPath) if there is one. useTablebase(t) puts t there
  // instead (null: none) until useDefaultTablebase(); a t of another
  // variant than the game's is not used (a notice says so). Refused while
  // busy().
  absl::Status useTablebase(std::shared_ptr<const tb::Tablebase> tablebase);
  absl::Status useDefaultTablebase();
  // The tablebase in use now (null: none); resolves it if need be.
  std::shared_ptr<const tb::Tablebase> tablebase();

  // Every legal move of the position with its exact value for the mover,
  // from the variant's tablebase, best first (tb::rankMoves); empty when the
  // game is over. FailedPrecondition naming the variant when it has no
  // tablebase (a 4x4 game, or no file), and why when its file cannot be
  // read, with what makes it readable. Safe while a search runs.
  absl::StatusOr<std::vector<tb::RankedMove>> exactValues();

  // A search between go() and its best move, or a perft/bench until its
  // onDone. Thread-safe.
  bool busy() const { return searching_.load() || workerBusy_.load(); }

  // Stops everything and waits until every callback has been made. Idempotent.
  void close();

 private:
  // The game of a `position` command, or the error naming its bad part.
  absl::StatusOr<Game> gameFrom(std::optional<std::string_view> positionText,
                                const std::vector<std::string>& moves) const;
  Search& search();  // created on first need, with the options applied
  absl::Status applySearchOptions();
  // Makes the reservation in limits_.hashBudget `mib` (for the Hash to be
  // used); an error naming the budget if it cannot. No budget: always Ok.
  absl::Status reserveHash(int64_t mib);
  void releaseHashAbove(int64_t mib);  // gives back the reservation above `mib`
  void attachTablebase();
  // Why the variant's tablebase file at `path` is not used, for
  // exactValues(): `why` (the open's error) said shortly, with what a
  // person can do (a damaged file: build it anew; a hosted one, read by
  // limits_.openTablebase: a host that answers HTTP range requests).
  std::string unreadableTablebase(const std::string& path, const absl::Status& why) const;
  // limits_.openTablebase, or tb::open.
  absl::StatusOr<std::shared_ptr<const tb::Tablebase>> openTablebase(const std::string& path) const;
  void releaseHeldBestMove();
  // stop() without marking it asked for (the engine's own calls: go(),
  // endWork()).
  void stopRunning();
  void joinWorker();
  // Ends what runs and waits for it: a search (which reports its best move),
  // perft, bench or proof (their onDone), and the worker thread.
  void endWork();
  // Runs `job` on the worker thread; an error if the system refuses the thread.
  absl::Status startWorker(std::function<void()> job);
  absl::Status busyError(std::string_view command) const;
  // The database's entry of the game's position where it may be used (a
  // database of the game's variant, no history since the last drop).
  std::optional<proof::KnownPosition> databaseEntry() const;
  // The stored strategy of the game's position (proof/store_proof.h
  // storedProof: checked again, on the game's board); nullopt (and a
  // warning) where it cannot be read or the checker rejects it.
  std::optional<proof::ProofResult> certifiedEntry();
  // A certified stored win of the side to move (certifiedEntry), learned
  // into proved_: its move here, in its plies.
  std::optional<ProvedMoves::Proved> learnStoredWin(const proof::ProofResult& stored);
  // The database's held entry of the game's position for `defender`
  // (proof/store_proof.h storedNotLost: checked again, on the game's board),
  // whatever the history; nullopt where there is none, and (a warning)
  // where it cannot be read or the checker rejects it.
  std::optional<proof::Certificate> heldEntry(int defender);
  // The side to move's held entry (heldEntry), learned into proved_ as a
  // draw when the other side's entry holds too, else as not lost: its move
  // here. nullopt where the database holds the side to move nowhere.
  std::optional<ProvedMoves::Proved> learnStoredHeld();
  // The net the search evaluates with (Use NNUE); null: the hand-written evaluation.
  std::shared_ptr<const nnue::Network> searchNet() const;

  EngineLimits limits_;
  NoticeCallback notice_;
  EngineOptions options_;
  Game game_;
  std::unique_ptr<Search> search_;
  std::unique_ptr<Game> searchGame_;  // the game the running search was given; lives until the next go
  std::shared_ptr<const tb::Tablebase> tablebase_;
  std::shared_ptr<const nnue::Network> net_ = builtInNet();  // EvalFile's net (the search uses it with Use NNUE)
  // useTablebase()'s choice; nullopt: the variant's own.
  std::optional<std::shared_ptr<const tb::Tablebase>> chosenTablebase_;
  bool tablebaseResolved_ = false;  // looked for the current variant's tablebase?
  std::string tablebaseProblem_;    // why its file is not used (unreadableTablebase); empty: none, or no file
  int64_t reservedHashMiB_ = 0;     // this session's share of limits_.hashBudget
  std::string refusedPosition_;     // why the last `position` was refused; empty: game_ is the position
  std::atomic<bool> searching_{false};
  // Set by every stop(), cleared as searchBlocking() begins: a stop that
  // comes while its search is starting is kept.
  std::atomic<bool> stopAsked_{false};
  // A `go infinite|ponder` on a decided position: its best move (none)
  // waits for stop/ponderhit/close. Guarded by heldMutex_ (stop() may come
  // from another thread).
  std::function<void(Move, Move)> heldBestMove_;
  std::mutex heldMutex_;
  bool closed_ = false;
  // The worker thread runs one perft or bench at a time. workerBusy_ is
  // cleared just before the job's onDone; workerStop_ asks it to end.
  std::thread worker_;
  std::atomic<bool> workerBusy_{false};
  std::atomic<bool> workerStop_{false};
  // The last certified win or not-lost strategy of `go prove` (written by
  // the worker, read by go() after it has joined the worker): go() plays it.
  ProvedMoves proved_;
  // The ProofDatabase option's file (null: none). Read by the prover's
  // threads and go(); appended to by the worker after a proof.
  std::shared_ptr<proof::ProofDatabase> database_;
  bool databaseWritable_ = false;
};

}  // namespace gobblet
