#include "not_lost.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "dfpn.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/check.h"
#include "proof/known_positions.h"
#include "proof/store_proof.h"

namespace gobblet::proof {

namespace {

constexpr uint64_t kBatch = 64;         // positions counted locally before the budget hears of them
constexpr size_t kNodeBytes = 256;      // a node with its lists and the index's share, for the size limit
constexpr uint32_t kNone = 0xFFFFFFF0;  // no node (the table is full): no leaf code

enum class Status : uint8_t { kHeld, kLost, kUnknown };

// A position of the search graph.
struct Node {
  explicit Node(const Board& b) : board(b) {}
  Board board;
  bool expanded = false, lost = false;
  // The defender to move: its moves still worth trying, best first, and
  // `next` the one chosen. The attacker to move: all its moves, in
  // ascending order of the codes. children[k] is the node (or leaf) after
  // moves[k] (defender: filled as the moves are tried).
  std::vector<Move> moves;
  std::vector<uint32_t> children;
  uint32_t next = 0;
  std::vector<uint32_t> parents;  // nodes that chose or need this one (a defender's may be stale)
};

class NotLostSearch {
 public:
  NotLostSearch(const Board& root, int defender, const NotLostOptions& options, Budget& budget)
      : defender_(defender),
        budget_(budget),
        database_(options.database),
        maxNodes_(std::max<size_t>(1024, options.hashMiB * (size_t{1} << 20) / kNodeBytes)) {
    index_.emplace(pack(root), 0);  // (the root is searched even where the database holds it)
    nodes_.emplace_back(root);
    work_.push_back(0);
  }

  // Expands the positions the current strategy reaches until it is closed
  // (held), the root is lost, or the budget or the table is spent.
  Status run() {
    while (!work_.empty() && !nodes_[0].lost) {
      const uint32_t n = work_.back();
      work_.pop_back();
      if (nodes_[n].expanded || nodes_[n].lost) continue;
      if (++pending_ >= budget_.batch(kBatch)) {
        if (budget_.spend(pending_)) stopped_ = true;
        pending_ = 0;
      }
      if (stopped_ || full_) break;
      expand(n);
    }
    budget_.spend(pending_);
    pending_ = 0;
    if (nodes_[0].lost) return Status::kLost;
    return work_.empty() ? Status::kHeld : Status::kUnknown;
  }

  bool stopped() const { return stopped_; }
  bool tableFull() const { return full_; }
  size_t positions() const { return nodes_.size(); }

  // The closed strategy from the root as a not-lost certificate.
  absl::StatusOr<Certificate> certificate() const {
    const Board& root = nodes_[0].board;
    Certificate c;
    c.kind = CertificateKind::kNotLost;
    c.variant = root.variant().name();
    c.position = positionToString(root);
    c.winner = root.sideToMove() == defender_ ? 0 : 1;
    std::unordered_map<uint32_t, uint32_t> index{{0, 0}};
    std::vector<uint32_t> order{0};
    const auto nodeOf = [&](uint32_t child) {
      if (child == kWonLeaf || child == kDrawnLeaf || child == kDatabaseLeaf) return child;
      auto [it, added] = index.try_emplace(child, static_cast<uint32_t>(order.size()));
      if (added) order.push_back(child);
      return it->second;
    };
    for (size_t i = 0; i < order.size(); ++i) {
      const Node& n = nodes_[order[i]];
      if (!n.expanded || n.lost)
        return absl::InternalError(absl::StrCat("the strategy's position ", positionToString(n.board),
                                                n.lost ? " is lost" : " was not searched"));
      CertificateNode out;
      out.orNode = n.board.sideToMove() == defender_;
      if (out.orNode) {
        out.move = n.moves[n.next];
        out.children.push_back(nodeOf(n.children[n.next]));
      } else {
        for (uint32_t child : n.children) out.children.push_back(nodeOf(child));
      }
      c.nodes.push_back(std::move(out));
    }
    return c;
  }

 private:
  // The node of `board` (created, not expanded, if new), or a leaf: kWonLeaf
  // (won by the defender), kDrawnLeaf (no legal move), kDatabaseLeaf (the
  // database holds it for the defender, or won by it), kNone (the table is full).
  uint32_t node(const Board& board) {
    if (board.winner() == defender_) return kWonLeaf;
    if (countMoves(board) == 0) return kDrawnLeaf;
    auto [it, added] = index_.try_emplace(pack(board), static_cast<uint32_t>(nodes_.size()));
    if (added && board.winner() == kNoWinner && known(board)) {
      index_.erase(it);
      return kDatabaseLeaf;
    }
    if (added) {
      if (nodes_.size() >= maxNodes_) {
        index_.erase(it);
        full_ = true;
        return kNone;
      }
      nodes_.emplace_back(board);
    }
    return it->second;
  }

  bool isNode(uint32_t child) const { return child < nodes_.size(); }

  // Whether the database holds `board` for the defender or won by it (a
  // leaf, after any move: see proof/check.h).
  bool known(const Board& board) const {
    if (!database_) return false;
    const int relative = board.sideToMove() == defender_ ? 0 : 1;
    if (database_->holds(board, relative)) return true;
    const std::optional<KnownPosition> won = database_->find(board);
    return won && won->winner == relative;
  }

  void expand(uint32_t n) {
    nodes_[n].expanded = true;
    const Board board = nodes_[n].board;
    MoveList moves;
    generateMoves(board, moves);
    if (board.sideToMove() != defender_) {
      immediateWins(board, wins_);
      if (wins_.size() > 0) return lose(n);
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
      std::vector<uint32_t> children;
      for (Move m : moves) {
        Board after = board;
        after.makeMove(m);
        if (after.winner() != kNoWinner && after.winner() != defender_) return lose(n);
        const uint32_t child = node(after);
        if (child == kNone) return;
        if (isNode(child) && nodes_[child].lost) return lose(n);
        children.push_back(child);
      }
      nodes_[n].moves.assign(moves.begin(), moves.end());
      nodes_[n].children = children;
      // The answers to the attacker's threats are expanded first (pushed
      // last): a loss, if there is one, is most often there.
      std::vector<uint32_t> threats;
      for (uint32_t child : children) {
        if (!isNode(child)) continue;
        Board threat = nodes_[child].board;
        threat.setSideToMove(defender_ ^ 1);
        immediateWins(threat, wins_);
        if (wins_.size() > 0) {
          threats.push_back(child);
        } else {
          need(n, child);
        }
      }
      for (uint32_t child : threats) need(n, child);
      return;
    }
    // The defender: a move that wins or leaves no legal move ends it; else
    // the moves that leave the attacker no line at once, those to positions
    // already searched (and not lost) first.
    std::vector<Move> searched, forcing, fresh;
    for (Move m : moves) {
      Board after = board;
      after.makeMove(m);
      const int w = after.winner();
      if (w == defender_ || (w == kNoWinner && countMoves(after) == 0)) {
        nodes_[n].moves = {m};
        nodes_[n].children = {w == defender_ ? kWonLeaf : kDrawnLeaf};
        return;
      }
      if (w != kNoWinner) continue;
      const auto seen = index_.find(pack(after));
      if (seen != index_.end()) {
        if (!nodes_[seen->second].lost) searched.push_back(m);
        continue;
      }
      if (known(after)) {  // a position the database holds for the defender: as good as a win here
        nodes_[n].moves = {m};
        nodes_[n].children = {kDatabaseLeaf};
        return;
      }
      immediateWins(after, wins_);
      if (wins_.size() > 0) continue;
      // A move that threatens a line forces the attacker's answer: first.
      Board threat = after;
      threat.setSideToMove(defender_);
      immediateWins(threat, wins_);
      (wins_.size() > 0 ? forcing : fresh).push_back(m);
    }
    searched.insert(searched.end(), forcing.begin(), forcing.end());
    searched.insert(searched.end(), fresh.begin(), fresh.end());
    nodes_[n].moves = std::move(searched);
    nodes_[n].next = 0;
    if (!choose(n)) lose(n);
  }

  // The defender at `n` takes its next move whose position is not lost;
  // false if none is left (`n` is then lost).
  bool choose(uint32_t n) {
    while (nodes_[n].next < nodes_[n].moves.size()) {
      Board after = nodes_[n].board;
      after.makeMove(nodes_[n].moves[nodes_[n].next]);
      const uint32_t child = node(after);
      if (child == kNone) return true;  // the table is full: the search ends unknown
      if (!isNode(child) || !nodes_[child].lost) {
        nodes_[n].children.resize(nodes_[n].next + 1, kNone);
        nodes_[n].children[nodes_[n].next] = child;
        if (isNode(child)) need(n, child);
        return true;
      }
      ++nodes_[n].next;
    }
    return false;
  }

  void need(uint32_t parent, uint32_t child) {
    nodes_[child].parents.push_back(parent);
    if (!nodes_[child].expanded) work_.push_back(child);
  }

  // `n` is lost (a forced line for the attacker): its attacker parents are
  // lost, its defender parents that chose it choose again.
  void lose(uint32_t n) {
    std::vector<uint32_t> lost{n};
    while (!lost.empty()) {
      const uint32_t m = lost.back();
      lost.pop_back();
      if (nodes_[m].lost) continue;
      nodes_[m].lost = true;
      std::vector<uint32_t> parents;
      parents.swap(nodes_[m].parents);
      for (uint32_t p : parents) {
        if (nodes_[p].lost) continue;
        if (nodes_[p].board.sideToMove() != defender_) {
          lost.push_back(p);
        } else if (nodes_[p].next < nodes_[p].children.size() && nodes_[p].children[nodes_[p].next] == m) {
          ++nodes_[p].next;
          if (!choose(p)) lost.push_back(p);
        }
      }
    }
  }

  const int defender_;
  Budget& budget_;
  const ProofDatabase* database_;
  const size_t maxNodes_;
  uint64_t pending_ = 0;
  bool stopped_ = false, full_ = false;
  std::vector<Node> nodes_;
  std::unordered_map<PackedPosition, uint32_t, PackedHash> index_;
  std::vector<uint32_t> work_;  // nodes the strategy reaches, to expand (last first)
  MoveList wins_;
};

}  // namespace

const char* defenceWord(Defence defence) {
  switch (defence) {
    case Defence::kHeld:
      return "held";
    case Defence::kLost:
      return "lost";
    case Defence::kUnknown:
      break;
  }
  return "unknown";
}

absl::StatusOr<NotLostResult> proveNotLost(const Board& board, int defender, const NotLostOptions& options) {
  if (board.winner() != kNoWinner) return absl::InvalidArgumentError("the game is already over in this position");
  if (defender != 0 && defender != 1) return absl::InvalidArgumentError("the defender is player 0 or 1");
  if (countMoves(board) == 0) return absl::InvalidArgumentError("the game is already over (no legal move)");
  if (options.database) {  // a held root (see the header); a stored entry that fails its check is searched again
    if (auto stored = storedNotLost(*options.database, board, defender); stored.ok()) return stored;
  }
  NotLostResult result;
  Budget budget(options.maxNodes, options.maxSeconds, options.stop);
  NotLostSearch search(board, defender, options, budget);
  const Status status = search.run();
  result.nodes = budget.nodes();
  result.seconds = budget.seconds();
  if (status == Status::kLost) {
    result.defence = Defence::kLost;
    return result;
  }
  if (status == Status::kUnknown) {
    result.note = search.tableFull() ? "the table is full" : "the budget ran out";
    return result;
  }
  auto certificate = search.certificate();
  if (!certificate.ok()) {
    result.note = absl::StrCat("no certificate: ", certificate.status().message());
    return result;
  }
  auto bytes = encodeCertificate(*certificate);
  if (!bytes.ok()) {
    result.note = absl::StrCat("no certificate: ", bytes.status().message());
    return result;
  }
  std::istringstream in(*bytes);
  const CheckReport report = checkNotLostCertificate(in, {}, options.database);
  if (!report.accepted) {
    result.note = absl::StrCat("the checker rejected the certificate: ", report.reason);
    return result;
  }
  result.defence = Defence::kHeld;
  result.certificate = std::move(*certificate);
  return result;
}

absl::StatusOr<DrawResult> proveDraw(const Board& board, const NotLostOptions& options) {
  if (board.winner() != kNoWinner) return absl::InvalidArgumentError("the game is already over in this position");
  DrawResult result;
  const int stm = board.sideToMove();
  for (int defender : {stm, stm ^ 1}) {
    auto r = proveNotLost(board, defender, options);
    if (!r.ok()) return r.status();
    result.sides[defender] = std::move(*r);
    if (result.sides[defender].defence != Defence::kHeld) return result;
  }
  result.drawn = true;
  return result;
}

}  // namespace gobblet::proof
