#include "search/tablebase/retrograde.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "search/tablebase/moves.h"

namespace gobblet::tb {

namespace {

// Byte-wide atomics on the plain arrays of the solver (std::atomic_ref
// would do the same; the builtins keep the arrays ordinary vectors).
inline uint8_t load(const uint8_t& b) { return __atomic_load_n(&b, __ATOMIC_RELAXED); }
inline void store(uint8_t& b, uint8_t v) { __atomic_store_n(&b, v, __ATOMIC_RELAXED); }
inline bool claim(uint8_t& b, uint8_t from, uint8_t to) {
  return __atomic_compare_exchange_n(&b, &from, to, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
inline void atomicMin(uint8_t& b, uint8_t v) {
  uint8_t cur = load(b);
  while (v < cur && !__atomic_compare_exchange_n(&b, &cur, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
}
inline void atomicMax(uint8_t& b, uint8_t v) {
  uint8_t cur = load(b);
  while (v > cur && !__atomic_compare_exchange_n(&b, &cur, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
}

// Bucket entries: the state's number with its kind in the top two bits.
constexpr uint64_t kSettled = 0;            // already settled: only tell the parents
constexpr uint64_t kWinIfOpen = 1ull << 62;  // a win unless settled earlier
constexpr uint64_t kLoss = 2ull << 62;       // a loss (every child is a won position)
constexpr uint64_t kNumberMask = (1ull << 62) - 1;

constexpr int kBuckets = kMaxDistance + 2;
constexpr uint8_t kNoExitWin = 0xff;

// A list of distinct numbers, each tagged with one bit; moves and un-moves
// of one state number well under 128.
struct SmallSet {
  uint64_t items[256];
  int size = 0;
  void add(uint64_t v) { items[size++] = v; }
  void dedupe() {
    std::sort(items, items + size);
    size = static_cast<int>(std::unique(items, items + size) - items);
  }
};

class Solver {
 public:
  Solver(const Variant& v, int threads, const SolveProgress& progress)
      : index_(v), rules_(v), threads_(std::max(1, threads)), progress_(progress) {}

  absl::StatusOr<Solution> run();

 private:
  using Buckets = std::vector<std::vector<uint64_t>>;

  // Runs body(thread, item) for items 0..n-1 on all threads, in chunks;
  // thread 0 is the caller and reports progress. Each item counts as one
  // unit of the phase's work if `counted`.
  template <typename Body>
  void parallelFor(uint64_t n, uint64_t chunk, Body&& body, bool counted = true);
  // Every number of a level, in chunks: body(thread, number).
  template <typename Body>
  void forLevel(int level, Body&& body);

  void reachLevel(int level);
  absl::Status solveLevel(int level);
  void expand(uint64_t x, std::vector<uint64_t>& next);
  void propagate(uint64_t x, int d, Buckets& out);
  State stateOf(uint64_t x) const {
    State st;
    const int slice = index_.sliceOfIndex(x);
    index_.decode(slice, x - index_.slices()[slice].offset, &st);
    return st;
  }
  void report(uint64_t delta, bool force = false);

  Index index_;
  MoveRules rules_;
  int threads_;
  SolveProgress progress_;

  // Per number: code_ (the answer), count_ (0 = not reached, else 1 + the
  // children not yet known to be won), exitWin_ (shortest win through a
  // child one level up), maxWin_ (1 + longest won child seen).
  std::vector<uint8_t> code_, count_, exitWin_, maxWin_;
  std::vector<std::vector<int>> levelSlices_;
  std::vector<uint64_t> levelSize_;

  std::string phase_;
  uint64_t phaseTotal_ = 0;
  std::atomic<uint64_t> phaseDone_{0};
  std::chrono::steady_clock::time_point lastReport_{};
  std::atomic<bool> overflow_{false};
};

template <typename Body>
void Solver::parallelFor(uint64_t n, uint64_t chunk, Body&& body, bool counted) {
  std::atomic<uint64_t> next{0};
  auto worker = [&](int t) {
    for (;;) {
      const uint64_t begin = next.fetch_add(chunk);
      if (begin >= n) break;
      const uint64_t end = std::min(n, begin + chunk);
      for (uint64_t i = begin; i < end; ++i) body(t, i);
      if (counted) phaseDone_.fetch_add(end - begin, std::memory_order_relaxed);
      if (t == 0) report(0);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads_; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
}

template <typename Body>
void Solver::forLevel(int level, Body&& body) {
  // Numbers of the level as (start, length) runs, one per slice.
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  uint64_t total = 0;
  for (int s : levelSlices_[level]) {
    runs.push_back({index_.slices()[s].offset, total});
    total += index_.slices()[s].size;
  }
  constexpr uint64_t kChunk = 1 << 14;
  parallelFor((total + kChunk - 1) / kChunk, 1, [&](int t, uint64_t c) {
    const uint64_t begin = c * kChunk, end = std::min(total, begin + kChunk);
    // Find the run holding `begin`, then walk runs.
    size_t r = std::upper_bound(runs.begin(), runs.end(), begin,
                                [](uint64_t v, const auto& run) { return v < run.second; }) - runs.begin() - 1;
    for (uint64_t pos = begin; pos < end; ++pos) {
      while (r + 1 < runs.size() && runs[r + 1].second <= pos) ++r;
      body(t, runs[r].first + (pos - runs[r].second));
    }
    phaseDone_.fetch_add(end - begin, std::memory_order_relaxed);
  }, false);
}

void Solver::report(uint64_t delta, bool force) {
  if (delta) phaseDone_.fetch_add(delta, std::memory_order_relaxed);
  if (!progress_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - lastReport_ < std::chrono::milliseconds(500)) return;
  lastReport_ = now;
  progress_(phase_, std::min(phaseDone_.load(), phaseTotal_), phaseTotal_);
}

// Marks the children of reachable state x as reachable (those on the same
// level also go to `next`) and sets x's count of distinct children.
void Solver::expand(uint64_t x, std::vector<uint64_t>& next) {
  const State st = stateOf(x);
  if (const int over = outcome(rules_, st); over != 0) {
    // The game is over: no children (the count stays 1), value known now.
    store(code_[x], over > 0 ? winCode(0) : lossCode(0));
    return;
  }
  SmallSet kids;
  forEachChild(rules_, st, [&](const State& c, bool placed) {
    kids.add(index_.indexOf(c) << 1 | (placed ? 1 : 0));
  });
  kids.dedupe();
  for (int i = 0; i < kids.size; ++i) {
    const uint64_t c = kids.items[i] >> 1;
    if (claim(count_[c], 0, 1) && !(kids.items[i] & 1)) next.push_back(c);
  }
  store(count_[x], static_cast<uint8_t>(1 + kids.size));
}

void Solver::reachLevel(int level) {
  // 1. The frontier: states of the level reached from the level below.
  std::vector<std::vector<uint64_t>> local(threads_);
  forLevel(level, [&](int t, uint64_t x) {
    if (load(count_[x]) != 0) local[t].push_back(x);
  });
  std::vector<uint64_t> frontier;
  for (auto& l : local) frontier.insert(frontier.end(), l.begin(), l.end()), l.clear();
  // 2. Breadth first along board moves; each state is expanded once, by
  // the thread that first claimed it.
  while (!frontier.empty()) {
    parallelFor(frontier.size(), 1024, [&](int t, uint64_t i) { expand(frontier[i], local[t]); });
    frontier.clear();
    for (auto& l : local) frontier.insert(frontier.end(), l.begin(), l.end()), l.clear();
  }
}

// Tells the parents of x (settled at distance d) what x is worth.
void Solver::propagate(uint64_t x, int d, Buckets& out) {
  const State st = stateOf(x);
  const bool lost = isLossCode(load(code_[x]));
  SmallSet parents;
  forEachParent(rules_, st, [&](const State& p, bool placed) {
    if (outcome(rules_, p) != 0) return;  // a finished game has no moves
    parents.add(index_.indexOf(p) << 1 | (placed ? 1 : 0));
  });
  parents.dedupe();
  if (d + 1 > kMaxDistance) {
    if (parents.size) overflow_ = true;
    return;
  }
  const uint8_t dist = static_cast<uint8_t>(d + 1);
  for (int i = 0; i < parents.size; ++i) {
    const uint64_t p = parents.items[i] >> 1;
    const bool below = parents.items[i] & 1;
    if (load(count_[p]) == 0) continue;  // not reachable
    if (lost) {
      if (below)
        atomicMin(exitWin_[p], dist);
      else if (claim(code_[p], kNoState, winCode(d + 1)))
        out[d + 1].push_back(p | kSettled);
    } else {
      atomicMax(maxWin_[p], dist);
      const uint8_t left = static_cast<uint8_t>(__atomic_sub_fetch(&count_[p], 1, __ATOMIC_SEQ_CST));
      if (left == 1 && !below) out[load(maxWin_[p])].push_back(p | kLoss);
    }
  }
}

absl::Status Solver::solveLevel(int level) {
  std::vector<Buckets> local(threads_, Buckets(kBuckets));
  Buckets buckets(kBuckets);
  auto merge = [&]() {
    for (auto& l : local)
      for (int d = 0; d < kBuckets; ++d) {
        buckets[d].insert(buckets[d].end(), l[d].begin(), l[d].end());
        l[d].clear();
      }
  };
  // 1. Seeds: finished games (distance 0), wins through a lost child one
  // level up, losses whose children all were won one level up, and draws
  // by lack of any move.
  forLevel(level, [&](int t, uint64_t x) {
    if (count_[x] == 0) return;
    if (code_[x] != kNoState) {  // set by expand(): the game is over
      local[t][0].push_back(x | kSettled);
    } else if (exitWin_[x] != kNoExitWin) {
      local[t][exitWin_[x]].push_back(x | kWinIfOpen);
    } else if (count_[x] == 1) {
      if (maxWin_[x] == 0)
        code_[x] = kDrawCode;  // no legal move
      else
        local[t][maxWin_[x]].push_back(x | kLoss);
    }
  });
  merge();
  // 2. Distance by distance: settle the bucket, tell the parents.
  for (int d = 0; d < kBuckets - 1; ++d) {
    std::vector<uint64_t> items = std::move(buckets[d]);
    buckets[d].clear();
    if (items.empty()) {
      if (std::all_of(buckets.begin() + d, buckets.end(), [](const auto& b) { return b.empty(); })) break;
      continue;
    }
    // a. Settle the whole bucket first: a win in d through a child one
    // level up must not lose the race against a win in d+1 claimed by a
    // sibling's propagation in this same bucket. Entries already settled
    // sooner are dropped.
    parallelFor(items.size(), 4096, [&](int, uint64_t i) {
      const uint64_t e = items[i], x = e & kNumberMask;
      if ((e & ~kNumberMask) == kWinIfOpen && !claim(code_[x], kNoState, winCode(d))) items[i] = ~0ull;
      if ((e & ~kNumberMask) == kLoss) store(code_[x], lossCode(d));
    }, false);
    // b. Tell the parents (claims made here are all of distance d+1).
    parallelFor(items.size(), 1024, [&](int t, uint64_t i) {
      if (items[i] != ~0ull) propagate(items[i] & kNumberMask, d, local[t]);
    });
    merge();
    if (overflow_) return absl::OutOfRangeError(absl::StrCat("a distance exceeds ", kMaxDistance, " plies"));
  }
  // 3. What is left is a draw.
  forLevel(level, [&](int, uint64_t x) {
    if (count_[x] != 0 && code_[x] == kNoState) code_[x] = kDrawCode;
  });
  return absl::OkStatus();
}

absl::StatusOr<Solution> Solver::run() {
  const uint64_t n = index_.size();
  int maxLevel = 0;
  for (const auto& sl : index_.slices()) maxLevel = std::max(maxLevel, sl.level());
  levelSlices_.assign(maxLevel + 1, {});
  levelSize_.assign(maxLevel + 1, 0);
  for (int s = 0; s < static_cast<int>(index_.slices().size()); ++s) {
    levelSlices_[index_.slices()[s].level()].push_back(s);
    levelSize_[index_.slices()[s].level()] += index_.slices()[s].size;
  }
  code_.assign(n, kNoState);
  count_.assign(n, 0);
  exitWin_.assign(n, kNoExitWin);
  maxWin_.assign(n, 0);

  // 1. Forward: reachability and child counts, level 0 up.
  // Work units: a scan of the level's numbers, then one per state expanded
  // (or settled); the totals are upper bounds, the phase ends at 100%.
  phase_ = "reach";
  phaseTotal_ = 2 * n;
  phaseDone_ = 0;
  count_[index_.indexOf(State{})] = 1;
  for (int level = 0; level <= maxLevel; ++level) reachLevel(level);
  phaseDone_ = phaseTotal_;
  report(0, true);

  // 2. Backward: values and distances, fullest level first.
  phase_ = "solve";
  phaseTotal_ = 3 * n;
  phaseDone_ = 0;
  for (int level = maxLevel; level >= 0; --level)
    if (absl::Status s = solveLevel(level); !s.ok()) return s;
  phaseDone_ = phaseTotal_;
  report(0, true);

  Solution result;
  SolveStats& st = result.stats;
  for (uint64_t x = 0; x < n; ++x) {
    if (count_[x] == 0) continue;
    const uint8_t c = code_[x];
    ++st.states;
    if (isWinCode(c)) ++st.wins;
    else if (isLossCode(c)) ++st.losses;
    else ++st.draws;
    if (c >= 2 && codeDistance(c) == 0) ++st.terminal;
    st.maxDistance = std::max(st.maxDistance, codeDistance(c));
  }
  st.start = code_[index_.indexOf(State{})];
  count_ = {};
  exitWin_ = {};
  maxWin_ = {};
  result.codes = std::move(code_);
  return result;
}

}  // namespace

SolveEstimate estimateSolve(const Variant& variant) {
  SolveEstimate e;
  const Index index(variant);
  std::vector<uint64_t> perLevel;
  for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
    const int level = index.slices()[s].level();
    if (level >= static_cast<int>(perLevel.size())) perLevel.resize(level + 1, 0);
    perLevel[level] += index.statesIn(s);
  }
  e.slots = index.size();
  for (uint64_t n : perLevel) e.states += n, e.largestLevel = std::max(e.largestLevel, n);
  e.bytes = 4 * e.slots + 3 * 8 * e.largestLevel;
  return e;
}

absl::StatusOr<Solution> solve(const Variant& variant, int threads,
                                                 const SolveProgress& progress) {
  if (variant.n != 3 || variant.stacks)
    return absl::InvalidArgumentError(absl::StrCat("variant ", variant.name(), ": only the 3x3 family is solved"));
  Solver solver(variant, threads, progress);
  return solver.run();
}

}  // namespace gobblet::tb
