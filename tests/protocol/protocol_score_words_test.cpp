// scoreWords(): a score as an `info` line writes it after `score`.
#include <gtest/gtest.h>

#include "protocol/score_words.h"

namespace gobblet {
namespace {

TEST(ScoreWords, AreTheWordsOfAnInfoLine) {
  SearchScore score;
  score.value = 31;
  EXPECT_EQ(scoreWords(score), "cp 31");
  score.isMate = true;
  score.value = -5;
  score.bound = SearchScore::kUpper;
  EXPECT_EQ(scoreWords(score), "mate -5 upperbound");
  score.isMate = false;
  score.value = 0;
  score.bound = SearchScore::kLower;
  EXPECT_EQ(scoreWords(score), "cp 0 lowerbound");
}

}  // namespace
}  // namespace gobblet
