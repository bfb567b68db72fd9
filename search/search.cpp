// The search: iterative deepening over a principal variation search, run by
// one or more threads (Lazy SMP) that share the transposition table.
#include "search/search.h"

#include <algorithm>
#include <cassert>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <new>
#include <thread>

#include "engine/movegen.h"
#include "search/evaluate.h"
#include "search/host_yield.h"
#include "eval_cache.h"
#include "movepick.h"
#include "search/search_params.h"
#include "search/tactics.h"
#include "thread_pool.h"
#include "timeman.h"
#include "tt.h"
#include "nnue/accumulator_stack.h"
#include "nnue/network.h"

namespace gobblet {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxDepth = 100;
// A net's value, whatever its file says, is an evaluation: never a win score.
static_assert(nnue::kMaxEvaluation < kMateBound - kMaxPly);
// Each search thread reads the clock (and the shared node count) once per
// this many of its own nodes.
constexpr int kNodesPerClockCheck = 1024;
// Plies of quiescence under an opponent's threat (see Worker::qsearch).
constexpr int kQuiescenceThreatPlies = 1;

// The static evaluation of `board` by the net if there is one, else by evaluate().
int staticEvaluation(const Board& board, const nnue::Network* net) {
  if (!net) return evaluate(board);
  nnue::Accumulator acc;
  nnue::refreshAccumulator(*net, board, acc);
  return nnue::evaluate(*net, acc, board.sideToMove());
}

// The net a search of `root` evaluates with: the options' net where it
// describes the root's variant, else none (the hand-written evaluation).
const nnue::Network* netFor(const SearchOptions& options, const Board& root) {
  return options.net && nnue::describes(root.variant()) ? options.net.get() : nullptr;
}

// An upper bound on the plies left in the game: without board moves every
// ply places a piece from a hand, so the pieces in hand bound it.
int maxPliesLeft(const Board& board) {
  const Variant& v = board.variant();
  if (v.moving) return kMaxPly;
  int pieces = 0;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < v.sizes; ++s) pieces += board.inHand(p, s);
  return pieces;
}

// The search threads a go() runs for `requested` (the Threads option): no
// more than the machine has hardware threads (when it says): a thread
// beyond those only takes time slices from the others, the main thread's
// among them (Threads 256 on 2 cores left the main thread without a single
// finished iteration in 200 ms). The helpers start once the main thread has
// finished depth 1 (Worker::iterate's startHelpers).
int searchThreadsFor(int requested) {
  if constexpr (!kHasThreads) return 1;  // search/host_yield.h
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? requested : std::min(requested, static_cast<int>(hardware));
}

int64_t elapsedMs(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// A root move with its score from the last (possibly partial) iteration.
struct RootMove {
  Move move;
  int score = -kInfinite;  // -kInfinite: not (yet) searched to this depth
  int previousScore = -kInfinite;
  int selDepth = 0;
  std::vector<Move> pv;
};

// State of one go() shared by its threads.
struct SharedState {
  TranspositionTable* tt = nullptr;
  const tb::Tablebase* tablebase = nullptr;  // only if it matches the variant
  const nnue::Network* net = nullptr;        // the evaluation's net, only if it is the variant's
  SearchLimits limits;
  TimeBudget budget;
  int threads = 1;
  int reportedPv = 1;  // lines reported per iteration: the MultiPV asked for (a weakened level searches more)
  std::atomic<bool>* stop = nullptr;
  std::atomic<bool>* pondering = nullptr;
  std::atomic<int64_t>* startNs = nullptr;                                 // steady-clock time the clock started
  const std::function<void(const SearchProgress&)>* onProgress = nullptr;  // thread 0 reports, if set
  std::vector<class Worker*> workers;

  Clock::time_point start() const { return Clock::time_point(Clock::duration(startNs->load())); }
  uint64_t totalNodes() const;
  uint64_t totalTbHits() const;
};

// One search thread: its own board, key stack, PV table, history/killers.
class Worker {
 public:
  Worker(int id, SharedState& shared, const Game& game, OrderingTables& ordering, int multiPv);

  // Iterative deepening; thread 0 reports through onInfo and decides when
  // to stop after an iteration; every thread enforces the hard time limit.
  // Thread 0 calls startHelpers (if given) once, when it goes on from
  // depth 1 to depth 2: its first iteration has no helper to share the
  // cores with, and a search that ends there starts none.
  void iterate(const std::function<void(const SearchInfo&)>& onInfo, const std::function<void()>& startHelpers = {});

  std::atomic<uint64_t> nodes{0};
  std::atomic<uint64_t> tbHits{0};
  uint64_t cutoffs = 0, firstMoveCutoffs = 0, evalCacheHits = 0;
  int completedDepth = 0;
  std::vector<RootMove> rootMoves;
  SearchInfo lastInfo;

  // The info line of `rm` at `depth`, with the counts of all threads so far.
  SearchInfo makeInfo(int depth, const RootMove& rm, int rank);

 private:
  int rootSearch(int alpha, int beta, int depth);
  int search(int alpha, int beta, int depth, int ply, bool cutNode);
  int qsearch(int alpha, int beta, int ply, int threatPlies);

  bool countNode();
  void checkTime();
  bool stopped() const { return shared_.stop->load(std::memory_order_relaxed); }
  void makeMove(Move m, int ply) {
    if (net_) accumulators_.push(ply, board_, m);  // computed if the search evaluates a node below
    board_.makeMove(m);
    keys_[rootIndex_ + ply + 1] = board_.key();
    boundary_[ply + 1] = m.isDrop() ? rootIndex_ + ply + 1 : boundary_[ply];
  }
  // The static evaluation of the position at `ply`: the net's, from the
  // accumulator, when the search has one for the variant; else evaluate().
  // A net's evaluation is cached (eval_cache.h): a hit needs no net, and
  // no accumulator unless a node below is evaluated.
  int staticEval(int ply) {
    if (!net_) return evaluate(board_);
    int value;
    if (evalCache_->probe(board_.key(), value)) return ++evalCacheHits, value;
    value = nnue::evaluate(*net_, accumulators_.at(ply, board_), board_.sideToMove());
    evalCache_->store(board_.key(), value);
    return value;
  }
  void unmakeMove(Move m) { board_.unmakeMove(m); }
  bool isRepetition(int ply) const {
    const int index = rootIndex_ + ply;
    for (int j = index - 2; j >= boundary_[ply]; j -= 2)
      if (keys_[j] == keys_[index]) return true;
    return false;
  }
  // A repetition's score for the side to move at `ply`: -contempt for the
  // root's side to move (even plies), +contempt for its opponent.
  int repetitionScore(int ply) const { return ply % 2 == 0 ? -searchParams().contempt : searchParams().contempt; }
  bool probeTablebase(int ply, int& score);
  // Ends the line at `ply` with `m`, a move that wins at once (the nodes
  // that return the win without a child: the line reaches the win).
  void endPvWith(int ply, Move m) {
    pv_[ply][ply] = m;
    pvLength_[ply] = ply + 1;
  }
  void updatePv(int ply, Move m) {
    pv_[ply][ply] = m;
    for (int i = ply + 1; i < pvLength_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pvLength_[ply] = std::max(pvLength_[ply + 1], ply + 1);
  }

  int id_;
  SharedState& shared_;
  Board board_;
  const nnue::Network* net_ = nullptr;    // the net, if the search uses one for this variant
  nnue::AccumulatorStack accumulators_;   // when net_: the first layer of the line's positions, per ply
  std::unique_ptr<EvalCache> evalCache_;  // when net_: its recent evaluations
  OrderingTables& ordering_;
  int multiPv_;
  int pvIndex_ = 0;
  int selDepth_ = 0;
  int rootIndex_ = 0;               // index of the root key in keys_
  std::vector<uint64_t> keys_;      // position keys: game history since the last drop, then the line
  int boundary_[kMaxPly + 2] = {};  // per ply: oldest key index that may repeat
  Move pv_[kMaxPly + 2][kMaxPly + 2];
  int pvLength_[kMaxPly + 2] = {};
  int checkCounter_ = 0;
  int64_t lastReportMs_ = 0;  // thread 0: when it last reported (a line or its progress), ms since the start
  // Counts the scores that depend on where the search stopped: static
  // evaluations at the horizon or the ply cap, TT cutoffs by entries that
  // were not solved, null-move cutoffs, and repetition draws (the engine's
  // first-repetition convention, and path-dependent). A subtree during which
  // it did not move is solved: its value holds at any depth, and is stored
  // with kSolvedDepth; an iteration during which it did not move is exact.
  uint64_t horizonScores_ = 0;
};

uint64_t SharedState::totalNodes() const {
  uint64_t n = 0;
  for (const Worker* w : workers) n += w->nodes.load(std::memory_order_relaxed);
  return n;
}
uint64_t SharedState::totalTbHits() const {
  uint64_t n = 0;
  for (const Worker* w : workers) n += w->tbHits.load(std::memory_order_relaxed);
  return n;
}

Worker::Worker(int id, SharedState& shared, const Game& game, OrderingTables& ordering, int multiPv)
    : id_(id), shared_(shared), board_(game.position()), net_(shared.net), ordering_(ordering), multiPv_(multiPv) {
  if (net_) {
    accumulators_.start(*net_, board_, kMaxPly + 1);
    evalCache_ = std::make_unique<EvalCache>();
  }
  // Repetition can only reach back to the position after the last placement.
  const auto& moves = game.moves();
  const auto& keys = game.keys();
  size_t first = 0;
  for (size_t i = moves.size(); i > 0; --i)
    if (moves[i - 1].isDrop()) {
      first = i;
      break;
    }
  keys_.assign(keys.begin() + static_cast<std::ptrdiff_t>(first), keys.end());
  rootIndex_ = static_cast<int>(keys_.size()) - 1;
  keys_.resize(keys_.size() + kMaxPly + 2);
  boundary_[0] = 0;

  MoveList list;
  generateMoves(board_, list);
  // Initial order: the move picker's (TT move, blocks, history, statics).
  TTData tte;
  const Move ttMove = shared_.tt->probe(board_.key(), tte) ? tte.move : Move::none();
  MovePicker picker(board_, ttMove, ordering_, 0);
  for (Move m = picker.next(); !m.isNone(); m = picker.next()) {
    RootMove rm;
    rm.move = m;
    rootMoves.push_back(rm);
  }
  // A root the tablebase knows: its ranking (tb::rankMoves) is the order, so
  // that even a search stopped at once plays the fastest win.
  if (shared_.tablebase && shared_.tablebase->probe(board_).value != tb::Value::kUnknown) {
    const std::vector<tb::RankedMove> ranked = tb::rankMoves(*shared_.tablebase, board_);
    const auto rankOf = [&ranked](Move m) {
      return std::find_if(ranked.begin(), ranked.end(), [m](const tb::RankedMove& r) { return r.move == m; }) -
             ranked.begin();
    };
    std::stable_sort(rootMoves.begin(), rootMoves.end(),
                     [&](const RootMove& a, const RootMove& b) { return rankOf(a.move) < rankOf(b.move); });
  }
  // A winning move goes first, so that even a search stopped at once plays it.
  const Move win = winningMove(board_);
  if (!win.isNone())
    for (size_t i = 0; i < rootMoves.size(); ++i)
      if (rootMoves[i].move == win) std::rotate(rootMoves.begin(), rootMoves.begin() + i, rootMoves.begin() + i + 1);
  multiPv_ = std::clamp(multiPv_, 1, std::max(1, static_cast<int>(rootMoves.size())));
}

bool Worker::countNode() {
  if (stopped()) return false;
  const uint64_t n = nodes.load(std::memory_order_relaxed) + 1;
  const uint64_t limit = shared_.limits.nodes;
  if (limit && shared_.threads == 1 && n > limit) {
    shared_.stop->store(true);
    return false;
  }
  nodes.store(n, std::memory_order_relaxed);
  // Every thread checks the clock, not only thread 0: with more threads
  // than cores, thread 0 may wait long for a core (Threads 256 on 2 cores
  // overran movetime 100 by 10x), while whichever thread runs can stop all.
  if (++checkCounter_ >= kNodesPerClockCheck) {
    checkCounter_ = 0;
    checkTime();
  }
  return !stopped();
}

void Worker::checkTime() {
  // Where the search has the only thread, `stop` can come only now
  // (search/host_yield.h; the host limits how often it really yields).
  yieldToHost();
  if (id_ == 0 && shared_.onProgress && *shared_.onProgress) {
    const int64_t now = elapsedMs(shared_.start());
    if (now - lastReportMs_ >= kProgressIntervalMs) {
      lastReportMs_ = now;
      SearchProgress progress;
      progress.nodes = shared_.totalNodes();
      progress.timeMs = now;
      progress.nps = now > 0 ? progress.nodes * 1000 / static_cast<uint64_t>(now) : 0;
      progress.hashfull = shared_.tt->hashfull();
      progress.tbHits = shared_.totalTbHits();
      (*shared_.onProgress)(progress);
    }
  }
  if (shared_.limits.nodes && shared_.threads > 1 && shared_.totalNodes() >= shared_.limits.nodes)
    shared_.stop->store(true);
  if (shared_.budget.hardMs >= 0 && !shared_.pondering->load() && elapsedMs(shared_.start()) >= shared_.budget.hardMs)
    shared_.stop->store(true);
}

bool Worker::probeTablebase(int ply, int& score) {
  if (!shared_.tablebase) return false;
  const tb::Probe p = shared_.tablebase->probe(board_);
  if (p.value == tb::Value::kUnknown) return false;
  tbHits.store(tbHits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  score = p.value == tb::Value::kDraw  ? 0
          : p.value == tb::Value::kWin ? kMate - ply - p.distance
                                       : -(kMate - ply - p.distance);
  return true;
}

// Quiescence: resolves the one-move tactics at the horizon.
//   1. A decided position scores as won/lost; a repetition as a draw (scored with the contempt).
//   2. If the side to move can win at once, that is the score (win in 1).
//   3. If the opponent threatens nothing, the static evaluation stands.
//   4. Under threat (and with threatPlies left) every move is tried, blocks
//      first, and each reply is checked for the opponent's win in 1: the
//      search never walks into a one-move loss at the horizon.
int Worker::qsearch(int alpha, int beta, int ply, int threatPlies) {
  // On the principal variation (a full window) it continues the line, to
  // the winning move of a win it finds.
  const bool pvNode = beta - alpha > 1;
  if (pvNode) pvLength_[ply] = ply;
  const int us = board_.sideToMove();
  if (!countNode()) return 0;
  const int winner = board_.winner();
  if (winner != kNoWinner) return winner == us ? kMate - ply : -(kMate - ply);
  selDepth_ = std::max(selDepth_, ply);
  if (isRepetition(ply)) return ++horizonScores_, repetitionScore(ply);
  if (ply >= kMaxPly - 2) return ++horizonScores_, staticEval(ply);
  if (const Move win = winningMove(board_); !win.isNone()) {
    if (pvNode) endPvWith(ply, win);
    return kMate - ply - 1;
  }
  int tbScore;
  if (probeTablebase(ply, tbScore)) return tbScore;

  const int standPat = staticEval(ply);
  if (threatPlies <= 0 || !opponentThreats(board_)) return ++horizonScores_, standPat;

  MovePicker picker(board_, Move::none(), ordering_, ply);
  int best = -kInfinite, count = 0;
  for (Move m = picker.next(); !m.isNone(); m = picker.next()) {
    ++count;
    if (pvNode) pvLength_[ply + 1] = ply + 1;
    makeMove(m, ply);
    const int score = -qsearch(-beta, -alpha, ply + 1, threatPlies - 1);
    unmakeMove(m);
    if (stopped()) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        if (pvNode) updatePv(ply, m);
        if (score >= beta) break;
        alpha = score;
      }
    }
  }
  return count ? best : 0;
}

// The main search: negamax alpha-beta with principal variation search.
int Worker::search(int alpha, int beta, int depth, int ply, bool cutNode) {
  const bool pvNode = beta - alpha > 1;
  const int us = board_.sideToMove();
  if (pvNode) pvLength_[ply] = ply;

  // 1. The horizon; a decided position.
  if (depth <= 0) return qsearch(alpha, beta, ply, kQuiescenceThreatPlies);
  if (!countNode()) return 0;
  const int winner = board_.winner();
  if (winner != kNoWinner) return winner == us ? kMate - ply : -(kMate - ply);
  selDepth_ = std::max(selDepth_, ply);

  // 2. Draw by repetition (first repetition of the line or of the game
  // since the last placement), scored with the contempt; the ply cap.
  if (isRepetition(ply)) return ++horizonScores_, repetitionScore(ply);
  if (ply >= kMaxPly - 2) return ++horizonScores_, staticEval(ply);
  const uint64_t horizonScoresBefore = horizonScores_;

  // 3. Mate-distance pruning: no score can beat a win at the next ply.
  alpha = std::max(alpha, -(kMate - ply));
  beta = std::min(beta, kMate - ply - 1);
  if (alpha >= beta) return alpha;

  // 4. An immediate win ends the node, and its line.
  if (const Move win = winningMove(board_); !win.isNone()) {
    if (pvNode) endPvWith(ply, win);
    return kMate - ply - 1;
  }

  // 5. Tablebase: an exact value.
  int tbScore;
  if (probeTablebase(ply, tbScore)) return tbScore;

  // 6. Transposition table: cut off with a deep enough bound, else use its move.
  TTData tte;
  const bool ttHit = shared_.tt->probe(board_.key(), tte);
  const Move ttMove = ttHit ? tte.move : Move::none();
  if (ttHit && !pvNode && tte.depth >= depth) {
    const int s = scoreFromTT(tte.score, ply);
    if ((tte.bound & kBoundLower && s >= beta) || (tte.bound & kBoundUpper && s <= alpha)) {
      if (tte.depth < kSolvedDepth) ++horizonScores_;
      return s;
    }
  }
  const bool threatened = opponentThreats(board_) != 0;
  // Depth beyond every end of the game (only the variants without board
  // moves have a bound): then neither null move nor reductions are used,
  // so that the search is exact and the iterations can stop.
  const int pliesLeft = maxPliesLeft(board_);

  // 7. Null move: if passing still holds beta by a reduced search, cut off.
  // Not under threat (passing would lose at once), and only while the side
  // to move still has pieces in hand, so that a real move never hurts
  // (Gobblet's zugzwangs need an empty supply: moving forces a lift). Not
  // when the depth reaches past every end of the game: the full search is
  // exact there, and a pass would make it depend on the horizon again.
  const SearchParams& params = searchParams();
  if (!pvNode && depth >= params.nullMinDepth && !threatened && beta > -kMateBound && beta < kMateBound &&
      board_.placeableSizes(us) != 0 && depth <= pliesLeft && staticEval(ply) >= beta) {
    const int r = params.nullReduction + depth / params.nullDepthDivisor;
    if (net_) accumulators_.push(ply, board_, Move::none());  // a pass
    board_.setSideToMove(us ^ 1);
    keys_[rootIndex_ + ply + 1] = board_.key();
    boundary_[ply + 1] = rootIndex_ + ply + 1;  // no repetition across a pass
    const int score = -search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cutNode);
    board_.setSideToMove(us);
    if (stopped()) return 0;
    if (score >= beta) return ++horizonScores_, score >= kMateBound ? beta : score;  // a pass is no move
    horizonScores_ = horizonScoresBefore;  // the failed pass does not shape this node's value
  }

  // 8. The moves, best first; PVS: full window for the first, null windows
  // (re-searched on a fail high) for the rest, late quiet ones reduced.
  MovePicker picker(board_, ttMove, ordering_, ply);
  const int oldAlpha = alpha;
  int best = -kInfinite, moveCount = 0;
  Move bestMove = Move::none();
  uint16_t quiets[64];  // raw moves: an array of Move would be zero-filled at every node
  int quietCount = 0;
  for (Move m = picker.next(); !m.isNone(); m = picker.next()) {
    ++moveCount;
    if (pvNode) pvLength_[ply + 1] = ply + 1;
    makeMove(m, ply);
    const int newDepth = depth - 1;
    if (newDepth > 0) shared_.tt->prefetch(board_.key());  // quiescence does not probe
    int score;
    if (moveCount == 1) {
      score = -search(-beta, -alpha, newDepth, ply + 1, !pvNode && !cutNode);
    } else {
      int r = threatened ? 0 : lateMoveReduction(depth, moveCount);
      if (r && pvNode) --r;
      if (r && cutNode) ++r;
      r = std::clamp(r, 0, newDepth - 1 > 0 ? newDepth - 1 : 0);
      if (depth > pliesLeft) r = std::min(r, std::max(0, newDepth - pliesLeft));
      score = -search(-alpha - 1, -alpha, newDepth - r, ply + 1, true);
      if (score > alpha && r > 0) score = -search(-alpha - 1, -alpha, newDepth, ply + 1, !cutNode);
      if (pvNode && score > alpha && score < beta) score = -search(-beta, -alpha, newDepth, ply + 1, false);
    }
    unmakeMove(m);
    if (stopped()) return 0;

    if (score > best) {
      best = score;
      if (score > alpha) {
        bestMove = m;
        if (pvNode) updatePv(ply, m);
        if (score >= beta) {
          // 9. A cutoff: reward the move, punish the quiet moves before it.
          ++cutoffs;
          firstMoveCutoffs += moveCount == 1;
          const int bonus = std::min(depth * depth * params.historyDepthFactor, params.historyMaxBonus);
          ordering_.addKiller(ply, m);
          ordering_.update(us, m, bonus);
          for (int i = 0; i < quietCount; ++i) ordering_.update(us, Move::fromRaw(quiets[i]), -bonus);
          break;
        }
        alpha = score;
      }
    }
    if (m != bestMove && quietCount < 64) quiets[quietCount++] = m.raw();
  }

  // 10. No legal move: a draw.
  if (moveCount == 0) return 0;

  const Bound bound = best >= beta ? kBoundLower : best > oldAlpha ? kBoundExact : kBoundUpper;
  const int storedDepth = horizonScores_ == horizonScoresBefore ? kSolvedDepth : depth;
  shared_.tt->store(board_.key(), bestMove, scoreToTT(best, ply), 0, storedDepth, bound);
  return best;
}

// The root: searches rootMoves[pvIndex_..] and keeps each move's score
// (-kInfinite for moves that failed low or were not searched) and PV.
int Worker::rootSearch(int alpha, int beta, int depth) {
  pvLength_[0] = 0;
  int best = -kInfinite;
  for (size_t i = pvIndex_; i < rootMoves.size(); ++i) {
    RootMove& rm = rootMoves[i];
    selDepth_ = 0;
    pvLength_[1] = 1;
    makeMove(rm.move, 0);
    int score;
    if (i == static_cast<size_t>(pvIndex_)) {
      score = -search(-beta, -alpha, depth - 1, 1, false);
    } else {
      score = -search(-alpha - 1, -alpha, depth - 1, 1, true);
      if (score > alpha && score < beta) score = -search(-beta, -alpha, depth - 1, 1, false);
    }
    unmakeMove(rm.move);
    if (stopped()) break;
    if (i == static_cast<size_t>(pvIndex_) || score > alpha) {
      rm.score = score;
      rm.selDepth = selDepth_;
      rm.pv.assign(1, rm.move);
      for (int k = 1; k < pvLength_[1]; ++k) rm.pv.push_back(pv_[1][k]);
    } else {
      rm.score = -kInfinite;
    }
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) break;
      }
    }
  }
  std::stable_sort(rootMoves.begin() + pvIndex_, rootMoves.end(),
                   [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
  return best;
}

SearchInfo Worker::makeInfo(int depth, const RootMove& rm, int rank) {
  SearchInfo info;
  info.depth = depth;
  info.selDepth = std::max(rm.selDepth, depth);
  info.multiPv = rank;
  const int score = rm.score == -kInfinite ? rm.previousScore : rm.score;
  if (std::abs(score) >= kMateBound) {
    info.score.isMate = true;
    info.score.value = score > 0 ? kMate - score : -(kMate + score);
  } else {
    info.score.value = score;
  }
  info.nodes = shared_.totalNodes();
  info.timeMs = elapsedMs(shared_.start());
  lastReportMs_ = info.timeMs;  // a line was just reported: no progress report for a while
  info.nps = info.timeMs > 0 ? info.nodes * 1000 / static_cast<uint64_t>(info.timeMs) : 0;
  info.hashfull = shared_.tt->hashfull();
  info.tbHits = shared_.totalTbHits();
  info.pv = rm.pv.empty() ? std::vector<Move>{rm.move} : rm.pv;
  return info;
}

void Worker::iterate(const std::function<void(const SearchInfo&)>& onInfo, const std::function<void()>& startHelpers) {
  if (rootMoves.empty()) return;
  const SearchLimits& limits = shared_.limits;
  const int maxDepth = limits.depth > 0 ? std::min(limits.depth, kMaxDepth) : kMaxDepth;
  const SearchParams& params = searchParams();
  Move lastBest = Move::none();
  int stableIterations = 0;

  for (int depth = 1; depth <= maxDepth && !stopped(); ++depth) {
    if (depth == 2 && startHelpers) startHelpers();
    // Helpers skip some depths so that the threads spread over the tree.
    if (id_ > 0 && depth > 1 && ((depth + id_) % params.smpSkipCycle == 0)) continue;
    for (RootMove& rm : rootMoves) {
      rm.previousScore = rm.score == -kInfinite ? rm.previousScore : rm.score;
      rm.score = -kInfinite;
    }
    const uint64_t horizonScoresBefore = horizonScores_;
    for (pvIndex_ = 0; pvIndex_ < multiPv_ && !stopped(); ++pvIndex_) {
      // Aspiration window around the previous score from
      // aspirationMinDepth on.
      const int previous = rootMoves[pvIndex_].previousScore;
      int delta = params.aspirationDelta;
      int alpha = -kInfinite, beta = kInfinite;
      if (depth >= params.aspirationMinDepth && std::abs(previous) < kMateBound) {
        alpha = std::max(previous - delta, -kInfinite);
        beta = std::min(previous + delta, kInfinite);
      }
      while (true) {
        const int score = rootSearch(alpha, beta, depth);
        if (stopped()) break;
        if (score <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kInfinite);
        } else if (score >= beta) {
          beta = std::min(score + delta, kInfinite);
        } else {
          break;
        }
        delta += delta / 2 + params.aspirationGrowth;
        if (delta > params.aspirationMaxDelta) alpha = -kInfinite, beta = kInfinite;
      }
      std::stable_sort(rootMoves.begin(), rootMoves.begin() + pvIndex_ + 1,
                       [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    }
    if (stopped()) {
      // A partial iteration counts when its best move has a score of this
      // depth (it beat the previous best).
      if (id_ == 0 && rootMoves[0].score != -kInfinite && !rootMoves[0].pv.empty() && onInfo)
        onInfo(lastInfo = makeInfo(depth, rootMoves[0], 1));
      break;
    }
    completedDepth = depth;
    if (id_ != 0) continue;

    // Thread 0: report, then decide whether another iteration pays. No
    // score of this iteration depended on the horizon: its values are exact.
    const bool solved = horizonScores_ == horizonScoresBefore;
    for (int k = 0; k < std::min(multiPv_, shared_.reportedPv); ++k) {
      SearchInfo info = makeInfo(depth, rootMoves[k], k + 1);
      info.score.exact = solved && (info.score.isMate || info.score.value == 0);
      if (k == 0) lastInfo = info;
      if (onInfo) onInfo(info);
    }
    const RootMove& best = rootMoves[0];
    stableIterations = best.move == lastBest ? stableIterations + 1 : 0;
    lastBest = best.move;
    if (limits.mate > 0 && best.score >= kMate - (2 * limits.mate - 1)) break;
    // No score of this iteration depended on the horizon: the game is
    // solved from here (the best score, and the bounds of the other moves,
    // are exact), and deeper iterations would only repeat it.
    if (solved && !limits.infinite && limits.depth == 0) break;
    // Every root move has an exact value (all decided, or a tablebase).
    if (std::abs(best.score) >= kMateBound && depth >= kMate - std::abs(best.score) + 2 && !limits.infinite &&
        shared_.budget.softMs >= 0)
      break;
    if (shared_.budget.softMs >= 0 && !shared_.pondering->load()) {
      if (rootMoves.size() == 1) break;
      if (shared_.budget.wholeTime) continue;  // movetime: search on until the hard limit stops it
      const double scale = !searchParams().tmStability ? 1.0
                           : stableIterations >= 3     ? 0.5
                           : stableIterations == 0     ? 1.4
                                                       : 0.9;
      const double stopAt = shared_.budget.softMs * scale * searchParams().tmStopPercent / 100;
      if (elapsedMs(shared_.start()) >= static_cast<int64_t>(stopAt)) break;
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------

struct Search::Impl {
  explicit Impl(ThreadStarter startThread) : pool(std::move(startThread)) {}

  SearchOptions options;
  std::shared_ptr<const tb::Tablebase> tablebase;
  TranspositionTable tt;                                  // allocated lazily: at the first setOptions() or go()
  std::vector<std::unique_ptr<OrderingTables>> ordering;  // per thread, kept across searches

  std::mutex mutex;  // for the waits below (stop, ponderhit)
  std::condition_variable wake;
  // The search threads (search/thread_pool.h): slot 0 runs run(), the others
  // its helpers. Made when Threads is set (or at the first go()), parked
  // between searches.
  ThreadPool pool;
  std::atomic<bool> stop{false}, pondering{false}, running{false};
  std::atomic<int64_t> startNs{0};
  Stats stats;

  // Gives the table the size options.hashMiB asks for, if it differs. On
  // failure the old table stays and options.hashMiB is set back to its size
  // (if there was none yet, a 1 MiB table is tried: a search needs one).
  absl::Status resizeTable();

  // The search thread's body; options and tablebase are copies taken by
  // go(), so that setOptions()/setTablebase() during a search do not race.
  void run(Game game, SearchLimits limits, SearchCallbacks callbacks, SearchOptions options,
           std::shared_ptr<const tb::Tablebase> tablebase);
};

// Cheap: the hash table is allocated by the first setOptions() or go(), so a
// session that sets Hash pays for one table of the right size, once.
Search::Search(ThreadStarter startThread) : impl_(std::make_unique<Impl>(std::move(startThread))) {}

Search::~Search() {
  stop();
  wait();
}

absl::Status Search::setOptions(const SearchOptions& options) {
  SearchOptions o = options;
  o.hashMiB = std::clamp(o.hashMiB, kMinHashMiB, kMaxHashMiB);  // a size the machine cannot give is an error below
  o.threads = std::clamp(o.threads, 1, kMaxSearchThreads);
  o.multiPv = std::clamp(o.multiPv, 1, kMaxMultiPv);
  o.skillLevel = std::clamp(o.skillLevel, 0.0, double{kMaxSkillLevel});
  o.moveOverheadMs = std::clamp<int64_t>(o.moveOverheadMs, 0, kMaxMoveOverheadMs);
  impl_->options = o;
  if (searching()) return absl::OkStatus();  // resized by the next go()
  // A thread refused now is tried again, and reported, by the next go().
  (void)impl_->pool.resize(searchThreadsFor(o.threads));
  return impl_->resizeTable();
}

const SearchOptions& Search::options() const { return impl_->options; }

void Search::setTablebase(std::shared_ptr<const tb::Tablebase> tablebase) { impl_->tablebase = std::move(tablebase); }

void Search::newGame() {
  wait();
  impl_->tt.clear();
  for (auto& o : impl_->ordering) o->clear();
}

void Search::go(const Game& game, const SearchLimits& limits, SearchCallbacks callbacks) {
  stop();
  wait();
  Impl& s = *impl_;
  if (absl::Status status = s.resizeTable(); !status.ok() && callbacks.onError)
    callbacks.onError(std::string(status.message()));
  const int threads = searchThreadsFor(s.options.threads);
  while (s.ordering.size() < static_cast<size_t>(threads)) {
    s.ordering.push_back(std::make_unique<OrderingTables>());
    s.ordering.back()->clear();
  }
  SearchOptions options = s.options;
  if (absl::Status started = s.pool.resize(threads); !started.ok()) {  // (nothing to do when it has that many)
    // A task limit (ulimit -u, a container's pids limit) reached: search
    // with the threads there are, or answer at once without a move.
    const std::string why = "go: " + std::string(started.message());
    if (s.pool.size() == 0) {
      if (callbacks.onError) callbacks.onError(why + "; no search");
      if (callbacks.onBestMove) callbacks.onBestMove(Move::none(), Move::none());
      return;
    }
    if (callbacks.onError) callbacks.onError(why + "; searching with " + std::to_string(s.pool.size()));
    options.threads = s.pool.size();
  }
  s.stop = false;
  s.pondering = limits.ponder;
  s.startNs = Clock::now().time_since_epoch().count();
  s.running = true;
  // Every line carries its chances (search/wdl.h), from the root's phase
  // and by the model of the evaluation searched with.
  const ScoreScale scale = netFor(options, game.position()) ? ScoreScale::kNet : ScoreScale::kHandWritten;
  if (callbacks.onInfo)
    callbacks.onInfo = [onInfo = std::move(callbacks.onInfo), root = game.position(), scale](const SearchInfo& info) {
      SearchInfo withChances = info;
      withChances.wdl = winDrawLoss(info.score.value, info.score.isMate || info.score.exact, root, scale);
      onInfo(withChances);
    };
  s.pool.start(0, [&s, game, limits, callbacks = std::move(callbacks), options, tablebase = s.tablebase] {
    s.run(game, limits, callbacks, options, tablebase);
  });
}

void Search::stop() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->stop = true;
  impl_->wake.notify_all();
}

void Search::ponderHit() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->pondering) return;
  // The clock keeps running from `go ponder`: the pondering was a search of
  // this very move, so it counts against the move's budget (Stockfish does
  // the same). A long ponder past the hard limit answers at once.
  impl_->pondering = false;
  impl_->wake.notify_all();
}

void Search::wait() { impl_->pool.waitFor(0); }

bool Search::searching() const { return impl_->running; }

Search::Stats Search::lastStats() const { return impl_->stats; }

absl::Status Search::Impl::resizeTable() {
  if (tt.clusterCount() && tt.sizeMiB() == static_cast<size_t>(options.hashMiB)) return absl::OkStatus();
  absl::Status status = tt.resize(static_cast<size_t>(options.hashMiB));
  if (!status.ok() && !tt.clusterCount() && !tt.resize(1).ok()) throw std::bad_alloc();
  options.hashMiB = static_cast<int>(tt.sizeMiB());
  return status;
}

void Search::Impl::run(Game game, SearchLimits limits, SearchCallbacks callbacks, SearchOptions options,
                       std::shared_ptr<const tb::Tablebase> tablebase) {
  const Board& root = game.position();
  SharedState shared;
  shared.tt = &tt;
  if (tablebase && tablebase->variant() == root.variant()) shared.tablebase = tablebase.get();
  shared.net = netFor(options, root);
  // A weakened level (search/skill.h): a shallower search of its candidate
  // moves within its node budget, one of which is drawn when it ends; or,
  // when it misses the reply, a look at the positions right after its moves.
  const bool weakened = options.skillLevel < kMaxSkillLevel;
  bool blind = false;
  if (weakened) {
    const double level = options.skillLevel;
    limits.depth = limits.depth > 0 ? std::min(limits.depth, skillDepth(level)) : skillDepth(level);
    limits.nodes = limits.nodes > 0 ? std::min(limits.nodes, skillNodes(level)) : skillNodes(level);
    blind = skillDraw(options.skillSeed, root.key(), level, SkillDrawKind::kMiss) < skillMissChance(level);
  }
  shared.reportedPv = options.multiPv;
  shared.onProgress = &callbacks.onProgress;
  shared.limits = limits;
  shared.budget = computeTimeBudget(limits, root.sideToMove(), options.moveOverheadMs);
  const int threads = searchThreadsFor(options.threads);
  shared.threads = threads;
  shared.stop = &stop;
  shared.pondering = &pondering;
  shared.startNs = &startNs;
  tt.newSearch();

  // infinite / ponder: the bestmove waits for stop (or ponderhit).
  auto waitToAnswer = [&] {
    auto mayAnswer = [&] { return stop.load() || (!limits.infinite && !pondering.load()); };
    if constexpr (kHasThreads) {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, mayAnswer);
    } else {
      // One thread: only the host can deliver the stop (search/host_yield.h).
      assert(hostYieldInstalled() || mayAnswer());
      while (!mayAnswer()) yieldToHost(YieldKind::kWaiting);
    }
    stop = true;
  };

  Move best = Move::none(), ponder = Move::none();
  if (blind && game.result() == GameResult::kNone && countMoves(root) > 0) {
    Board board = root;
    const auto scored = skillBlindScores(board, kMate - 1);
    std::vector<int> scores;  // every move is a candidate of the blind look
    for (const auto& [move, score] : scored) scores.push_back(score);
    const auto& [move, score] = scored[static_cast<size_t>(
        pickSkillMove(options.skillLevel, scores, skillDraw(options.skillSeed, root.key(), options.skillLevel)))];
    waitToAnswer();
    best = move;
    stats = Stats{0, 0, 1, 1};
    if (callbacks.onInfo) {
      // The line's score: the static evaluation after the move (the blind
      // look's own share is no score of the position).
      SearchInfo info;
      info.depth = info.selDepth = 1;
      info.score.isMate = std::abs(score) >= kMate - 1;
      Board after = root;
      after.makeMove(best);
      info.score.value = info.score.isMate ? (score > 0 ? 1 : -1) : -staticEvaluation(after, shared.net);
      info.nodes = scored.size();
      info.pv = {best};
      info.isFinal = true;
      callbacks.onInfo(info);
    }
  } else if (game.result() == GameResult::kNone) {
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < threads; ++i)
      workers.push_back(std::make_unique<Worker>(
          i, shared, game, *ordering[i], weakened ? std::max(options.multiPv, kSkillCandidates) : options.multiPv));
    for (auto& w : workers) shared.workers.push_back(w.get());
    int helpers = 0;  // started on the pool's slots 1..helpers
    auto startHelpers = [&] {
      for (int i = 1; i < threads; ++i, ++helpers) pool.start(i, [&, i] { workers[i]->iterate(nullptr); });
    };
    Worker& main = *workers[0];
    main.iterate(callbacks.onInfo, startHelpers);

    waitToAnswer();
    for (int i = 1; i <= helpers; ++i) pool.waitFor(i);

    if (!main.rootMoves.empty()) {
      size_t chosen = 0;
      if (weakened) {
        std::vector<int> scores;  // the candidates that have a score, best first
        for (size_t k = 0; k < main.rootMoves.size() && k < static_cast<size_t>(kSkillCandidates); ++k) {
          const RootMove& c = main.rootMoves[k];
          const int score = c.score != -kInfinite ? c.score : c.previousScore;
          if (score == -kInfinite) break;
          scores.push_back(score);
        }
        chosen = static_cast<size_t>(
            pickSkillMove(options.skillLevel, scores, skillDraw(options.skillSeed, root.key(), options.skillLevel)));
      }
      const RootMove& rm = main.rootMoves[chosen];
      best = rm.move;
      if (rm.pv.size() >= 2) {
        ponder = rm.pv[1];
      } else {
        Board after = root;
        after.makeMove(best);
        TTData tte;
        if (after.winner() == kNoWinner && tt.probe(after.key(), tte) && isLegal(after, tte.move)) ponder = tte.move;
      }
      stats = Stats{main.cutoffs, main.firstMoveCutoffs, main.completedDepth, 1 + helpers, main.evalCacheHits};
      // The last info before the best move carries the totals (UGI asks for
      // nodes, time and nps; managers log them): the best line again with the
      // final counts. If no iteration scored a move (a limit of a few nodes
      // or milliseconds), depth 0 with the static evaluation.
      if (callbacks.onInfo) {
        SearchInfo info = main.makeInfo(std::max(main.lastInfo.depth, 1), rm, 1);
        if (rm.score == -kInfinite && rm.previousScore == -kInfinite) {
          info.depth = info.selDepth = 0;
          info.score = SearchScore{};
          info.score.value = staticEvaluation(root, shared.net);
          info.pv = {best};
        }
        // The last iteration's exact value stays exact when this is its line.
        const SearchScore& last = main.lastInfo.score;
        info.score.exact = last.exact && !main.lastInfo.pv.empty() && main.lastInfo.pv.front() == rm.move &&
                           last.isMate == info.score.isMate && last.value == info.score.value;
        info.isFinal = true;
        callbacks.onInfo(info);
      }
      if (callbacks.onDiagnostic && main.cutoffs) {
        const uint64_t permille = 1000 * main.firstMoveCutoffs / main.cutoffs;
        callbacks.onDiagnostic("first-move cutoffs " + std::to_string(permille / 10) + "." +
                               std::to_string(permille % 10) + "% of " + std::to_string(main.cutoffs));
      }
    }
  } else if (callbacks.onInfo) {
    SearchInfo info;
    const int winner = root.winner();
    if (winner != kNoWinner) {
      info.score.isMate = true;
      info.score.value = 0;
    }
    callbacks.onInfo(info);
  }
  running = false;
  if (callbacks.onBestMove) callbacks.onBestMove(best, ponder);
}

Search::Result Search::searchSync(const Game& game, const SearchLimits& limits,
                                  std::function<void(const SearchInfo&)> onInfo) {
  Result result;
  SearchCallbacks callbacks;
  callbacks.onInfo = [&](const SearchInfo& info) {
    result.info = info;
    if (onInfo) onInfo(info);
  };
  callbacks.onBestMove = [&](Move best, Move) { result.best = best; };
  callbacks.onError = [&](const std::string& error) { result.error = error; };
  go(game, limits, std::move(callbacks));
  wait();
  return result;
}

}  // namespace gobblet
