#include "dfpn.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>

#include "engine/movegen.h"

namespace gobblet::proof {

namespace {

constexpr double kEpsilon = 0.25;  // the 1+epsilon trick's
constexpr uint64_t kBatch = 64;    // nodes counted locally before the shared counter hears of them
constexpr int kRefresh = 8;        // iterations of a node between refreshes of its children from the table
constexpr uint32_t kQuiet = 4;     // the initial pn (dn) of an unthreatened AND (OR) node: 11,650 -> 4,041
                                   // nodes on a bench position, Gobblet Gobblers 13,064 -> 9,220
constexpr double kGuideScale = 8;  // a guided node's numbers are multiplied by 1 to 1 + kGuideScale (see the header)

uint32_t saturate(uint64_t x) { return static_cast<uint32_t>(std::min<uint64_t>(x, kInfinity - 1)); }

ProofValue provedIn(int plies) { return {0, kInfinity, static_cast<uint16_t>(plies), false}; }
ProofValue disproved(bool ghi) { return {kInfinity, 0, 0, ghi}; }

// The factor of a guided number for a chance in [0, 1]: 1 at chance 0, 1 + kGuideScale at 1.
uint32_t guidedFactor(double chance) { return 1 + static_cast<uint32_t>(std::lround(kGuideScale * chance)); }

// How likely the attacker is to win a child, by its numbers: 1 proved, 0 disproved.
double attackerShare(const ProofValue& v) {
  if (v.proved()) return 1;
  if (v.disproved()) return 0;
  return static_cast<double>(v.dn) / (static_cast<double>(v.pn) + static_cast<double>(v.dn));
}

}  // namespace

Budget::Budget(uint64_t maxNodes, double seconds, const std::atomic<bool>* stop)
    : maxNodes_(maxNodes),
      start_(Clock::now()),
      // Beyond a billion seconds (infinity included) is no limit: the deadline must not overflow.
      deadline_(start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(seconds > 0 && seconds < 1e9 ? seconds : 0))),
      timed_(seconds > 0 && seconds < 1e9),
      stop_(stop) {}

bool Budget::spend(uint64_t n) {
  const uint64_t total = nodes_.fetch_add(n, std::memory_order_relaxed) + n;
  if ((maxNodes_ && total >= maxNodes_) || (stop_ && stop_->load(std::memory_order_relaxed)) ||
      (timed_ && Clock::now() >= deadline_))
    spent_.store(true, std::memory_order_relaxed);
  return spent();
}

double Budget::seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

void immediateWins(const Board& board, MoveList& wins) {
  wins.clear();
  const Geometry& g = board.geometry();
  const int me = board.sideToMove();
  const Mask mine = board.visible(me);
  // A move makes a line only by making its destination visibly the mover's
  // (a lifted piece uncovers a piece that was not the mover's on top), so
  // the destination is the one square missing from a line of the mover's.
  Mask targets = 0;
  for (int i = 0; i < g.numLines; ++i)
    if (std::popcount(static_cast<unsigned>(g.lines[i] & mine)) == board.variant().n - 1) targets |= g.lines[i] & ~mine;
  if (!targets) return;
  MoveList candidates;
  generateMovesTo(board, targets, candidates);
  Board after = board;
  for (Move m : candidates) {
    after.makeMove(m);
    if (after.winner() == me) wins.push(m);
    after.unmakeMove(m);
  }
}

Searcher::Searcher(ProofTable& table, Budget& budget, int attacker, uint64_t seed, int maxDepth,
                   const std::atomic<bool>* solved, const KnownPositions* known, const ProofGuide* guide)
    : table_(table),
      budget_(budget),
      attacker_(attacker),
      rng_(seed * 0x9E3779B97F4A7C15ull + 1),
      maxDepth_(maxDepth),
      solved_(solved),
      known_(known),
      guide_(guide) {}

bool Searcher::stopped() const { return stop_; }

bool Searcher::onPath(const Board& board) const {
  for (const Board& b : path_)
    if (b.key() == board.key() && b == board) return true;
  return false;
}

ProofValue Searcher::evaluate(const Board& board, bool* fresh) {
  *fresh = false;
  const int winner = board.winner();
  if (winner != kNoWinner) return winner == attacker_ ? provedIn(0) : disproved(false);
  ProofValue value;
  if (table_.lookup(board, attacker_, &value)) return value;
  MoveList wins;
  immediateWins(board, wins);
  if (!wins.empty()) {
    value = board.sideToMove() == attacker_ ? provedIn(1) : disproved(false);
  } else {
    // Not decided: a node whose side to move is threatened with a line at
    // once (its opponent, to move, would have a winning move) is forced, so
    // likely quick to settle; an unthreatened one starts at kQuiet.
    Board swapped = board;
    swapped.setSideToMove(board.sideToMove() ^ 1);
    immediateWins(swapped, wins);
    const uint32_t weight = wins.empty() ? kQuiet : 1;
    *fresh = true;
    return board.sideToMove() == attacker_ ? ProofValue{1, weight} : ProofValue{weight, 1};
  }
  table_.store(board, attacker_, value, 0);
  return value;
}

void Searcher::guideChildren(const Board& board, std::vector<Child>& children) {
  if (guided_.empty()) return;
  guidedMoves_.clear();
  for (size_t i : guided_) guidedMoves_.push(children[i].move);
  chances_.assign(guided_.size(), 0.5);
  guide_->chances(board, std::span<const Move>(guidedMoves_.begin(), guidedMoves_.end()), attacker_, chances_);
  for (size_t k = 0; k < guided_.size(); ++k) {
    const double p = guideChance(chances_[k]);
    ProofValue& v = children[guided_[k]].value;
    v.pn *= guidedFactor(1 - p);
    v.dn *= guidedFactor(p);
  }
}

ProofValue Searcher::search(const Board& root, const std::vector<Board>& history) {
  path_ = history;
  historySize_ = history.size();
  stop_ = false;
  // One frame per depth, made before the search: a frame must not move while a deeper node runs.
  frames_.resize(history.size() + static_cast<size_t>(maxDepth_) + 2);
  Board board = root;
  ProofValue value = mid(board, kInfinity, kInfinity);
  budget_.spend(pending_);
  pending_ = 0;
  path_.clear();
  return value;
}

ProofValue Searcher::mid(Board& board, uint32_t thpn, uint32_t thdn) {
  const uint64_t nodesBefore = nodes_++;
  if (++pending_ >= budget_.batch(kBatch)) {
    stop_ = budget_.spend(pending_) || (solved_ && solved_->load(std::memory_order_relaxed));
    pending_ = 0;
  } else if (budget_.stopAsked()) {
    stop_ = true;
  }
  const bool orNode = board.sideToMove() == attacker_;
  const size_t depth = path_.size();
  {
    MoveList moves;
    generateMoves(board, moves);
    if (moves.empty()) {  // no legal move: a draw
      table_.store(board, attacker_, disproved(false), 1);
      return disproved(false);
    }
    std::vector<Child>& children = frames_[depth];
    children.clear();
    guided_.clear();
    const bool deepest = static_cast<int>(depth - historySize_) + 1 >= maxDepth_;
    path_.push_back(board);
    for (Move m : moves) {  // the children's buckets, loaded while the moves are walked once more
      board.makeMove(m);
      table_.prefetch(board.key());
      board.unmakeMove(m);
    }
    for (Move m : moves) {
      board.makeMove(m);
      Child c;
      c.move = m;
      std::optional<KnownPosition> known;
      if (known_ && m.isDrop() && board.winner() == kNoWinner) known = known_->find(board);
      if (known) {
        c.value = (board.sideToMove() ^ known->winner) == attacker_ ? provedIn(std::min(known->plies, 0xFFFF))
                                                                    : disproved(false);
        c.fixed = true;
      } else if (board.winner() == kNoWinner && (deepest || onPath(board))) {
        c.value = disproved(true);
        c.fixed = true;
      } else {
        bool fresh = false;
        c.value = evaluate(board, &fresh);
        if (fresh && guide_) guided_.push_back(children.size());
      }
      board.unmakeMove(m);
      children.push_back(c);
    }
    if (guide_) guideChildren(board, children);
    if (rng_ != 1)
      for (size_t i = children.size(); i > 1; --i) {
        rng_ ^= rng_ << 13, rng_ ^= rng_ >> 7, rng_ ^= rng_ << 17;
        std::swap(children[i - 1], children[rng_ % i]);
      }
    // Guided: the children most likely to settle the node first (a stable
    // sort: a helper thread's shuffle still breaks the ties).
    if (guide_)
      std::stable_sort(children.begin(), children.end(), [orNode](const Child& a, const Child& b) {
        const double x = attackerShare(a.value), y = attackerShare(b.value);
        return orNode ? x > y : x < y;
      });
  }
  std::vector<Child>& children = frames_[depth];
  ProofValue value;
  for (int iteration = 0;; ++iteration) {
    // The node's numbers from its children's, refreshed from the table every
    // kRefresh iterations (other threads and transpositions move them; the
    // child just searched brought its own back).
    const bool refresh = iteration % kRefresh == kRefresh - 1;
    uint64_t sum = 0;
    uint32_t best = kInfinity, second = kInfinity;
    size_t bestIndex = 0;
    bool ghiOnly = true, anyGhi = false;
    int distBest = 1 << 16, distWorst = 0;
    for (size_t i = 0; i < children.size(); ++i) {
      Child& c = children[i];
      if (refresh && !c.fixed && !c.value.decided()) {
        board.makeMove(c.move);
        table_.lookup(board, attacker_, &c.value);
        board.unmakeMove(c.move);
      }
      // "min" numbers: pn at OR nodes, dn at AND nodes; "sum" the other.
      const uint32_t mine = orNode ? c.value.pn : c.value.dn;
      const uint32_t other = orNode ? c.value.dn : c.value.pn;
      sum += other;
      if (mine < best) {
        second = best, best = mine, bestIndex = i;
      } else if (mine < second) {
        second = mine;
      }
      if (c.value.proved()) {
        distBest = std::min<int>(distBest, c.value.dist);
        distWorst = std::max<int>(distWorst, c.value.dist);
      }
      if (c.value.disproved()) {
        anyGhi |= c.value.ghi;
        ghiOnly &= c.value.ghi;
      }
    }
    const uint32_t sumNumber = sum >= kInfinity ? kInfinity : static_cast<uint32_t>(sum);
    value.pn = orNode ? best : sumNumber;
    value.dn = orNode ? sumNumber : best;
    // Decided: proved with its distance, or disproved with its GHI flag; else
    // both numbers stay below infinity (a long sum is not a decision).
    if (value.pn == 0) {
      value = provedIn(std::min(1 + (orNode ? distBest : distWorst), 0xFFFF));
    } else if (value.dn == 0) {
      value = disproved(orNode ? anyGhi : ghiOnly);
    } else {
      value.pn = std::min(value.pn, kInfinity - 1);
      value.dn = std::min(value.dn, kInfinity - 1);
    }
    if (value.pn >= thpn || value.dn >= thdn || value.decided() || stop_) break;
    // Thresholds for the most-proving child (see the header).
    Child& c = children[bestIndex];
    const uint32_t grown =
        second >= kInfinity ? kInfinity : saturate(static_cast<uint64_t>(second * (1 + kEpsilon)) + 1);
    const uint32_t minThreshold = std::min(orNode ? thpn : thdn, std::max(best + 1, grown));
    const uint32_t otherOwn = orNode ? c.value.dn : c.value.pn;
    const uint32_t otherTh = orNode ? thdn : thpn;
    const uint64_t othersSum = (orNode ? value.dn : value.pn) - otherOwn;
    const uint32_t sumThreshold = otherTh >= kInfinity ? kInfinity : saturate(otherTh - othersSum);
    board.makeMove(c.move);
    c.value = orNode ? mid(board, minThreshold, sumThreshold) : mid(board, sumThreshold, minThreshold);
    board.unmakeMove(c.move);
  }
  path_.pop_back();
  table_.store(board, attacker_, value, nodes_ - nodesBefore);
  return value;
}

}  // namespace gobblet::proof
