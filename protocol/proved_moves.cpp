#include "protocol/proved_moves.h"

#include <algorithm>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet {

void ProvedMoves::clear() {
  winnerToMove_.clear();
  keys_.clear();
}

void ProvedMoves::learn(const proof::Certificate& certificate, const Variant& variant,
                        const proof::KnownPositions* database, size_t maxNodes) {
  clear();
  const auto& nodes = certificate.nodes;
  if (nodes.empty() || nodes.size() > maxNodes || certificate.variant != variant.name()) return;
  absl::StatusOr<Board> root = parsePosition(variant, certificate.position);
  if (!root.ok()) return;
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
    std::vector<Move> moves;
    if (node.orNode) {
      moves.push_back(node.move);
    } else {
      MoveList list;
      generateMoves(board, list);
      moves.assign(list.begin(), list.end());
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
    }
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

std::optional<ProvedMoves::Proved> ProvedMoves::moveFor(const Game& game) const {
  const Board& now = game.position();
  const auto [first, last] = winnerToMove_.equal_range(now.key());
  const auto found = std::find_if(first, last, [&](const auto& e) { return e.second.position == now; });
  if (found == last) return std::nullopt;
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
