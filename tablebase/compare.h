// Comparing two tablebase files value by value: the check that a change of
// the builder or of the file's encoding left every answer as it was (the
// files may differ in every byte: block size, dictionary, compression).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "file.h"

namespace gobblet::tb {

// What compareFiles found: the numbers compared and how many of them hold
// different codes (kNoState counts as a code: a state in one file and not
// in the other differs), the lowest such number and its two codes.
struct FileComparison {
  uint64_t numbers = 0;
  uint64_t differing = 0;
  uint64_t firstDifference = 0;  // meaningful when differing > 0
  uint8_t firstA = 0, firstB = 0;
};

// Compares the code of every number of `a` and `b` (File::codeAt), on
// `threads` threads. An error (InvalidArgument) if the files are of
// different variants or numberings, or if their headers' counts, start
// code or longest distance differ (naming the first field that does);
// otherwise the comparison, whose `differing` is 0 exactly when every
// value and distance is the same.
absl::StatusOr<FileComparison> compareFiles(const File& a, const File& b, int threads = 1);

// compareFiles's answer in words: "same values: N numbers" or the count and
// first difference.
std::string describeComparison(const FileComparison& c);

}  // namespace gobblet::tb
