#include "compare.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/parallel_for.h"

namespace gobblet::tb {

namespace {

// The first of the header fields that carry values (variant, numbering,
// counts, start, longest distance) in which `a` and `b` differ, or "".
std::string firstHeaderDifference(const FileHeader& a, const FileHeader& b) {
  if (a.n != b.n || a.sizes != b.sizes || a.perSize != b.perSize || a.moving != b.moving) return "variant";
  if (a.entries != b.entries) return "entries";
  if (a.states != b.states) return "states";
  if (a.terminal != b.terminal) return "terminal";
  if (a.wins != b.wins) return "wins";
  if (a.draws != b.draws) return "draws";
  if (a.losses != b.losses) return "losses";
  if (a.startCode != b.startCode) return "start code";
  if (a.maxDistance != b.maxDistance) return "longest distance";
  return "";
}

}  // namespace

absl::StatusOr<FileComparison> compareFiles(const File& a, const File& b, int threads) {
  if (const std::string field = firstHeaderDifference(a.header(), b.header()); !field.empty())
    return absl::InvalidArgumentError(absl::StrCat("the headers differ in their ", field));
  FileComparison result;
  result.numbers = a.header().entries;
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  std::mutex mutex;
  parallelFor((result.numbers + kChunk - 1) / kChunk, std::max(1, threads), 1, [&](int, uint64_t chunk) {
    const uint64_t begin = chunk * kChunk, end = std::min(result.numbers, begin + kChunk);
    // A thread keeps one decoded block (of one file): all of a's codes of
    // the chunk first, then b's.
    std::vector<uint8_t> codesA(end - begin);
    for (uint64_t x = begin; x < end; ++x) codesA[x - begin] = a.codeAt(x);
    uint64_t differing = 0, first = 0;
    uint8_t firstA = 0, firstB = 0;
    for (uint64_t x = begin; x < end; ++x) {
      const uint8_t ca = codesA[x - begin], cb = b.codeAt(x);
      if (ca == cb) continue;
      if (differing++ == 0) first = x, firstA = ca, firstB = cb;
    }
    if (differing == 0) return;
    std::lock_guard<std::mutex> lock(mutex);
    if (result.differing == 0 || first < result.firstDifference)
      result.firstDifference = first, result.firstA = firstA, result.firstB = firstB;
    result.differing += differing;
  });
  return result;
}

std::string describeComparison(const FileComparison& c) {
  if (c.differing == 0) return absl::StrCat("same values: ", c.numbers, " numbers");
  return absl::StrCat(c.differing, " of ", c.numbers, " numbers differ; the first, ", c.firstDifference,
                      ", holds code ", int{c.firstA}, " against ", int{c.firstB});
}

}  // namespace gobblet::tb
