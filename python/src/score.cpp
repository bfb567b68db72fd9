#include "score.h"

#include <pybind11/pybind11.h>

#include "protocol/score_words.h"

namespace gobblet::python {

Score Score::pov(int player) const {
  if (player != 1 && player != 2) throw pybind11::value_error("player " + std::to_string(player) + " is not 1 or 2");
  Score out = *this;
  out.player_ = player;
  return out;
}

SearchScore Score::seen() const {
  if (player_ == turn_) return relative_;
  SearchScore s = relative_;
  s.value = -s.value;
  s.bound = s.bound == SearchScore::kLower   ? SearchScore::kUpper
            : s.bound == SearchScore::kUpper ? SearchScore::kLower
                                             : SearchScore::kExact;
  return s;
}

int Score::value() const { return seen().value; }

const char* Score::bound() const {
  const SearchScore s = seen();
  return s.bound == SearchScore::kLower ? "lower" : s.bound == SearchScore::kUpper ? "upper" : "exact";
}

std::string Score::text() const { return scoreWords(seen()); }

}  // namespace gobblet::python
