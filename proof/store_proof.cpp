#include "proof/store_proof.h"

#include <string>
#include <utility>

#include "engine/notation.h"
#include "proof/certificate_image.h"
#include "proof/certified.h"
#include "proof/drop_split.h"

namespace gobblet::proof {

absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const Certificate& certificate) {
  auto entries = splitAtDrops(certificate);
  if (!entries.ok()) return entries.status();
  auto appended = database.append(*entries);
  if (!appended.ok()) return appended.status();
  return StoredProof{*appended, entries->size()};
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

}  // namespace gobblet::proof
