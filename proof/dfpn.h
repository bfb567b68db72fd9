// Depth-first proof-number search (df-pn) with the 1+epsilon trick, one
// searcher per thread over a shared ProofTable.
//
// The attacker is fixed for a search: nodes where the attacker is to move
// are OR nodes (one move must win), the others AND nodes (every move of the
// defender must lose). A node's proof number pn is the least number of
// leaves still to prove to prove it, its disproof number dn the least to
// disprove it:
//   OR:  pn = min over children pn,  dn = sum over children dn
//   AND: pn = sum over children pn,  dn = min over children dn
// MID(n, thpn, thdn) expands the most-proving child until pn >= thpn or
// dn >= thdn; a child's thresholds are
//   OR:  thpn_c = min(thpn, max(pn_c + 1, ceil(pn_2 * (1 + epsilon)))),
//        thdn_c = thdn - dn + dn_c
// (pn_2 the second-smallest pn; AND the same with pn and dn exchanged), so
// the search stays longer below a child than plain df-pn does.
//
// Leaves are judged by the rules core alone: Board::winner() (a line for
// the attacker proves, for the defender disproves) and generateMoves() (no
// legal move: a draw, a disproof). A new node is looked one ply ahead: if
// its side to move has a move that makes a line, it is decided at once;
// else both numbers start at 1, except that when its side to move is not
// threatened with a line at once (its opponent, were it to move, would
// have no winning move), the number against that side starts at 4 (dn at
// an OR node, pn at an AND node): forced lines are searched first.
//
// A guide (proof/guide.h, ProverOptions::guide; none by default) sets the
// numbers of the new nodes that the rules leave undecided: with p the
// guide's chance that the attacker wins the node (clamped), pn is
// multiplied by 1 + round(kGuideScale * (1 - p)) and dn by
// 1 + round(kGuideScale * p), so a node the attacker likely wins is
// searched first to prove it, one it likely does not to disprove it. It
// also orders a node's children, those most likely to settle it first (at
// an OR node by dn / (pn + dn) from highest, at an AND node from lowest),
// which decides the ties of the most-proving child. The values found stay
// the rules' own: only proved and disproved leaves decide a node.
//
// Known positions (a proof database, ProverOptions::database): a child
// reached by a drop whose position is known is a leaf, proved if its
// stored winner is the attacker, else disproved (on every path: after a
// drop no earlier position can recur); it is not stored in the table.
//
// Repetitions (the graph-history interaction): a child that repeats a
// position of the current path is a disproof for the attacker, as is a path
// longer than the depth limit. Such a disproof, and every disproof derived
// from it, is flagged GHI: it holds for this path only. Flagged disproofs
// are stored and reused (the search may then miss a proof: it is
// incomplete, never unsound), but a root disproved only by flagged ones is
// not claimed disproved. Proofs never use a repetition (a repeated child
// is never proved), so a proof holds whatever the path.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "engine/board.h"
#include "engine/move.h"
#include "proof/guide.h"
#include "proof/known_positions.h"
#include "proof_table.h"

namespace gobblet::proof {

// What the searchers of one proof may spend, shared by all of them.
class Budget {
 public:
  // maxNodes 0: no limit; seconds <= 0 (or >= 1e9, or not a number): no limit; stop: also stops when it becomes true
  // (may be null).
  Budget(uint64_t maxNodes, double seconds, const std::atomic<bool>* stop);

  // Counts `n` more nodes; true once the budget is spent (or stop was asked).
  bool spend(uint64_t n);
  // How many nodes a searcher may count locally before it spends them:
  // `most`, or fewer near a node limit, so that one thread stops exactly
  // at the limit. With T threads each of the others may hold up to
  // most - 1 nodes it has not yet spent: at most (T - 1) * (most - 1)
  // beyond the limit.
  uint64_t batch(uint64_t most) const {
    if (!maxNodes_) return most;
    const uint64_t used = nodes();
    return used >= maxNodes_ ? 1 : std::min(most, maxNodes_ - used);
  }
  bool spent() const { return spent_.load(std::memory_order_relaxed); }
  // spent(), or stop asked since the last spend(): cheap enough for every
  // node (a node of a fresh table can take milliseconds, its pages zeroed
  // as they are first touched, so a stop must not wait for a whole batch).
  bool stopAsked() const { return spent() || (stop_ && stop_->load(std::memory_order_relaxed)); }
  uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  double seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  const uint64_t maxNodes_;
  const Clock::time_point start_, deadline_;
  const bool timed_;
  const std::atomic<bool>* stop_;
  std::atomic<uint64_t> nodes_{0};
  std::atomic<bool> spent_{false};
};

// The moves of the side to move that make a line for it at once (the rules
// core judges each; only moves onto a square that completes a line are tried).
void immediateWins(const Board& board, MoveList& wins);

class Searcher {
 public:
  // seed 0 keeps the move generator's order; another seed shuffles the
  // children, so that threads sharing a table take different paths.
  // `solved` (may be null) ends the search when set by another thread;
  // `known` (may be null): positions already proved (see the header);
  // `guide` (may be null): the initial numbers and the order of moves.
  Searcher(ProofTable& table, Budget& budget, int attacker, uint64_t seed, int maxDepth,
           const std::atomic<bool>* solved = nullptr, const KnownPositions* known = nullptr,
           const ProofGuide* guide = nullptr);

  // Searches `root` (not decided, with a legal move) until it is proved or
  // disproved or the budget is spent. `history`: the positions before the
  // root on the path (repetitions of them count as repetitions; the depth
  // limit counts from the root).
  ProofValue search(const Board& root, const std::vector<Board>& history = {});

 private:
  struct Child {
    Move move;
    ProofValue value;
    bool fixed = false;  // a repetition, beyond the depth limit or a known position: not looked up again
  };
  ProofValue mid(Board& board, uint32_t thpn, uint32_t thdn);
  // The value of a position reached by a move, before it is searched;
  // `fresh` is set when it is the initial estimate of a new node (not
  // decided, not in the table).
  ProofValue evaluate(const Board& board, bool* fresh);
  // The guide's numbers for the fresh children (indexes guided_) of the
  // node `board` (see the header).
  void guideChildren(const Board& board, std::vector<Child>& children);
  bool onPath(const Board& board) const;
  bool stopped() const;

  ProofTable& table_;
  Budget& budget_;
  const int attacker_;
  uint64_t rng_;
  const int maxDepth_;
  const std::atomic<bool>* solved_;
  const KnownPositions* known_;
  const ProofGuide* guide_;
  std::vector<size_t> guided_;   // guideChildren()'s scratch: the fresh children of the node being expanded
  MoveList guidedMoves_;         // their moves
  std::vector<double> chances_;  // the guide's answers
  uint64_t pending_ = 0;         // nodes not yet counted in the budget
  uint64_t nodes_ = 0;           // this searcher's nodes (for the work of entries)
  bool stop_ = false;
  std::vector<Board> path_;  // the history given to search(), then the positions from the root
  size_t historySize_ = 0;
  std::vector<std::vector<Child>> frames_;  // the children of each node on the path
};

}  // namespace gobblet::proof
