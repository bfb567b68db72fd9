// storeProof(): what a proof gives a proof database (proof/database.h): an
// entry for its root and one for each position its strategy reaches by a
// drop (proof/drop_split.h), each checked before it is appended. The one
// way every front end stores a proved win or loss (`gobblet-prove prove
// --db`, the engine's `go prove`, Python's prove(..., database=)).
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"
#include "proof/certificate.h"
#include "proof/database.h"

namespace gobblet::proof {

struct StoredProof {
  size_t appended = 0;  // entries written (a position the database held already is skipped)
  size_t offered = 0;   // entries the proof gave
};

// Appends `certificate` (a win or a loss the checker accepts given
// `database`) split at its drops, all or nothing. Errors: splitAtDrops()'s
// and ProofDatabase::append()'s (FailedPrecondition for a database opened
// for reading, Unavailable for a write that failed: the file is as it was).
absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const Certificate& certificate);

}  // namespace gobblet::proof
