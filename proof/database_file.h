// The proof database's file: a header, then one record per entry, each a
// certificate (proof/certificate.h) with its length and its checksum. The
// rules of its use (appending under a lock, a damaged tail dropped) are
// proof/database.h's; the checker of a whole file is proof/database_check.h.
//
//   file (little-endian):
//   offset size
//      0    8  magic "GBPROVED"
//      8    4  version: 1, or 2 once a record holds a not-lost certificate
//     12    2  V: length of the variant name (1..64)
//     14    2  zero
//     16    8  checksum: FNV-1a 64 of the header (these 8 bytes read as zero)
//     24    V  variant name (Variant::name())
//   24+V       the records, entry 0 first, each:
//      0    8  L: the certificate's length in bytes
//      8    4  plies: the longest game the entry's strategy allows, the
//              entries its database leaves name included (the checker's count)
//     12    4  zero
//     16    8  checksum: FNV-1a 64 of the record (these 8 bytes read as zero)
//     24    L  the entry's certificate: its root is the entry's position
//              (found by its canonical form, engine/canonical.h), its
//              winner the entry's winner; a database leaf in it names an
//              earlier entry. In a version-2 file it may instead be a
//              not-lost certificate (version 3, proof/not_lost.h): a held
//              entry, its "winner" the defender (plies 0)
//
// Why the version: a version-1 reader takes a record holding a not-lost
// certificate for a damaged tail, and its next append would cut that record
// and every one after it. A file becomes version 2 (its header rewritten in
// place, same length) before its first held entry is written; a file of
// wins only keeps version 1, readable by every reader.

// A record is trusted only whole: its length within the file, its checksum
// right, its certificate's header readable and of the file's variant.
// Memory to read one is its length, never more than the file holds.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/variant.h"
#include "proof/certificate.h"

namespace gobblet::proof {

inline constexpr char kDatabaseMagic[8] = {'G', 'B', 'P', 'R', 'O', 'V', 'E', 'D'};
inline constexpr uint32_t kDatabaseVersion = 1;      // wins only
inline constexpr uint32_t kDatabaseHeldVersion = 2;  // held entries too
inline constexpr size_t kDatabaseHeaderBytes = 24, kRecordHeaderBytes = 24;

// The header of a database of `variant`, of `version` (1 or 2).
std::string encodeDatabaseHeader(const Variant& variant, uint32_t version = kDatabaseVersion);

// The header read from the start of the file open at `fd`: its variant and
// where the first record starts. InvalidArgument for a file that is not a
// proof database (or of a version other than 1 or 2), DataLoss for a cut or
// damaged header.
struct DatabaseHeader {
  Variant variant;
  uint32_t version = kDatabaseVersion;
  uint64_t recordsStart = 0;
};
absl::StatusOr<DatabaseHeader> readDatabaseHeader(int fd);

// The record of an entry whose certificate file is `certificate` (its bytes).
std::string encodeRecord(int plies, const std::string& certificate);

// A record as read: where it is, its length, its entry.
struct DatabaseRecord {
  uint64_t offset = 0, bytes = 0;  // the record's place and its whole length (header included)
  int plies = 0;
  uint8_t winner = 0;  // the certificate's: 0 the side to move at its root wins (held: defends)
  CertificateKind kind = CertificateKind::kWin;  // kNotLost: a held entry
  Board position;                                // the certificate's root
  std::string certificate;
};

// The record at `offset` of the file open at `fd`, `fileSize` bytes long,
// of a database of `variant`. DataLoss, saying what is wrong: the file
// ends inside the record, its length cannot be a certificate's, its
// checksum is wrong, or its certificate's header does not read (a bad
// magic, version, length or checksum, another variant, a position that
// does not parse, a not-lost certificate in a file of `version` 1).
// `limits` bound the certificate's node count.
absl::StatusOr<DatabaseRecord> readRecord(int fd, uint64_t offset, uint64_t fileSize, const Variant& variant,
                                          const CertificateLimits& limits = {},
                                          uint32_t version = kDatabaseHeldVersion);

}  // namespace gobblet::proof
