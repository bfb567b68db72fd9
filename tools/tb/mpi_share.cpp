// MpiShare: see mpi_share.h.
#include "mpi_share.h"

#include <mpi.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace gobblet::tb {

namespace {

// The pieces of `ranges` (offsets and sizes in units of `unit` bytes) cut
// to fit a stage of `capacity` units, in order: each call of `flush` gets
// the pieces that fill one stage.
struct Piece {
  uint64_t offset, size;  // in units
};

template <typename Flush>
void inStages(const std::vector<BuildShare::Range>& ranges, uint64_t capacity, Flush&& flush) {
  std::vector<Piece> pieces;
  uint64_t filled = 0;
  for (const BuildShare::Range& r : ranges) {
    for (uint64_t done = 0; done < r.size;) {
      const uint64_t take = std::min(r.size - done, capacity - filled);
      pieces.push_back({r.offset + done, take});
      done += take;
      filled += take;
      if (filled == capacity) {
        flush(pieces, filled);
        pieces.clear();
        filled = 0;
      }
    }
  }
  if (filled) flush(pieces, filled);
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpiShare>> MpiShare::start() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return absl::UnavailableError("MPI did not start (MPI_Init_thread)");
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::unique_ptr<MpiShare> share(new MpiShare(rank, ranks));
  if (const char* fail = std::getenv("GOBBLET_TB_TEST_FAIL_RANK"); fail && *fail) share->failRank_ = std::atoi(fail);
  if (const char* kill = std::getenv("GOBBLET_TB_TEST_KILL_RANK"); kill && *kill) share->killRank_ = std::atoi(kill);
  return share;
}

MpiShare::~MpiShare() { MPI_Finalize(); }

void MpiShare::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

absl::Status MpiShare::orWords(uint64_t* words, const std::vector<Range>& ranges) {
  // The stage no larger than the ranges: a few lines OR-ed need no 64 MiB.
  uint64_t total = 0;
  for (const Range& r : ranges) total += r.size;
  const uint64_t capacity = std::clamp<uint64_t>(total, 1, kStageBytes / sizeof(uint64_t));
  stage_.assign(capacity * sizeof(uint64_t), 0);
  uint64_t* stage = reinterpret_cast<uint64_t*>(stage_.data());
  int rc = MPI_SUCCESS;
  inStages(ranges, capacity, [&](const std::vector<Piece>& pieces, uint64_t count) {
    uint64_t at = 0;
    for (const Piece& p : pieces) std::memcpy(stage + at, words + p.offset, p.size * 8), at += p.size;
    if (rc == MPI_SUCCESS)
      rc = MPI_Allreduce(MPI_IN_PLACE, stage, static_cast<int>(count), MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
    at = 0;
    for (const Piece& p : pieces) std::memcpy(words + p.offset, stage + at, p.size * 8), at += p.size;
    out_ += count * 8;
    in_ += count * 8;
  });
  std::vector<uint8_t>().swap(stage_);
  if (rc != MPI_SUCCESS) return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Allreduce failed"));
  return absl::OkStatus();
}

absl::Status MpiShare::shareBytes(uint8_t* bytes, const std::vector<Range>& ranges) {
  uint64_t total = 0;
  for (const Range& r : ranges) total += r.size;
  const uint64_t capacity = std::clamp<uint64_t>(total, 1, kStageBytes);
  stage_.assign(capacity, 0);
  int rc = MPI_SUCCESS;
  std::vector<Range> ofOwner;
  for (int owner = 0; owner < ranks_; ++owner) {
    ofOwner.clear();
    for (const Range& r : ranges)
      if (r.owner == owner) ofOwner.push_back(r);
    inStages(ofOwner, capacity, [&](const std::vector<Piece>& pieces, uint64_t count) {
      uint64_t at = 0;
      if (owner == rank_)
        for (const Piece& p : pieces) std::memcpy(stage_.data() + at, bytes + p.offset, p.size), at += p.size;
      if (rc == MPI_SUCCESS) rc = MPI_Bcast(stage_.data(), static_cast<int>(count), MPI_BYTE, owner, MPI_COMM_WORLD);
      at = 0;
      if (owner != rank_)
        for (const Piece& p : pieces) std::memcpy(bytes + p.offset, stage_.data() + at, p.size), at += p.size;
      (owner == rank_ ? out_ : in_) += count;
    });
  }
  std::vector<uint8_t>().swap(stage_);
  if (rc != MPI_SUCCESS) return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Bcast failed"));
  return absl::OkStatus();
}

absl::Status MpiShare::agree(const absl::Status& given) {
  absl::Status mine = given;
  if (agreements_ + 1 == 4 && rank_ == killRank_) std::raise(SIGKILL);
  if (++agreements_ == 4 && rank_ == failRank_ && mine.ok())
    mine = absl::InternalError(
        absl::StrCat("rank ", rank_, ": simulated failure while solving (GOBBLET_TB_TEST_FAIL_RANK=", rank_, ")"));
  int failing = mine.ok() ? ranks_ : rank_, lowest = ranks_;
  if (MPI_Allreduce(&failing, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
    return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Allreduce failed"));
  if (!mine.ok()) return mine;
  if (lowest < ranks_)
    return absl::AbortedError(
        absl::StrCat("rank ", rank_, ": stopped, rank ", lowest, " failed (its message says why)"));
  return absl::OkStatus();
}

absl::Status MpiShare::reduceWords(uint64_t* values, size_t n, Reduce op) {
  if (MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(n), MPI_UINT64_T, op == Reduce::kSum ? MPI_SUM : MPI_MAX,
                    MPI_COMM_WORLD) != MPI_SUCCESS)
    return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Allreduce failed"));
  return absl::OkStatus();
}

absl::Status MpiShare::exchangeWords(const std::vector<std::vector<uint64_t>>& toEach,
                                     std::vector<uint64_t>* received) {
  // A rank with too many words for a rank (int counts hold 2^31 - 1) says
  // so in every count it sends, so that all ranks fail here together
  // instead of some waiting for words that never come.
  constexpr uint64_t kMostWords = uint64_t{1} << 28, kTooMany = ~uint64_t{0};
  std::vector<uint64_t> sendCounts(ranks_, 0), receiveCounts(ranks_, 0);
  bool tooMany = false;
  for (int r = 0; r < ranks_; ++r) {
    if (r != rank_) sendCounts[r] = toEach[r].size();
    tooMany |= sendCounts[r] > kMostWords;
  }
  if (tooMany) std::fill(sendCounts.begin(), sendCounts.end(), kTooMany);
  if (MPI_Alltoall(sendCounts.data(), 1, MPI_UINT64_T, receiveCounts.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD) !=
      MPI_SUCCESS)
    return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Alltoall failed"));
  for (int r = 0; r < ranks_; ++r)
    if (r != rank_ && receiveCounts[r] == kTooMany) tooMany = true;
  if (tooMany)
    return absl::ResourceExhaustedError(
        absl::StrCat("rank ", rank_, ": a rank has more than ", kMostWords, " words for another in one exchange"));
  uint64_t total = 0;
  for (int r = 0; r < ranks_; ++r) total += receiveCounts[r];
  received->resize(total);
  // Each rank's words straight from its vector into its place: no copy.
  std::vector<MPI_Request> requests;
  requests.reserve(2 * ranks_);
  uint64_t at = 0;
  for (int r = 0; r < ranks_; ++r) {
    if (r == rank_) continue;
    requests.emplace_back();
    MPI_Irecv(received->data() + at, static_cast<int>(receiveCounts[r]), MPI_UINT64_T, r, 1, MPI_COMM_WORLD,
              &requests.back());
    at += receiveCounts[r];
    requests.emplace_back();
    MPI_Isend(toEach[r].data(), static_cast<int>(sendCounts[r]), MPI_UINT64_T, r, 1, MPI_COMM_WORLD, &requests.back());
    out_ += toEach[r].size() * 8;
  }
  if (MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    return absl::UnavailableError(absl::StrCat("rank ", rank_, ": an exchange of words failed"));
  in_ += total * 8;
  return absl::OkStatus();
}

absl::Status MpiShare::sendBytes(int to, const uint8_t* bytes, uint64_t size) {
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  for (uint64_t done = 0; done < size || done == 0; done += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, size - done));
    if (MPI_Send(bytes + done, n, MPI_BYTE, to, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
      return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Send to rank ", to, " failed"));
    if (size == 0) break;
  }
  out_ += size;
  return absl::OkStatus();
}

absl::Status MpiShare::receiveBytes(int from, uint8_t* bytes, uint64_t size) {
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  for (uint64_t done = 0; done < size || done == 0; done += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, size - done));
    if (MPI_Recv(bytes + done, n, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return absl::UnavailableError(absl::StrCat("rank ", rank_, ": MPI_Recv from rank ", from, " failed"));
    if (size == 0) break;
  }
  in_ += size;
  return absl::OkStatus();
}

std::vector<uint64_t> MpiShare::gather(uint64_t value) {
  std::vector<uint64_t> all(ranks_);
  unsigned long long v = value;
  MPI_Allgather(&v, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
  return all;
}

}  // namespace gobblet::tb
