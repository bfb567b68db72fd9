// The prover: decides a position by proof-number search (proof/dfpn.h) and
// writes the proof as a certificate (proof/certificate.h) that the checker
// (proof/check.h) verifies by the rules alone.
//
//   ProverOptions options;            // budget, table size, threads
//   options.maxNodes = 1'000'000;
//   auto result = prove(board, options);
//   if (result.ok() && result->outcome == Outcome::kWin)
//     writeCertificate(*result->certificate, "win.proof");
//
// A position is searched twice at most: first "does the side to move win?",
// then, if that is disproved, "does the other side win?". A proved answer
// (Win, Loss) comes with its certificate; Draw is claimed only when both
// searches are disproved without any repetition or depth limit on the way
// (those disproofs hold for one path only), which the file cannot record.
// Repetition: the game draws at the third occurrence of a position; a
// proof never repeats a position (the certified strategy reaches a line
// without ever returning to a position), nor reaches one of the game's
// earlier positions (ProverOptions::history), so it wins whatever the rule.
// With a proof database (ProverOptions::database, proof/database.h), a
// position it holds, reached by a drop, is a leaf of the search and of the
// certificate (a kDatabaseLeaf): after a drop no earlier position can recur.
// The root itself is answered from the database only where the game's
// history since its last drop is empty (ProverOptions::history; else the
// stored strategy could repeat an earlier position): its stored
// certificate is the answer, moved onto this board when it was proved for
// another image (proof/certificate_image.h), with no node searched. Else
// it is searched.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "proof/certificate.h"
#include "proof/guide.h"
#include "proof/known_positions.h"

namespace gobblet::proof {

enum class Outcome { kWin, kLoss, kDraw, kUnknown };
// "win", "loss", "draw", "unknown".
const char* outcomeWord(Outcome outcome);

struct ProverOptions {
  uint64_t maxNodes = 0;                    // nodes searched, all threads together (0: no limit)
  double maxSeconds = 0;                    // wall time (0: no limit)
  size_t hashMiB = 64;                      // the transposition table
  int threads = 1;                          // searchers sharing the table
  int maxDepth = 200;                       // plies from the root a proof may reach
  bool tryLoss = true;                      // after a disproved win, try to prove the loss
  const std::atomic<bool>* stop = nullptr;  // stops the search when set (may be null)
  // The game's positions before this one since its last drop, oldest first
  // (earlier ones can never recur): the proof reaches none of them, so a
  // win or a loss holds in the game whatever repetitions it has had.
  std::vector<Board> history;
  // Positions already proved, e.g. a ProofDatabase (may be null): one
  // reached by a drop ends the branch. Read only; appending a proof is the
  // caller's (ProofDatabase::append).
  const KnownPositions* database = nullptr;
  // The evaluation's view of positions (proof/guide.h; may be null: none):
  // the initial proof and disproof numbers and the order of moves. It
  // changes which proof is found and how fast, never what is proved.
  const ProofGuide* guide = nullptr;
};

struct ProofResult {
  Outcome outcome = Outcome::kUnknown;
  // Win or Loss: the longest game the certified strategy allows, in plies
  // (an upper bound of the distance to the end with best play; the known
  // positions' plies included); else -1.
  int plies = -1;
  uint64_t nodes = 0;  // nodes searched, extraction included
  double seconds = 0;
  std::string note;  // Unknown: why (budget spent, disproof only along one path); Draw: how; a known root: so
  // Win or Loss: the certificate (winner 0 for a win, 1 for a loss), or why it is missing.
  std::optional<Certificate> certificate;
  absl::Status certificateStatus;
  bool certified = false;  // the checker accepted the certificate (proof/certified.h certify())
};

// Decides `board`. InvalidArgument if the game is already over there.
absl::StatusOr<ProofResult> prove(const Board& board, const ProverOptions& options = {});

}  // namespace gobblet::proof
