// OpeningSequence: the opening of each opening pair of a tournament, made
// when it is first asked for.
//
// Opening pair k plays opening k mod N of a list or of an opening file
// (openings.h, read one opening at a time), or else the k-th random opening
// drawn from the seeded generator ("random-<k+1>", or "start" for 0 plies).
// A schedule hands its games out in order (schedule.h), so pairs are asked
// for in order and only the newest opening is held: a match of 10 million
// games takes no more memory for its openings than one of 2, and draws the
// same random openings in the same order as if they had been made up front.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "match/openings.h"

namespace gobblet::match {

class OpeningSequence {
 public:
  // From `list` if not empty, else from `file` if not null (it must outlive
  // the sequence), else random openings of `randomPlies` plies from `seed`.
  OpeningSequence(const Variant& variant, const std::vector<Opening>& list, OpeningFile* file, int randomPlies,
                  uint64_t seed);

  // The opening of pair `k`, which must not be smaller than in the previous
  // call. Fails when a random opening cannot be drawn (tiny variants) or the
  // opening file no longer reads.
  absl::StatusOr<Opening> at(int k);

  // Back to before pair 0, as if just made (the generator reseeded, the
  // file rewound): a resumed match checks the openings of its record, then
  // plays its games from the start of the sequence.
  absl::Status restart();

 private:
  // Makes opening current_ + 1 the current one.
  absl::Status advance();

  Variant variant_;
  const std::vector<Opening>& list_;
  OpeningFile* file_;
  int randomPlies_;
  uint64_t seed_;
  std::mt19937_64 rng_;
  int current_ = -1;  // the pair whose opening is held
  Opening opening_;
};

}  // namespace gobblet::match
