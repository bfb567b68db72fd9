// The checker of a whole proof database (proof/database.h): every entry,
// in file order, by the certificate checker (proof/check.h), given the
// entries before it and no history. Entry i is accepted when its record is
// whole (length, checksum, a certificate of the file's variant), its
// certificate is accepted with database leaves naming entries 0..i-1 only
// (each after a drop, each won by the same winner), and its recorded plies
// are the checker's count. The first entry that fails rejects the file,
// named by its number (0 is the first) with the reason; so does a cut or
// damaged tail, which open() would drop. An entry whose position an earlier
// entry holds is checked too (the earlier one is the one found).
// A held entry (a not-lost certificate, version-2 files only) is accepted
// when checkNotLostCertificate accepts it (no history: a repetition only
// ever draws; its database leaves naming entries 0..i-1 held by its
// defender or won by it) and it records 0 plies. A held entry and a win of the other
// side at the same position contradict each other: the later of the two is
// rejected, the earlier named ("entry N: ... contradicts entry M").
#pragma once

#include <cstdint>
#include <string>

#include "proof/database.h"

namespace gobblet::proof {

struct DatabaseReport {
  bool accepted = false;
  std::string reason;     // rejected: "entry N: ..." or what is wrong with the header (printable)
  int64_t badEntry = -1;  // the number of the entry that failed (-1: none, or the header)
  std::string variant;
  uint64_t entries = 0;       // entries accepted
  uint64_t wins[2] = {0, 0};  // accepted win entries by winner (0: the side to move)
  uint64_t held[2] = {0, 0};  // accepted held entries by defender (0: the side to move)
  uint64_t draws = 0;         // positions held for both sides
  uint64_t nodes = 0;         // their certificates' nodes
};

DatabaseReport checkDatabase(const std::string& path, const DatabaseLimits& limits = {});

}  // namespace gobblet::proof
