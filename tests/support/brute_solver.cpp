#include "tests/support/brute_solver.h"

#include <algorithm>
#include <deque>
#include <span>
#include <stdexcept>

#include "engine/movegen.h"

namespace gobblet::testing {

namespace {

// The pieces of size s of player p of the position seen with player 1 to
// move (the colours swapped when player 2 is), mapped by symmetry `sym`:
// the masks of board.colorSwapped().transformed(sym), without making either
// Board (the key of every child of every state is taken).
Mask imagePieces(const Board& board, int sym, int p, int s) {
  return board.geometry().transform(sym, board.pieces(p ^ board.sideToMove(), s));
}

}  // namespace

uint64_t BruteSolver::stateKey(const Board& board) {
  const int sizes = board.variant().sizes;
  uint64_t best = ~uint64_t{0};
  for (int sym = 0; sym < 8; ++sym) {
    uint64_t key = 0;
    for (int p = 0; p < 2; ++p)
      for (int s = 0; s < 3; ++s) key = key << 9 | (s < sizes ? imagePieces(board, sym, p, s) : 0);
    best = std::min(best, key);
  }
  return best;
}

BruteSolver::Key BruteSolver::key(const Board& board) {
  if (board.variant().n == 3) return stateKey(board);
  const int sizes = board.variant().sizes;
  Key best = ~Key{0};
  for (int sym = 0; sym < 8; ++sym) {
    Key key = 0;
    for (int p = 0; p < 2; ++p)
      for (int s = 0; s < 4; ++s) key = key << 16 | (s < sizes ? imagePieces(board, sym, p, s) : 0);
    best = std::min(best, key);
  }
  return best;
}

BruteSolver::BruteSolver(const Variant& variant) {
  // 1. Every reachable state, breadth first, with its distinct children
  // (children_[first[i] .. first[i + 1]) for state i).
  std::vector<int32_t> childList;
  std::vector<int64_t> first{0};
  Board start(variant);
  index_[key(start)] = 0;
  boards_.push_back(start);
  for (size_t i = 0; i < boards_.size(); ++i) {
    Board b = boards_[i];
    MoveList moves;
    generateMoves(b, moves);
    // The children's keys first, their slots of the map fetched all at once
    // (each is a cache miss), then looked up.
    std::vector<Key> keys;
    for (Move m : moves) {
      b.makeMove(m);
      keys.push_back(key(b));
      index_.prefetch(keys.back());
      b.unmakeMove(m);
    }
    std::vector<int32_t> kids;
    for (size_t k = 0; k < keys.size(); ++k) {
      auto [it, inserted] = index_.try_emplace(keys[k], static_cast<int32_t>(boards_.size()));
      if (inserted) {  // player 1 to move
        b.makeMove(moves[k]);
        boards_.push_back(b.colorSwapped());
        b.unmakeMove(moves[k]);
      }
      kids.push_back(it->second);
    }
    std::sort(kids.begin(), kids.end());
    kids.erase(std::unique(kids.begin(), kids.end()), kids.end());
    childList.insert(childList.end(), kids.begin(), kids.end());
    first.push_back(static_cast<int64_t>(childList.size()));
  }
  const auto childrenOf = [&](int i) {
    return std::span<const int32_t>(childList.data() + first[i], childList.data() + first[i + 1]);
  };

  // 2. Decided states: the side to move has won or lost, distance 0.
  const int n = static_cast<int>(boards_.size());
  values_.assign(n, BruteValue{});
  std::vector<bool> settled(n, false);
  for (int i = 0; i < n; ++i) {
    const int w = boards_[i].winner();
    if (w == kNoWinner) continue;
    values_[i] = BruteValue{w == boards_[i].sideToMove() ? 1 : -1, 0};
    settled[i] = true;
    ++decided_;
  }

  // 3. Fixpoint by distance: round d settles the wins and losses in d plies,
  // reading only what earlier rounds settled.
  int longest = 0;
  for (int d = 1; d <= longest + 1; ++d) {
    std::vector<std::pair<int, BruteValue>> found;
    for (int i = 0; i < n; ++i) {
      if (settled[i] || first[i] == first[i + 1]) continue;
      bool win = false, allWins = true;
      int longestWin = 0;
      for (int32_t c : childrenOf(i)) {
        if (!settled[c]) {
          allWins = false;
          continue;
        }
        if (values_[c].value < 0 && values_[c].distance == d - 1) win = true;
        if (values_[c].value > 0)
          longestWin = std::max(longestWin, values_[c].distance);
        else
          allWins = false;
      }
      if (win)
        found.push_back({i, BruteValue{1, d}});
      else if (allWins && longestWin == d - 1)
        found.push_back({i, BruteValue{-1, d}});
    }
    for (auto& [i, v] : found) {
      values_[i] = v;
      settled[i] = true;
      longest = std::max(longest, d);
    }
  }

  for (int i = 0; i < n; ++i) {
    if (!settled[i]) values_[i] = BruteValue{0, 0};
    (values_[i].value > 0 ? wins_ : values_[i].value < 0 ? losses_ : draws_)++;
  }
}

BruteValue BruteSolver::value(const Board& board, bool* found) const {
  auto it = index_.find(key(board));
  if (found) *found = it != index_.end();
  return it == index_.end() ? BruteValue{} : values_[it->second];
}

}  // namespace gobblet::testing
