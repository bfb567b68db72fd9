#include "match/opening_sequence.h"

#include "absl/strings/str_cat.h"

namespace gobblet::match {

OpeningSequence::OpeningSequence(const Variant& variant, const std::vector<Opening>& list, OpeningFile* file,
                                 int randomPlies, uint64_t seed)
    : variant_(variant),
      list_(list),
      file_(file),
      randomPlies_(randomPlies),
      seed_(seed),
      rng_(seed),
      opening_{"", Board(variant), {}} {}

absl::Status OpeningSequence::advance() {
  const int k = current_ + 1;
  absl::StatusOr<Opening> opening;
  if (!list_.empty())
    opening = list_[static_cast<size_t>(k) % list_.size()];
  else if (file_ != nullptr)
    opening = file_->next();
  else
    opening = randomOpening(variant_, randomPlies_, rng_, randomPlies_ > 0 ? absl::StrCat("random-", k + 1) : "start");
  if (!opening.ok()) return opening.status();
  opening_ = *std::move(opening);
  current_ = k;
  return absl::OkStatus();
}

absl::StatusOr<Opening> OpeningSequence::at(int k) {
  if (k < current_) return absl::InternalError(absl::StrCat("opening pair ", k, " asked for after ", current_));
  while (current_ < k)
    if (absl::Status status = advance(); !status.ok()) return status;
  return opening_;
}

absl::Status OpeningSequence::restart() {
  rng_.seed(seed_);
  current_ = -1;
  opening_ = Opening{"", Board(variant_), {}};
  if (file_ != nullptr && !file_->rewind()) return absl::UnavailableError("cannot read the opening file again");
  return absl::OkStatus();
}

}  // namespace gobblet::match
