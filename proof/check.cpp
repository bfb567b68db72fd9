#include "check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <fstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/variant.h"

namespace gobblet::proof {

namespace {

// A node's bound position: the masks of every size of each player and the
// side to move (kUnbound until a parent reaches the node).
struct Bound {
  std::array<Mask, 2 * kMaxSizes> masks{};
  uint8_t stm = kUnbound;
  uint32_t depth = 0;  // the longest path from the root, in plies
  static constexpr uint8_t kUnbound = 0xFF;
};

Bound bind(const Board& b, uint32_t depth) {
  Bound bound;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < b.variant().sizes; ++s) bound.masks[p * kMaxSizes + s] = b.pieces(p, s);
  bound.stm = static_cast<uint8_t>(b.sideToMove());
  bound.depth = depth;
  return bound;
}

Board unbind(const Bound& bound, const Variant& variant) {
  Board b(variant);
  b.clear();
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < variant.sizes; ++s)
      for (Mask m = bound.masks[p * kMaxSizes + s]; m; m &= static_cast<Mask>(m - 1))
        b.addPiece(p, s, std::countr_zero(static_cast<unsigned>(m)));
  b.setSideToMove(bound.stm);
  return b;
}

CheckReport reject(CheckReport report, std::string reason) {
  report.accepted = false;
  report.reason = std::move(reason);
  return report;
}

}  // namespace

CheckReport checkCertificate(std::istream& in, const CertificateLimits& limits) {
  CheckReport report;
  auto reader = CertificateReader::open(in, limits);
  if (!reader.ok()) return reject(report, std::string(reader.status().message()));
  const CertificateHeader& h = reader->header();
  report.variant = h.variant;
  report.position = h.position;
  report.winner = h.winner;
  report.nodes = h.nodes;
  auto variant = Variant::parse(h.variant);
  if (!variant.ok()) return reject(report, absl::StrCat("bad variant: ", variant.status().message()));
  auto root = parsePosition(*variant, h.position);
  if (!root.ok()) return reject(report, absl::StrCat("bad root position: ", root.status().message()));
  const int winner = root->sideToMove() ^ h.winner;

  std::vector<Bound> bound(h.nodes);  // h.nodes is bounded by the limits and by the file's size
  bound[0] = bind(*root, 0);
  int plies = 0;
  CertificateNode node;
  MoveList moves;
  for (uint64_t i = 0; i < h.nodes; ++i) {
    if (auto status = reader->next(node); !status.ok()) return reject(report, std::string(status.message()));
    const std::string where = absl::StrCat("node ", i, ": ");
    if (bound[i].stm == Bound::kUnbound) return reject(report, where + "not reached from the root");
    Board board = unbind(bound[i], *variant);
    if (board.winner() != kNoWinner) return reject(report, where + "the game is already over there");
    const bool winnerToMove = board.sideToMove() == winner;
    if (node.orNode != winnerToMove)
      return reject(report, where + (winnerToMove ? "the winner is to move: an OR node is wanted"
                                                  : "the loser is to move: an AND node is wanted"));
    generateMoves(board, moves);
    if (node.orNode) {
      if (!moves.contains(node.move))
        return reject(report,
                      absl::StrCat(where, "move code ", node.move.raw(), " is not legal in ", positionToString(board)));
      moves.clear();
      moves.push(node.move);
    } else {
      if (moves.empty()) return reject(report, where + "the loser has no legal move: a draw, not a win");
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
      if (node.children.size() != static_cast<size_t>(moves.size()))
        return reject(report, absl::StrCat(where, "covers ", node.children.size(), " of the loser's ", moves.size(),
                                           " moves in ", positionToString(board)));
    }
    for (int k = 0; k < moves.size(); ++k) {
      const uint32_t child = node.children[k];
      Board after = board;
      after.makeMove(moves[k]);
      const uint32_t depth = bound[i].depth + 1;
      if (child == kWonLeaf) {
        if (after.winner() != winner)
          return reject(report, absl::StrCat(where, "after ", moveToString(moves[k], *variant), " the position ",
                                             positionToString(after), " is not won by the winner"));
        plies = std::max<int>(plies, static_cast<int>(depth));
        continue;
      }
      if (child <= i || child >= h.nodes)
        return reject(report, absl::StrCat(where, "child ", child, " is not a later node (a cycle or out of range)"));
      Bound& b = bound[child];
      if (b.stm == Bound::kUnbound) {
        b = bind(after, depth);
      } else {
        const Bound here = bind(after, depth);
        if (here.masks != b.masks || here.stm != b.stm)
          return reject(report, absl::StrCat(where, "node ", child, " is reached from two different positions"));
        b.depth = std::max(b.depth, depth);
      }
    }
  }
  if (auto status = reader->finish(); !status.ok()) return reject(report, std::string(status.message()));
  report.accepted = true;
  report.plies = plies;
  return report;
}

CheckReport checkCertificateFile(const std::string& path, const CertificateLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    CheckReport report;
    report.reason = absl::StrCat("cannot open ", path);
    return report;
  }
  return checkCertificate(in, limits);
}

}  // namespace gobblet::proof
