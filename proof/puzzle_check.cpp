#include "puzzle_check.h"

#include <algorithm>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/certificate.h"
#include "proof/check.h"

namespace gobblet::proof {

namespace {

PuzzleReport reject(PuzzleReport report, const Puzzle& puzzle, const std::string& reason) {
  report.accepted = false;
  report.reason = absl::StrCat("puzzle ", puzzle.id, ": ", reason);
  return report;
}

// The certificate's report, with its root bound to `root`: accepted, a win
// for the side to move there. Empty when so, else why not.
std::string checkWinAt(const std::string& bytes, const Board& root, const std::vector<Board>& history,
                       CheckReport& report) {
  std::istringstream in(bytes);
  report = checkCertificate(in, CertificateLimits{}, history);
  if (!report.accepted) return "rejected: " + report.reason;
  if (report.winner != 0) return "proves a win for the side not to move";
  const auto stated = parsePosition(root.variant(), report.position);
  if (report.variant != root.variant().name() || !stated.ok() || !(*stated == root))
    return "proves " + report.variant + " " + report.position + ", not " + positionToString(root);
  return "";
}

// Whether `line` follows the certificate from its root to a won leaf.
std::string followLine(const Certificate& c, Board board, const std::vector<std::string>& line) {
  uint32_t node = 0;
  MoveList moves;
  for (size_t i = 0; i < line.size(); ++i) {
    const std::string at = absl::StrCat("line's move ", i + 1, " ", line[i], ": ");
    if (node == kWonLeaf || node >= c.nodes.size()) return at + "the proof's line has ended";
    const auto move = parseMove(board, line[i]);
    if (!move.ok()) return at + std::string(move.status().message());
    const CertificateNode& n = c.nodes[node];
    if (n.orNode) {
      if (!(n.move == *move)) return at + "the proof plays " + moveToString(n.move, board.variant());
      node = n.children.at(0);
    } else {
      generateMoves(board, moves);
      std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
      const auto k = std::find(moves.begin(), moves.end(), *move) - moves.begin();
      if (k >= static_cast<long>(n.children.size())) return at + "not answered by the proof";
      node = n.children[k];
    }
    board.makeMove(*move);
  }
  if (node != kWonLeaf) return "the line stops before the proof's win";
  return "";
}

}  // namespace

PuzzleReport checkPuzzle(const Puzzle& puzzle, const PuzzleProofs& proofs, const Variant& variant) {
  PuzzleReport report;
  if (proofs.id != puzzle.id) return reject(report, puzzle, absl::StrCat("the proofs are puzzle ", proofs.id, "'s"));
  const auto position = parsePosition(variant, puzzle.position);
  if (!position.ok()) return reject(report, puzzle, std::string(position.status().message()));
  if (position->winner() != kNoWinner) return reject(report, puzzle, "the game is over at the position");
  const auto solution = parseMove(*position, puzzle.solution);
  if (!solution.ok()) return reject(report, puzzle, "solution: " + std::string(solution.status().message()));
  MoveList moves;
  generateMoves(*position, moves);
  std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  if (proofs.certificates.size() != static_cast<size_t>(moves.size()))
    return reject(report, puzzle,
                  absl::StrCat(proofs.certificates.size(), " certificates for the solution and the ", moves.size() - 1,
                               " other moves (", moves.size(), " wanted)"));

  // The solution wins.
  CheckReport win;
  if (std::string why = checkWinAt(proofs.certificates[0], *position, {}, win); !why.empty())
    return reject(report, puzzle, "the solution's certificate " + why);
  std::istringstream in(proofs.certificates[0]);
  const auto certificate = readCertificate(in);
  if (!certificate.ok()) return reject(report, puzzle, std::string(certificate.status().message()));
  const CertificateNode& root = certificate->nodes.at(0);
  if (!root.orNode || !(root.move == *solution))
    return reject(report, puzzle, "the certificate's winning move is not the solution " + puzzle.solution);
  if (win.plies != puzzle.plies)
    return reject(report, puzzle,
                  absl::StrCat("the proof allows ", win.plies, " plies, the puzzle says ", puzzle.plies));
  if (std::string why = followLine(*certificate, *position, puzzle.line); !why.empty())
    return reject(report, puzzle, why);
  report.nodes += win.nodes;

  // Every other move loses.
  size_t next = 1;
  for (Move m : moves) {
    if (m == *solution) continue;
    Board after = *position;
    after.makeMove(m);
    const std::string name = moveToString(m, variant);
    if (after.winner() != kNoWinner) {
      // A move that ends the game needs no certificate: the rules say who won, and it must be the opponent.
      if (after.winner() == position->sideToMove()) return reject(report, puzzle, name + " wins too");
      if (!proofs.certificates[next].empty())
        return reject(report, puzzle, name + " loses at once: its certificate must be empty");
      ++report.alternatives;
      ++next;
      continue;
    }
    CheckReport loss;
    if (std::string why = checkWinAt(proofs.certificates[next], after, {*position}, loss); !why.empty())
      return reject(report, puzzle, absl::StrCat("the certificate that ", name, " loses ", why));
    report.nodes += loss.nodes;
    ++report.alternatives;
    ++next;
  }
  report.accepted = true;
  return report;
}

PuzzleSetReport checkPuzzleSet(const std::string& folder, const Variant& variant) {
  PuzzleSetReport report;
  const auto puzzles = readPuzzlesFile(folder + "/" + kPuzzlesFileName, variant);
  if (!puzzles.ok()) {
    report.reason = std::string(puzzles.status().message());
    return report;
  }
  const auto proofs = readPuzzleProofsFile(folder + "/" + kPuzzleProofsFileName);
  if (!proofs.ok()) {
    report.reason = std::string(proofs.status().message());
    return report;
  }
  report.puzzles = static_cast<int>(puzzles->size());
  if (proofs->size() != puzzles->size())
    report.rejections.push_back(absl::StrCat(proofs->size(), " puzzles' proofs for ", puzzles->size(), " puzzles"));
  for (size_t i = 0; i < puzzles->size(); ++i) {
    const Puzzle& p = (*puzzles)[i];
    if (i >= proofs->size()) {
      report.rejections.push_back(absl::StrCat("puzzle ", p.id, ": no proofs"));
      continue;
    }
    const PuzzleReport r = checkPuzzle(p, (*proofs)[i], variant);
    if (!r.accepted) {
      report.rejections.push_back(r.reason);
      continue;
    }
    ++report.acceptedPuzzles;
    report.alternatives += r.alternatives;
    report.nodes += r.nodes;
  }
  report.accepted = report.rejections.empty();
  if (!report.accepted) report.reason = report.rejections.front();
  return report;
}

}  // namespace gobblet::proof
