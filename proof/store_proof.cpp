#include "proof/store_proof.h"

#include "proof/drop_split.h"

namespace gobblet::proof {

absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const Certificate& certificate) {
  auto entries = splitAtDrops(certificate);
  if (!entries.ok()) return entries.status();
  auto appended = database.append(*entries);
  if (!appended.ok()) return appended.status();
  return StoredProof{*appended, entries->size()};
}

}  // namespace gobblet::proof
