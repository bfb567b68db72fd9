#include "proof/store_proof.h"

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "proof/certificate_image.h"
#include "proof/certified.h"
#include "proof/check.h"
#include "proof/drop_split.h"

namespace gobblet::proof {

absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const std::vector<Certificate>& certificates) {
  std::vector<Certificate> entries;
  for (const Certificate& certificate : certificates) {
    if (certificate.kind == CertificateKind::kNotLost) {  // (a held strategy is not split: its nodes may cycle)
      entries.push_back(certificate);
      continue;
    }
    auto split = splitAtDrops(certificate);
    if (!split.ok()) return split.status();
    for (Certificate& entry : *split) entries.push_back(std::move(entry));
  }
  auto appended = database.append(entries);
  if (!appended.ok()) return appended.status();
  return StoredProof{*appended, entries.size()};
}

absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const Certificate& certificate) {
  return storeProof(database, std::vector<Certificate>{certificate});
}

absl::StatusOr<ProofResult> storedProof(const ProofDatabase& database, const Board& board) {
  const std::optional<KnownPosition> known = database.find(board);
  if (!known) return absl::NotFoundError(positionToString(board) + " is not in the proof database");
  absl::StatusOr<Certificate> certificate = database.certificate(board);
  if (certificate.ok()) certificate = certificateAt(*certificate, board);  // (maybe proved for another image)
  if (!certificate.ok()) return absl::DataLossError(std::string(certificate.status().message()));
  if (certificate->winner != known->winner)
    return absl::DataLossError("its certificate proves a win of the other side");
  ProofResult stored;
  stored.outcome = known->winner == 0 ? Outcome::kWin : Outcome::kLoss;
  stored.certificate = *std::move(certificate);
  certify(stored, {}, &database);  // (a file may have been edited since it was written)
  if (!stored.certified) return absl::DataLossError(stored.note);
  return stored;
}

absl::StatusOr<NotLostResult> storedNotLost(const ProofDatabase& database, const Board& board, int defender) {
  if (defender != 0 && defender != 1) return absl::InvalidArgumentError("the defender is player 0 or 1");
  const int relative = defender == board.sideToMove() ? 0 : 1;
  if (!database.held(board, relative))
    return absl::NotFoundError(
        absl::StrCat(positionToString(board), " is not held for player ", defender + 1, " in the proof database"));
  absl::StatusOr<Certificate> certificate = database.heldCertificate(board, relative);
  if (certificate.ok()) certificate = certificateAt(*certificate, board);  // (maybe proved for another image)
  if (!certificate.ok()) return absl::DataLossError(std::string(certificate.status().message()));
  if (certificate->kind != CertificateKind::kNotLost || certificate->winner != relative)
    return absl::DataLossError("its certificate is not a not-lost one for that defender");
  auto bytes = encodeCertificate(*certificate);
  if (!bytes.ok()) return absl::DataLossError(std::string(bytes.status().message()));
  std::istringstream in(*bytes);
  // (A file may have been edited since it was written.)
  const CheckReport report = checkNotLostCertificate(in, {}, &database);
  if (!report.accepted) return absl::DataLossError("the checker rejects its certificate: " + report.reason);
  NotLostResult stored;
  stored.defence = Defence::kHeld;
  stored.note = "known: the proof database holds it";
  stored.certificate = *std::move(certificate);
  return stored;
}

}  // namespace gobblet::proof
