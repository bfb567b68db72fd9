// build, inspect and verifyFile (see tablebase/tablebase.h): the public
// entry points of gobblet-tb's work, over the builder (retrograde.h), the
// file (file.h) and the verifier (verify.h).
#include "code.h"
#include "file.h"
#include "index4.h"
#include "retrograde.h"
#include "retrograde4.h"
#include "tablebase/tablebase.h"
#include "verify.h"

#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/strings/str_cat.h"

namespace gobblet::tb {

namespace {

TableCounts countsOf(uint64_t states, uint64_t terminal, uint64_t wins, uint64_t draws, uint64_t losses,
                     uint8_t startCode, int longest) {
  TableCounts c;
  c.states = states;
  c.terminal = terminal;
  c.wins = wins;
  c.draws = draws;
  c.losses = losses;
  c.start = probeOfCode(startCode);
  c.longest = longest;
  return c;
}

FileInfo infoOf(const File& file) {
  const FileHeader& h = file.header();
  FileInfo info;
  info.formatVersion = h.version;
  info.variant = file.variant();
  info.entries = h.entries;
  info.blockCodes = h.blockCodes;
  info.blocks = (h.entries + h.blockCodes - 1) / h.blockCodes;
  info.dictionaryBytes = h.dictionaryBytes;
  info.bytes = sizeof h + file.compressedBytes();
  info.checksum = h.checksum;
  info.counts = countsOf(h.states, h.terminal, h.wins, h.draws, h.losses, h.startCode, h.maxDistance);
  return info;
}

}  // namespace

// Laying out a 4x4 member's numbering takes milliseconds and megabytes, and
// every session asks on attaching its tablebase: each member is laid out
// once a process.
bool hasIndex(const Variant& variant) {
  if (variant.n == 3) return true;
  static std::mutex mutex;
  static auto* known = new std::unordered_map<std::string, bool>();
  const std::lock_guard lock(mutex);
  auto [at, added] = known->try_emplace(variant.name(), false);
  if (added) at->second = Index4(variant).fits();
  return at->second;
}

absl::StatusOr<TableCounts> build(const Variant& variant, const std::string& path, const BuildOptions& options) {
  if (options.threads < 1 || options.threads > kMaxBuildThreads)
    return absl::InvalidArgumentError("threads " + std::to_string(options.threads) + ": from 1 to " +
                                      std::to_string(kMaxBuildThreads));
  // Over several ranks rank 0 alone checks and writes the file; the others
  // hear whether it could.
  BuildShare* share = options.share != nullptr && options.share->ranks() > 1 ? options.share : nullptr;
  const bool writer = share == nullptr || share->rank() == 0;
  absl::Status target = writer && !path.empty() ? checkOutputPath(path) : absl::OkStatus();  // before hours of solving
  if (share) target = share->agree(target);
  if (!target.ok()) return target;
  // The 4x4 family has its own builder (retrograde4.h), codes in memory;
  // over ranks each holds its range of the numbers.
  if (variant.n == 4 && !options.codesDirectory.empty())
    return absl::UnimplementedError(
        absl::StrCat("variant ", variant.name(), ": a 4x4 build keeps its codes in memory"));
  SolveStats stats;
  absl::Status written;
  if (variant.n == 4 && share) {
    absl::StatusOr<SolvedPart> part = solve4Part(variant, options.threads, *share, options.progress);
    // The file is written only once every rank has its part.
    if (absl::Status all = share->agree(part.status()); !all.ok()) return all;
    written = path.empty() ? absl::OkStatus() : writeFileOfRanks(path, variant, *part, options.threads, *share);
    stats = part->stats;
  } else if (variant.n == 4) {
    absl::StatusOr<Solution> solved = solve4(variant, options.threads, options.progress, options.stop);
    if (!solved.ok()) return solved.status();
    written = writer && !path.empty() ? writeFile(path, variant, *solved, options.threads) : absl::OkStatus();
    stats = solved->stats;
  } else {
    // Over ranks each holds its slices, and all write the file together.
    absl::StatusOr<PackedSolution> solved = solvePacked(variant, options.threads, options.progress, kSharedGroupSize,
                                                        options.codesDirectory, share, options.stop);
    if (share) {
      if (absl::Status all = share->agree(solved.status()); !all.ok()) return all;
    }
    if (!solved.ok()) return solved.status();
    if (share && !path.empty())
      written = writeFileOfSlices(path, variant, *solved, options.threads, *share);
    else if (writer && !path.empty())
      written = writeFile(path, variant, *solved, options.threads);
    stats = solved->stats;
  }
  if (share) written = share->agree(written);
  if (!written.ok()) return written;
  return countsOf(stats.states, stats.terminal, stats.wins, stats.draws, stats.losses, stats.start, stats.maxDistance);
}

absl::StatusOr<FileInfo> inspect(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const File>> file = File::open(path);
  if (!file.ok()) return file.status();
  return infoOf(**file);
}

absl::Status verifyFile(const std::string& path, int threads, const CodesDirectoryChoice& codesDirectory,
                        const VerifyProgress& progress) {
  absl::StatusOr<std::shared_ptr<const File>> file = File::open(path);
  if (!file.ok()) return file.status();
  absl::StatusOr<std::string> directory = codesDirectory ? codesDirectory(infoOf(**file)) : std::string();
  if (!directory.ok()) return directory.status();
  return verify(**file, threads, progress, *directory);
}

}  // namespace gobblet::tb
