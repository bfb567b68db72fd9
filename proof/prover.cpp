#include "prover.h"

#include <thread>
#include <vector>

#include "certificate_image.h"
#include "dfpn.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "extract.h"
#include "proof_table.h"

namespace gobblet::proof {

namespace {

// One search for `attacker` by options.threads searchers sharing `table`;
// the first to decide the root ends the others.
ProofValue searchRoot(const Board& root, int attacker, ProofTable& table, Budget& budget,
                      const ProverOptions& options) {
  std::atomic<bool> solved{false};
  const int threads = std::max(1, options.threads);
  std::vector<ProofValue> values(threads);
  auto run = [&](int i) {
    Searcher searcher(table, budget, attacker, static_cast<uint64_t>(i), options.maxDepth, &solved, options.database,
                      options.guide);
    values[i] = searcher.search(root, options.history);
    if (values[i].decided()) solved.store(true);
  };
  std::vector<std::thread> helpers;
  for (int i = 1; i < threads; ++i) helpers.emplace_back(run, i);
  run(0);
  for (std::thread& t : helpers) t.join();
  for (const ProofValue& v : values)
    if (v.decided() && !v.ghi) return v;
  for (const ProofValue& v : values)
    if (v.decided()) return v;
  return values[0];
}

}  // namespace

const char* outcomeWord(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWin:
      return "win";
    case Outcome::kLoss:
      return "loss";
    case Outcome::kDraw:
      return "draw";
    case Outcome::kUnknown:
      break;
  }
  return "unknown";
}

absl::StatusOr<ProofResult> prove(const Board& board, const ProverOptions& options) {
  if (board.winner() != kNoWinner) return absl::InvalidArgumentError("the game is already over in this position");
  ProofResult result;
  if (countMoves(board) == 0) {
    result.outcome = Outcome::kDraw;
    result.note = "no legal move";
    return result;
  }
  if (options.database && options.history.empty()) {  // a known root (see the header)
    if (const std::optional<KnownPosition> known = options.database->find(board)) {
      std::optional<Certificate> stored = options.database->storedCertificate(board);
      // Proved for another image: the same strategy, moved onto this board.
      absl::StatusOr<Certificate> here =
          stored ? certificateAt(*stored, board) : absl::NotFoundError("no stored certificate");
      if (here.ok() && here->winner == known->winner) {
        result.outcome = known->winner == 0 ? Outcome::kWin : Outcome::kLoss;
        result.plies = known->plies;
        result.note = "known: the proof database holds it";
        result.certificate = std::move(*here);
        return result;
      }
    }
  }
  auto created = ProofTable::create(options.hashMiB);
  if (!created.ok()) return created.status();
  ProofTable& table = **created;
  Budget budget(options.maxNodes, options.maxSeconds, options.stop);
  const int stm = board.sideToMove();
  bool pathFreeDisproofs = true;
  Outcome outcome = Outcome::kUnknown;
  int attacker = stm;
  for (int pass = 0; pass < (options.tryLoss ? 2 : 1) && outcome == Outcome::kUnknown; ++pass) {
    attacker = stm ^ pass;
    const ProofValue v = searchRoot(board, attacker, table, budget, options);
    if (v.proved()) {
      outcome = pass == 0 ? Outcome::kWin : Outcome::kLoss;
    } else if (v.disproved()) {
      pathFreeDisproofs &= !v.ghi;
    } else {
      result.note = "the budget ran out";
      break;
    }
  }
  if (outcome == Outcome::kUnknown && result.note.empty()) {
    if (options.tryLoss && pathFreeDisproofs) {
      outcome = Outcome::kDraw;
      result.note =
          "neither side can force a line (the prover's claim, with no certificate: the not-lost "
          "prover certifies a draw, proof/not_lost.h)";
    } else {
      result.note = pathFreeDisproofs ? "no win for the side to move (the loss was not tried)"
                                      : "disproved only along paths with repetitions or the depth limit";
    }
  }
  result.outcome = outcome;
  if (outcome == Outcome::kWin || outcome == Outcome::kLoss) {
    // The certificate is read back with a budget of its own, as large as the search's.
    Budget extraBudget(options.maxNodes, options.maxSeconds, options.stop);
    auto certificate = extractCertificate(board, attacker, table, extraBudget, options.maxDepth, options.history,
                                          options.database, &result.plies);
    result.nodes += extraBudget.nodes();
    if (certificate.ok()) {
      result.certificate = std::move(*certificate);
    } else {
      result.certificateStatus = certificate.status();
    }
  }
  result.nodes += budget.nodes();
  result.seconds = budget.seconds();
  if (!result.certificate) result.plies = -1;
  return result;
}

}  // namespace gobblet::proof
