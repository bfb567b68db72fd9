#include "protocol/proved_moves.h"

#include <algorithm>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet {

namespace {

// The moves a certificate node's children follow, in its order: an OR
// node's one move; at an AND node every legal move, ascending codes.
std::vector<Move> nodeMoves(const Board& board, const proof::CertificateNode& node) {
  if (node.orNode) return {node.move};
  MoveList list;
  generateMoves(board, list);
  std::vector<Move> moves(list.begin(), list.end());
  std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  return moves;
}

// The root position of `certificate` where it is of `kind` and `variant`,
// has 1 to `maxNodes` nodes and its position reads; else none (nothing
// to learn).
std::optional<Board> rootToLearn(const proof::Certificate& certificate, proof::CertificateKind kind,
                                 const Variant& variant, size_t maxNodes) {
  const size_t size = certificate.nodes.size();
  if (certificate.kind != kind || size == 0 || size > maxNodes || certificate.variant != variant.name())
    return std::nullopt;
  absl::StatusOr<Board> root = parsePosition(variant, certificate.position);
  if (!root.ok()) return std::nullopt;
  return *root;
}

}  // namespace

void ProvedMoves::clear() {
  winnerToMove_.clear();
  keys_.clear();
  claim_ = Claim::kWin;
}

void ProvedMoves::learn(const proof::Certificate& certificate, const Variant& variant,
                        const proof::KnownPositions* database, size_t maxNodes) {
  clear();
  const auto& nodes = certificate.nodes;
  const std::optional<Board> root = rootToLearn(certificate, proof::CertificateKind::kWin, variant, maxNodes);
  if (!root) return;
  // 1. Each node's position, replayed from the root (children come later).
  std::vector<std::optional<Board>> at(nodes.size());
  at[0] = *root;
  // 2. Each node's plies to the win: children first (larger indices); a
  // database leaf counts its entry's plies.
  std::vector<int> plies(nodes.size(), 0), databasePlies(nodes.size(), 0);
  const auto childPlies = [&](uint32_t child) { return child == proof::kWonLeaf ? 0 : plies[child]; };
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!at[i]) return;  // not reached: not a certified certificate
    const Board& board = *at[i];
    const proof::CertificateNode& node = nodes[i];
    const std::vector<Move> moves = nodeMoves(board, node);
    if (moves.size() != node.children.size()) return clear();
    for (size_t k = 0; k < moves.size(); ++k) {
      const uint32_t child = node.children[k];
      if (child == proof::kWonLeaf) continue;
      Board next = board;
      next.makeMove(moves[k]);
      if (child == proof::kDatabaseLeaf) {
        const std::optional<proof::KnownPosition> known = database ? database->find(next) : std::nullopt;
        if (!known) return clear();
        databasePlies[i] = std::max(databasePlies[i], known->plies);
        continue;
      }
      if (child <= i || child >= nodes.size()) return clear();
      if (!at[child]) at[child] = next;
    }
  }
  for (size_t i = nodes.size(); i-- > 0;) {
    int longest = databasePlies[i];
    for (uint32_t child : nodes[i].children)
      if (child != proof::kDatabaseLeaf) longest = std::max(longest, childPlies(child));
    plies[i] = 1 + longest;
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    keys_.insert(at[i]->key());
    if (nodes[i].orNode) winnerToMove_.emplace(at[i]->key(), Entry{*at[i], Proved{nodes[i].move, plies[i]}});
  }
}

void ProvedMoves::learnNotLost(const proof::Certificate& certificate, const Variant& variant, bool drawn,
                               size_t maxNodes) {
  clear();
  const auto& nodes = certificate.nodes;
  const std::optional<Board> root = rootToLearn(certificate, proof::CertificateKind::kNotLost, variant, maxNodes);
  if (!root) return;
  // Each node's position, breadth first from the root (a child may be any
  // node); a node reached at two positions is no certified certificate.
  std::vector<std::optional<Board>> at(nodes.size());
  std::vector<uint32_t> queue{0};
  at[0] = *root;
  for (size_t q = 0; q < queue.size(); ++q) {
    const Board board = *at[queue[q]];
    const proof::CertificateNode& node = nodes[queue[q]];
    const std::vector<Move> moves = nodeMoves(board, node);
    if (moves.size() != node.children.size()) return clear();
    for (size_t k = 0; k < moves.size(); ++k) {
      const uint32_t child = node.children[k];
      // (A database leaf: the database holds the position, and go() asks it there.)
      if (child == proof::kWonLeaf || child == proof::kDrawnLeaf || child == proof::kDatabaseLeaf) continue;
      if (child >= nodes.size()) return clear();
      Board next = board;
      next.makeMove(moves[k]);
      if (!at[child]) {
        at[child] = next;
        queue.push_back(child);
      } else if (!(*at[child] == next)) {
        return clear();
      }
    }
  }
  claim_ = drawn ? Claim::kDraw : Claim::kNotLost;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (at[i] && nodes[i].orNode) winnerToMove_.emplace(at[i]->key(), Entry{*at[i], Proved{nodes[i].move, 0, claim_}});
}

std::optional<ProvedMoves::Proved> ProvedMoves::moveFor(const Game& game) const {
  const Board& now = game.position();
  const auto [first, last] = winnerToMove_.equal_range(now.key());
  const auto found = std::find_if(first, last, [&](const auto& e) { return e.second.position == now; });
  if (found == last) return std::nullopt;
  if (claim_ != Claim::kWin) return found->second.proved;  // (a repetition only ever draws)
  // The game's positions since it entered the strategy are the strategy's,
  // each once; before that, none of them (else a repetition could draw).
  const std::vector<uint64_t>& keys = game.keys();
  std::unordered_set<uint64_t> line;
  size_t entered = keys.size();
  while (entered > 0 && keys_.count(keys[entered - 1])) {
    if (!line.insert(keys[entered - 1]).second) return std::nullopt;
    --entered;
  }
  for (size_t i = 0; i < entered; ++i)
    if (keys_.count(keys[i])) return std::nullopt;
  return found->second.proved;
}

}  // namespace gobblet
