// ProofDatabase: what is proved stays proved. A file of proved positions of
// one variant (proof/database_file.h), each entry a position, its winner,
// its plies and its certificate, which a later certificate may end a branch
// at (a kDatabaseLeaf, proof/certificate.h) and the prover treats as a leaf
// (ProverOptions::database).
//
//   auto db = ProofDatabase::open("gobblers.pdb", ProofDatabase::Mode::kReadWrite, Variant::gobblers());
//   ProverOptions options;
//   options.database = db->get();
//   auto result = prove(board, options);          // known positions are leaves
//   certify(*result, {}, db->get());              // proof/certified.h
//   (*db)->append(*result->certificate);          // checked, then appended
//   (*db)->append(*splitAtDrops(*result->certificate));  // with its drop sub-positions (proof/drop_split.h)
//
// Soundness with the repetition rule: an entry's certificate proves its
// position won with no history, by a strategy that never needs to repeat a
// position (no cycle: the winner can always move nearer a leaf). A database
// leaf may follow a drop only: pieces never leave the board, so after a
// drop no earlier position of the game can recur, and the entry's strategy wins whatever came before. An entry names
// only earlier entries, so the references have no cycle; the checker of a
// whole file (proof/database_check.h) verifies every entry in order.
// Storing a proof is always sound (its certificate holds by itself, given
// the entries before it); using a stored position is sound only where no
// earlier position can recur: after a drop, or at the root of a game whose
// history since its last drop is empty.
//
// Held entries. A record whose certificate is a not-lost one (version 3,
// proof/not_lost.h) is a held entry: its position cannot be lost by its
// defender (given relative to the side to move, as a win's winner is). It
// is checked by checkNotLostCertificate with no history, and needs none:
// a repetition only ever draws, so whatever positions the game had before,
// the defender's closed strategy still never lets the attacker make a line.
// Held entries have their own index, by (canonical form, defender): find(),
// the win prover's and the checker's lookup, never returns one; held()
// does. A position held for both sides is a draw. A held entry and a win of
// the other side at the same position contradict each other (one of the
// checkers would be wrong): append() refuses the second, naming the first.
//
// The file is append-only. open() reads it under a shared lock (flock) and
// indexes every whole record: a cut or damaged tail (a crash mid-write) is
// reported (tail()) and dropped, never trusted. append() takes the
// exclusive lock, reads what other processes appended since, truncates a
// damaged tail, and writes the new record at the end; a write that fails
// (a full disk, a file size limit) puts the file back to its previous end.
// Memory: the index (about 64 bytes an entry); certificates are read from
// the file when asked for. Not for use by two threads at once, except
// find(), which many threads may call while nothing is appended.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "proof/certificate.h"
#include "proof/known_positions.h"

namespace gobblet::proof {

struct DatabaseLimits {
  uint64_t maxEntries = uint64_t{1} << 26;  // entries indexed (ResourceExhausted beyond)
  CertificateLimits certificate;            // each entry's certificate
};

// The bytes at the end of a file that do not make a whole record.
// A held entry as found (ProofDatabase::held()).
struct HeldPosition {
  uint8_t defender = 0;  // 0: the side to move cannot lose, 1: the other side cannot
  uint64_t where = 0;    // its record's offset in the file
};

struct DatabaseTail {
  uint64_t offset = 0, bytes = 0;  // bytes 0: none
  std::string reason;              // why the record there is not whole (printable)
};

class ProofDatabase : public KnownPositions {
 public:
  enum class Mode { kRead, kReadWrite };

  // Opens the database at `path`. kReadWrite creates it, for `variant`
  // (required then), when the file is missing or empty. An existing file's
  // variant must be `variant` when one is given. Errors: NotFound (no such
  // file, kRead), InvalidArgument (not a proof database, another variant),
  // DataLoss (a damaged header), ResourceExhausted (more entries than
  // limits.maxEntries), Unavailable (the system refused).
  static absl::StatusOr<std::unique_ptr<ProofDatabase>> open(const std::string& path, Mode mode,
                                                             const std::optional<Variant>& variant = std::nullopt,
                                                             const DatabaseLimits& limits = {});
  ~ProofDatabase() override;
  ProofDatabase(const ProofDatabase&) = delete;
  ProofDatabase& operator=(const ProofDatabase&) = delete;

  const Variant& variant() const { return variant_; }
  const std::string& path() const { return path_; }
  uint64_t entries() const { return entries_; }  // whole records read (a position stored twice counts twice)
  uint64_t wins(uint8_t winner) const { return wins_[winner]; }  // entries with that winner (0: the side to move)
  // Held entries with that defender (0: the side to move; a position stored
  // twice counts twice), and the positions held for both sides (draws).
  uint64_t heldEntries(uint8_t defender) const { return heldEntries_[defender]; }
  uint64_t draws() const { return draws_; }
  const DatabaseTail& tail() const { return tail_; }

  // The entry of `board`'s canonical form (KnownPositions).
  std::optional<KnownPosition> find(const Board& board) const override;
  // The certificate of the entry of `board`'s canonical form, read from
  // the file (NotFound if none). Its root is the position as proved, maybe
  // another image of `board`.
  absl::StatusOr<Certificate> certificate(const Board& board) const;
  // certificate(board), or none if it cannot be read (KnownPositions).
  std::optional<Certificate> storedCertificate(const Board& board) const override;
  // The held entry of `board`'s canonical form whose defender is
  // `defender` (0: `board`'s side to move, 1: the other side), if any.
  std::optional<HeldPosition> held(const Board& board, int defender) const;
  // held(board, defender) found (KnownPositions).
  bool holds(const Board& board, int defender) const override { return held(board, defender).has_value(); }
  // Whether `board`'s canonical form is held for both sides.
  bool drawn(const Board& board) const { return held(board, 0) && held(board, 1); }
  // The certificate of that held entry, read from the file (NotFound if
  // none); its root may be another image of `board`.
  absl::StatusOr<Certificate> heldCertificate(const Board& board, int defender) const;

  // Appends an entry for each certificate's root, in order, each after the
  // checker (proof/check.h) accepts the certificate given this database
  // (the entries before it, those of this call included) and no history: a
  // win by checkCertificate, a not-lost certificate (a held entry) by
  // checkNotLostCertificate. A win whose position has a win entry, or a
  // not-lost certificate whose position is held for that defender, is
  // skipped. The first held entry makes the file version 2
  // (proof/database_file.h). All or nothing: the number appended, or an
  // error and no entry appended. Errors: InvalidArgument (the checker's
  // reason, another variant, or a contradiction: a win of the other side
  // at a held position or the reverse, naming the entry's offset; each
  // naming the certificate by its place in the list), FailedPrecondition
  // (opened kRead), Unavailable
  // (the write failed: the file is as it was), DataLoss (the file changed
  // under the lock in a way no appender makes).
  absl::StatusOr<size_t> append(const std::vector<Certificate>& certificates);
  // One certificate: true if appended, false if its position was held.
  absl::StatusOr<bool> append(const Certificate& certificate);
  // Indexes the records other processes appended since open() or the last
  // refresh(), under the shared lock (a reader following a writer: the
  // ranks of `gobblet-prove grow` under mpirun). A damaged tail is dropped
  // again. Errors: Unavailable (the system refused), DataLoss (the file
  // shrank below its last whole record), ResourceExhausted (as open()).
  absl::Status refresh();

 private:
  ProofDatabase(int fd, std::string path, Mode mode, const Variant& variant, const DatabaseLimits& limits);
  // Indexes the records from end_ to `fileSize`; a record that is not
  // whole stops the scan and becomes the tail.
  absl::Status scan(uint64_t fileSize);
  // Indexes the file again from its first record.
  absl::Status reindex();
  // Reads the header's version again (another process may have raised it).
  absl::Status rereadVersion();
  // The certificate of the record at `where`.
  absl::StatusOr<Certificate> readCertificateAt(uint64_t where) const;
  // Indexes a held entry of `board` read or written at `where`.
  void addHeld(const Board& board, uint8_t defender, uint64_t where);

  int fd_ = -1;
  std::string path_;
  Mode mode_;
  Variant variant_;
  DatabaseLimits limits_;
  uint32_t version_ = 1;             // the file's (proof/database_file.h)
  KnownPositionIndex index_;         // the win entries
  KnownPositionIndex heldIndex_[2];  // the held entries, by defender
  uint64_t recordsStart_ = 0;
  uint64_t end_ = 0;  // the end of the last whole record
  uint64_t entries_ = 0;
  uint64_t wins_[2] = {0, 0};
  uint64_t heldEntries_[2] = {0, 0}, draws_ = 0;
  DatabaseTail tail_;
};

}  // namespace gobblet::proof
