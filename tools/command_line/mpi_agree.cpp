#include "tools/command_line/mpi_agree.h"

#include <mpi.h>

#include <algorithm>
#include <climits>

#include "absl/strings/str_cat.h"
#include "engine/version.h"

namespace gobblet::cli {
namespace {

absl::Status mpiFailed(int rank, const char* call) {
  return absl::UnavailableError(absl::StrCat("rank ", rank, ": ", call, " failed"));
}

// `text` of rank `from` on every rank (its length, then its bytes).
bool broadcast(std::string& text, int from) {
  unsigned long long size = text.size();
  if (MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, from, MPI_COMM_WORLD) != MPI_SUCCESS || size > INT_MAX) return false;
  text.resize(size);
  return MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, from, MPI_COMM_WORLD) == MPI_SUCCESS;
}

}  // namespace

std::string firstDifference(const std::string& a, const std::string& b, size_t context) {
  const size_t at = static_cast<size_t>(
      std::mismatch(a.begin(), a.begin() + std::min(a.size(), b.size()), b.begin()).first - a.begin());
  const size_t from = at > context ? at - context : 0;
  const auto part = [&](const std::string& s) {
    const std::string cut = s.substr(std::min(from, s.size()), at - from + 2 * context);
    return absl::StrCat(from > 0 ? "..." : "", cut, from + cut.size() < s.size() ? "..." : "");
  };
  return absl::StrCat("'", part(a), "' against '", part(b), "'");
}

absl::Status ranksAgree(const std::string& what) {
  // (The version first: between two builds, the difference rank 0 shows is theirs.)
  const std::string mine = absl::StrCat("version ", versionNumber(), ": ", what);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::string first = rank == 0 ? mine : std::string();
  if (!broadcast(first, 0)) return mpiFailed(rank, "MPI_Bcast");
  // The lowest rank whose text is not rank 0's (ranks: none), then its text.
  int differs = first == mine ? ranks : rank, lowest = ranks;
  if (MPI_Allreduce(&differs, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
    return mpiFailed(rank, "MPI_Allreduce");
  if (lowest == ranks) return absl::OkStatus();
  std::string other = rank == lowest ? mine : std::string();
  if (!broadcast(other, lowest)) return mpiFailed(rank, "MPI_Bcast");
  if (rank != 0)
    return absl::FailedPreconditionError(
        absl::StrCat("rank ", rank, ": stopped, the ranks do not run the same thing (rank 0 says how)"));
  return absl::FailedPreconditionError(
      absl::StrCat("rank 0: the ranks do not run the same thing: rank ", lowest, " has ", firstDifference(other, first),
                   " on rank 0; every rank must run the same version with the same settings"));
}

}  // namespace gobblet::cli
