#include "check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <fstream>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "engine/variant.h"

namespace gobblet::proof {

namespace {

constexpr size_t kMaxReasonBytes = 4096;

// A node's bound position: the masks of every size of each player and the
// side to move.
struct Bound {
  std::array<Mask, 2 * kMaxSizes> masks{};
  uint8_t stm = 0;
  uint32_t depth = 0;  // the longest path from the root, in plies
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

// A reason quotes the file's own texts: printable, so that a certificate
// cannot drive the terminal or the page that shows the verdict.
CheckReport reject(CheckReport report, const std::string& reason) {
  report.accepted = false;
  report.reason = printableText(reason, kMaxReasonBytes);
  return report;
}

}  // namespace

CheckReport checkCertificate(std::istream& in, const CertificateLimits& limits, const std::vector<Board>& history,
                             const KnownPositions* database) {
  CheckReport report;
  auto reader = CertificateReader::open(in, limits);
  if (!reader.ok()) return reject(report, std::string(reader.status().message()));
  const CertificateHeader& h = reader->header();
  // The header's texts as the report shows them: every byte outside
  // printable ASCII as \xNN (a valid name or position is unchanged).
  report.variant = printableText(h.variant, 4 * kMaxVariantNameBytes);
  report.position = printableText(h.position, 4 * kMaxPositionBytes);
  report.kind = h.kind;
  report.winner = h.winner;
  report.nodes = h.nodes;
  if (h.kind != CertificateKind::kWin)
    return reject(report, "a not-lost certificate, not a proof of a win (checkNotLostCertificate checks it)");
  auto variant = Variant::parse(h.variant);
  if (!variant.ok()) return reject(report, absl::StrCat("bad variant: ", variant.status().message()));
  auto root = parsePosition(*variant, h.position);
  if (!root.ok()) return reject(report, absl::StrCat("bad root position: ", root.status().message()));
  const int winner = root->sideToMove() ^ h.winner;
  // The game's earlier positions, sorted for lookups.
  const auto before = [](const Bound& a, const Bound& b) {
    return std::tie(a.masks, a.stm) < std::tie(b.masks, b.stm);
  };
  std::vector<Bound> earlier;
  for (const Board& b : history)
    if (b.variant() == *variant) earlier.push_back(bind(b, 0));
  std::sort(earlier.begin(), earlier.end(), before);
  const auto seenBefore = [&](const Bound& b) { return std::binary_search(earlier.begin(), earlier.end(), b, before); };

  // The positions of the nodes reached but not yet read, by index: a node
  // is read after every parent of it (children are later nodes), so its
  // entry is taken out then. Memory follows the nodes read, never the
  // count a header claims.
  std::unordered_map<uint64_t, Bound> bound;
  bound[0] = bind(*root, 0);
  int plies = 0;
  CertificateNode node;
  MoveList moves;
  for (uint64_t i = 0; i < h.nodes; ++i) {
    if (auto status = reader->next(node); !status.ok()) return reject(report, std::string(status.message()));
    const std::string where = absl::StrCat("node ", i, ": ");
    const auto reached = bound.find(i);
    if (reached == bound.end()) return reject(report, where + "not reached from the root");
    const Bound here = reached->second;
    bound.erase(reached);
    Board board = unbind(here, *variant);
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
      const uint32_t depth = here.depth + 1;
      if (child == kWonLeaf) {
        if (after.winner() != winner)
          return reject(report, absl::StrCat(where, "after ", moveToString(moves[k], *variant), " the position ",
                                             positionToString(after), " is not won by the winner"));
        plies = std::max<int>(plies, static_cast<int>(depth));
        continue;
      }
      if (child == kDatabaseLeaf) {
        const std::string afterMove = absl::StrCat(where, "after ", moveToString(moves[k], *variant), " ");
        if (h.version < kDatabaseCertificateVersion)
          return reject(report, afterMove + "a database leaf in a version-1 certificate");
        if (!moves[k].isDrop())
          return reject(report, afterMove +
                                    "a database leaf: one may only follow a drop (after a board move an "
                                    "earlier position could recur)");
        if (!database) return reject(report, afterMove + "a database leaf, and no proof database is given");
        if (after.winner() != kNoWinner)
          return reject(report, afterMove + "a database leaf where the game is over (a won leaf, or lost)");
        const std::optional<KnownPosition> known = database->find(after);
        if (!known)
          return reject(report, absl::StrCat(afterMove, "the position ", positionToString(after),
                                             " is not an earlier entry of the database"));
        if ((after.sideToMove() ^ known->winner) != winner)
          return reject(report, absl::StrCat(afterMove, "the position ", positionToString(after),
                                             " is a database entry won by the other side"));
        plies = std::max<int>(plies, static_cast<int>(depth) + known->plies);
        continue;
      }
      if (child <= i || child >= h.nodes)
        return reject(report, absl::StrCat(where, "child ", child, " is not a later node (a cycle or out of range)"));
      const Bound reachedHere = bind(after, depth);
      if (seenBefore(reachedHere))
        return reject(report, absl::StrCat(where, "after ", moveToString(moves[k], *variant), " the position ",
                                           positionToString(after), " repeats one the game has had"));
      auto [it, first] = bound.try_emplace(child, reachedHere);
      Bound& b = it->second;
      if (!first) {
        if (reachedHere.masks != b.masks || reachedHere.stm != b.stm)
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

namespace {

// `check(in)` (either kind's checker) on the file at `path`; a file that
// cannot be opened is a rejection that says so.
template <typename Check>
CheckReport checkFile(const std::string& path, const Check& check) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    CheckReport report;
    report.reason = absl::StrCat("cannot open ", path);
    return report;
  }
  return check(in);
}

}  // namespace

CheckReport checkCertificateFile(const std::string& path, const CertificateLimits& limits) {
  return checkFile(path, [&](std::istream& in) { return checkCertificate(in, limits); });
}

CheckReport checkNotLostCertificate(std::istream& in, const CertificateLimits& limits, const KnownPositions* database) {
  CheckReport report;
  auto reader = CertificateReader::open(in, limits);
  if (!reader.ok()) return reject(report, std::string(reader.status().message()));
  const CertificateHeader& h = reader->header();
  report.variant = printableText(h.variant, 4 * kMaxVariantNameBytes);
  report.position = printableText(h.position, 4 * kMaxPositionBytes);
  report.kind = h.kind;
  report.winner = h.winner;
  report.nodes = h.nodes;
  if (h.kind != CertificateKind::kNotLost) return reject(report, "not a not-lost certificate");
  auto variant = Variant::parse(h.variant);
  if (!variant.ok()) return reject(report, absl::StrCat("bad variant: ", variant.status().message()));
  auto root = parsePosition(*variant, h.position);
  if (!root.ok()) return reject(report, absl::StrCat("bad root position: ", root.status().message()));
  const int defender = root->sideToMove() ^ h.winner, attacker = defender ^ 1;

  // Children may name any node, so every node is read first (memory
  // follows the nodes read, never the count a header claims).
  std::vector<CertificateNode> nodes;
  for (uint64_t i = 0; i < h.nodes; ++i)
    if (auto status = reader->next(nodes.emplace_back()); !status.ok())
      return reject(report, std::string(status.message()));
  if (auto status = reader->finish(); !status.ok()) return reject(report, std::string(status.message()));

  // Breadth first from the root; bound[i] is node i's position once reached.
  std::vector<std::optional<Bound>> bound(nodes.size());
  std::vector<uint32_t> queue{0};
  bound[0] = bind(*root, 0);
  MoveList moves;
  for (size_t q = 0; q < queue.size(); ++q) {
    const uint32_t i = queue[q];
    const CertificateNode& node = nodes[i];
    const std::string where = absl::StrCat("node ", i, ": ");
    Board board = unbind(*bound[i], *variant);
    if (board.winner() != kNoWinner) return reject(report, where + "the game is already over there");
    const bool defenderToMove = board.sideToMove() == defender;
    if (node.orNode != defenderToMove)
      return reject(report, where + (defenderToMove ? "the defender is to move: an OR node is wanted"
                                                    : "the attacker is to move: an AND node is wanted"));
    generateMoves(board, moves);
    if (moves.empty()) return reject(report, where + "no legal move there: a drawn leaf, not a node, is wanted");
    if (node.orNode) {
      if (!moves.contains(node.move))
        return reject(report,
                      absl::StrCat(where, "move code ", node.move.raw(), " is not legal in ", positionToString(board)));
      moves.clear();
      moves.push(node.move);
    } else {
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
      if (node.children.size() != static_cast<size_t>(moves.size()))
        return reject(report, absl::StrCat(where, "covers ", node.children.size(), " of the attacker's ", moves.size(),
                                           " moves in ", positionToString(board)));
    }
    for (int k = 0; k < moves.size(); ++k) {
      const uint32_t child = node.children[k];
      Board after = board;
      after.makeMove(moves[k]);
      const std::string afterMove =
          absl::StrCat(where, "after ", moveToString(moves[k], *variant), " the position ", positionToString(after));
      if (after.winner() == attacker) return reject(report, afterMove + " is won by the attacker");
      if (child == kWonLeaf) {
        if (after.winner() != defender) return reject(report, afterMove + " is not won by the defender");
        continue;
      }
      if (child == kDrawnLeaf) {
        if (after.winner() != kNoWinner || countMoves(after) != 0)
          return reject(report, afterMove + " is not drawn for want of a legal move");
        continue;
      }
      if (child == kDatabaseLeaf) {
        if (!database) return reject(report, afterMove + ": a database leaf, and no proof database is given");
        if (after.winner() != kNoWinner) return reject(report, afterMove + ": a database leaf where the game is over");
        const int relative = after.sideToMove() == defender ? 0 : 1;
        const std::optional<KnownPosition> won = database->find(after);
        if (!database->holds(after, relative) && !(won && won->winner == relative))
          return reject(report, afterMove +
                                    " is a database leaf that the database neither holds for the defender "
                                    "nor holds won by it");
        continue;
      }
      if (child >= nodes.size()) return reject(report, absl::StrCat(where, "child ", child, " is not a node"));
      const Bound reachedHere = bind(after, 0);
      if (!bound[child]) {
        bound[child] = reachedHere;
        queue.push_back(child);
      } else if (reachedHere.masks != bound[child]->masks || reachedHere.stm != bound[child]->stm) {
        return reject(report, absl::StrCat(where, "node ", child, " is reached from two different positions"));
      }
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!bound[i]) return reject(report, absl::StrCat("node ", i, ": not reached from the root"));
  report.accepted = true;
  return report;
}

CheckReport checkNotLostCertificateFile(const std::string& path, const CertificateLimits& limits) {
  return checkFile(path, [&](std::istream& in) { return checkNotLostCertificate(in, limits); });
}

CheckReport checkCertificateOfItsKind(std::istream& in, const KnownPositions* database,
                                      const CertificateLimits& limits) {
  const std::istream::pos_type start = in.tellg();
  auto reader = CertificateReader::open(in, limits);
  const bool notLost = reader.ok() && reader->header().kind == CertificateKind::kNotLost;
  in.clear();
  in.seekg(start);
  return notLost ? checkNotLostCertificate(in, limits, database) : checkCertificate(in, limits, {}, database);
}

CheckReport checkCertificateFileOfItsKind(const std::string& path, const KnownPositions* database,
                                          const CertificateLimits& limits) {
  return checkFile(path, [&](std::istream& in) { return checkCertificateOfItsKind(in, database, limits); });
}

}  // namespace gobblet::proof
