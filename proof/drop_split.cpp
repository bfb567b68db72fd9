#include "proof/drop_split.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/variant.h"

namespace gobblet::proof {

absl::StatusOr<std::vector<Certificate>> splitAtDrops(const Certificate& c) {
  auto variant = Variant::parse(c.variant);
  if (!variant.ok()) return variant.status();
  auto root = parsePosition(*variant, c.position);
  if (!root.ok()) return root.status();
  const int winner = root->sideToMove() ^ c.winner;
  const size_t n = c.nodes.size();
  // Each node's position (from its first parent) and whether a drop reaches it.
  std::vector<std::optional<Board>> positions(n);
  std::vector<bool> byDrop(n, false);
  std::vector<std::vector<bool>> dropEdge(n);  // per node, per child: is its move a drop?
  positions[0] = *root;
  MoveList moves;
  for (size_t i = 0; i < n; ++i) {
    if (!positions[i]) return absl::InvalidArgumentError(absl::StrCat("node ", i, " is not reached from the root"));
    const Board& board = *positions[i];
    const CertificateNode& node = c.nodes[i];
    if (node.orNode) {
      moves.clear();
      moves.push(node.move);
    } else {
      generateMoves(board, moves);
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
    }
    if (node.children.size() != static_cast<size_t>(moves.size()))
      return absl::InvalidArgumentError(
          absl::StrCat("node ", i, " has ", node.children.size(), " children for ", moves.size(), " moves"));
    for (int k = 0; k < moves.size(); ++k) {
      dropEdge[i].push_back(moves[k].isDrop());
      const uint32_t child = node.children[k];
      if (child == kWonLeaf || child == kDatabaseLeaf) continue;
      if (child <= i || child >= n) return absl::InvalidArgumentError(absl::StrCat("node ", i, ": a bad child"));
      if (moves[k].isDrop()) byDrop[child] = true;
      if (!positions[child]) {
        Board after = board;
        after.makeMove(moves[k]);
        positions[child] = after;
      }
    }
  }
  std::vector<Certificate> entries;
  // Per node, the entry whose part last took it (so a part costs its own
  // size, not the certificate's) and its number there.
  std::vector<size_t> takenBy(n, n);
  std::vector<uint32_t> renumbered(n);
  for (size_t r = n; r-- > 0;) {
    if (r != 0 && !byDrop[r]) continue;
    // The nodes below r reached without crossing a drop, then in node order
    // (every child after its parent, as the file wants).
    std::vector<size_t> part{r}, stack{r};
    takenBy[r] = r;
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      for (size_t k = 0; k < c.nodes[i].children.size(); ++k) {
        const uint32_t child = c.nodes[i].children[k];
        if (child == kWonLeaf || child == kDatabaseLeaf || dropEdge[i][k] || takenBy[child] == r) continue;
        takenBy[child] = r;
        part.push_back(child);
        stack.push_back(child);
      }
    }
    std::sort(part.begin(), part.end());
    for (size_t j = 0; j < part.size(); ++j) renumbered[part[j]] = static_cast<uint32_t>(j);
    Certificate e;
    e.variant = c.variant;
    e.position = positionToString(*positions[r]);
    e.winner = positions[r]->sideToMove() == winner ? 0 : 1;
    for (size_t i : part) {
      CertificateNode node = c.nodes[i];
      for (size_t k = 0; k < node.children.size(); ++k) {
        uint32_t& child = node.children[k];
        if (child == kWonLeaf || child == kDatabaseLeaf) continue;
        child = dropEdge[i][k] ? kDatabaseLeaf : renumbered[child];
      }
      e.nodes.push_back(std::move(node));
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace gobblet::proof
