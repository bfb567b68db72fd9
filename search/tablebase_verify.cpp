#include "search/tablebase_verify.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet {

namespace {

std::string describe(uint8_t code) {
  if (code == tbcode::kNone) return "missing";
  if (code == tbcode::kDraw) return "draw";
  return absl::StrCat(tbcode::isWin(code) ? "win in " : "loss in ", tbcode::distance(code));
}

// The code a state must have, given the codes of its children (by Board
// and generateMoves); empty string or what is wrong.
std::string check(const TablebaseFile& tb, Board board, uint8_t code) {
  const int winner = board.winner();
  uint8_t expected;
  if (winner != kNoWinner) {
    expected = winner == board.sideToMove() ? tbcode::win(0) : tbcode::loss(0);
  } else {
    MoveList moves;
    generateMoves(board, moves);
    int shortestLoss = -1, longestWin = -1;
    bool draw = moves.empty();
    for (Move m : moves) {
      board.makeMove(m);
      TbState st;
      const uint8_t c = tb.index().toState(board, &st) ? tb.codeOf(st) : tbcode::kNone;
      board.unmakeMove(m);
      if (c == tbcode::kNone)
        return absl::StrCat("move ", moveToString(m, board.variant()), " leads to a state missing from the file");
      if (tbcode::isLoss(c))
        shortestLoss = shortestLoss < 0 ? tbcode::distance(c) : std::min(shortestLoss, tbcode::distance(c));
      else if (tbcode::isWin(c))
        longestWin = std::max(longestWin, tbcode::distance(c));
      else
        draw = true;
    }
    expected = shortestLoss >= 0 ? tbcode::win(shortestLoss + 1)
               : draw            ? tbcode::kDraw
                                 : tbcode::loss(longestWin + 1);
  }
  if (expected == code) return {};
  return absl::StrCat("stored ", describe(code), ", its moves say ", describe(expected));
}

}  // namespace

absl::Status verifyTablebase(const TablebaseFile& tb, int threads, const VerifyProgress& progress) {
  const TablebaseIndex& index = tb.index();
  const uint64_t total = index.size();
  constexpr uint64_t kChunk = 1 << 14;
  std::atomic<uint64_t> next{0}, done{0};
  std::atomic<uint64_t> states{0}, terminal{0}, wins{0}, draws{0}, losses{0};
  std::atomic<int> maxDistance{0};
  std::mutex errorMutex;
  std::string error;
  std::atomic<bool> failed{false};
  auto lastReport = std::chrono::steady_clock::now();

  auto worker = [&](int t) {
    uint64_t myStates = 0, myTerminal = 0, myWins = 0, myDraws = 0, myLosses = 0;
    int myMax = 0;
    while (!failed) {
      const uint64_t begin = next.fetch_add(kChunk);
      if (begin >= total) break;
      const uint64_t end = std::min(total, begin + kChunk);
      int slice = index.sliceOfIndex(begin);
      for (uint64_t x = begin; x < end; ++x) {
        while (x >= index.slices()[slice].offset + index.slices()[slice].size) ++slice;
        const uint8_t code = tb.codes()[x];
        TbState st;
        const bool canonical = index.stateAt(slice, x - index.slices()[slice].offset, &st);
        if (code == tbcode::kNone) continue;
        std::string what;
        if (!canonical)
          what = "a hole of the index holds a value";
        else
          what = check(tb, index.toBoard(st), code);
        if (!what.empty()) {
          std::lock_guard<std::mutex> lock(errorMutex);
          if (!failed)
            error = absl::StrCat("entry ", x, " (", positionToString(index.toBoard(st)), "): ", what);
          failed = true;
          break;
        }
        ++myStates;
        if (code == tbcode::kDraw) ++myDraws;
        else if (tbcode::isWin(code)) ++myWins;
        else ++myLosses;
        if (code >= 2 && tbcode::distance(code) == 0) ++myTerminal;
        myMax = std::max(myMax, tbcode::distance(code));
      }
      done += end - begin;
      if (t == 0 && progress && std::chrono::steady_clock::now() - lastReport > std::chrono::milliseconds(500)) {
        lastReport = std::chrono::steady_clock::now();
        progress(done.load(), total);
      }
    }
    states += myStates, terminal += myTerminal, wins += myWins, draws += myDraws, losses += myLosses;
    int cur = maxDistance.load();
    while (myMax > cur && !maxDistance.compare_exchange_weak(cur, myMax)) {
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(1, threads); ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  if (failed) return absl::DataLossError(absl::StrCat("tablebase file '", tb.path(), "': ", error));

  const TbHeader& h = tb.header();
  auto mismatch = [&](const char* what, uint64_t header, uint64_t counted) {
    return absl::DataLossError(absl::StrCat("tablebase file '", tb.path(), "': header says ", header, " ", what,
                                            ", the file holds ", counted));
  };
  if (h.states != states) return mismatch("states", h.states, states);
  if (h.terminal != terminal) return mismatch("finished games", h.terminal, terminal);
  if (h.wins != wins) return mismatch("wins", h.wins, wins);
  if (h.draws != draws) return mismatch("draws", h.draws, draws);
  if (h.losses != losses) return mismatch("losses", h.losses, losses);
  if (h.maxDistance != maxDistance) return mismatch("as longest distance", h.maxDistance, maxDistance);
  TbState start;
  if (tb.codeOf(start) != h.startCode)
    return mismatch("as start code", h.startCode, tb.codeOf(start));
  if (progress) progress(total, total);
  return absl::OkStatus();
}

}  // namespace gobblet
