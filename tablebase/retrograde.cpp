#include "retrograde.h"

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/parallel_for.h"
#include "moves.h"
#include "numbering.h"
#include "retrograde4.h"

namespace gobblet::tb {

namespace {

// Byte-wide atomics on the plain arrays of the solver (a group too large to
// leave to one thread is solved by all of them).
inline uint8_t load(const uint8_t& b) { return __atomic_load_n(&b, __ATOMIC_RELAXED); }
inline void store(uint8_t& b, uint8_t v) { __atomic_store_n(&b, v, __ATOMIC_RELAXED); }
inline bool claim(uint8_t& b, uint8_t from, uint8_t to) {
  return __atomic_compare_exchange_n(&b, &from, to, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
inline uint16_t subtract(uint16_t& c, uint16_t v) { return __atomic_sub_fetch(&c, v, __ATOMIC_SEQ_CST); }

// Bucket entries: a state's number within its group, with its kind in the
// top two bits (4 bytes: a group has fewer than 2^30 numbers).
using Entry = uint32_t;
constexpr Entry kSettled = 0;           // already settled: only tell the parents
constexpr Entry kWinIfOpen = 1u << 30;  // a win unless settled earlier
constexpr Entry kLoss = 2u << 30;       // a loss (every child is a won position)
constexpr Entry kNumberMask = (1u << 30) - 1;
constexpr Entry kDropped = ~0u;
constexpr uint64_t kMaxGroupSize = kNumberMask;

constexpr int kBuckets = kMaxDistance + 2;
constexpr uint8_t kNoExitWin = 0xff;

// A list of numbers met among the moves or un-moves of one state (fewer
// than 256; symmetric moves may repeat a number).
struct SmallSet {
  uint64_t items[256];
  int size = 0;
  void add(uint64_t v) { items[size++] = v; }
};

// A material (a0,b0,a1,b1,a2,b2) seen from the other side: ours and
// theirs exchanged per size.
std::array<uint8_t, 6> colourSwapped(const std::array<uint8_t, 6>& m) { return {m[1], m[0], m[3], m[2], m[5], m[4]}; }

// A group: the slice of a material and the slice of its colour swap (one
// slice if the material is its own swap). A board move leads from one to
// the other (the child is seen from the opponent), a placement to a group
// one level up: groups of one level are independent of each other once the
// level above is solved, and each is solved by one thread alone.
struct Group {
  int first = -1, second = -1;  // slices; second == -1 for a self-swapped material
  uint64_t firstOffset = 0, firstSize = 0, secondOffset = 0, secondSize = 0;
  uint64_t size() const { return firstSize + secondSize; }
  // The group-local number of global number x (which must be in the group).
  uint64_t local(uint64_t x) const {
    return x - firstOffset < firstSize ? x - firstOffset : firstSize + (x - secondOffset);
  }
  uint64_t global(uint64_t i) const { return i < firstSize ? firstOffset + i : secondOffset + (i - firstSize); }
  int sliceOfLocal(uint64_t i) const { return i < firstSize ? first : second; }
  // The slice of local number i's children and parents by board move: the
  // group's other slice (a board move swaps the sides).
  int boardMoveSlice(uint64_t i) const { return second < 0 || i >= firstSize ? first : second; }
  uint64_t inSlice(uint64_t i) const { return i < firstSize ? i : i - firstSize; }
};

// The layer codes of a neighbour of `st` (a parent or a child, seen from
// the other side), given `exchanged`, st's codes with its sides exchanged:
// only the layer of the piece moved (size, to, from) changes. A parent's
// mover is st's opponent, a child's is st's side to move.
std::array<uint16_t, 3> parentCodes(const Index& index, const State& st, const std::array<uint16_t, 3>& exchanged,
                                    int size, Mask to, Mask from) {
  std::array<uint16_t, 3> code = exchanged;
  code[size] = index.layerCode(static_cast<Mask>(st.theirs[size] ^ to ^ from), st.ours[size]);
  return code;
}
std::array<uint16_t, 3> childCodes(const Index& index, const State& st, const std::array<uint16_t, 3>& exchanged,
                                   int size, Mask to, Mask from) {
  std::array<uint16_t, 3> code = exchanged;
  code[size] = index.layerCode(st.theirs[size], static_cast<Mask>(st.ours[size] ^ to ^ from));
  return code;
}
std::array<uint16_t, 3> exchangedCodes(const Index& index, const State& st) {
  return index.layerCodes(State{st.theirs, st.ours});
}

// The groups of an index, each made once (from the lower of its two
// slices), in slice order.
std::vector<Group> groupsOf(const Index& index) {
  std::vector<Group> groups;
  for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
    const Index::Slice& sl = index.slices()[s];
    const int swapped = index.sliceOf(colourSwapped(sl.material));
    if (swapped < s) continue;  // the group was made with the other slice
    Group g;
    g.first = s;
    g.firstOffset = sl.offset;
    g.firstSize = sl.size;
    if (swapped != s) {
      g.second = swapped;
      g.secondOffset = index.slices()[swapped].offset;
      g.secondSize = index.slices()[swapped].size;
    }
    groups.push_back(g);
  }
  return groups;
}

// The first slices of the groups one level up that a group's placements
// lead to: its material with one piece more of a size, of either side (a
// placement from the colour-swapped slice adds a piece to "theirs" as the
// first slice sees it).
std::vector<int> placementChildGroups(const Index& index, const Group& g) {
  std::vector<int> above;
  for (int piece = 0; piece < 6; ++piece) {
    std::array<uint8_t, 6> m = index.slices()[g.first].material;
    ++m[piece];
    const int child = index.sliceOf(m), swapped = index.sliceOf(colourSwapped(m));
    if (child >= 0) above.push_back(swapped >= 0 ? std::min(child, swapped) : child);
  }
  std::sort(above.begin(), above.end());
  above.erase(std::unique(above.begin(), above.end()), above.end());
  return above;
}

// How many of the group's numbers begin..end-1 lie in its first slice
// (those first): where a run of numbers splits between the two slices'
// symbols, which lie apart.
uint64_t inFirstSlice(const Group& g, uint64_t begin, uint64_t end) {
  return std::clamp(g.firstSize, begin, end) - begin;
}

// Which rank solves each of a level's groups (given largest first): each
// group in turn to the rank with the fewest numbers of the level so far;
// on a tie, to the one that holds the fewest numbers of the levels dealt
// before (`held`, which the level's groups are added to), then the lowest.
// Ranks of equal load are interchangeable, so the tie changes no level's
// loads, only which rank holds more slices. The same deal on every rank,
// from the index alone.
std::vector<int> dealGroups(const std::vector<Group>& groups, std::vector<uint64_t>& held) {
  std::vector<uint64_t> load(held.size(), 0);
  std::vector<int> owner;
  owner.reserve(groups.size());
  for (const Group& g : groups) {
    int r = 0;
    for (int k = 1; k < static_cast<int>(load.size()); ++k)
      if (std::pair(load[k], held[k]) < std::pair(load[r], held[r])) r = k;
    load[r] += g.size();
    held[r] += g.size();
    owner.push_back(r);
  }
  return owner;
}

// A level's groups by size, largest first (the threads take them in that
// order; dealGroups deals them so).
std::vector<std::vector<Group>> groupsByLevel(const Index& index) {
  int maxLevel = 0;
  for (const auto& sl : index.slices()) maxLevel = std::max(maxLevel, sl.level());
  std::vector<std::vector<Group>> levels(maxLevel + 1);
  for (const Group& g : groupsOf(index)) levels[index.slices()[g.first].level()].push_back(g);
  for (auto& groups : levels)
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.size() > b.size(); });
  return levels;
}

// The slice of the parents by placement of `slice`'s states whose last
// move placed a piece of `size` (the opponent's material with that piece
// less, as the side to move), or -1 if there is none (no slice, or the
// opponent has no piece of that size on the board).
int placementParentSliceOf(const Index& index, int slice, int size) {
  if (slice < 0) return -1;
  const std::array<uint8_t, 6>& m = index.slices()[slice].material;
  if (m[2 * size + 1] == 0) return -1;
  std::array<uint8_t, 6> parent = colourSwapped(m);
  --parent[2 * size];
  return index.sliceOf(parent);
}

// The slice of the children by placement of `slice`'s states whose move
// places a piece of `size` (the mover's material with that piece more,
// seen from the opponent), or -1 if there is none.
int placementChildSliceOf(const Index& index, int slice, int size) {
  if (slice < 0) return -1;
  std::array<uint8_t, 6> child = index.slices()[slice].material;
  ++child[2 * size];
  return index.sliceOf(colourSwapped(child));
}

// Over ranks: the slices that each rank needs for a step of the solve and
// does not hold (another rank's), sorted, by rank.
using Needs = std::vector<std::vector<int>>;

// How a build over ranks deals the work: every level's groups (largest
// first), the rank that solves each, and the rank that holds each slice.
struct Deal {
  std::vector<std::vector<Group>> groups;
  std::vector<std::vector<int>> owner;
  std::vector<int> sliceOwner;
};
Deal dealOf(const Index& index, int ranks) {
  Deal d;
  d.groups = groupsByLevel(index);
  d.sliceOwner.assign(index.slices().size(), 0);
  std::vector<uint64_t> held(std::max(1, ranks), 0);
  for (const std::vector<Group>& level : d.groups) {
    d.owner.push_back(dealGroups(level, held));
    for (size_t k = 0; k < level.size(); ++k) {
      const Group& g = level[k];
      d.sliceOwner[g.first] = d.owner.back()[k];
      if (g.second >= 0) d.sliceOwner[g.second] = d.owner.back()[k];
    }
  }
  return d;
}

// The other ranks' slices that each rank's groups of `level` need: in the
// forward pass, the slices of their parents by placement (one level
// down); in the backward pass, those of their children by placement (one
// level up: of each group one level up, the one slice of the two that a
// placement from each of the group's slices leads to).
Needs needsOf(const Index& index, const Deal& d, int level, bool backward, int ranks) {
  Needs needs(ranks);
  for (size_t k = 0; k < d.groups[level].size(); ++k) {
    const Group& g = d.groups[level][k];
    const int r = d.owner[level][k];
    auto need = [&](int slice) {
      if (slice >= 0 && d.sliceOwner[slice] != r) needs[r].push_back(slice);
    };
    for (int slice : {g.first, g.second})
      for (int size = 0; size < 3; ++size)
        need(backward ? placementChildSliceOf(index, slice, size) : placementParentSliceOf(index, slice, size));
  }
  for (auto& n : needs) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  return needs;
}

// The words that carry slices of the packed codes from one rank to
// another, in order: each slice's symbol words (OR-ed into the receiver's:
// a word at a slice's edge holds another slice's symbols too), then, if
// asked, its open bytes, 8 to a word (copied).
class SliceStream {
 public:
  explicit SliceStream(PackedCodes& codes) : codes_(codes) {}
  void addSymbols(uint64_t first, uint64_t count) {
    const uint64_t w = first / PackedCodes::kPerWord;
    add({false, w, (first + count + PackedCodes::kPerWord - 1) / PackedCodes::kPerWord - w});
  }
  void addOpen(uint64_t first, uint64_t count) { add({true, first, count}); }
  uint64_t left() const { return left_; }
  // The next n (<= left()) words, appended to `out`.
  void read(uint64_t n, std::vector<uint64_t>& out) {
    walk(n, [&](const Item& item, uint64_t k) {
      if (!item.bytes) return out.push_back(codes_.words()[item.first + k]);
      uint64_t w = 0;
      std::memcpy(&w, codes_.openBytes() + item.first + 8 * k, std::min<uint64_t>(8, item.count - 8 * k));
      out.push_back(w);
    });
  }
  // Takes the next n (<= left()) words from `in` into the codes.
  void write(const uint64_t* in, uint64_t n) {
    walk(n, [&](const Item& item, uint64_t k) {
      if (!item.bytes)
        codes_.words()[item.first + k] |= *in++;
      else
        std::memcpy(codes_.openBytes() + item.first + 8 * k, in++, std::min<uint64_t>(8, item.count - 8 * k));
    });
  }

 private:
  struct Item {
    bool bytes;             // open bytes, else symbol words
    uint64_t first, count;  // in words or bytes
    uint64_t words() const { return bytes ? (count + 7) / 8 : count; }
  };
  void add(const Item& item) {
    if (item.count == 0) return;
    items_.push_back(item);
    left_ += item.words();
  }
  // Calls each(item, k) for the next n words: word k of its item.
  template <typename Each>
  void walk(uint64_t n, Each&& each) {
    left_ -= n;
    for (; n > 0; ++item_, at_ = 0) {
      const Item& item = items_[item_];
      const uint64_t take = std::min(n, item.words() - at_);
      for (uint64_t k = at_; k < at_ + take; ++k) each(item, k);
      n -= take;
      if (at_ + take < item.words()) {
        at_ += take;
        return;
      }
    }
  }
  PackedCodes& codes_;
  std::vector<Item> items_;
  size_t item_ = 0;
  uint64_t at_ = 0, left_ = 0;
};

class Solver {
 public:
  Solver(const Variant& v, int threads, const SolveProgress& progress, uint64_t sharedGroupSize,
         const std::string& codesDirectory, BuildShare* share, const std::atomic<bool>* stop)
      : share_(share != nullptr && share->ranks() > 1 ? share : nullptr),
        stop_(share_ == nullptr ? stop : nullptr),
        index_(v),
        rules_(v),
        threads_(std::max(1, threads)),
        sharedGroupSize_(sharedGroupSize),
        codesDirectory_(codesDirectory),
        progress_(progress) {}

  absl::StatusOr<PackedSolution> run();

 private:
  using Buckets = std::vector<std::vector<Entry>>;

  // Runs body(group, workers) for every group of `level`: the large ones one
  // after the other with all threads (workers = threads), then the others
  // on all threads at once, one thread each (workers = 1), largest first.
  template <typename Body>
  void forGroups(int level, Body&& body);

  void reachGroup(const Group& g, int workers);
  // Marks number x, state st, reached with its symbol; the kind of ruled
  // state it is counted in `ruled` (games won, lost, wins in 1).
  void markReached(uint64_t x, const State& st, const Tops& tops, std::array<uint64_t, 3>& ruled);
  // The kind of ruled state a game is (0 won, 1 lost, 2 won in 1), or -1:
  // open.
  int ruleOf(const State& st, const Tops& tops) const {
    if (const int over = outcome(rules_, tops.shown); over != 0) return over > 0 ? 0 : 1;
    return hasWinInOne(rules_, st, tops) ? 2 : -1;
  }
  void addRuled(const std::array<uint64_t, 3>& ruled) {
    wonGames_.fetch_add(ruled[0], std::memory_order_relaxed);
    lostGames_.fetch_add(ruled[1], std::memory_order_relaxed);
    winsInOne_.fetch_add(ruled[2], std::memory_order_relaxed);
  }
  uint64_t reachedBits(const Group& g, uint64_t begin, uint64_t end) const { return groupBits(g, begin, end, false); }
  uint64_t openBits(const Group& g, uint64_t begin, uint64_t end) const { return groupBits(g, begin, end, true); }
  uint64_t groupBits(const Group& g, uint64_t begin, uint64_t end, bool open) const;
  bool sliceReached(int slice) const;
  bool parentSliceReached(int slice) const;
  int placementParentSlice(int slice, int size) const;
  absl::Status solveGroup(const Group& g, int workers);
  State stateOf(const Group& g, uint64_t i) const {
    State st;
    index_.decode(g.sliceOfLocal(i), g.inSlice(i), &st);
    return st;
  }
  void report(bool force = false);
  // Every rank takes the slices it needs from their holders: their symbols
  // and, if `open`, their open bytes (whose directory it then makes).
  // Collective; an error on every rank if a message is not the size
  // expected.
  absl::Status fetch(const Needs& needs, bool open);
  // Lets go of the slices fetched for `needs`.
  void release(const Needs& needs, bool open);
  // Over ranks, once the forward pass is over: the lines two slices share
  // made whole on every rank, the open numbers of each slice counted (by
  // its holder, summed over the ranks), the open bytes made, and the
  // directory of this rank's slices.
  absl::Status indexOpenOfRanks();
  // The progress of a pass over ranks once `level` is done on every rank.
  void levelDone(int level, bool backward);
  bool holds(int slice) const { return deal_.sliceOwner[slice] == share_->rank(); }

  BuildShare* share_;              // null: this process solves every group
  const std::atomic<bool>* stop_;  // null, or set: the solve ends between two groups
  bool stopped() const { return stop_ != nullptr && stop_->load(std::memory_order_relaxed); }
  Index index_;
  MoveRules rules_;
  int threads_;
  uint64_t sharedGroupSize_;
  std::string codesDirectory_;  // empty: the codes in memory
  SolveProgress progress_;

  // The answer: reached states are marked by the forward pass with their
  // symbol (ruled or open); an open state's byte is final once its level
  // is solved.
  PackedCodes codes_;
  // The ruled states this process marked: games won, games lost, wins in 1.
  std::atomic<uint64_t> wonGames_{0}, lostGames_{0}, winsInOne_{0};
  std::vector<std::vector<Group>> levelGroups_;   // the groups this process solves, per level
  Deal deal_;                                     // with a share: every rank's groups, and who solves each
  std::vector<uint64_t> openBefore_, openCount_;  // per slice: the open numbers before it, and in it

  std::string phase_;
  uint64_t phaseTotal_ = 0;
  std::atomic<uint64_t> phaseDone_{0};
  std::chrono::steady_clock::time_point lastReport_{};
};

template <typename Body>
void Solver::forGroups(int level, Body&& body) {
  const std::vector<Group>& groups = levelGroups_[level];
  size_t shared = 0;
  for (; shared < groups.size() && threads_ > 1 && groups[shared].size() >= sharedGroupSize_; ++shared) {
    if (stopped()) return;
    body(groups[shared], threads_);
    phaseDone_.fetch_add(groups[shared].size(), std::memory_order_relaxed);
    report();
  }
  parallelFor(groups.size() - shared, threads_, [&](int worker, uint64_t k) {
    const Group& g = groups[shared + k];
    if (stopped()) return;
    body(g, 1);
    phaseDone_.fetch_add(g.size(), std::memory_order_relaxed);
    if (worker == 0) report();
  });
}

void Solver::report(bool force) {
  if (!progress_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - lastReport_ < std::chrono::milliseconds(500)) return;
  lastReport_ = now;
  progress_(phase_, std::min(phaseDone_.load(), phaseTotal_), phaseTotal_);
}

// Forward: which of the group's states are reached, given every level
// below. A state is reached if one of its parents is a reached game that
// goes on (the start is marked first): its parents by placement are one
// level down (final), its parents by board move in the group. The first
// sweep asks the parents by placement only, the first live one before the
// others (nearly always it is reached, where marking every child of every
// reached state numbered all 3.3 G moves of gobblers). The later sweeps ask
// the parents by board move of the states still open, until a sweep marks
// nothing: most are games won by the side to move (77 M of gobblers' 97 M
// with no live parent by placement), which only a board move lifting a
// piece can show, and their parents are in the group's other slice, which
// the first sweep has settled by then. A state with no live parent left to
// ask is settled as never reached (without board moves, after the first).
void Solver::reachGroup(const Group& g, int workers) {
  // A group that holds no reached state (the start is marked before) and
  // none of whose parents one level down is reached stays out of reach (a
  // board move only leads on from a reached state). Without board moves,
  // whole slices are so (a player has placed as many pieces as the other
  // or one more): those are not swept at all.
  auto reachable = [&](int slice) { return sliceReached(slice) || parentSliceReached(slice); };
  if (!reachable(g.first) && (g.second < 0 || !reachable(g.second))) return;
  codes_.prepareSymbols(g.firstOffset, g.firstSize);
  if (g.second >= 0) codes_.prepareSymbols(g.secondOffset, g.secondSize);
  const uint64_t words = (g.size() + 63) / 64;
  // Reached, a hole, or never to be reached (no parent by board move left
  // to ask); a word belongs to one thread at a time.
  std::vector<uint64_t> known(words, 0);
  // What each worker marked, on a cache line of its own (shared counters
  // and flags written for each word kept their lines moving between cores).
  struct alignas(64) Tally {
    std::array<uint64_t, 3> ruled{};
    bool marked = false;
  };
  std::vector<Tally> tallies(std::max(1, workers));
  // The numberings of the group's slices' parents by placement, by the
  // size of the piece placed (null: the opponent has none of that size).
  std::array<std::array<const Index::Layout*, 3>, 2> placementLayouts{};
  for (int k = 0; k < 2; ++k)
    for (int s = 0; s < 3; ++s)
      if (const int p = placementParentSlice(k == 0 ? g.first : g.second, s); p >= 0)
        placementLayouts[k][s] = &index_.layout(p);
  // The words a sweep visits: all of them first, then those the sweep
  // before left with states not known, bit w % 64 of left[w / 64] (after
  // the second sweep a few thousand of gobblers' 6 M words: scanning them
  // all took longer than the visits).
  std::vector<uint64_t> left((words + 63) / 64, 0), visit;
  for (int sweep = 0;; ++sweep) {
    for (Tally& t : tallies) t.marked = false;
    // Visits word w; whether states of it are left (neither reached nor
    // known never to be).
    auto visitWord = [&](int worker, uint64_t w) {
      Tally& tally = tallies[worker];
      std::array<uint64_t, 3>& ruled = tally.ruled;
      const uint64_t begin = w * 64, end = std::min(g.size(), begin + 64);
      uint64_t open = ~(known[w] | reachedBits(g, begin, end));
      if (end - begin < 64) open &= (uint64_t{1} << (end - begin)) - 1;
      const uint64_t asked = open;
      uint64_t marked = 0, markedOpen = 0;  // the word's states reached in this visit, and those open
      // The word's open states first ask their first parent, all at once
      // (a reached bit is a cache miss, and these overlap); those not
      // reached through it ask the rest.
      struct Asking {
        uint64_t bit;
        State st;
        Tops tops;
        uint64_t first;                     // the first parent's number
        bool waits;                         // (first sweep) it is by board move: not the sweep's kind
        const Index::Layout* boardLayout;   // the numbering of its parents by board move (their slice)
        std::array<uint16_t, 3> exchanged;  // the layer codes of st with its sides exchanged
      };
      // The number of a parent, from its layers' codes (it is seen from the
      // opponent: the piece moved is taken off its square, or put back
      // where it came from) in its slice's numbering.
      auto parentNumber = [&](const Asking& a, int size, Mask to, Mask from) {
        const uint64_t i = begin + std::countr_zero(a.bit);
        return index_.indexIn(from == 0 ? *placementLayouts[i >= g.firstSize][size] : *a.boardLayout,
                              parentCodes(index_, a.st, a.exchanged, size, to, from));
      };
      Asking asking[64];
      Index::Row row;
      int n = 0;
      for (; open; open &= open - 1) {
        const uint64_t bit = open & -open, i = begin + std::countr_zero(open);
        Asking& a = asking[n];
        a.bit = bit;
        index_.decodeInRow(g.sliceOfLocal(i), g.inSlice(i), &row, &a.st);
        if (sweep == 0 && index_.isHoleInRow(row)) {
          known[w] |= bit;
          continue;
        }
        a.boardLayout = &index_.layout(g.boardMoveSlice(i));
        a.tops = topsOf(a.st);
        // The first live parent of the sweep's kind. In the first sweep, a
        // state with none by placement asks its first by board move (whose
        // slice may be swept already) and, if that one is not reached yet,
        // waits for the next sweep; with no live parent at all it is never
        // reached.
        int size;
        Mask to, from;
        a.waits = false;
        if (!(sweep == 0 ? firstLiveUnmove<kPlacements>(rules_, a.st, a.tops, &size, &to, &from)
                         : firstLiveUnmove<kBoardMoves>(rules_, a.st, a.tops, &size, &to, &from))) {
          if (sweep > 0 || !rules_.moving || !firstLiveUnmove<kBoardMoves>(rules_, a.st, a.tops, &size, &to, &from)) {
            known[w] |= bit;
            continue;
          }
          a.waits = true;
        }
        a.exchanged = exchangedCodes(index_, a.st);
        a.first = parentNumber(a, size, to, from);
        codes_.prefetch(a.first);
        ++n;
      }
      for (int k = 0; k < n; ++k) {
        Asking& a = asking[k];
        bool reached = codes_.symbol(a.first) != PackedCodes::kNone;
        if (!reached && !a.waits) {  // the sweep's other parents
          SmallSet parents;
          auto ask = [&](int size, Mask to, Mask from, int, const Visible&) {
            const uint64_t x = parentNumber(a, size, to, from);
            codes_.prefetch(x);
            parents.add(x);
          };
          if (sweep == 0)
            forEachUnmove<true, kPlacements>(rules_, a.st, a.tops, ask);
          else
            forEachUnmove<true, kBoardMoves>(rules_, a.st, a.tops, ask);
          for (int j = 0; j < parents.size && !reached; ++j)
            reached = codes_.symbol(parents.items[j]) != PackedCodes::kNone;
        }
        if (reached) {
          const int kind = ruleOf(a.st, a.tops);
          if (kind >= 0) ++ruled[kind];
          marked |= a.bit;
          if (kind < 0) markedOpen |= a.bit;
          known[w] |= a.bit;
          tally.marked = true;
        } else if (sweep == 0 && !rules_.moving) {
          known[w] |= a.bit;  // every parent one level down, none reached: never reached
        }
      }
      // The marks, an atomic OR per word of symbols rather than per number
      // (each slice's part of a word that spans both).
      const uint64_t split = inFirstSlice(g, begin, end);
      if (split > 0) codes_.markIn(g.global(begin), split, marked, markedOpen);
      if (split < end - begin)
        codes_.markIn(g.global(begin + split), end - begin - split, marked >> split, markedOpen >> split);
      return (asked & ~known[w]) != 0;
    };
    // The words left are noted a word of `left` at a time: the threads' runs
    // of words lie side by side, and an atomic OR for each word kept the
    // cache line of `left` between them moving from core to core.
    parallelForChunks(sweep == 0 ? words : visit.size(), workers, 256, [&](int worker, uint64_t begin, uint64_t end) {
      uint64_t at = 0, bits = 0;  // bits of left[at] not yet noted
      auto note = [&] {
        if (bits) __atomic_fetch_or(&left[at], std::exchange(bits, 0), __ATOMIC_RELAXED);
      };
      for (uint64_t k = begin; k < end; ++k) {
        const uint64_t w = sweep == 0 ? k : visit[k];
        if (w / 64 != at) {
          note();
          at = w / 64;
        }
        if (visitWord(worker, w)) bits |= uint64_t{1} << (w % 64);
      }
      note();
    });
    // The first sweep is followed by one at least (the states it left open
    // ask their parents by board move), the others until one marks nothing.
    if (!rules_.moving) break;
    if (sweep > 0 && std::none_of(tallies.begin(), tallies.end(), [](const Tally& t) { return t.marked; })) break;
    visit.clear();
    for (uint64_t j = 0; j < left.size(); ++j)
      for (uint64_t bits = std::exchange(left[j], 0); bits; bits &= bits - 1)
        visit.push_back(j * 64 + std::countr_zero(bits));
  }
  for (const Tally& t : tallies) addRuled(t.ruled);
}

void Solver::markReached(uint64_t x, const State& st, const Tops& tops, std::array<uint64_t, 3>& ruled) {
  const int kind = ruleOf(st, tops);
  if (codes_.mark(x, kind < 0 ? PackedCodes::kOpen : PackedCodes::kRuled) && kind >= 0) ++ruled[kind];
}

// Whether some state of `slice` is reached.
bool Solver::sliceReached(int slice) const {
  const Index::Slice& sl = index_.slices()[slice];
  for (uint64_t i = 0; i < sl.size; i += 64)
    if (codes_.statesIn(sl.offset + i, std::min<uint64_t>(64, sl.size - i))) return true;
  return false;
}

// Whether some state is reached in a slice that leads to `slice` by a
// placement (one level down).
bool Solver::parentSliceReached(int slice) const {
  for (int s = 0; s < 3; ++s)
    if (const int p = placementParentSlice(slice, s); p >= 0 && sliceReached(p)) return true;
  return false;
}

// The slice of the parents by placement of `slice`'s states whose last
// move placed a piece of `size` (the opponent's material with that piece
// less, as the side to move), or -1 if there is none (no slice, or the
// opponent has no piece of that size on the board).
int Solver::placementParentSlice(int slice, int size) const { return placementParentSliceOf(index_, slice, size); }

// The reached (or open) bits of the group's numbers begin..end-1 (at most
// 64), bit k for number begin + k.
uint64_t Solver::groupBits(const Group& g, uint64_t begin, uint64_t end, bool open) const {
  auto bits = [&](uint64_t first, uint64_t count) {
    return open ? codes_.openIn(g.global(first), count) : codes_.statesIn(g.global(first), count);
  };
  const uint64_t split = inFirstSlice(g, begin, end);
  return (split > 0 ? bits(begin, split) : 0) |
         (split < end - begin ? bits(begin + split, end - begin - split) << split : 0);
}

// Backward: values and distances of the group's reached states. Children
// one level up are final already, and so are children in the group that
// are finished games (their lines show); they give each state its shortest
// win through a lost child (exitWin), its longest won child (maxWin) and,
// with the other moves inside the group, a count of moves not known to
// lead to a won state. Then the group is settled in order of distance, one
// bucket per distance: a settled loss makes each parent in the group a win
// one ply longer; a settled win counts down each parent's moves, and the
// parent whose count reaches zero is a loss as long as its longest won
// child plus one. What is never settled is a draw.
//
// Counting moves, not distinct children: symmetric moves lead to one
// state, so the count and the un-moves are weighted by orbit sizes instead
// of de-duplicated. Between the orbit [P] of a state and the orbit [C] of a
// child, the moves from members of [P] to members of [C] number
// |[P]| * (moves of P into [C]) = |[C]| * (un-moves of C into [P]), each
// side counting from its own member. So a state P counts |[P]| for each of
// its moves in the group, a settled won state C takes |[C]| off the count of
// its parent for each un-move reaching it, and P's count reaches zero
// exactly when every one of its moves leads to a won state.
absl::Status Solver::solveGroup(const Group& g, int workers) {
  const uint64_t n = g.size();
  if (n > kMaxGroupSize)
    return absl::ResourceExhaustedError(
        absl::StrCat("a group of ", n, " numbers: more than the builder's ", kMaxGroupSize));
  // The finished games and wins in 1 were settled by the forward pass
  // (ruled symbols) and are never told to their parents: each parent
  // judges its finished children by their lines, and reads which of its
  // children in the group are won in 1 in step 1. A win in 1 (a move to a
  // finished game the mover wins) is the shortest win there is, so no
  // bucket could settle such a state sooner. Of gobblers' 185 M unfinished
  // states 153 M are won in 1: telling their parents took more of the
  // solve than all the rest. What is left are the open states (their
  // bytes, kNoState so far); the working arrays hold one entry per open
  // state of the group: its place among them (`slot`).
  uint8_t* open = codes_.openBytes();
  const uint64_t firstBase = codes_.openRank(g.firstOffset),
                 firstOpen = codes_.openRank(g.firstOffset + g.firstSize) - firstBase;
  const uint64_t secondBase = g.second >= 0 ? codes_.openRank(g.secondOffset) : 0,
                 secondOpen = g.second >= 0 ? codes_.openRank(g.secondOffset + g.secondSize) - secondBase : 0;
  // The slot of local number i, given its open byte's place r.
  auto slot = [&](uint64_t i, uint64_t r) { return i < g.firstSize ? r - firstBase : firstOpen + (r - secondBase); };
  codes_.prepareOpen(firstBase, firstOpen);
  codes_.prepareOpen(secondBase, secondOpen);
  std::vector<uint16_t> count(firstOpen + secondOpen, 0);
  std::vector<uint8_t> maxWin(firstOpen + secondOpen, 0);
  std::vector<Buckets> local(workers, Buckets(kBuckets));
  Buckets buckets(kBuckets);
  std::atomic<bool> overflow{false};
  auto merge = [&]() {
    for (auto& l : local)
      for (int d = 0; d < kBuckets; ++d) {
        buckets[d].insert(buckets[d].end(), l[d].begin(), l[d].end());
        l[d].clear();
      }
  };
  // The final code of a child one level up that is no finished game.
  auto codeAbove = [&](uint64_t x) {
    const uint8_t symbol = codes_.symbol(x);
    return symbol == PackedCodes::kNone    ? kNoState
           : symbol == PackedCodes::kRuled ? winCode(1)
                                           : load(open[codes_.openRank(x)]);
  };
  // 1. Seeds: every open state. Children that are finished games are
  // known from their lines, without a number (one the mover loses is a
  // won child, distance 0). Children one level up are numbered (their
  // codes are final); so are the children in the group, of which those won
  // in 1 are final too and the others are counted.
  auto seed = [&](int t, uint64_t i, Index::Row& row) {
    const uint64_t x = g.global(i);
    const uint64_t r = codes_.openRank(x);
    State st;
    index_.decodeInRow(g.sliceOfLocal(i), g.inSlice(i), &row, &st);
    bool anyMove = false, openAbove = false;
    int exitWin = kNoExitWin, longestWin = 0, inGroup = 0;
    SmallSet above, inside;
    const Index::Layout& boardLayout = index_.layout(g.boardMoveSlice(i));
    // The children's numbers from their layers' codes; a placement's child
    // has one piece more on the mover's side of st's exchanged material.
    const std::array<uint16_t, 3> exchanged = exchangedCodes(index_, st);
    const int exchangedKey = index_.keyOf(State{st.theirs, st.ours});
    const Tops tops = topsOf(st);
    const Mask opponentSquares = opponentPlacementSquares(rules_, st, tops);
    forEachMove(rules_, st, tops, [&](int size, Mask to, Mask from, int over, const Visible& shown) {
      anyMove = true;
      if (over != 0) {
        longestWin = std::max(longestWin, 1);  // over < 0 would have made this state a win in 1
        return;
      }
      // A child its mover wins by a placement is won in 1 (ruled), known
      // without its number.
      if (placementWinsAround(rules_, opponentSquares, shown, static_cast<Mask>(to | from))) {
        longestWin = std::max(longestWin, 2);
        return;
      }
      const bool placed = from == 0;
      const std::array<uint16_t, 3> code = childCodes(index_, st, exchanged, size, to, from);
      const uint64_t y = placed ? index_.indexOfCodes(exchangedKey + index_.theirsPieceKey(size), code)
                                : index_.indexIn(boardLayout, code);
      codes_.prefetch(y);
      if (placed) codes_.prefetchOpen(y);
      (placed ? above : inside).add(y);
    });
    for (int k = 0; k < inside.size; ++k) {
      if (codes_.symbol(inside.items[k]) == PackedCodes::kRuled)  // won in 1
        longestWin = std::max(longestWin, 2);
      else
        ++inGroup;
    }
    for (int k = 0; k < above.size; ++k) {
      const uint8_t c = codeAbove(above.items[k]);  // one level up: final
      if (isWinCode(c)) {
        longestWin = std::max(longestWin, codeDistance(c) + 1);
      } else {
        openAbove = true;  // a loss (this state is a win) or a draw
        if (isLossCode(c)) exitWin = std::min(exitWin, codeDistance(c) + 1);
      }
    }
    // A move up that is not to a won state keeps the count above zero for good.
    const uint64_t at = slot(i, r);
    count[at] = static_cast<uint16_t>(inGroup * index_.orbitSize(st) + (openAbove ? 1 : 0));
    maxWin[at] = static_cast<uint8_t>(longestWin);
    if (exitWin != kNoExitWin) {
      if (exitWin > kMaxDistance)
        overflow = true;
      else
        local[t][exitWin].push_back(static_cast<Entry>(i) | kWinIfOpen);
    } else if (count[at] == 0) {
      if (!anyMove)
        store(open[r], kDrawCode);  // no legal move
      else
        local[t][longestWin].push_back(static_cast<Entry>(i) | kLoss);
    }
  };
  parallelFor((n + 63) / 64, workers, 256, [&](int t, uint64_t w) {
    const uint64_t begin = w * 64;
    Index::Row row;
    for (uint64_t bits = openBits(g, begin, std::min(n, begin + 64)); bits; bits &= bits - 1)
      seed(t, begin + std::countr_zero(bits), row);
  });
  merge();
  if (overflow) return absl::OutOfRangeError(absl::StrCat("a distance exceeds ", kMaxDistance, " plies"));
  // 2. Distance by distance: settle the whole bucket, then tell the
  // parents (a win in d through a child one level up must not be taken by
  // a win in d+1 claimed in this same bucket).
  for (int d = 0; d < kBuckets - 1; ++d) {
    std::vector<Entry> items = std::move(buckets[d]);
    buckets[d] = {};
    if (items.empty()) continue;
    parallelFor(items.size(), workers, 4096, [&](int, uint64_t k) {
      const Entry e = items[k];
      uint8_t& byte = open[codes_.openRank(g.global(e & kNumberMask))];
      if ((e & ~kNumberMask) == kWinIfOpen && !claim(byte, kNoState, winCode(d))) items[k] = kDropped;
      if ((e & ~kNumberMask) == kLoss) store(byte, lossCode(d));
    });
    parallelFor(items.size(), workers, 1024, [&](int t, uint64_t k) {
      if (items[k] == kDropped) return;
      const uint64_t i = items[k] & kNumberMask;
      const State st = stateOf(g, i);
      const bool lost = isLossCode(load(open[codes_.openRank(g.global(i))]));
      const uint16_t weight = static_cast<uint16_t>(lost ? 0 : index_.orbitSize(st));
      SmallSet parents;
      const Index::Layout& parentLayout = index_.layout(g.boardMoveSlice(i));
      const std::array<uint16_t, 3> exchanged = exchangedCodes(index_, st);
      // Its parents by board move (those by placement are a level down),
      // but those their mover wins by a placement: won in 1 (ruled) or never
      // reached, they need nothing.
      const Tops tops = topsOf(st);
      const Mask opponentSquares = opponentPlacementSquares(rules_, st, tops);
      forEachUnmove<true, kBoardMoves>(rules_, st, tops, [&](int size, Mask to, Mask from, int, const Visible& shown) {
        if (placementWinsAround(rules_, opponentSquares, shown, static_cast<Mask>(to | from))) return;
        const uint64_t x = index_.indexIn(parentLayout, parentCodes(index_, st, exchanged, size, to, from));
        codes_.prefetch(x);
        codes_.prefetchOpen(x);
        parents.add(x);
      });
      // A parent that is not open (unreached, or ruled) needs nothing, nor
      // does a settled one. The others' counts are asked of the memory
      // together.
      int unsettled = 0;
      uint64_t slots[256], locals[256];  // parents.items becomes the open bytes' places
      for (int j = 0; j < parents.size; ++j) {
        const uint64_t px = parents.items[j];
        if (!codes_.isOpen(px)) continue;
        const uint64_t r = codes_.openRank(px);
        if (load(open[r]) != kNoState) continue;
        const uint64_t p = g.local(px);
        parents.items[unsettled] = r;
        locals[unsettled] = p;
        slots[unsettled] = slot(p, r);
        if (!lost) __builtin_prefetch(&count[slots[unsettled]]);
        ++unsettled;
      }
      for (int j = 0; j < unsettled; ++j) {
        uint8_t& byte = open[parents.items[j]];
        if (load(byte) != kNoState) continue;  // settled meanwhile
        if (d + 1 > kMaxDistance) {
          overflow = true;
          return;
        }
        const uint64_t p = locals[j], at = slots[j];
        if (lost) {
          if (claim(byte, kNoState, winCode(d + 1))) local[t][d + 1].push_back(static_cast<Entry>(p) | kSettled);
        } else {
          // Its longest won child: the longest the seeds found, or this
          // bucket's (the buckets go up, so no child told before was longer).
          if (subtract(count[at], weight) == 0 && load(byte) == kNoState)
            local[t][std::max<int>(maxWin[at], d + 1)].push_back(static_cast<Entry>(p) | kLoss);
        }
      }
    });
    merge();
    if (overflow) return absl::OutOfRangeError(absl::StrCat("a distance exceeds ", kMaxDistance, " plies"));
  }
  // 3. What is left is a draw.
  auto drawRest = [&](uint64_t first, uint64_t size) {
    parallelFor(size, workers, 1 << 16, [&](int, uint64_t k) {
      if (open[first + k] == kNoState) open[first + k] = kDrawCode;
    });
  };
  drawRest(firstBase, firstOpen);
  drawRest(secondBase, secondOpen);
  return absl::OkStatus();
}

absl::Status Solver::fetch(const Needs& needs, bool open) {
  // Pieces of at most 2^20 words (8 MiB) from a rank to another at a time:
  // what a rank holds twice while they come in (in the message and in its
  // arrays).
  constexpr uint64_t kPieceWords = uint64_t{1} << 20;
  const int me = share_->rank(), ranks = share_->ranks();
  if (needs.empty()) return absl::OkStatus();  // a step without needs (on every rank)
  auto add = [&](SliceStream& stream, int s) {
    const Index::Slice& sl = index_.slices()[s];
    stream.addSymbols(sl.offset, sl.size);
    if (open) stream.addOpen(openBefore_[s], openCount_[s]);
  };
  std::vector<SliceStream> out, in;
  for (int r = 0; r < ranks; ++r) {
    out.emplace_back(codes_);
    in.emplace_back(codes_);
  }
  for (int r = 0; r < ranks; ++r)
    if (r != me)
      for (int s : needs[r])
        if (holds(s)) add(out[r], s);
  for (int s : needs[me]) add(in[deal_.sliceOwner[s]], s);
  uint64_t rounds = 0;
  for (int r = 0; r < ranks; ++r)
    rounds = std::max(
        {rounds, (out[r].left() + kPieceWords - 1) / kPieceWords, (in[r].left() + kPieceWords - 1) / kPieceWords});
  if (absl::Status s = share_->reduceWords(&rounds, 1, BuildShare::Reduce::kMax); !s.ok()) return s;
  std::vector<std::vector<uint64_t>> toEach(ranks);
  std::vector<uint64_t> received;
  for (uint64_t round = 0; round < rounds; ++round) {
    std::vector<uint64_t> expected(ranks, 0);
    uint64_t all = 0;
    for (int r = 0; r < ranks; ++r) {
      toEach[r].clear();
      out[r].read(std::min(kPieceWords, out[r].left()), toEach[r]);
      expected[r] = std::min(kPieceWords, in[r].left());
      all += expected[r];
    }
    if (absl::Status s = share_->exchangeWords(toEach, &received); !s.ok()) return s;
    absl::Status size = received.size() == all
                            ? absl::OkStatus()
                            : absl::DataLossError(absl::StrCat("rank ", me, " received ", received.size(),
                                                               " words of slices, ", all, " expected"));
    if (absl::Status s = share_->agree(size); !s.ok()) return s;
    const uint64_t* at = received.data();
    for (int r = 0; r < ranks; ++r) {
      in[r].write(at, expected[r]);
      at += expected[r];
    }
  }
  if (open)
    for (int s : needs[me])
      if (const Index::Slice& sl = index_.slices()[s]; sl.size > 0)
        codes_.indexSlice(sl.offset, sl.size, openBefore_[s]);
  return absl::OkStatus();
}

void Solver::release(const Needs& needs, bool open) {
  if (needs.empty()) return;
  for (int s : needs[share_->rank()]) {
    const Index::Slice& sl = index_.slices()[s];
    codes_.release(sl.offset, sl.size, open ? openBefore_[s] : 0, open ? openCount_[s] : 0);
  }
}

absl::Status Solver::indexOpenOfRanks() {
  const std::vector<Index::Slice>& slices = index_.slices();
  std::vector<BuildShare::Range> shared;  // the words of the lines that two slices share
  for (const Index::Slice& sl : slices)
    if (sl.size > 0 && sl.offset % PackedCodes::kPerLine != 0) {
      const uint64_t w = sl.offset / PackedCodes::kPerLine * (PackedCodes::kPerLine / PackedCodes::kPerWord);
      if (shared.empty() || shared.back().offset != w)
        shared.push_back({w, PackedCodes::kPerLine / PackedCodes::kPerWord, 0});
    }
  if (absl::Status s = share_->orWords(codes_.words(), shared); !s.ok()) return s;
  openCount_.assign(slices.size(), 0);
  for (size_t s = 0; s < slices.size(); ++s)
    if (holds(static_cast<int>(s))) openCount_[s] = codes_.openCountIn(slices[s].offset, slices[s].size);
  if (absl::Status s = share_->reduceWords(openCount_.data(), openCount_.size(), BuildShare::Reduce::kSum); !s.ok())
    return s;
  openBefore_.assign(slices.size(), 0);
  uint64_t open = 0;
  for (size_t s = 0; s < slices.size(); ++s) openBefore_[s] = open, open += openCount_[s];
  absl::Status made = codes_.makeOpen(open, codesDirectory_);
  if (made.ok())
    for (size_t s = 0; s < slices.size(); ++s)
      if (holds(static_cast<int>(s)) && slices[s].size > 0)
        codes_.indexSlice(slices[s].offset, slices[s].size, openBefore_[s]);
  return made;
}

void Solver::levelDone(int level, bool backward) {
  uint64_t done = 0;
  for (int l = 0; l < static_cast<int>(deal_.groups.size()); ++l)
    if (backward ? l >= level : l <= level)
      for (const Group& g : deal_.groups[l]) done += g.size();
  phaseDone_ = done;
  report();
}

absl::StatusOr<PackedSolution> Solver::run() {
  const absl::Status kStopped = absl::CancelledError("stopped before the end of the solve");
  const uint64_t n = index_.size();
  // Groups by level, largest first (the threads take them in that order);
  // over several ranks, each rank's share of them.
  levelGroups_ = groupsByLevel(index_);
  const int maxLevel = static_cast<int>(levelGroups_.size()) - 1;
  if (share_) {
    deal_ = dealOf(index_, share_->ranks());
    for (int level = 0; level <= maxLevel; ++level) {
      levelGroups_[level].clear();
      for (size_t k = 0; k < deal_.groups[level].size(); ++k)
        if (deal_.owner[level][k] == share_->rank()) levelGroups_[level].push_back(deal_.groups[level][k]);
    }
  }
  absl::StatusOr<PackedCodes> codes = PackedCodes::create(n, codesDirectory_);
  if (share_) {
    if (absl::Status all = share_->agree(codes.status()); !all.ok()) return all;
  }
  if (!codes.ok()) return codes.status();
  codes_ = std::move(*codes);

  // 1. Forward: reachability, level 0 up, each reached state marked with
  // its symbol (a finished game or a win in 1 is ruled, the rest open).
  phase_ = "reach";
  phaseTotal_ = n;
  phaseDone_ = 0;
  std::array<uint64_t, 3> ruled{};
  const uint64_t start = index_.indexOf(State{});
  markReached(start, State{}, topsOf(State{}), ruled);
  if (!share_ || share_->rank() == 0) addRuled(ruled);  // every rank marks it
  for (int level = 0; level <= maxLevel; ++level) {
    // Over ranks, the symbols of the slices one level down that this
    // rank's groups' parents by placement lie in, for this level alone.
    const Needs needs = share_ && level > 0 ? needsOf(index_, deal_, level, false, share_->ranks()) : Needs{};
    if (share_)
      if (absl::Status s = fetch(needs, false); !s.ok()) return s;
    forGroups(level, [&](const Group& g, int workers) { reachGroup(g, workers); });
    if (stopped()) return kStopped;
    if (share_) {
      release(needs, false);
      levelDone(level, false);
    }
  }
  ruled = {wonGames_.load(), lostGames_.load(), winsInOne_.load()};
  if (share_)
    if (absl::Status s = share_->reduceWords(ruled.data(), ruled.size(), BuildShare::Reduce::kSum); !s.ok()) return s;
  phaseDone_ = phaseTotal_;
  report(true);
  // The open states' bytes, now that no symbol changes.
  absl::Status indexed = share_ ? indexOpenOfRanks() : codes_.indexOpen(codesDirectory_);
  if (share_) indexed = share_->agree(indexed);
  if (!indexed.ok()) return indexed;

  // 2. Backward: values and distances of the open states, fullest level first.
  phase_ = "solve";
  phaseTotal_ = n;
  phaseDone_ = 0;
  std::mutex errorMutex;
  absl::Status error;
  for (int level = maxLevel; level >= 0 && error.ok(); --level) {
    // Over ranks, the codes of the groups one level up that this rank's
    // groups' placements lead to, for this level alone.
    const Needs needs = share_ && level < maxLevel ? needsOf(index_, deal_, level, true, share_->ranks()) : Needs{};
    if (share_)
      if (error = fetch(needs, true); !error.ok()) break;
    forGroups(level, [&](const Group& g, int workers) {
      absl::Status s = solveGroup(g, workers);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(errorMutex);
        error = s;
      }
    });
    if (error.ok() && stopped()) error = kStopped;
    // Every rank learns whether any failed before the next level's
    // exchange: none waits for a rank that stopped.
    if (share_) {
      error = share_->agree(error);
      release(needs, true);
      levelDone(level, true);
    }
  }
  if (!error.ok()) return error;
  phaseDone_ = phaseTotal_;
  report(true);

  // The counts: the ruled states as the forward pass counted them, the
  // open ones from their bytes.
  PackedSolution result;
  SolveStats& st = result.stats;
  st.states = st.terminal = ruled[0] + ruled[1];
  st.wins = ruled[0];
  st.losses = ruled[1];
  st.states += ruled[2];
  st.wins += ruled[2];
  if (ruled[2]) st.maxDistance = 1;
  // (By code first: gobblers' 32 M open bytes counted one by one took 0.1 s.)
  // Over ranks, each counts the open bytes of its slices.
  const uint8_t* open = codes_.openBytes();
  std::array<uint64_t, 256> byCode{};
  if (!share_) {
    for (uint64_t r = 0; r < codes_.openCount(); ++r) ++byCode[open[r]];
  } else {
    for (size_t s = 0; s < openCount_.size(); ++s)
      if (holds(static_cast<int>(s)))
        for (uint64_t r = openBefore_[s]; r < openBefore_[s] + openCount_[s]; ++r) ++byCode[open[r]];
    if (absl::Status s = share_->reduceWords(byCode.data(), byCode.size(), BuildShare::Reduce::kSum); !s.ok()) return s;
  }
  for (int c = 0; c < 256; ++c)
    if (c != kNoState) countState(st, static_cast<uint8_t>(c), byCode[c]);
  uint64_t startCode = codes_.symbol(start) == PackedCodes::kOpen ? open[codes_.openRank(start)]
                       : codes_.symbol(start) == PackedCodes::kRuled
                           ? codeOfSymbol(kRuledSymbol, [&] { return outcome(rules_, State{}); })
                           : kNoState;
  if (share_) {
    if (!holds(index_.sliceOfIndex(start))) startCode = kNoState;  // (kNoState is 0: the holder's is the most)
    if (absl::Status s = share_->reduceWords(&startCode, 1, BuildShare::Reduce::kMax); !s.ok()) return s;
  }
  st.start = static_cast<uint8_t>(startCode);
  result.codes = std::move(codes_);
  result.owners = std::move(deal_.sliceOwner);
  return result;
}

// The codes of a packed solution a byte a number (code.h), in memory or in
// a file of `codesDirectory`: each ruled symbol resolved by its state's
// outcome, as a file's reader resolves it.
absl::StatusOr<CodeArray> unpack(const Index& index, const PackedSolution& solved, int threads,
                                 const std::string& codesDirectory, int rank) {
  const PackedCodes& packed = solved.codes;
  absl::StatusOr<CodeArray> codes = CodeArray::inMemoryOrFile(index.size(), codesDirectory);
  if (!codes.ok()) return codes.status();
  CodeArray& out = *codes;
  parallelFor(index.slices().size(), std::max(1, threads), [&](int, uint64_t s) {
    const Index::Slice& sl = index.slices()[s];
    if (!solved.owners.empty() && solved.owners[s] != rank) return;  // another rank's
    packed.storedSymbols(sl.offset, sl.size, out.data() + sl.offset);
    Numbering::resolveRuled(index, out.data() + sl.offset, sl.offset, sl.size);
  });
  return codes;
}

}  // namespace

SolveEstimate estimateSolve(const Variant& variant, int threads) {
  if (variant.n == 4) return estimateSolve4(variant);
  SolveEstimate e;
  const Index index(variant);
  for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) e.states += index.statesIn(s);
  // Each group's size, and its codes in hand while it is solved: its own
  // and those of the groups one level up its placements lead to.
  const std::vector<Group> all = groupsOf(index);
  std::vector<uint64_t> sizeByFirst(index.slices().size(), 0);
  for (const Group& g : all) sizeByFirst[g.first] = g.size();
  struct GroupCost {
    uint64_t size = 0, inHand = 0;
  };
  std::vector<GroupCost> groups;
  for (const Group& g : all) {
    GroupCost c{g.size(), g.size()};
    for (int above : placementChildGroups(index, g)) c.inHand += sizeByFirst[above];
    groups.push_back(c);
  }
  e.slots = index.size();
  std::sort(groups.begin(), groups.end(), [](const GroupCost& a, const GroupCost& b) { return a.size > b.size; });
  e.largestGroup = groups.empty() ? 0 : groups[0].size;
  // A shared group is solved alone; the others one per thread at once
  // (the largest as many as threads, and the most codes in hand).
  const size_t atOnce = static_cast<size_t>(std::max(1, threads));
  uint64_t alone = 0, together = 0, aloneInHand = 0, togetherInHand = 0;
  std::vector<uint64_t> sizes, inHand;  // of the groups not shared, sizes largest first
  for (const GroupCost& g : groups) {
    if (threads > 1 && g.size >= kSharedGroupSize) {
      alone = std::max(alone, g.size);
      aloneInHand = std::max(aloneInHand, g.inHand);
    } else {
      sizes.push_back(g.size);
      inHand.push_back(g.inHand);
    }
  }
  std::sort(inHand.rbegin(), inHand.rend());
  for (size_t k = 0; k < sizes.size() && k < atOnce; ++k) together += sizes[k], togetherInHand += inHand[k];
  // The packed codes (packed_codes.h): 2 bits a number, a directory word
  // per 256 numbers, and a byte per open state, counted at its worst: every
  // state open. The working arrays: a count (2 bytes) and a longest win
  // per open state, a bucket entry per open state (twice while the
  // threads' buckets are merged), counted at a number each.
  const uint64_t working = std::max(alone, together) * (3 + 2 * 4);
  const uint64_t directory = e.slots / PackedCodes::kPerLine * 8;
  e.bytes = e.slots / 4 + directory + e.states + working;
  // In a file, the symbols and open bytes of the groups in hand.
  const uint64_t inHandMost = std::max(aloneInHand, togetherInHand);
  e.bytesCodesInFile = directory + working + inHandMost / 4 + std::min(inHandMost, e.states);
  return e;
}

ClusterEstimate estimateCluster(const Variant& variant, int threads, int ranks) {
  ClusterEstimate e;
  e.perRank = estimateSolve(variant, threads);
  if (variant.n == 4) return e;  // see estimateCluster4
  ranks = std::max(1, ranks);
  const Index index(variant);
  const Deal d = dealOf(index, ranks);
  e.levels = d.groups.size();
  uint64_t critical = 0, all = 0;
  for (size_t level = 0; level < d.groups.size(); ++level) {
    std::vector<uint64_t> load(ranks, 0);
    for (size_t k = 0; k < d.groups[level].size(); ++k)
      load[d.owner[level][k]] += d.groups[level][k].size(), all += d.groups[level][k].size();
    critical += *std::max_element(load.begin(), load.end());
  }
  e.criticalShare = all ? static_cast<double>(critical) / static_cast<double>(all) : 1;
  if (ranks == 1) return e;
  // A slice's symbols (2 bits a number), and those with its directory
  // lines (8 bytes a 256 numbers) and open bytes (every state open: the
  // most there can be).
  const auto symbols = [&](int s) { return index.slices()[s].size / 4; };
  const auto whole = [&](int s) { return symbols(s) + index.slices()[s].size / 32 + index.statesIn(s); };
  std::vector<uint64_t> held(ranks, 0), fetched(ranks, 0), in(ranks, 0), out(ranks, 0);
  for (size_t s = 0; s < index.slices().size(); ++s) held[d.sliceOwner[s]] += whole(static_cast<int>(s));
  for (int level = 0; level < static_cast<int>(d.groups.size()); ++level)
    for (bool backward : {false, true}) {
      const Needs needs = needsOf(index, d, level, backward, ranks);
      for (int r = 0; r < ranks; ++r) {
        uint64_t bytes = 0;
        for (int s : needs[r]) {
          const uint64_t b = backward ? whole(s) : symbols(s);
          bytes += b;
          out[d.sliceOwner[s]] += b;
        }
        in[r] += bytes;
        fetched[r] = std::max(fetched[r], bytes);
      }
    }
  uint64_t most = 0;
  for (int r = 0; r < ranks; ++r) most = std::max(most, held[r] + fetched[r]);
  // The working arrays of the groups in hand (as one process), and the
  // pieces of a fetch (8 MiB from and to each other rank).
  const uint64_t directory = e.perRank.slots / PackedCodes::kPerLine * 8;
  const uint64_t working = e.perRank.bytes - (e.perRank.slots / 4 + directory + e.perRank.states);
  e.perRank.bytes = most + working + 2 * static_cast<uint64_t>(ranks - 1) * (uint64_t{8} << 20);
  e.codeBytesIn = *std::max_element(in.begin(), in.end());
  e.codeBytesOut = *std::max_element(out.begin(), out.end());
  for (const Index::Slice& sl : index.slices())
    if (sl.size > 0 && sl.offset % PackedCodes::kPerLine != 0) e.bitBytes += PackedCodes::kPerLine / 4;
  return e;
}

absl::StatusOr<PackedSolution> solvePacked(const Variant& variant, int threads, const SolveProgress& progress,
                                           uint64_t sharedGroupSize, const std::string& codesDirectory,
                                           BuildShare* share, const std::atomic<bool>* stop) {
  if (variant.n != 3 || variant.stacks)
    return absl::InvalidArgumentError(absl::StrCat("variant ", variant.name(), ": only the 3x3 family is solved"));
  Solver solver(variant, threads, progress, sharedGroupSize, codesDirectory, share, stop);
  return solver.run();
}

absl::StatusOr<Solution> solve(const Variant& variant, int threads, const SolveProgress& progress,
                               uint64_t sharedGroupSize, const std::string& codesDirectory, BuildShare* share,
                               const std::atomic<bool>* stop) {
  absl::StatusOr<PackedSolution> packed =
      solvePacked(variant, threads, progress, sharedGroupSize, codesDirectory, share, stop);
  if (!packed.ok()) return packed.status();
  Solution result;
  result.stats = packed->stats;
  const Index index(variant);
  absl::StatusOr<CodeArray> codes =
      unpack(index, *packed, threads, codesDirectory, share != nullptr ? share->rank() : 0);
  result.owners = std::move(packed->owners);
  if (!codes.ok()) return codes.status();
  result.codes = std::move(*codes);
  return result;
}

}  // namespace gobblet::tb
