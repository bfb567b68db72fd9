#include "retrograde4.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/parallel_for.h"
#include "verify.h"

namespace gobblet::tb {

namespace {

inline uint8_t load(const uint8_t& b) { return __atomic_load_n(&b, __ATOMIC_RELAXED); }
inline bool claim(uint8_t& b, uint8_t from, uint8_t to) {
  return __atomic_compare_exchange_n(&b, &from, to, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
inline uint8_t subtract(uint8_t& c, uint8_t v) { return __atomic_sub_fetch(&c, v, __ATOMIC_SEQ_CST); }

class Bits {
 public:
  explicit Bits(uint64_t bits) : words_((bits + 63) / 64) {}
  bool test(uint64_t i) const { return words_[i / 64].load(std::memory_order_relaxed) >> (i % 64) & 1; }
  uint64_t word(uint64_t w) const { return words_[w].load(std::memory_order_relaxed); }
  void set(uint64_t i) {
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (!(word(i / 64) & bit)) words_[i / 64].fetch_or(bit, std::memory_order_relaxed);
  }
  uint64_t claim(uint64_t w, uint64_t bits) { return bits & ~words_[w].fetch_or(bits, std::memory_order_relaxed); }
  void prefetch(uint64_t i) const { __builtin_prefetch(&words_[i / 64]); }

 private:
  std::vector<std::atomic<uint64_t>> words_;
};

// A set of numbers for one state's children or parents: open addressing
// in a table of twice the most a state has (MoveList::kCapacity children;
// at most 16 visible pieces times 16 squares of parents), emptied in O(1)
// by a new generation. Faster than sorting the ~60 numbers of a state.
class DistinctSet {
 public:
  void clear() {
    if (++generation_ == 0) {  // after 2^32 clears: stamps from the start
      stamps_.fill(0);
      generation_ = 1;
    }
  }
  // True if x was not in the set (it is now).
  bool insert(uint64_t x) {
    for (uint32_t h = static_cast<uint32_t>(x * 0x9e3779b97f4a7c15 >> (64 - kBits));; h = (h + 1) & (kSlots - 1)) {
      if (stamps_[h] != generation_) {
        stamps_[h] = generation_;
        keys_[h] = x;
        return true;
      }
      if (keys_[h] == x) return false;
    }
  }

 private:
  static constexpr int kBits = 9, kSlots = 1 << kBits;
  static_assert(kSlots >= 2 * MoveList::kCapacity && kSlots >= 2 * 16 * 16);
  std::array<uint64_t, kSlots> keys_{};
  std::array<uint32_t, kSlots> stamps_{};
  uint32_t generation_ = 0;
};

// The numbers of a state's parents: the state's layers as its parents
// see them (the other side to move), ranked once; a parent differs from
// them only in the layer its un-move changes, so it is numbered by ranking
// that layer alone (Index4::numberOfRanks) -- the number
// Index4::numberOfValid gives the parent's Board. (Its children are
// numbered the same way by numberChildren, verify.h.)
class ParentNumbers {
 public:
  ParentNumbers(const Index4& index, const State4& st) : index_(index), st_(st), parents_(index.flipped(st)) {}
  // The parent in which the other side's piece of size s on `to` stood on
  // square `from`, or (from < 0) was on its stack; the parent must be a
  // valid position of the variant (the caller asked the rules core).
  uint64_t parent(int s, int from, int to) {
    Mask moved = static_cast<Mask>(st_.theirs[s] & ~bit(to));
    int slice = parents_.slice;
    if (from >= 0) {
      moved = static_cast<Mask>(moved | bit(from));
    } else {
      if (dropSlice_[s] < 0) dropSlice_[s] = parents_.sliceWith(index_, 2 * s, -1);
      slice = dropSlice_[s];
    }
    std::array<uint32_t, 4> ranks = parents_.ranks;
    ranks[s] = index_.layerRank(moved, st_.ours[s]);
    return index_.numberOfRanks(slice, ranks);
  }

 private:
  const Index4& index_;
  const State4& st_;
  const Index4::Flipped parents_;                 // the parents' layers, before the un-move
  std::array<int, 4> dropSlice_{-1, -1, -1, -1};  // -1: not yet looked up
};

// The distinct numbers of the parents of `st` (player 1 to move on its
// board; the parents have player 2 to move, who made the last move) that
// are valid positions that go on; returns how many, in `out` (room for
// 16 * 16).
int parentsOf(const Index4& index, const State4& st, DistinctSet& seen, uint64_t* out) {
  const Board child = index.toBoard(st);
  ParentNumbers numbers(index, st);
  seen.clear();
  int n = 0;
  const auto add = [&](uint64_t x) {
    if (seen.insert(x)) out[n++] = x;
  };
  const int mover = 1;  // who made the last move
  for (Mask v = child.visible(mover); v; v &= v - 1) {
    const int to = std::countr_zero(v);
    const int s = child.top(to);
    Board lifted = child;
    lifted.removePiece(mover, s, to);
    lifted.setSideToMove(mover);
    // Back onto its stack: the parent must be a valid position that goes on,
    // and the placement legal there.
    if (lifted.countsValid() && lifted.winner() == kNoWinner && isLegal(lifted, Move::drop(s, to)))
      add(numbers.parent(s, -1, to));
    // Back to another square.
    for (int from = 0; from < 16; ++from) {
      if (from == to || (lifted.sizeMask(s) & bit(from))) continue;
      Board parent = lifted;
      parent.addPiece(mover, s, from);
      if (parent.winner() != kNoWinner || !isLegal(parent, Move::boardMove(s, from, to))) continue;
      add(numbers.parent(s, from, to));
    }
  }
  return n;
}

class Solver4 {
 public:
  // This process's part: every number if `share` is null, else the range
  // RankRanges gives its rank.
  Solver4(const Variant& v, int threads, const SolveProgress& progress, const std::atomic<bool>* stop,
          BuildShare* share, uint64_t roundWords = kRoundWords)
      : index_(v),
        threads_(std::max(1, threads)),
        progress_(progress),
        stop_(share ? nullptr : stop),
        share_(share),
        ranges_(index_.size(), share ? share->ranks() : 1),
        rank_(share ? share->rank() : 0),
        first_(ranges_.first(rank_)),
        end_(ranges_.first(rank_ + 1)),
        reached_(end_ - first_),
        expanded_(end_ - first_),
        outbox_(threads_, std::vector<std::vector<uint64_t>>(ranges_.ranks())),
        roundWords_(roundWords) {}

  absl::StatusOr<SolvedPart> run();

 private:
  // The slices' numbers of this part in chunks, the threads' unit of work.
  struct Chunk {
    int slice;
    uint64_t begin, end;
  };
  std::vector<Chunk> chunksOf(const std::vector<int>& slices) const {
    const uint64_t chunk = share_ ? uint64_t{1} << 12 : uint64_t{1} << 14;
    std::vector<Chunk> chunks;
    for (int s : slices) {
      const Index4::Slice& sl = index_.slices()[s];
      const uint64_t lo = std::max(sl.offset, first_), hi = std::min(sl.offset + sl.size, end_);
      for (uint64_t b = lo; b < hi; b += chunk) chunks.push_back({s, b, std::min(hi, b + chunk)});
    }
    return chunks;
  }
  bool mine(uint64_t x) const { return x >= first_ && x < end_; }
  bool stopped() const { return stop_ != nullptr && stop_->load(std::memory_order_relaxed); }
  void report(const char* phase, uint64_t done, uint64_t total) {
    if (!progress_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - lastReport_ < std::chrono::milliseconds(500)) return;
    lastReport_ = now;
    progress_(phase, std::min(done, total), total);
  }
  // True on every rank if `mine` is on any.
  absl::StatusOr<bool> anyRank(bool mine) {
    uint64_t v = mine;
    if (share_)
      if (absl::Status s = share_->reduceWords(&v, 1, BuildShare::Reduce::kSum); !s.ok()) return s;
    return v != 0;
  }
  // Runs work(worker, chunk) over `chunks` by the threads, in rounds; over
  // ranks, a round ends when its words in the outbox reach 8 MiB, they go
  // to their owners, which pass each to deliver(worker, word), and rounds
  // go on until every rank has run out of chunks. One process: one round.
  template <typename Work, typename Deliver>
  absl::Status inRounds(const std::vector<Chunk>& chunks, Work&& work, Deliver&& deliver);
  // A parent (this part's number x, reached, of an open code or not) told
  // that a child of it is lost (a win for it) or won, at distance d.
  void tell(uint64_t x, bool lost, int d) {
    uint8_t& pc = code_[x];
    if (load(pc) != kNoState) return;
    if (d + 1 > kMaxDistance) {
      overflow_ = true;
      return;
    }
    if (lost)
      claim(pc, kNoState, winCode(d + 1));
    else if (subtract(count_[x], 1) == 0)
      claim(pc, kNoState, lossCode(d + 1));
  }

  Index4 index_;
  int threads_;
  SolveProgress progress_;
  const std::atomic<bool>* stop_;
  BuildShare* share_;
  RankRanges ranges_;
  int rank_;
  uint64_t first_, end_;  // this part's numbers; the arrays below are indexed from first_
  CodeArray code_;
  Bits reached_, expanded_;
  // Distinct children not yet settled; a byte holds them: a 4x4 member has
  // at most 16 squares times 3 sizes of drops and 12 visible pieces times
  // 15 squares of board moves, 228 (4x4 Gobblet itself).
  std::vector<uint8_t> count_;
  // outbox_[worker][rank]: the words for another rank's numbers this round.
  std::vector<std::vector<std::vector<uint64_t>>> outbox_;
  uint64_t roundWords_;  // a round ends once the outboxes hold this many words
  std::atomic<bool> overflow_{false};
  std::chrono::steady_clock::time_point lastReport_{};
};

template <typename Work, typename Deliver>
absl::Status Solver4::inRounds(const std::vector<Chunk>& chunks, Work&& work, Deliver&& deliver) {
  std::vector<std::vector<uint64_t>> toEach(ranges_.ranks());
  std::vector<uint64_t> received;
  for (size_t next = 0;;) {
    std::atomic<size_t> cursor{next};
    std::atomic<uint64_t> words{0};
    parallelFor(threads_, threads_, [&](int worker, uint64_t) {
      std::vector<std::vector<uint64_t>>& box = outbox_[worker];
      while (!share_ || words.load(std::memory_order_relaxed) < roundWords_) {
        const size_t k = cursor.fetch_add(1);
        if (k >= chunks.size()) break;
        uint64_t before = 0, after = 0;
        for (const std::vector<uint64_t>& b : box) before += b.size();
        work(worker, chunks[k]);
        for (const std::vector<uint64_t>& b : box) after += b.size();
        words.fetch_add(after - before, std::memory_order_relaxed);
      }
    });
    next = std::min(cursor.load(), chunks.size());
    if (!share_) return absl::OkStatus();
    for (int r = 0; r < ranges_.ranks(); ++r) {
      toEach[r].clear();
      for (std::vector<std::vector<uint64_t>>& box : outbox_) {
        toEach[r].insert(toEach[r].end(), box[r].begin(), box[r].end());
        box[r].clear();
      }
    }
    if (absl::Status s = share_->exchangeWords(toEach, &received); !s.ok()) return s;
    constexpr uint64_t kPiece = 1 << 14;
    parallelFor((received.size() + kPiece - 1) / kPiece, threads_, [&](int worker, uint64_t k) {
      for (uint64_t i = k * kPiece; i < std::min<uint64_t>(received.size(), (k + 1) * kPiece); ++i)
        deliver(worker, received[i]);
    });
    absl::StatusOr<bool> more = anyRank(next < chunks.size());
    if (!more.ok()) return more.status();
    if (!*more) return absl::OkStatus();
  }
}

absl::StatusOr<SolvedPart> Solver4::run() {
  const absl::Status kStopped = absl::CancelledError("stopped before the end of the solve");
  const uint64_t total = index_.size(), size = end_ - first_;
  absl::Status made;
  if (absl::StatusOr<CodeArray> codes = CodeArray::inMemory(size); codes.ok())
    code_ = std::move(*codes);
  else
    made = codes.status();
  if (share_) made = share_->agree(made);
  if (!made.ok()) return made;
  count_.assign(size, 0);
  std::vector<std::vector<int>> levels;
  for (int s = 0; s < static_cast<int>(index_.slices().size()); ++s) {
    const int level = index_.slices()[s].level();
    if (level >= static_cast<int>(levels.size())) levels.resize(level + 1);
    levels[level].push_back(s);
  }

  // 1. Forward: reach every state from the start, level by level; a
  //    reached state is expanded once: its children marked (over ranks:
  //    sent to their owner), and (that pass over it being the only one)
  //    its value or child count set.
  const uint64_t start = index_.numberOf(Board(index_.variant()));
  if (mine(start)) reached_.set(start - first_);
  std::atomic<uint64_t> done{0};
  std::atomic<bool> overflow{false}, outside{false};
  std::vector<DistinctSet> seen(threads_);  // a worker's
  for (const std::vector<int>& level : levels) {
    const std::vector<Chunk> chunks = chunksOf(level);
    for (bool any = true; any;) {
      std::atomic<bool> expandedAny{false};
      const auto expand = [&](int worker, const Chunk& c) {
        const Index4::Slice& sl = index_.slices()[c.slice];
        uint64_t here = 0;
        for (uint64_t w = (c.begin - first_) / 64; w <= (c.end - 1 - first_) / 64; ++w) {
          const uint64_t at = first_ + w * 64;  // first_ is a multiple of 64
          const uint64_t lo = std::max(c.begin, at) - at, hi = std::min(c.end, at + 64) - at;
          const uint64_t range = (hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1) & ~((uint64_t{1} << lo) - 1);
          uint64_t todo = reached_.word(w) & ~expanded_.word(w) & range;
          if (!todo) continue;
          todo = expanded_.claim(w, todo);
          for (; todo; todo &= todo - 1) {
            const uint64_t x = at + std::countr_zero(todo);
            State4 st;
            index_.decode(c.slice, x - sl.offset, &st);
            Board board = index_.toBoard(st);
            ++here;
            if (const int winner = board.winner(); winner != kNoWinner) {
              code_[x - first_] = winner == board.sideToMove() ? winCode(0) : lossCode(0);
              continue;
            }
            MoveList moves;
            generateMoves(board, moves);
            // The children's reached bits asked of the memory at once (as in
            // the solve below), then set.
            uint64_t children[MoveList::kCapacity];
            numberChildren(index_, st, moves, [&](int i, uint64_t child) {
              children[i] = child;
              if (mine(child)) reached_.prefetch(child - first_);
            });
            DistinctSet& distinct = seen[worker];
            distinct.clear();
            int distinctChildren = 0;
            for (int i = 0; i < moves.size(); ++i) {
              const uint64_t child = children[i];
              if (child == kNoChild) {  // the rules core's move, so never
                outside = true;
                break;
              }
              if (!distinct.insert(child)) continue;
              ++distinctChildren;
              if (mine(child))
                reached_.set(child - first_);
              else
                outbox_[worker][ranges_.owner(child)].push_back(child);
            }
            if (distinctChildren > 0xff) overflow = true;
            count_[x - first_] = static_cast<uint8_t>(distinctChildren);
          }
        }
        if (here) {
          expandedAny.store(true, std::memory_order_relaxed);
          done.fetch_add(here, std::memory_order_relaxed);
        }
        if (worker == 0) report("reach", done.load(), size);
      };
      const auto reach = [&](int, uint64_t child) { reached_.set(child - first_); };
      if (absl::Status s = inRounds(chunks, expand, reach); !s.ok()) return s;
      if (stopped()) return kStopped;
      absl::StatusOr<bool> more = anyRank(expandedAny.load());
      if (!more.ok()) return more.status();
      any = *more;
    }
  }
  for (auto [failed, status] :
       {std::pair{overflow.load(), absl::OutOfRangeError("a state with more than 255 children")},
        {outside.load(), absl::InternalError("a legal move led outside the variant's numbering")}}) {
    absl::StatusOr<bool> anywhere = anyRank(failed);  // so that every rank stops here
    if (!anywhere.ok()) return anywhere.status();
    if (*anywhere) return status;
  }

  // 2. Backward, distance by distance over every slice: a state settled
  //    at d tells its distinct reached parents (over ranks: a parent of
  //    another rank's is sent to it, with the child's value in the low bit).
  std::vector<int> all(index_.slices().size());
  for (size_t s = 0; s < all.size(); ++s) all[s] = static_cast<int>(s);
  const std::vector<Chunk> chunks = chunksOf(all);
  done = 0;
  for (int d = 0; d <= kMaxDistance; ++d) {
    std::atomic<bool> settledAny{false};
    const auto settle = [&](int worker, const Chunk& c) {
      const Index4::Slice& sl = index_.slices()[c.slice];
      uint64_t ps[16 * 16];
      uint64_t settled = 0;
      for (uint64_t x = c.begin; x < c.end; ++x) {
        const uint8_t code = load(code_[x - first_]);
        const bool lost = code == lossCode(d);
        if (!lost && code != winCode(d)) continue;
        ++settled;
        State4 st;
        index_.decode(c.slice, x - sl.offset, &st);
        // This part's parents' reached bits, then their codes and counts,
        // asked of the memory at once: each is a cache miss over a large
        // table, and so they overlap instead of waiting one after another.
        const int found = parentsOf(index_, st, seen[worker], ps);
        int n = 0;
        for (int j = 0; j < found; ++j) {
          if (mine(ps[j])) {
            ps[n] = ps[j] - first_;
            reached_.prefetch(ps[n++]);
          } else {
            outbox_[worker][ranges_.owner(ps[j])].push_back(ps[j] << 1 | lost);
          }
        }
        int m = 0;
        for (int j = 0; j < n; ++j)
          if (reached_.test(ps[j])) ps[m++] = ps[j];
        for (int j = 0; j < m; ++j) {
          __builtin_prefetch(&code_[ps[j]], 1);
          if (!lost) __builtin_prefetch(&count_[ps[j]], 1);
        }
        for (int j = 0; j < m; ++j) tell(ps[j], lost, d);
      }
      if (settled) {
        settledAny.store(true, std::memory_order_relaxed);
        done.fetch_add(settled, std::memory_order_relaxed);
      }
      if (worker == 0) report("solve", done.load(), size);
    };
    const auto told = [&](int, uint64_t word) {
      const uint64_t x = (word >> 1) - first_;
      if (reached_.test(x)) tell(x, word & 1, d);
    };
    if (absl::Status s = inRounds(chunks, settle, told); !s.ok()) return s;
    absl::StatusOr<bool> tooLong = anyRank(overflow_.load());
    if (!tooLong.ok()) return tooLong.status();
    if (*tooLong) return absl::OutOfRangeError(absl::StrCat("a distance exceeds ", kMaxDistance, " plies"));
    if (stopped()) return kStopped;
    // Nothing settled at d: nothing at d + 1 either (each is told by one at d).
    absl::StatusOr<bool> any = anyRank(settledAny.load());
    if (!any.ok()) return any.status();
    if (!*any) break;
  }

  // 3. What is left is a draw; the counts (over ranks: summed).
  SolvedPart result;
  SolveStats& st = result.stats;
  for (uint64_t x = 0; x < size; ++x) {
    if (!reached_.test(x)) continue;
    if (code_[x] == kNoState) code_[x] = kDrawCode;
    countState(st, code_[x]);
  }
  if (mine(start)) st.start = code_[start - first_];
  if (share_) {
    uint64_t sums[] = {st.states, st.terminal, st.wins, st.draws, st.losses};
    uint64_t most[] = {static_cast<uint64_t>(st.maxDistance), st.start};
    if (absl::Status s = share_->reduceWords(sums, 5, BuildShare::Reduce::kSum); !s.ok()) return s;
    if (absl::Status s = share_->reduceWords(most, 2, BuildShare::Reduce::kMax); !s.ok()) return s;
    st.states = sums[0], st.terminal = sums[1], st.wins = sums[2], st.draws = sums[3], st.losses = sums[4];
    st.maxDistance = static_cast<int>(most[0]);
    st.start = static_cast<uint8_t>(most[1]);
  }
  count_ = {};
  result.codes = std::move(code_);
  result.first = first_;
  result.entries = total;
  return result;
}

}  // namespace

std::vector<uint64_t> parentNumbers4(const Index4& index, const State4& st) {
  DistinctSet seen;
  uint64_t out[16 * 16];
  const int n = parentsOf(index, st, seen, out);
  return std::vector<uint64_t>(out, out + n);
}

RankRanges::RankRanges(uint64_t numbers, int ranks) : numbers_(numbers), ranks_(std::max(1, ranks)) {
  const uint64_t each = (numbers + ranks_ - 1) / ranks_;
  per_ = std::max<uint64_t>(kUnit, (each + kUnit - 1) / kUnit * kUnit);
}

namespace {
// The checks solve4 and solve4Part make before any work.
absl::Status checkMember(const Variant& variant) {
  if (variant.n != 4 || !variant.stacks)
    return absl::InvalidArgumentError(absl::StrCat("variant ", variant.name(), ": not of the 4x4 family"));
  if (!Index4(variant).fits())
    return absl::ResourceExhaustedError(
        absl::StrCat("variant ", variant.name(), ": its numbering does not fit in 64 bits"));
  return absl::OkStatus();
}
}  // namespace

absl::StatusOr<Solution> solve4(const Variant& variant, int threads, const SolveProgress& progress,
                                const std::atomic<bool>* stop) {
  if (absl::Status s = checkMember(variant); !s.ok()) return s;
  absl::StatusOr<SolvedPart> whole = Solver4(variant, threads, progress, stop, nullptr).run();
  if (!whole.ok()) return whole.status();
  Solution result;
  result.codes = std::move(whole->codes);
  result.stats = whole->stats;
  return result;
}

absl::StatusOr<SolvedPart> solve4Part(const Variant& variant, int threads, BuildShare& share,
                                      const SolveProgress& progress, uint64_t roundWords) {
  if (absl::Status s = checkMember(variant); !s.ok()) return s;  // the same answer on every rank
  return Solver4(variant, threads, progress, nullptr, &share, std::max<uint64_t>(1, roundWords)).run();
}

SolveEstimate estimateSolve4(const Variant& variant) {
  SolveEstimate e;
  const Index4 index(variant);
  e.wideSlots = static_cast<double>(index.sizeEstimate());
  e.wideStates = static_cast<double>(index.statesEstimate());
  e.wideBytes = e.wideSlots * (1 + 1 + 2.0 / 8);
  if (!index.fits()) return e;
  e.slots = index.size();
  e.states = index.states();
  for (const Index4::Slice& sl : index.slices()) e.largestGroup = std::max(e.largestGroup, sl.size);
  e.bytes = e.slots * 2 + e.slots / 4;
  e.bytesCodesInFile = e.bytes;
  return e;
}

ClusterEstimate4 estimateCluster4(const Variant& variant, int threads, int ranks) {
  constexpr double kWordsPerState = 40, kMpiBytes = 80.0 * (1 << 20);
  const double roundBytes = 8.0 * kRoundWords + std::max(1, threads) * 4096.0 * kWordsPerState * 8;
  const SolveEstimate e = estimateSolve4(variant);
  const double r = std::max(1, ranks);
  ClusterEstimate4 c;
  const double share = std::ceil(e.wideSlots / r / RankRanges::kUnit) * RankRanges::kUnit / e.wideSlots;
  c.bytesPerRank = e.wideBytes * std::min(1.0, share);
  if (ranks > 1) {
    c.bytesPerRank += 2 * roundBytes + (r - 1) * roundBytes + kMpiBytes;
    c.bytesSentPerRank = e.wideStates / r * kWordsPerState * 8 * (r - 1) / r;
  }
  return c;
}

}  // namespace gobblet::tb
