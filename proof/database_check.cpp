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
  KnownPositionIndex earlier(header->variant);
  uint64_t offset = header->recordsStart;
  for (int64_t entry = 0; offset < size; ++entry) {
    if (static_cast<uint64_t>(entry) >= limits.maxEntries)
      return reject(report, entry, absl::StrCat("more entries than the limit of ", limits.maxEntries));
    auto record = readRecord(fd, offset, size, header->variant, limits.certificate);
    if (!record.ok()) return reject(report, entry, std::string(record.status().message()));
    std::istringstream in(record->certificate);
    const CheckReport check = checkCertificate(in, limits.certificate, {}, &earlier);
    const std::string where = positionToString(record->position);
    if (!check.accepted) return reject(report, entry, absl::StrCat("(", where, ") ", check.reason));
    if (check.plies != record->plies)
      return reject(report, entry,
                    absl::StrCat("(", where, ") records ", record->plies, " plies, the checker counts ", check.plies));
    earlier.add(record->position, {record->winner, record->plies, offset});
    ++report.entries;
    ++report.wins[record->winner];
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
