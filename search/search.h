// Search: the engine's entry point for thinking about a position.
//
// The protocol layer owns a Search, configures it, and calls go() with the
// game (position plus history, for repetition) and the limits; go() returns
// at once and the search runs on its own threads, reporting through the
// callbacks. stop() ends it early; exactly one onBestMove call follows
// every go(). The search knows nothing about protocol text.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/game.h"
#include "engine/move.h"
#include "engine/parallel_for.h"
#include "search/skill.h"
#include "search/wdl.h"
#include "tablebase/tablebase.h"

namespace gobblet {

struct SearchLimits {
  int64_t time[2] = {-1, -1};  // remaining ms for player 1 / player 2; -1 = not given
  int64_t inc[2] = {0, 0};     // increment in ms per move
  int movesToGo = 0;           // 0 = sudden death
  int64_t moveTime = -1;       // exact ms per move; -1 = not given
  int depth = 0;               // 0 = no depth limit
  uint64_t nodes = 0;          // 0 = no node limit
  int mate = 0;                // search for a win in this many moves (0 = off)
  bool infinite = false;       // never stop by itself (until stop())
  bool ponder = false;         // pondering: never stop by itself until ponderhit()
};

// Scores: centi-"pawns" from the side to move's view; wins and losses are
// reported separately as a distance in plies (positive: side to move wins).
struct SearchScore {
  bool isMate = false;  // exact win/loss
  int value = 0;        // cp if !isMate; else plies to the end, > 0 win, < 0 loss
  // The value depends on no horizon (every line ended: in a line, no legal
  // move, or a tablebase's value): a win, a loss, or with value 0 a draw.
  bool exact = false;
  enum Bound { kExact, kLower, kUpper } bound = kExact;
};

struct SearchInfo {
  int depth = 0;
  int selDepth = 0;
  int multiPv = 1;  // 1-based rank of this line
  SearchScore score;
  uint64_t nodes = 0;
  int64_t timeMs = 0;
  uint64_t nps = 0;
  int hashfull = 0;  // per mille
  uint64_t tbHits = 0;
  WinDrawLoss wdl;  // the chances of `score` (search/wdl.h), side to move's view
  std::vector<Move> pv;
  bool isFinal = false;  // the summary sent once, just before the best move, with the final counts
};

// The counts of a search between two SearchInfo lines: what a front end
// shows while a deep iteration runs (UGI: `info nodes .. nps .. time ..`).
struct SearchProgress {
  uint64_t nodes = 0;
  int64_t timeMs = 0;
  uint64_t nps = 0;
  int hashfull = 0;  // per mille
  uint64_t tbHits = 0;
};
// How long the search stays silent before it reports its progress.
inline constexpr int64_t kProgressIntervalMs = 1000;

struct SearchCallbacks {
  std::function<void(const SearchInfo&)> onInfo;
  // After kProgressIntervalMs without an onInfo (or a progress report), from
  // the main search thread; optional.
  std::function<void(const SearchProgress&)> onProgress;
  std::function<void(Move best, Move ponder)> onBestMove;  // best is Move::none() on a decided position
  std::function<void(const std::string&)> onError;         // a problem the search worked around (hash not resized)
  std::function<void(const std::string&)> onDiagnostic;    // statistics for engine authors (move ordering)
};

// What the search can be asked for: the bounds of the Hash, Threads, MultiPV
// and MoveOverhead options (protocol/engine_options.h declares them with
// these) and what setOptions() clamps to.
//
// The hash table's size in MiB is declared here alone: its least, default
// and greatest value. The Hash option is declared with them, and what
// else bounds a Hash (a server's --max-hash, the engine's smallest table,
// Python's hash_mib through setOption) reads them from that option.
inline constexpr int kMinHashMiB = 1;
inline constexpr int kDefaultHashMiB = 16;
inline constexpr int kMaxHashMiB = 32768;
inline constexpr int kMaxSearchThreads = 256;
inline constexpr int kMaxMultiPv = 256;
inline constexpr int64_t kMaxMoveOverheadMs = 10000;

namespace nnue {
struct Network;  // search/nnue/network.h
}

struct SearchOptions {
  int hashMiB = kDefaultHashMiB;
  int threads = 1;  // asked for; a search runs at most the machine's hardware threads (docs/search.md)
  int multiPv = 1;
  int64_t moveOverheadMs = 30;
  double skillLevel = kMaxSkillLevel;  // below it, a weaker player (search/skill.h)
  uint64_t skillSeed = 0;              // its draws: 0 a new one each search, else reproducible
  // The evaluation's net (4x4 Gobblet; search/nnue/network.h); null: the
  // hand-written evaluation (search/evaluate.h), as in every other variant.
  // The engine's default (protocol/engine.h, Use NNUE) is the built-in net,
  // builtInNet() of search/eval_file.h.
  std::shared_ptr<const nnue::Network> net;
};

class Search {
 public:
  // `startThread` makes the search's threads (empty: std::thread); a test
  // passes one that refuses. Threads the system refuses are not fatal: a
  // go() searches with those it has, saying so through onError; with none,
  // it reports the error and then bestmove (none) at once.
  explicit Search(ThreadStarter startThread = {});
  ~Search();  // stops and joins any running search
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // Options take effect at the next go(); Hash is allocated at once when
  // idle. If that memory cannot be had, returns ResourceExhausted and keeps
  // the table it had (options().hashMiB then reports the size in use); the
  // other options are taken either way.
  absl::Status setOptions(const SearchOptions& options);
  const SearchOptions& options() const;
  void setTablebase(std::shared_ptr<const tb::Tablebase> tablebase);

  void newGame();  // clear TT, history and killers

  // Starts searching game.position(); returns immediately.
  void go(const Game& game, const SearchLimits& limits, SearchCallbacks callbacks);
  void stop();       // ask the running search to finish (bestmove follows)
  void ponderHit();  // the pondered move was played: normal timing, counted from go (pondering included)
  void wait();       // block until the running search (if any) has reported its best move
  bool searching() const;

  // Synchronous helpers for tools and tests.
  struct Result {
    Move best;
    SearchInfo info;
    std::string error;  // the last onError message (a search thread refused...), if any
  };
  Result searchSync(const Game& game, const SearchLimits& limits,
                    std::function<void(const SearchInfo&)> onInfo = nullptr);

  // Move-ordering statistics of the main thread's last finished search
  // (read after wait()): beta cutoffs, and how many came from the first
  // move; its deepest finished iteration; the threads that ran.
  struct Stats {
    uint64_t cutoffs = 0;
    uint64_t firstMoveCutoffs = 0;
    int completedDepth = 0;
    int threads = 0;             // search threads that ran: the main one and the helpers it started
    uint64_t evalCacheHits = 0;  // the net's evaluations the main thread found in its cache (eval_cache.h)
  };
  Stats lastStats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The fixed bench: positions searched to a fixed depth with one thread and
// 16 MiB of hash; nodes is the deterministic signature.
struct BenchResult {
  uint64_t nodes = 0;
  double seconds = 0;             // wall clock
  double cpuSeconds = 0;          // CPU time of the process (the bench is single-threaded)
  uint64_t cutoffs = 0;           // beta cutoffs over all positions
  uint64_t firstMoveCutoffs = 0;  // ... of which by the first move searched
  uint64_t gobbletNodes = 0;      // the nodes of the 4x4 Gobblet positions (those the net evaluates) ...
  double gobbletCpuSeconds = 0;   // ... and their CPU time
  bool stopped = false;           // *stop was set: the counts cover only part of the bench
  std::string error;              // not empty: the bench could not run (no search thread); the counts are void
};
// Runs the bench; log gets one line per position. If stop is given and set
// (from another thread), the position being searched ends at once and the
// bench returns with stopped = true. startThread makes its threads (empty:
// std::thread): when the system refuses the search's, the bench ends with
// `error` set; when it refuses the one that watches `stop`, a stop acts
// between positions only (said in the log). handWritten: the hand-written
// evaluation instead of the built-in net (Use NNUE false), to measure the
// net's speed against it on the same positions (the node count is then
// not the signature).
BenchResult runBench(int depth = 0 /* 0 = default */, std::function<void(const std::string&)> log = nullptr,
                     const std::atomic<bool>* stop = nullptr, const ThreadStarter& startThread = {},
                     bool handWritten = false);

}  // namespace gobblet
