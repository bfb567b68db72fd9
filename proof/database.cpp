#include "proof/database.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "proof/check.h"
#include "database_file.h"

namespace gobblet::proof {

namespace {

constexpr size_t kMaxReasonBytes = 4096;

// An flock held for a scope.
class FileLock {
 public:
  FileLock(int fd, int operation) : fd_(fd) {
    while (flock(fd_, operation) != 0)
      if (errno != EINTR) {
        error_ = errno;
        return;
      }
    held_ = true;
  }
  ~FileLock() {
    if (held_) flock(fd_, LOCK_UN);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  // Ok, or why the lock could not be taken.
  absl::Status status(const std::string& path) const {
    if (held_) return absl::OkStatus();
    return absl::UnavailableError(absl::StrCat("cannot lock ", path, ": ", std::strerror(error_)));
  }

 private:
  int fd_;
  bool held_ = false;
  int error_ = 0;
};

absl::StatusOr<uint64_t> fileSize(int fd, const std::string& path) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return absl::UnavailableError(absl::StrCat("cannot stat ", path, ": ", std::strerror(errno)));
  return static_cast<uint64_t>(st.st_size);
}

// Writes all of `bytes` at `offset`; false (errno set) if the system wrote less.
bool writeAt(int fd, uint64_t offset, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

ProofDatabase::ProofDatabase(int fd, std::string path, Mode mode, const Variant& variant, const DatabaseLimits& limits)
    : fd_(fd),
      path_(std::move(path)),
      mode_(mode),
      variant_(variant),
      limits_(limits),
      index_(variant),
      heldIndex_{KnownPositionIndex(variant), KnownPositionIndex(variant)} {}

ProofDatabase::~ProofDatabase() {
  if (fd_ >= 0) close(fd_);
}

absl::StatusOr<std::unique_ptr<ProofDatabase>> ProofDatabase::open(const std::string& path, Mode mode,
                                                                   const std::optional<Variant>& variant,
                                                                   const DatabaseLimits& limits) {
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer.
  const int flags = (mode == Mode::kRead ? O_RDONLY : O_RDWR | O_CREAT) | O_CLOEXEC | O_NONBLOCK;
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    const std::string why = absl::StrCat("cannot open ", path, ": ", std::strerror(errno));
    return errno == ENOENT ? absl::NotFoundError(why) : absl::UnavailableError(why);
  }
  // Owns fd until the database does.
  std::unique_ptr<ProofDatabase> db(new ProofDatabase(fd, path, mode, variant.value_or(Variant{}), limits));
  if (struct stat st; fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return absl::InvalidArgumentError(absl::StrCat(path, " is not a regular file"));
  FileLock lock(fd, mode == Mode::kRead ? LOCK_SH : LOCK_EX);
  if (auto status = lock.status(path); !status.ok()) return status;
  auto size = fileSize(fd, path);
  if (!size.ok()) return size.status();
  if (*size == 0 && mode == Mode::kReadWrite) {
    if (!variant) return absl::InvalidArgumentError(absl::StrCat(path, " is empty: a new database needs a variant"));
    const std::string header = encodeDatabaseHeader(*variant);
    if (!writeAt(fd, 0, header) || fdatasync(fd) != 0) {
      const std::string why = std::strerror(errno);
      (void)!ftruncate(fd, 0);
      return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", why));
    }
    *size = header.size();
  }
  auto header = readDatabaseHeader(fd);
  if (!header.ok()) return absl::Status(header.status().code(), absl::StrCat(path, ": ", header.status().message()));
  if (variant && header->variant != *variant)
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is a database of ", header->variant.name(), ", not of ", variant->name()));
  db->variant_ = header->variant;
  db->version_ = header->version;
  db->index_ = KnownPositionIndex(header->variant);
  db->heldIndex_[0] = db->heldIndex_[1] = KnownPositionIndex(header->variant);
  db->recordsStart_ = db->end_ = header->recordsStart;
  if (auto status = db->scan(*size); !status.ok()) return status;
  return db;
}

absl::Status ProofDatabase::scan(uint64_t size) {
  tail_ = {};
  while (end_ < size) {
    auto record = readRecord(fd_, end_, size, variant_, limits_.certificate, version_);
    if (!record.ok()) {
      tail_ = {end_, size - end_, printableText(std::string(record.status().message()), kMaxReasonBytes)};
      break;
    }
    if (entries_ >= limits_.maxEntries)
      return absl::ResourceExhaustedError(
          absl::StrCat(path_, " holds more than ", limits_.maxEntries, " entries, the limit"));
    if (record->kind == CertificateKind::kNotLost) {
      addHeld(record->position, record->winner, end_);
    } else {
      index_.add(record->position, {record->winner, record->plies, end_});
      ++wins_[record->winner];
    }
    ++entries_;
    end_ += record->bytes;
  }
  return absl::OkStatus();
}

void ProofDatabase::addHeld(const Board& board, uint8_t defender, uint64_t where) {
  ++heldEntries_[defender];
  if (heldIndex_[defender].add(board, {defender, 0, where}) && heldIndex_[defender ^ 1].find(board)) ++draws_;
}

std::optional<KnownPosition> ProofDatabase::find(const Board& board) const { return index_.find(board); }

std::optional<HeldPosition> ProofDatabase::held(const Board& board, int defender) const {
  if (defender != 0 && defender != 1) return std::nullopt;
  const std::optional<KnownPosition> known = heldIndex_[defender].find(board);
  if (!known) return std::nullopt;
  return HeldPosition{static_cast<uint8_t>(defender), known->where};
}

absl::StatusOr<Certificate> ProofDatabase::readCertificateAt(uint64_t where) const {
  auto size = fileSize(fd_, path_);
  if (!size.ok()) return size.status();
  auto record = readRecord(fd_, where, *size, variant_, limits_.certificate, version_);
  if (!record.ok()) return record.status();
  std::istringstream in(record->certificate);
  return readCertificate(in, limits_.certificate);
}

absl::StatusOr<Certificate> ProofDatabase::certificate(const Board& board) const {
  const std::optional<KnownPosition> known = find(board);
  if (!known) return absl::NotFoundError(absl::StrCat(positionToString(board), " is not in ", path_));
  return readCertificateAt(known->where);
}

absl::StatusOr<Certificate> ProofDatabase::heldCertificate(const Board& board, int defender) const {
  const std::optional<HeldPosition> known = held(board, defender);
  if (!known) return absl::NotFoundError(absl::StrCat(positionToString(board), " is not held in ", path_));
  return readCertificateAt(known->where);
}

absl::Status ProofDatabase::rereadVersion() {
  auto header = readDatabaseHeader(fd_);
  if (!header.ok()) return absl::Status(header.status().code(), absl::StrCat(path_, ": ", header.status().message()));
  version_ = header->version;
  return absl::OkStatus();
}

absl::Status ProofDatabase::reindex() {
  index_ = KnownPositionIndex(variant_);
  heldIndex_[0] = heldIndex_[1] = KnownPositionIndex(variant_);
  entries_ = 0;
  wins_[0] = wins_[1] = 0;
  heldEntries_[0] = heldEntries_[1] = draws_ = 0;
  if (auto status = rereadVersion(); !status.ok()) return status;
  end_ = recordsStart_;
  auto size = fileSize(fd_, path_);
  if (!size.ok()) return size.status();
  return scan(*size);
}

std::optional<Certificate> ProofDatabase::storedCertificate(const Board& board) const {
  auto stored = certificate(board);
  if (!stored.ok()) return std::nullopt;
  return std::move(*stored);
}

absl::StatusOr<bool> ProofDatabase::append(const Certificate& certificate) {
  auto appended = append(std::vector<Certificate>{certificate});
  if (!appended.ok()) return appended.status();
  return *appended == 1;
}

absl::Status ProofDatabase::refresh() {
  FileLock lock(fd_, LOCK_SH);
  if (auto status = lock.status(path_); !status.ok()) return status;
  auto size = fileSize(fd_, path_);
  if (!size.ok()) return size.status();
  if (*size < end_)
    return absl::DataLossError(absl::StrCat(path_, " shrank to ", *size, " bytes, below its last whole record"));
  if (auto status = rereadVersion(); !status.ok()) return status;
  return scan(*size);
}

absl::StatusOr<size_t> ProofDatabase::append(const std::vector<Certificate>& certificates) {
  if (mode_ != Mode::kReadWrite) return absl::FailedPreconditionError(absl::StrCat(path_, " is open for reading"));
  FileLock lock(fd_, LOCK_EX);
  if (auto status = lock.status(path_); !status.ok()) return status;
  // What other processes appended since this one last looked; a damaged
  // tail (a writer that died mid-record: writers hold the lock) is cut off.
  auto size = fileSize(fd_, path_);
  if (!size.ok()) return size.status();
  if (*size < end_)
    return absl::DataLossError(absl::StrCat(path_, " shrank to ", *size, " bytes, below its last whole record"));
  if (*size > end_ || tail_.bytes > 0) {
    if (auto status = rereadVersion(); !status.ok()) return status;
    if (auto status = scan(*size); !status.ok()) return status;
  }
  if (tail_.bytes > 0) {
    if (ftruncate(fd_, static_cast<off_t>(tail_.offset)) != 0)
      return absl::UnavailableError(absl::StrCat("cannot cut the damaged tail of ", path_, ": ", std::strerror(errno)));
    tail_ = {};
  }
  // The records, each checked given the entries before it (this call's
  // earlier ones indexed as they are made: undone if anything fails).
  std::string batch;
  size_t appended = 0;
  bool anyHeld = false;
  const auto undo = [&](absl::Status status) {
    if (auto again = reindex(); !again.ok()) return again;
    return status;
  };
  for (size_t i = 0; i < certificates.size(); ++i) {
    const Certificate& certificate = certificates[i];
    const std::string which = certificates.size() > 1 ? absl::StrCat("certificate ", i, ": ") : "";
    if (certificate.variant != variant_.name())
      return undo(absl::InvalidArgumentError(
          absl::StrCat(which, "a certificate of ", certificate.variant, " in a database of ", variant_.name())));
    auto root = parsePosition(variant_, certificate.position);
    if (!root.ok()) return undo(absl::InvalidArgumentError(which + std::string(root.status().message())));
    const bool isHeld = certificate.kind == CertificateKind::kNotLost;
    const uint8_t side = certificate.winner;  // the winner, or the defender (relative to the side to move)
    if (side > 1)
      return undo(absl::InvalidArgumentError(absl::StrCat(which, "a winner or defender of ", static_cast<int>(side))));
    if (isHeld ? held(*root, side).has_value() : find(*root).has_value()) continue;
    // A held entry and a win of the other side cannot both be true.
    if (const std::optional<KnownPosition> win = isHeld ? find(*root) : std::nullopt; win && win->winner != side)
      return undo(absl::InvalidArgumentError(
          absl::StrCat(which, "contradicts the entry at offset ", win->where, " of ", path_, ": ",
                       positionToString(*root), " is won there by the side the certificate defends against")));
    if (const std::optional<HeldPosition> other = isHeld ? std::nullopt : held(*root, side ^ 1))
      return undo(absl::InvalidArgumentError(
          absl::StrCat(which, "contradicts the held entry at offset ", other->where, " of ", path_, ": ",
                       positionToString(*root), " cannot be lost there by the side the certificate wins against")));
    auto bytes = encodeCertificate(certificate);
    if (!bytes.ok()) return undo(absl::InvalidArgumentError(which + std::string(bytes.status().message())));
    std::istringstream in(*bytes);
    // (A held entry needs no history: a repetition only ever draws.)
    const CheckReport report = isHeld ? checkNotLostCertificate(in, limits_.certificate, this)
                                      : checkCertificate(in, limits_.certificate, {}, this);
    if (!report.accepted)
      return undo(absl::InvalidArgumentError(which + "the checker rejects the certificate: " + report.reason));
    if (isHeld) {
      addHeld(*root, side, end_ + batch.size());
      anyHeld = true;
    } else {
      index_.add(*root, {side, report.plies, end_ + batch.size()});
      ++wins_[side];
    }
    ++entries_;
    ++appended;
    batch += encodeRecord(report.plies, *bytes);
  }
  if (batch.empty()) return appended;
  // A held entry in a version-1 file: the header says version 2 first (a
  // crash after it leaves a version-2 file of wins, which is whole).
  if (anyHeld && version_ < kDatabaseHeldVersion) {
    if (!writeAt(fd_, 0, encodeDatabaseHeader(variant_, kDatabaseHeldVersion)) || fdatasync(fd_) != 0) {
      const std::string why = std::strerror(errno);
      (void)!writeAt(fd_, 0, encodeDatabaseHeader(variant_, version_));
      return undo(
          absl::UnavailableError(absl::StrCat("cannot write to ", path_, ": ", why, " (the file is as it was)")));
    }
    version_ = kDatabaseHeldVersion;
  }
  if (!writeAt(fd_, end_, batch) || fdatasync(fd_) != 0) {
    const std::string why = std::strerror(errno);
    (void)!ftruncate(fd_, static_cast<off_t>(end_));
    return undo(absl::UnavailableError(absl::StrCat("cannot write to ", path_, ": ", why, " (the file is as it was)")));
  }
  end_ += batch.size();
  return appended;
}

}  // namespace gobblet::proof
