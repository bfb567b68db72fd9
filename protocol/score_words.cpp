#include "protocol/score_words.h"

namespace gobblet {

std::string scoreWords(const SearchScore& score) {
  std::string out = std::string(score.isMate ? "mate " : "cp ") + std::to_string(score.value);
  if (score.bound == SearchScore::kLower) out += " lowerbound";
  if (score.bound == SearchScore::kUpper) out += " upperbound";
  return out;
}

}  // namespace gobblet
