// storeProof(): what a proof gives a proof database (proof/database.h): an
// entry for its root and one for each position its strategy reaches by a
// drop (proof/drop_split.h), each checked before it is appended; for a
// not-lost certificate, a held entry for its root. The one way every front
// end stores a proved win, loss or held position (`gobblet-prove prove
// --db`, the engine's `go prove`, Python's prove(..., database=) and
// ProofDatabase.store).
// storedProof(), storedNotLost(): what a database gives back for a
// position, checked again: the one way every front end reads an entry it
// shows or plays.
#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "proof/certificate.h"
#include "proof/database.h"
#include "proof/not_lost.h"
#include "proof/prover.h"

namespace gobblet::proof {

struct StoredProof {
  size_t appended = 0;  // entries written (a position the database held already is skipped)
  size_t offered = 0;   // entries the proof gave
};

// Appends `certificate` (a win or a loss the checker accepts given
// `database`) split at its drops, all or nothing; a not-lost certificate
// whole, as a held entry. Errors: splitAtDrops()'s
// and ProofDatabase::append()'s (FailedPrecondition for a database opened
// for reading, Unavailable for a write that failed: the file is as it was).
absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const Certificate& certificate);
// The same for several certificates (a draw's two not-lost ones), all of
// them or nothing.
absl::StatusOr<StoredProof> storeProof(ProofDatabase& database, const std::vector<Certificate>& certificates);

// The database's proof of `board` (its entry, under any symmetry): the
// stored certificate moved onto `board` (proof/certificate_image.h) and
// accepted by the checker given `database` and no history. A certified
// ProofResult, kWin or kLoss for `board`'s side to move, its plies the
// checker's count (whatever the file records). NotFound where the
// database does not hold it; DataLoss where the certificate cannot be read
// or moved, proves the other side's win, or the checker rejects it (the
// reason). Whether the entry may be used in a game is the caller's: where
// the game's history since its last drop is empty.
absl::StatusOr<ProofResult> storedProof(const ProofDatabase& database, const Board& board);

// The database's held entry of `board` for `defender` (a player, 0 or 1):
// the stored not-lost certificate moved onto `board` and accepted by
// checkNotLostCertificate. A NotLostResult kHeld with 0 nodes, its note
// saying it is known. Valid whatever the game's history (a repetition only
// ever draws). NotFound where the database does not hold it; DataLoss where
// the certificate cannot be read or moved or the checker rejects it.
absl::StatusOr<NotLostResult> storedNotLost(const ProofDatabase& database, const Board& board, int defender);

}  // namespace gobblet::proof
