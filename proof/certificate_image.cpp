#include "proof/certificate_image.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet::proof {

namespace {

// `move` on the board mapped by symmetry `s`.
Move mapped(const Geometry& g, int s, Move move) {
  if (move.isDrop()) return Move::drop(move.size(), g.transformSquare(s, move.to()));
  return Move::boardMove(move.size(), g.transformSquare(s, move.from()), g.transformSquare(s, move.to()));
}

}  // namespace

absl::StatusOr<Certificate> certificateAt(const Certificate& certificate, const Board& board) {
  const Variant& variant = board.variant();
  if (certificate.variant != variant.name())
    return absl::InvalidArgumentError(
        absl::StrCat("a certificate of ", certificate.variant, ", not of ", variant.name()));
  auto root = parsePosition(variant, certificate.position);
  if (!root.ok()) return absl::InvalidArgumentError(root.status().message());
  // The symmetry s (and exchange) with image(board) == root: its inverse
  // maps the certificate's squares onto board's.
  int toBoard = -1;
  for (int s = 0; s < kSymmetries && toBoard < 0; ++s) {
    const Board image = board.transformed(s);
    if (image == *root || image.colorSwapped() == *root) toBoard = Geometry::inverse(s);
  }
  if (toBoard < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the certificate's root ", certificate.position, " is not an image of ", positionToString(board)));
  Certificate out = certificate;
  out.position = positionToString(board);
  if (toBoard == 0) return out;  // (the identity: an exchange of the players changes no move)
  const Geometry& g = board.geometry();
  const size_t n = certificate.nodes.size();
  const bool anyChild = certificate.kind == CertificateKind::kNotLost;  // (else children are later nodes)
  std::vector<std::optional<Board>> at(n);  // each node's position, in the certificate's orientation
  std::vector<uint32_t> queue;              // the nodes reached, breadth first from the root
  if (n > 0) {
    at[0] = *root;
    queue.push_back(0);
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    const uint32_t i = queue[q];
    const Board& here = *at[i];
    const CertificateNode& node = certificate.nodes[i];
    std::vector<Move> moves;
    if (node.orNode) {
      MoveList legal;
      generateMoves(here, legal);
      if (!legal.contains(node.move))
        return absl::InvalidArgumentError(absl::StrCat("node ", i, ": its move is not legal"));
      moves.push_back(node.move);
      out.nodes[i].move = mapped(g, toBoard, node.move);
    } else {
      MoveList legal;
      generateMoves(here, legal);
      moves.assign(legal.begin(), legal.end());
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
    }
    if (moves.size() != node.children.size())
      return absl::InvalidArgumentError(
          absl::StrCat("node ", i, ": ", node.children.size(), " children for ", moves.size(), " moves"));
    std::vector<std::pair<uint16_t, uint32_t>> order;  // (mapped move's code, child)
    for (size_t k = 0; k < moves.size(); ++k) {
      const uint32_t child = node.children[k];
      order.emplace_back(mapped(g, toBoard, moves[k]).raw(), child);
      if (child == kWonLeaf || child == kDatabaseLeaf || (anyChild && child == kDrawnLeaf)) continue;
      if ((!anyChild && child <= i) || child >= n)
        return absl::InvalidArgumentError(absl::StrCat("node ", i, ": child ", child, " is not a later node"));
      if (!at[child]) {
        Board next = here;
        next.makeMove(moves[k]);
        at[child] = next;
        queue.push_back(child);
      }
    }
    if (!node.orNode) {
      std::sort(order.begin(), order.end());
      for (size_t k = 0; k < order.size(); ++k) out.nodes[i].children[k] = order[k].second;
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (!at[i]) return absl::InvalidArgumentError(absl::StrCat("node ", i, " is not reached from the root"));
  return out;
}

}  // namespace gobblet::proof
