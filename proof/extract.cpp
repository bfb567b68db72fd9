#include "extract.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet::proof {

namespace {

constexpr uint32_t kFailed = 0xFFFFFFFD;
static_assert(kFailed != kWonLeaf && kFailed != kDatabaseLeaf);

class Extractor {
 public:
  // `history`: the game's positions before the root (the certificate never reaches one).
  Extractor(int attacker, ProofTable& table, Budget& budget, int maxDepth, const std::vector<Board>& history,
            const KnownPositions* known)
      : attacker_(attacker),
        table_(table),
        budget_(budget),
        maxDepth_(maxDepth),
        known_(known),
        path_(history),
        historySize_(history.size()) {}

  // The node of `board` (an undecided position proved for the attacker), or kFailed.
  uint32_t visit(const Board& board) {
    if (budget_.spent() || static_cast<int>(path_.size() - historySize_) >= maxDepth_) return kFailed;
    const PackedPosition key = pack(board);
    if (auto it = done_.find(key); it != done_.end()) return it->second;
    path_.push_back(board);
    int knownPlies = 0;
    CertificateNode node = board.sideToMove() == attacker_ ? orNode(board, &knownPlies) : andNode(board, &knownPlies);
    path_.pop_back();
    if (node.children.empty()) return kFailed;
    nodes_.push_back(std::move(node));
    knownPlies_.push_back(knownPlies);
    const uint32_t id = static_cast<uint32_t>(nodes_.size() - 1);
    done_.emplace(key, id);
    return id;
  }

  // The nodes with the root first and every child after its parent; `plies`
  // is set to the longest game the strategy allows.
  std::vector<CertificateNode> finish(int* plies) {
    const uint32_t last = static_cast<uint32_t>(nodes_.size() - 1);
    std::reverse(nodes_.begin(), nodes_.end());
    std::reverse(knownPlies_.begin(), knownPlies_.end());
    for (CertificateNode& n : nodes_)
      for (uint32_t& c : n.children)
        if (c != kWonLeaf && c != kDatabaseLeaf) c = last - c;
    // The longest path from the root to each node; a leaf adds its ply, a
    // database leaf its known position's plies too.
    std::vector<int> depth(nodes_.size(), 0);
    int longest = 0;
    for (size_t i = 0; i < nodes_.size(); ++i)
      for (uint32_t child : nodes_[i].children) {
        if (child == kWonLeaf) {
          longest = std::max(longest, depth[i] + 1);
        } else if (child == kDatabaseLeaf) {
          longest = std::max(longest, depth[i] + 1 + knownPlies_[i]);
        } else {
          depth[child] = std::max(depth[child], depth[i] + 1);
        }
      }
    if (plies) *plies = longest;
    return std::move(nodes_);
  }

 private:
  bool onPath(const Board& board) const {
    for (const Board& b : path_)
      if (b.key() == board.key() && b == board) return true;
    return false;
  }

  bool proved(const Board& board) const {
    ProofValue v;
    return table_.lookup(board, attacker_, &v) && v.proved();
  }

  // Proves `board` again (its proof left the table); the path so far is its history.
  bool reprove(const Board& board) {
    if (countMoves(board) == 0) return false;
    std::vector<Board> history(path_.begin(), path_.end() - 1);
    Searcher searcher(table_, budget_, attacker_, 0, maxDepth_, nullptr, known_);
    return searcher.search(board, history).proved();
  }

  // The plies of the position after `m`, if `m` is a drop into a position
  // known won by the attacker; else -1.
  int knownWin(const Board& board, Move m) const {
    if (!known_ || !m.isDrop()) return -1;
    Board after = board;
    after.makeMove(m);
    if (after.winner() != kNoWinner) return -1;
    const std::optional<KnownPosition> k = known_->find(after);
    return k && (after.sideToMove() ^ k->winner) == attacker_ ? k->plies : -1;
  }

  // `knownPlies`: set to the plies of the known position a database leaf
  // of the node names (0 if none).
  CertificateNode orNode(const Board& board, int* knownPlies) {
    CertificateNode node;
    MoveList wins;
    immediateWins(board, wins);
    if (!wins.empty()) {
      node.move = wins[0];
      node.children = {kWonLeaf};
      return node;
    }
    if (known_) {  // the known win of fewest plies
      MoveList moves;
      generateMoves(board, moves);
      int fewest = -1;
      for (Move m : moves)
        if (const int plies = knownWin(board, m); plies >= 0 && (fewest < 0 || plies < fewest)) {
          fewest = plies;
          node.move = m;
        }
      if (fewest >= 0) {
        node.children = {kDatabaseLeaf};
        *knownPlies = fewest;
        return node;
      }
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
      MoveList moves;
      generateMoves(board, moves);
      struct Candidate {
        Move move;
        int dist;
      };
      std::vector<Candidate> candidates;
      for (Move m : moves) {
        Board after = board;
        after.makeMove(m);
        ProofValue v;
        if (after.winner() == kNoWinner && !onPath(after) && table_.lookup(after, attacker_, &v) && v.proved())
          candidates.push_back({m, v.dist});
      }
      std::stable_sort(candidates.begin(), candidates.end(),
                       [](const Candidate& a, const Candidate& b) { return a.dist < b.dist; });
      for (const Candidate& c : candidates) {
        Board after = board;
        after.makeMove(c.move);
        if (const uint32_t child = visit(after); child != kFailed) {
          node.move = c.move;
          node.children = {child};
          return node;
        }
      }
      if (attempt == 0 && !reprove(board)) break;
    }
    return node;
  }

  // `knownPlies`: set to the most plies of the known positions its
  // database leaves name (0 if none).
  CertificateNode andNode(const Board& board, int* knownPlies) {
    CertificateNode node;
    node.orNode = false;
    MoveList moves;
    generateMoves(board, moves);
    if (moves.empty()) return node;
    if (!proved(board) && !reprove(board)) return node;
    std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
    int most = 0;
    for (Move m : moves) {
      Board after = board;
      after.makeMove(m);
      const int winner = after.winner();
      uint32_t child = kFailed;
      if (winner == attacker_) {
        child = kWonLeaf;
      } else if (const int plies = knownWin(board, m); plies >= 0) {
        child = kDatabaseLeaf;
        most = std::max(most, plies);
      } else if (winner == kNoWinner && !onPath(after)) {
        child = visit(after);
      }
      if (child == kFailed) return CertificateNode{false, Move::none(), {}};
      node.children.push_back(child);
    }
    *knownPlies = most;
    return node;
  }

  const int attacker_;
  ProofTable& table_;
  Budget& budget_;
  const int maxDepth_;
  const KnownPositions* known_;
  std::vector<Board> path_;  // the game's history, then the positions from the root
  const size_t historySize_;
  std::unordered_map<PackedPosition, uint32_t, PackedHash> done_;
  std::vector<CertificateNode> nodes_;
  std::vector<int> knownPlies_;  // per node: the most plies of its database leaves' known positions
};

}  // namespace

absl::StatusOr<Certificate> extractCertificate(const Board& root, int attacker, ProofTable& table, Budget& budget,
                                               int maxDepth, const std::vector<Board>& history,
                                               const KnownPositions* known, int* plies) {
  if (root.winner() != kNoWinner) return absl::FailedPreconditionError("the game is already over at the root");
  Extractor extractor(attacker, table, budget, maxDepth, history, known);
  if (extractor.visit(root) == kFailed)
    return absl::ResourceExhaustedError(budget.spent() ? "the budget ran out while writing the certificate"
                                                       : "the proof could not be read back from the table");
  Certificate c;
  c.variant = root.variant().name();
  c.position = positionToString(root);
  c.winner = attacker == root.sideToMove() ? 0 : 1;
  c.nodes = extractor.finish(plies);
  return c;
}

}  // namespace gobblet::proof
