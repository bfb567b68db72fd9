#include "verify.h"

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/parallel_for.h"

namespace gobblet::tb {

namespace {

std::string describe(uint8_t code) {
  if (code == kNoState) return "missing";
  if (code == kDrawCode) return "draw";
  return absl::StrCat(isWinCode(code) ? "win in " : "loss in ", codeDistance(code));
}

// A bit per number of the index, set by several threads at once.
class AtomicBitset {
 public:
  explicit AtomicBitset(uint64_t bits) : words_((bits + 63) / 64) {}
  bool test(uint64_t i) const { return word(i / 64) >> (i % 64) & 1; }
  // Sets bit i; a plain load first, since most bits are set already.
  void set(uint64_t i) {
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (!(word(i / 64) & bit)) words_[i / 64].fetch_or(bit, std::memory_order_relaxed);
  }
  uint64_t word(uint64_t w) const { return words_[w].load(std::memory_order_relaxed); }
  // Sets `bits` in word w; returns the bits that were clear before.
  uint64_t claim(uint64_t w, uint64_t bits) { return bits & ~words_[w].fetch_or(bits, std::memory_order_relaxed); }
  // Asks the cache for bit i's word, to be written soon.
  void prefetch(uint64_t i) const { __builtin_prefetch(&words_[i / 64], 1); }

 private:
  std::vector<std::atomic<uint64_t>> words_;
};

// The numbers of the children of `parent` by `moves` (numberChildren).
template <typename IndexT, typename StateT>
void numberAll(const IndexT& index, const uint8_t* codes, const StateT& parent, const MoveList& moves,
               AtomicBitset& reached, std::array<uint64_t, MoveList::kCapacity>& children) {
  // Every child's number first, its code and reached bit asked of the
  // memory at once: over a 400 MB table nearly every one is a cache miss,
  // and this way they overlap instead of waiting one after another.
  numberChildren(index, parent, moves, [&](int i, uint64_t child) {
    children[i] = child;
    if (child != kNoChild) {
      __builtin_prefetch(codes + child);
      reached.prefetch(child);
    }
  });
}

// The code the state `parent` (on `board`) must have, given the codes of its
// children (the moves by generateMoves, numbered by numberAll); empty
// string or what is wrong. Marks every child in `reached`.
template <typename IndexT, typename StateT>
std::string check(const IndexT& index, const uint8_t* codes, const StateT& parent, const Board& board, uint8_t code,
                  AtomicBitset& reached) {
  const int winner = board.winner();
  uint8_t expected;
  if (winner != kNoWinner) {
    expected = winner == board.sideToMove() ? winCode(0) : lossCode(0);
  } else {
    MoveList moves;
    generateMoves(board, moves);
    std::array<uint64_t, MoveList::kCapacity> children;
    numberAll(index, codes, parent, moves, reached, children);
    int shortestLoss = -1, longestWin = -1;
    bool draw = moves.empty();
    for (int i = 0; i < moves.size(); ++i) {
      const uint8_t c = children[i] == kNoChild ? kNoState : codes[children[i]];
      if (c == kNoState)
        return absl::StrCat("move ", moveToString(moves[i], board.variant()),
                            " leads to a state missing from the file");
      reached.set(children[i]);
      if (isLossCode(c))
        shortestLoss = shortestLoss < 0 ? codeDistance(c) : std::min(shortestLoss, codeDistance(c));
      else if (isWinCode(c))
        longestWin = std::max(longestWin, codeDistance(c));
      else
        draw = true;
    }
    expected = shortestLoss >= 0 ? winCode(shortestLoss + 1) : draw ? kDrawCode : lossCode(longestWin + 1);
  }
  if (expected == code) return {};
  return absl::StrCat("stored ", describe(code), ", its moves say ", describe(expected));
}

// The walk of verify() over either family's numbering (IndexT: Index with
// State, Index4 with State4).
template <typename IndexT, typename StateT>
absl::Status verifyWith(const File& tb, const IndexT& index, int threads, const VerifyProgress& progress,
                        const std::string& codesDirectory) {
  const FileHeader& h = tb.header();
  const uint64_t total = index.size();
  auto failure = [&](const std::string& what) {
    return absl::DataLossError(absl::StrCat("tablebase file '", tb.path(), "': ", what));
  };

  // 1. Every code, decoded once (the walk reads them in no block order).
  //    The start must be stored: the walk begins there.
  const absl::StatusOr<CodeArray> decoded = tb.decodeAll(codesDirectory, threads);
  if (!decoded.ok()) return failure(std::string(decoded.status().message()));
  const uint8_t* codes = decoded->data();
  const StateT startState;
  const uint64_t start = index.indexOf(startState);
  if (codes[start] == kNoState) return failure("the start position is not stored");

  // 2. Walk every state reachable from the start, level by level (a
  //    placement goes one level up, a board move stays on the level), and
  //    check each state's value against its children when it is expanded.
  //    A level is swept over and over until a sweep expands nothing: a
  //    board move can lead to a state already swept past.
  std::vector<std::vector<int>> slicesOfLevel;
  for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
    const int level = index.slices()[s].level();
    if (level >= static_cast<int>(slicesOfLevel.size())) slicesOfLevel.resize(level + 1);
    slicesOfLevel[level].push_back(s);
  }
  AtomicBitset reached(total), expanded(total);
  reached.set(start);
  struct Chunk {
    int slice;
    uint64_t begin, end;  // numbers of the index
  };
  constexpr uint64_t kChunk = 1 << 16;
  std::atomic<uint64_t> done{0};
  std::mutex errorMutex;
  std::string error;
  std::atomic<bool> failed{false};
  auto lastReport = std::chrono::steady_clock::now();

  // Expands the reached, not yet expanded states of one chunk; true if any.
  // The chunk's count is added to `done` once (a shared counter bumped per
  // state kept the two cores fighting over its cache line: 18% of the time;
  // after a failure the count no longer matters).
  auto expandChunk = [&](const Chunk& c) {
    const auto& sl = index.slices()[c.slice];
    bool any = false;
    uint64_t checked = 0;
    for (uint64_t w = c.begin / 64; w <= (c.end - 1) / 64 && !failed; ++w) {
      const uint64_t lo = std::max(c.begin, w * 64) - w * 64, hi = std::min(c.end, w * 64 + 64) - w * 64;
      const uint64_t range = (hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1) & ~((uint64_t{1} << lo) - 1);
      uint64_t mine = reached.word(w) & ~expanded.word(w) & range;
      if (!mine) continue;
      mine = expanded.claim(w, mine);
      for (; mine; mine &= mine - 1) {
        const uint64_t x = w * 64 + std::countr_zero(mine);
        any = true;
        StateT st;
        index.decode(c.slice, x - sl.offset, &st);
        const Board board = index.toBoard(st);
        const std::string what = check(index, codes, st, board, codes[x], reached);
        if (!what.empty()) {
          std::lock_guard<std::mutex> lock(errorMutex);
          if (!failed) error = absl::StrCat("entry ", x, " (", positionToString(board), "): ", what);
          failed = true;
          return any;
        }
        ++checked;
      }
    }
    done.fetch_add(checked, std::memory_order_relaxed);
    return any;
  };

  for (const std::vector<int>& level : slicesOfLevel) {
    std::vector<Chunk> chunks;
    for (int s : level) {
      const auto& sl = index.slices()[s];
      for (uint64_t b = sl.offset; b < sl.offset + sl.size; b += kChunk)
        chunks.push_back({s, b, std::min(sl.offset + sl.size, b + kChunk)});
    }
    for (bool expandedAny = true; expandedAny && !failed;) {
      std::atomic<bool> any{false};
      parallelFor(chunks.size(), threads, [&](int worker, uint64_t i) {
        if (failed) return;
        if (expandChunk(chunks[i])) any = true;
        if (worker == 0 && progress && std::chrono::steady_clock::now() - lastReport > std::chrono::milliseconds(500)) {
          lastReport = std::chrono::steady_clock::now();
          progress(std::min(done.load(), h.states), h.states);
        }
      });
      expandedAny = any;
    }
    if (failed) break;
  }
  if (failed) return failure(error);

  // 3. The stored states are exactly the reached ones (every reached state
  //    was checked to be stored when its parent was expanded): recount them.
  uint64_t states = 0, terminal = 0, wins = 0, draws = 0, losses = 0;
  int maxDistance = 0;
  for (uint64_t x = 0; x < total; ++x) {
    const uint8_t code = codes[x];
    const bool isReached = reached.test(x);
    if (code == kNoState && !isReached) continue;
    if (!isReached || !expanded.test(x) || code == kNoState) {
      const int slice = index.sliceOfIndex(x);
      StateT st;
      const bool canonical = index.stateAt(slice, x - index.slices()[slice].offset, &st);
      const std::string what = !canonical         ? "a hole of the index holds a value"
                               : !isReached       ? "stored, but not reachable from the start"
                               : code == kNoState ? "reachable, but not stored"
                                                  : "reached but never checked (a move went down a level)";
      return failure(absl::StrCat("entry ", x, " (", positionToString(index.toBoard(st)), "): ", what));
    }
    ++states;
    if (code == kDrawCode)
      ++draws;
    else if (isWinCode(code))
      ++wins;
    else
      ++losses;
    if (code >= 2 && codeDistance(code) == 0) ++terminal;
    maxDistance = std::max(maxDistance, codeDistance(code));
  }

  // 4. The header's counts are the recount.
  auto mismatch = [&](const char* what, uint64_t header, uint64_t counted) {
    return failure(absl::StrCat("header says ", header, " ", what, ", the file holds ", counted));
  };
  if (h.states != states) return mismatch("states", h.states, states);
  if (h.terminal != terminal) return mismatch("finished games", h.terminal, terminal);
  if (h.wins != wins) return mismatch("wins", h.wins, wins);
  if (h.draws != draws) return mismatch("draws", h.draws, draws);
  if (h.losses != losses) return mismatch("losses", h.losses, losses);
  if (h.maxDistance != maxDistance) return mismatch("as longest distance", h.maxDistance, maxDistance);
  if (codes[start] != h.startCode) return mismatch("as start code", h.startCode, codes[start]);
  if (progress) progress(h.states, h.states);
  return absl::OkStatus();
}

}  // namespace

absl::Status verify(const File& tb, int threads, const VerifyProgress& progress, const std::string& codesDirectory) {
  if (tb.numbering().index4) return verifyWith<Index4, State4>(tb, tb.index4(), threads, progress, codesDirectory);
  return verifyWith<Index, State>(tb, tb.index(), threads, progress, codesDirectory);
}

}  // namespace gobblet::tb
