#include "proof/database_check.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "proof/check.h"
#include "database_file.h"
#include "proof/known_positions.h"

namespace gobblet::proof {

namespace {

constexpr size_t kMaxReasonBytes = 4096;

// The entries before the one checked, by canonical form (`where`: the
// entry's number): what its database leaves may name.
class EarlierEntries : public KnownPositions {
 public:
  explicit EarlierEntries(const Variant& variant)
      : wins(variant), held{KnownPositionIndex(variant), KnownPositionIndex(variant)} {}
  std::optional<KnownPosition> find(const Board& board) const override { return wins.find(board); }
  bool holds(const Board& board, int defender) const override {
    return (defender == 0 || defender == 1) && held[defender].find(board).has_value();
  }
  KnownPositionIndex wins;
  KnownPositionIndex held[2];  // by defender
};

DatabaseReport reject(DatabaseReport report, int64_t entry, const std::string& reason) {
  report.accepted = false;
  report.badEntry = entry;
  report.reason = printableText(entry >= 0 ? absl::StrCat("entry ", entry, ": ", reason) : reason, kMaxReasonBytes);
  return report;
}

DatabaseReport checkOpen(int fd, const std::string& path, const DatabaseLimits& limits) {
  DatabaseReport report;
  struct stat st;
  if (fstat(fd, &st) != 0) return reject(report, -1, absl::StrCat("cannot stat ", path, ": ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) return reject(report, -1, absl::StrCat(path, " is not a regular file"));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  auto header = readDatabaseHeader(fd);
  if (!header.ok()) return reject(report, -1, std::string(header.status().message()));
  report.variant = header->variant.name();
  EarlierEntries earlier(header->variant);
  uint64_t offset = header->recordsStart;
  for (int64_t entry = 0; offset < size; ++entry) {
    if (static_cast<uint64_t>(entry) >= limits.maxEntries)
      return reject(report, entry, absl::StrCat("more entries than the limit of ", limits.maxEntries));
    auto record = readRecord(fd, offset, size, header->variant, limits.certificate, header->version);
    if (!record.ok()) return reject(report, entry, std::string(record.status().message()));
    const bool held = record->kind == CertificateKind::kNotLost;
    const uint8_t side = record->winner;  // the winner, or the defender
    const std::string where = positionToString(record->position);
    // A contradiction first (whichever entry is wrong, both cannot stand).
    const std::optional<KnownPosition> other =
        held ? earlier.find(record->position) : earlier.held[side ^ 1].find(record->position);
    if (other && (!held || other->winner != side))
      return reject(report, entry,
                    absl::StrCat("(", where, ") ", held ? "held" : "won", " contradicts entry ", other->where, ", ",
                                 held ? "a win of the side it defends against" : "held by the side it wins against"));
    std::istringstream in(record->certificate);
    const CheckReport check = held ? checkNotLostCertificate(in, limits.certificate, &earlier)
                                   : checkCertificate(in, limits.certificate, {}, &earlier);
    if (!check.accepted) return reject(report, entry, absl::StrCat("(", where, ") ", check.reason));
    if (check.plies != record->plies)
      return reject(report, entry,
                    absl::StrCat("(", where, ") records ", record->plies, " plies, the checker counts ", check.plies));
    const uint64_t number = static_cast<uint64_t>(entry);
    if (!held) {
      earlier.wins.add(record->position, {side, record->plies, number});
      ++report.wins[side];
    } else {
      ++report.held[side];
      if (earlier.held[side].add(record->position, {side, 0, number}) && earlier.held[side ^ 1].find(record->position))
        ++report.draws;
    }
    ++report.entries;
    report.nodes += check.nodes;
    offset += record->bytes;
  }
  report.accepted = true;
  return report;
}

}  // namespace

DatabaseReport checkDatabase(const std::string& path, const DatabaseLimits& limits) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // (a FIFO: no wait for a writer)
  if (fd < 0) return reject({}, -1, absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  DatabaseReport report;
  if (flock(fd, LOCK_SH) != 0) {
    report = reject(report, -1, absl::StrCat("cannot lock ", path, ": ", std::strerror(errno)));
  } else {
    report = checkOpen(fd, path, limits);
    flock(fd, LOCK_UN);
  }
  close(fd);
  return report;
}

}  // namespace gobblet::proof
