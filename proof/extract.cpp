#include "extract.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet::proof {

namespace {

constexpr uint32_t kFailed = 0xFFFFFFFE;

class Extractor {
 public:
  // `history`: the game's positions before the root (the certificate never reaches one).
  Extractor(int attacker, ProofTable& table, Budget& budget, int maxDepth, const std::vector<Board>& history)
      : attacker_(attacker),
        table_(table),
        budget_(budget),
        maxDepth_(maxDepth),
        path_(history),
        historySize_(history.size()) {}

  // The node of `board` (an undecided position proved for the attacker), or kFailed.
  uint32_t visit(const Board& board) {
    if (budget_.spent() || static_cast<int>(path_.size() - historySize_) >= maxDepth_) return kFailed;
    const PackedPosition key = pack(board);
    if (auto it = done_.find(key); it != done_.end()) return it->second;
    path_.push_back(board);
    CertificateNode node = board.sideToMove() == attacker_ ? orNode(board) : andNode(board);
    path_.pop_back();
    if (node.children.empty()) return kFailed;
    nodes_.push_back(std::move(node));
    const uint32_t id = static_cast<uint32_t>(nodes_.size() - 1);
    done_.emplace(key, id);
    return id;
  }

  // The nodes with the root first and every child after its parent.
  std::vector<CertificateNode> finish() {
    const uint32_t last = static_cast<uint32_t>(nodes_.size() - 1);
    std::reverse(nodes_.begin(), nodes_.end());
    for (CertificateNode& n : nodes_)
      for (uint32_t& c : n.children)
        if (c != kWonLeaf) c = last - c;
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
    Searcher searcher(table_, budget_, attacker_, 0, maxDepth_);
    return searcher.search(board, history).proved();
  }

  CertificateNode orNode(const Board& board) {
    CertificateNode node;
    MoveList wins;
    immediateWins(board, wins);
    if (!wins.empty()) {
      node.move = wins[0];
      node.children = {kWonLeaf};
      return node;
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

  CertificateNode andNode(const Board& board) {
    CertificateNode node;
    node.orNode = false;
    MoveList moves;
    generateMoves(board, moves);
    if (moves.empty()) return node;
    if (!proved(board) && !reprove(board)) return node;
    std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
    for (Move m : moves) {
      Board after = board;
      after.makeMove(m);
      const int winner = after.winner();
      uint32_t child = kFailed;
      if (winner == attacker_) {
        child = kWonLeaf;
      } else if (winner == kNoWinner && !onPath(after)) {
        child = visit(after);
      }
      if (child == kFailed) return CertificateNode{false, Move::none(), {}};
      node.children.push_back(child);
    }
    return node;
  }

  const int attacker_;
  ProofTable& table_;
  Budget& budget_;
  const int maxDepth_;
  std::vector<Board> path_;  // the game's history, then the positions from the root
  const size_t historySize_;
  std::unordered_map<PackedPosition, uint32_t, PackedHash> done_;
  std::vector<CertificateNode> nodes_;
};

}  // namespace

absl::StatusOr<Certificate> extractCertificate(const Board& root, int attacker, ProofTable& table, Budget& budget,
                                               int maxDepth, const std::vector<Board>& history) {
  if (root.winner() != kNoWinner) return absl::FailedPreconditionError("the game is already over at the root");
  Extractor extractor(attacker, table, budget, maxDepth, history);
  if (extractor.visit(root) == kFailed)
    return absl::ResourceExhaustedError(budget.spent() ? "the budget ran out while writing the certificate"
                                                       : "the proof could not be read back from the table");
  Certificate c;
  c.variant = root.variant().name();
  c.position = positionToString(root);
  c.winner = attacker == root.sideToMove() ? 0 : 1;
  c.nodes = extractor.finish();
  return c;
}

}  // namespace gobblet::proof
