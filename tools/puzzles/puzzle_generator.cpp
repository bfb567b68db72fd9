#include "puzzle_generator.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/canonical.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/prover.h"
#include "proof/puzzle_check.h"

namespace gobblet::puzzles {

namespace {

void sortByCode(MoveList& moves) {
  std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
}

// The side to move at `board` has a move that makes its line.
bool hasLineInOne(const Board& board) {
  MoveList moves;
  generateMoves(board, moves);
  for (Move m : moves) {
    Board after = board;
    after.makeMove(m);
    if (after.winner() == board.sideToMove()) return true;
  }
  return false;
}

// A certificate that the side to move at `board` wins, within `nodes`.
std::optional<proof::Certificate> proveWin(const Board& board, uint64_t nodes, size_t hashMiB,
                                           const std::vector<Board>& history) {
  proof::ProverOptions options;
  options.maxNodes = nodes;
  options.hashMiB = hashMiB;
  options.tryLoss = false;
  options.history = history;
  auto result = proof::prove(board, options);
  if (!result.ok() || result->outcome != proof::Outcome::kWin || !result->certificate) return std::nullopt;
  return std::move(result->certificate);
}

std::optional<std::string> encoded(const proof::Certificate& certificate) {
  auto bytes = proof::encodeCertificate(certificate);
  if (!bytes.ok()) return std::nullopt;
  return std::move(*bytes);
}

}  // namespace

std::vector<std::string> principalLine(const proof::Certificate& c, const Board& root) {
  // The longest game below each node; children are later nodes, so from the last node back.
  std::vector<int> longest(c.nodes.size(), 0);
  const auto below = [&](uint32_t child) { return child == proof::kWonLeaf ? 0 : longest[child]; };
  for (size_t i = c.nodes.size(); i-- > 0;) {
    int most = 0;
    for (uint32_t child : c.nodes[i].children) most = std::max(most, below(child));
    longest[i] = 1 + most;
  }
  std::vector<std::string> line;
  Board board = root;
  uint32_t node = 0;
  MoveList moves;
  while (node != proof::kWonLeaf && node < c.nodes.size()) {
    const proof::CertificateNode& n = c.nodes[node];
    Move move = n.move;
    uint32_t next = n.children.empty() ? proof::kWonLeaf : n.children[0];
    if (!n.orNode) {
      generateMoves(board, moves);
      sortByCode(moves);
      int best = -1;
      for (size_t k = 0; k < n.children.size() && k < static_cast<size_t>(moves.size()); ++k)
        if (below(n.children[k]) > best) {
          best = below(n.children[k]);
          move = moves[static_cast<int>(k)];
          next = n.children[k];
        }
    }
    line.push_back(moveToString(move, board.variant()));
    board.makeMove(move);
    node = next;
  }
  return line;
}

int ratePuzzle(int plies, int alternatives, int quickLosses, bool solutionIsDrop) {
  int rating = plies <= 1 ? (solutionIsDrop ? 1 : 2) : 1 + (plies + 1) / 2;
  if (2 * (alternatives - quickLosses) > alternatives) ++rating;
  return std::clamp(rating, proof::kMinPuzzleRating, proof::kMaxPuzzleRating);
}

std::optional<FoundPuzzle> findPuzzle(const Board& position, const GeneratorOptions& options, bool* won) {
  if (won) *won = false;
  if (position.winner() != kNoWinner) return std::nullopt;
  const int solver = position.sideToMove();
  MoveList moves;
  generateMoves(position, moves);
  sortByCode(moves);
  // Two moves that make a line at once: not one winning move.
  int wins = 0;
  for (Move m : moves) {
    Board after = position;
    after.makeMove(m);
    wins += after.winner() == solver;
  }
  if (wins > 1) {
    if (won) *won = true;
    return std::nullopt;
  }
  if (moves.size() < 2) return std::nullopt;
  Board passed = position;  // the opponent to move: does it threaten a line?
  passed.setSideToMove(1 - solver);
  if (!hasLineInOne(passed)) {
    if (won) *won = wins == 1;  // (a line in one wins; else not known, not searched)
    if (wins == 0) {
      // Not a puzzle; whether won matters to the scan of the game only.
      if (won) *won = proveWin(position, options.winNodes, options.hashMiB, {}).has_value();
    }
    return std::nullopt;
  }
  // Each move's outcome at once: a line of the solver's, a line handed to
  // the opponent, or the opponent's line in one after it (a certificate of
  // one node); the others are quiet. Only few quiet moves are allowed: each
  // must be proved lost, and they are what make most positions no puzzle.
  FoundPuzzle found;
  found.proofs.certificates.assign(static_cast<size_t>(moves.size()), std::string());
  std::vector<bool> quiet(static_cast<size_t>(moves.size()), false);
  int quietMoves = 0;
  MoveList replies;
  for (int i = 0; i < moves.size(); ++i) {
    Board after = position;
    after.makeMove(moves[i]);
    if (after.winner() != kNoWinner) continue;  // a win (counted above) or a line handed over: no certificate
    generateMoves(after, replies);
    Move line = Move::none();
    for (Move r : replies) {
      Board next = after;
      next.makeMove(r);
      if (next.winner() == after.sideToMove()) {
        line = r;
        break;
      }
    }
    if (line.isNone()) {
      quiet[static_cast<size_t>(i)] = true;
      ++quietMoves;
      continue;
    }
    proof::Certificate c;
    c.variant = after.variant().name();
    c.position = positionToString(after);
    c.nodes = {proof::CertificateNode{true, line, {proof::kWonLeaf}}};
    auto bytes = encoded(c);
    if (!bytes) return std::nullopt;
    found.proofs.certificates[static_cast<size_t>(i)] = std::move(*bytes);
  }
  if (quietMoves - (wins == 0 ? 1 : 0) > options.maxQuietMoves) return std::nullopt;

  auto win = proveWin(position, options.winNodes, options.hashMiB, {});
  if (!win || win->nodes.empty() || !win->nodes[0].orNode) return std::nullopt;
  if (won) *won = true;
  const Move solution = win->nodes[0].move;
  for (int i = 0; i < moves.size(); ++i) {
    if (moves[i] == solution) continue;
    Board after = position;
    after.makeMove(moves[i]);
    if (after.winner() != kNoWinner) {
      if (after.winner() == solver) return std::nullopt;  // a second win (cannot be: counted above)
      ++found.quickLosses;                                // hands the opponent a line: lost by the rules
      continue;
    }
    if (!quiet[static_cast<size_t>(i)]) {
      ++found.quickLosses;
      continue;
    }
    auto loss = proveWin(after, options.lossNodes, options.hashMiB, {position});
    if (!loss) return std::nullopt;
    auto bytes = encoded(*loss);
    if (!bytes) return std::nullopt;
    found.proofs.certificates[static_cast<size_t>(i)] = std::move(*bytes);
  }
  // The solution's certificate first, then the others in move-code order.
  auto winBytes = encoded(*win);
  if (!winBytes) return std::nullopt;
  std::vector<std::string> certificates{std::move(*winBytes)};
  for (int i = 0; i < moves.size(); ++i)
    if (!(moves[i] == solution)) certificates.push_back(std::move(found.proofs.certificates[static_cast<size_t>(i)]));
  found.proofs.certificates = std::move(certificates);
  found.alternatives = moves.size() - 1;
  proof::Puzzle& p = found.puzzle;
  p.position = positionToString(position);
  p.solution = moveToString(solution, position.variant());
  p.line = principalLine(*win, position);
  p.plies = proof::certificatePlies(*win);
  p.rating = ratePuzzle(p.plies, found.alternatives, found.quickLosses, solution.isDrop());
  size_t bytes = 0;
  for (const std::string& c : found.proofs.certificates) bytes += c.size();
  if (bytes > options.maxProofBytes) return std::nullopt;
  return found;
}

void PuzzleCollector::addGame(const Game& game, const std::string& name) {
  if (options_.maxPuzzles > 0 && found_.size() >= options_.maxPuzzles) return;
  Game replay(game.start());
  std::vector<Board> positions{replay.position()};
  for (Move m : game.moves()) {
    replay.play(m);
    positions.push_back(replay.position());
  }
  const int winner = replay.position().winner();
  if (winner == kNoWinner) return;
  // The positions with the winner to move, the newest first (the last position, where the game is over, aside).
  const int end = static_cast<int>(positions.size()) - 1;
  for (int ply = end - 1; ply >= 0 && ply >= end - options_.pliesFromEnd; --ply) {
    const Board& position = positions[static_cast<size_t>(ply)];
    if (position.sideToMove() != winner) {
      if (!options_.variations) continue;
      tryVariations(position, positions[static_cast<size_t>(ply) + 1], absl::StrCat(name, " ply ", ply));
      continue;
    }
    bool won = true;
    tryPosition(position, absl::StrCat(name, " ply ", ply), &won);
    if (!won) break;
    if (!options_.variations) continue;
    tryVariations(position, positions[static_cast<size_t>(ply) + 1], absl::StrCat(name, " ply ", ply));
  }
}

void PuzzleCollector::tryVariations(const Board& position, const Board& played, const std::string& source) {
  MoveList moves;
  generateMoves(position, moves);
  const size_t before = found_.size();
  for (Move m : moves) {
    if (found_.size() - before >= static_cast<size_t>(options_.perVariationPly)) return;
    Board after = position;
    after.makeMove(m);
    if (after == played || after.winner() != kNoWinner) continue;
    tryPosition(after, absl::StrCat(source, " ", moveToString(m, position.variant())), nullptr);
  }
}

void PuzzleCollector::tryPosition(const Board& position, const std::string& source, bool* won) {
  std::string key = positionToString(canonicalBoard(position));
  const auto at = std::lower_bound(seen_.begin(), seen_.end(), key);
  if (at != seen_.end() && *at == key) return;  // (tried: `won` stays as it is)
  seen_.insert(at, key);
  ++tried_;
  if (auto found = findPuzzle(position, options_, won)) {
    found->source = source;
    if (onFound_) onFound_(*found);
    found_.push_back(std::move(*found));
  }
}

absl::Status writePuzzleSet(std::vector<FoundPuzzle> puzzles, const std::string& folder,
                            const std::vector<std::string>& header) {
  std::stable_sort(puzzles.begin(), puzzles.end(), [](const FoundPuzzle& a, const FoundPuzzle& b) {
    return std::tie(a.puzzle.rating, a.puzzle.plies, a.puzzle.position) <
           std::tie(b.puzzle.rating, b.puzzle.plies, b.puzzle.position);
  });
  std::vector<proof::Puzzle> list;
  std::vector<proof::PuzzleProofs> proofs;
  for (size_t i = 0; i < puzzles.size(); ++i) {
    puzzles[i].puzzle.id = puzzles[i].proofs.id = static_cast<int>(i) + 1;
    const proof::PuzzleReport report = proof::checkPuzzle(puzzles[i].puzzle, puzzles[i].proofs);
    if (!report.accepted)
      return absl::InternalError(absl::StrCat("the checker rejects ", puzzles[i].source, ": ", report.reason));
    list.push_back(puzzles[i].puzzle);
    proofs.push_back(std::move(puzzles[i].proofs));
  }
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  const auto write = [&](const std::string& name, const std::string& bytes) -> absl::Status {
    const std::string path = folder + "/" + name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
    out.close();
    if (!out) return absl::UnavailableError("cannot write " + path);
    return absl::OkStatus();
  };
  if (auto status = write(proof::kPuzzlesFileName, proof::formatPuzzles(list, header)); !status.ok()) return status;
  return write(proof::kPuzzleProofsFileName, proof::encodePuzzleProofs(proofs));
}

}  // namespace gobblet::puzzles
