#include "database_file.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "file_bytes.h"

namespace gobblet::proof {

namespace {

constexpr size_t kHeaderChecksumOffset = 16, kRecordChecksumOffset = 16;

// Reads up to `n` bytes at `offset`; the count read (short at the end of the file), or -1.
ssize_t readAt(int fd, uint64_t offset, char* data, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t r = pread(fd, data + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  return static_cast<ssize_t>(done);
}

// The checksum of `bytes` with the 8 bytes at `at` read as zero.
uint64_t checksumWithHole(const char* bytes, size_t n, size_t at) {
  const char zeros[8] = {};
  uint64_t sum = checksum(kChecksumStart, bytes, at);
  sum = checksum(sum, zeros, 8);
  return checksum(sum, bytes + at + 8, n - at - 8);
}

}  // namespace

std::string encodeDatabaseHeader(const Variant& variant, uint32_t version) {
  const std::string name = variant.name();
  std::string out(kDatabaseMagic, sizeof kDatabaseMagic);
  putLittleEndian<uint32_t>(out, version);
  putLittleEndian<uint16_t>(out, static_cast<uint16_t>(name.size()));
  putLittleEndian<uint16_t>(out, 0);
  putLittleEndian<uint64_t>(out, 0);
  out += name;
  overwriteLittleEndian64(out.data() + kHeaderChecksumOffset,
                          checksumWithHole(out.data(), out.size(), kHeaderChecksumOffset));
  return out;
}

absl::StatusOr<DatabaseHeader> readDatabaseHeader(int fd) {
  char head[kDatabaseHeaderBytes + kMaxVariantNameBytes];
  const ssize_t got = readAt(fd, 0, head, kDatabaseHeaderBytes);
  if (got < 0) return absl::UnavailableError(absl::StrCat("cannot read: ", std::strerror(errno)));
  if (got >= 8 && std::memcmp(head, kDatabaseMagic, 8) != 0)
    return absl::InvalidArgumentError("not a proof database (bad magic)");
  if (got < static_cast<ssize_t>(kDatabaseHeaderBytes)) return absl::DataLossError("file cut short in the header");
  const uint32_t version = getLittleEndian<uint32_t>(head + 8);
  if (version != kDatabaseVersion && version != kDatabaseHeldVersion)
    return absl::InvalidArgumentError(absl::StrCat("proof database version ", version, ", this reader knows ",
                                                   kDatabaseVersion, " and ", kDatabaseHeldVersion));
  const size_t nameBytes = getLittleEndian<uint16_t>(head + 12);
  if (nameBytes == 0 || nameBytes > kMaxVariantNameBytes)
    return absl::DataLossError(absl::StrCat("bad variant name length ", nameBytes));
  if (readAt(fd, kDatabaseHeaderBytes, head + kDatabaseHeaderBytes, nameBytes) != static_cast<ssize_t>(nameBytes))
    return absl::DataLossError("file cut short in the header");
  const size_t total = kDatabaseHeaderBytes + nameBytes;
  if (getLittleEndian<uint64_t>(head + kHeaderChecksumOffset) != checksumWithHole(head, total, kHeaderChecksumOffset))
    return absl::DataLossError("header checksum mismatch (the header is damaged)");
  const std::string name(head + kDatabaseHeaderBytes, nameBytes);
  auto variant = Variant::parse(name);
  if (!variant.ok())
    return absl::DataLossError(absl::StrCat("bad variant \"", printableText(name, 4 * kMaxVariantNameBytes), "\""));
  return DatabaseHeader{*variant, version, total};
}

std::string encodeRecord(int plies, const std::string& certificate) {
  std::string out;
  out.reserve(kRecordHeaderBytes + certificate.size());
  putLittleEndian<uint64_t>(out, certificate.size());
  putLittleEndian<uint32_t>(out, static_cast<uint32_t>(plies));
  putLittleEndian<uint32_t>(out, 0);
  putLittleEndian<uint64_t>(out, 0);
  out += certificate;
  overwriteLittleEndian64(out.data() + kRecordChecksumOffset,
                          checksumWithHole(out.data(), out.size(), kRecordChecksumOffset));
  return out;
}

absl::StatusOr<DatabaseRecord> readRecord(int fd, uint64_t offset, uint64_t fileSize, const Variant& variant,
                                          const CertificateLimits& limits, uint32_t version) {
  if (offset >= fileSize) return absl::OutOfRangeError("no record there");
  const uint64_t left = fileSize - offset;
  if (left < kRecordHeaderBytes)
    return absl::DataLossError(absl::StrCat("the file ends ", left, " bytes into the record's header"));
  char head[kRecordHeaderBytes];
  if (readAt(fd, offset, head, sizeof head) != static_cast<ssize_t>(sizeof head))
    return absl::DataLossError("cannot read the record's header");
  const uint64_t length = getLittleEndian<uint64_t>(head);
  if (length > left - kRecordHeaderBytes)
    return absl::DataLossError(absl::StrCat("the record's certificate of ", length, " bytes is cut short: the file ",
                                            "ends ", left - kRecordHeaderBytes, " bytes into it"));
  if (length < kCertificateHeaderBytes)
    return absl::DataLossError(absl::StrCat("a certificate length of ", length, " bytes"));
  if (getLittleEndian<uint32_t>(head + 12) != 0) return absl::DataLossError("the record's reserved field is not zero");
  DatabaseRecord record;
  record.offset = offset;
  record.bytes = kRecordHeaderBytes + length;
  record.plies = static_cast<int>(std::min<uint32_t>(getLittleEndian<uint32_t>(head + 8), 1u << 30));
  std::string whole(head, sizeof head);
  whole.resize(record.bytes);
  if (readAt(fd, offset + kRecordHeaderBytes, whole.data() + kRecordHeaderBytes, length) !=
      static_cast<ssize_t>(length))
    return absl::DataLossError("cannot read the record's certificate");
  if (getLittleEndian<uint64_t>(head + kRecordChecksumOffset) !=
      checksumWithHole(whole.data(), whole.size(), kRecordChecksumOffset))
    return absl::DataLossError("the record's checksum is wrong (the record is damaged)");
  record.certificate = whole.substr(kRecordHeaderBytes);
  std::istringstream in(record.certificate);
  auto reader = CertificateReader::open(in, limits);
  if (!reader.ok()) return absl::DataLossError(absl::StrCat("its certificate: ", reader.status().message()));
  const CertificateHeader& h = reader->header();
  if (h.kind != CertificateKind::kWin && (h.kind != CertificateKind::kNotLost || version < kDatabaseHeldVersion))
    return absl::DataLossError("its certificate is not a proof of a win (a held entry needs a version-2 file)");
  if (h.variant != variant.name())
    return absl::DataLossError(absl::StrCat("its certificate is of the variant \"",
                                            printableText(h.variant, 4 * kMaxVariantNameBytes), "\", the file's is ",
                                            variant.name()));
  auto position = parsePosition(variant, h.position);
  if (!position.ok())
    return absl::DataLossError(
        absl::StrCat("its certificate's position does not parse: ", position.status().message()));
  record.position = *position;
  record.winner = h.winner;
  record.kind = h.kind;
  return record;
}

}  // namespace gobblet::proof
