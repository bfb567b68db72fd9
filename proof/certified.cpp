#include "proof/certified.h"

#include <sstream>
#include <string>

namespace gobblet::proof {

void certify(ProofResult& result, const std::vector<Board>& history, const KnownPositions* database) {
  if (!result.certificate) return;
  absl::StatusOr<std::string> bytes = encodeCertificate(*result.certificate);
  CheckReport report;
  if (bytes.ok()) {
    std::istringstream in(*bytes);
    report = checkCertificate(in, {}, history, database);
  } else {
    report.reason = "the certificate cannot be encoded: " + std::string(bytes.status().message());
  }
  if (report.accepted) {
    result.certified = true;
    if (result.outcome == Outcome::kWin || result.outcome == Outcome::kLoss) result.plies = report.plies;
    return;
  }
  result.outcome = Outcome::kUnknown;
  result.note = "the checker rejected the prover's certificate: " + report.reason;
  result.plies = -1;
  result.certificate.reset();
}

Move winningMove(const ProofResult& result) {
  if (result.outcome != Outcome::kWin || !result.certified || result.certificate->nodes.empty()) return Move::none();
  return result.certificate->nodes.front().move;
}

}  // namespace gobblet::proof
