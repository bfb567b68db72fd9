// gobblet-tune's pieces: the weights file it writes is the one the engine
// compiles, the training set holds exactly the quiet positions after the
// book with the game's result, and the fit finds a planted model's weights.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/evaluate.h"
#include "search/tactics.h"
#include "tests/support/shell_command.h"
#include "tests/support/whole_file.h"
#include "match/game_record.h"
#include "match/input_limits.h"
#include "tools/tune/texel.h"
#include "tools/tune/training_set.h"
#include "tools/tune/weights_file.h"
#include "tests/support/paths.h"

namespace gobblet::tune {
namespace {

TEST(WeightsFile, WritingTheCompiledInWeightsGivesTheCheckedInFileBack) {
  const std::string text = readWholeFile(gobblet::testing::sourceDir() + "/search/eval_weights.h");
  ASSERT_FALSE(text.empty());
  const std::string provenance = provenanceOf(text);
  ASSERT_FALSE(provenance.empty()) << "search/eval_weights.h is not in the form gobblet-tune writes";
  EXPECT_EQ(formatWeightsFile(evalWeights(), provenance), text);
}

TEST(WeightsFile, ProvenanceIsWrappedAndReadBack) {
  std::string provenance;
  for (int i = 0; i < 60; ++i) provenance += "word" + std::to_string(i) + " ";
  provenance.pop_back();
  const std::string text = formatWeightsFile(evalWeights(), provenance);
  EXPECT_EQ(provenanceOf(text), provenance);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
  EXPECT_EQ(provenanceOf("// something else\n"), "");
  EXPECT_EQ(provenanceOf(formatWeightsFile(evalWeights(), "")), "(not given)");
}

// The evaluation is linear in the weights, as the tuner models it.
TEST(TrainingSet, FeaturesTimesWeightsAreTheEvaluation) {
  std::mt19937_64 rng(5);
  const EvalWeights w = evalWeights();
  for (int game = 0; game < 200; ++game) {
    Board b(Variant::gobblet());
    for (int ply = 0; ply < 40 && b.winner() == kNoWinner; ++ply) {
      const EvalFeatures f = evaluateFeatures(b);
      long dot = 0;
      for (int i = 0; i < kEvalWeightCount; ++i) dot += static_cast<long>(w[i]) * (f.count[0][i] - f.count[1][i]);
      ASSERT_EQ(dot, b.sideToMove() == 0 ? evaluate(b) : -evaluate(b)) << positionToString(b);
      MoveList list;
      generateMoves(b, list);
      if (list.empty()) break;
      b.makeMove(list[static_cast<int>(rng() % list.size())]);
    }
  }
}

match::GameRecord randomGame(std::mt19937_64& rng, int bookPlies) {
  match::GameRecord r;
  r.variant = Variant::gobblet();
  Board b(r.variant);
  r.start = positionToString(b);
  r.bookPlies = bookPlies;
  while (b.winner() == kNoWinner && r.moves.size() < 300) {
    MoveList list;
    generateMoves(b, list);
    const Move m = list[static_cast<int>(rng() % list.size())];
    r.moves.push_back(moveToString(m, r.variant));
    b.makeMove(m);
  }
  r.termination = b.winner() == kNoWinner ? match::Termination::kMaxPlies : match::Termination::kLine;
  r.result = b.winner() == 0   ? GameResult::kPlayer1Wins
             : b.winner() == 1 ? GameResult::kPlayer2Wins
                               : GameResult::kDraw;
  return r;
}

// Won games and drawn ones (cut short: a ply-limit draw, whose last
// position counts too).
TEST(TrainingSet, TakesTheQuietPositionsAfterTheBookWithTheResult) {
  std::mt19937_64 rng(9);
  size_t taken = 0, afterBook = 0, draws = 0;
  for (int game = 0; game < 60; ++game) {
    match::GameRecord r = randomGame(rng, 4);
    if (game % 2 && r.moves.size() > 31) {
      r.moves.resize(30);
      r.termination = match::Termination::kMaxPlies;
      r.result = GameResult::kDraw;
      ++draws;
    }
    // The positions expected, counted by replaying the game here.
    Board b = *parsePosition(r.variant, r.start);
    std::vector<EvalFeatures> quiet;
    int64_t undecided = 0;
    for (size_t i = 0; i <= r.moves.size(); ++i) {
      if (i >= 4 && b.winner() == kNoWinner) {
        ++undecided;
        if (isQuiet(b)) quiet.push_back(evaluateFeatures(b));
      }
      if (i < r.moves.size()) b.makeMove(*parseMove(b, r.moves[i]));
    }
    TrainingSet set;
    int64_t positions = 0;
    auto used = addGame(r, set, positions);
    ASSERT_TRUE(used.ok()) << used.status();
    EXPECT_TRUE(*used);
    EXPECT_EQ(positions, undecided);
    EXPECT_EQ(positions, static_cast<int64_t>(r.moves.size()) - 4 + (r.result == GameResult::kDraw));
    ASSERT_EQ(set.size(), quiet.size());
    const float result = r.result == GameResult::kPlayer1Wins ? 1.0f : r.result == GameResult::kDraw ? 0.5f : 0.0f;
    for (size_t i = 0; i < set.size(); ++i) {
      EXPECT_EQ(set.results[i], result);
      for (int w = 0; w < kEvalWeightCount; ++w)
        ASSERT_EQ(set.featuresOf(i)[w], quiet[i].count[0][w] - quiet[i].count[1][w]);
    }
    taken += set.size();
    afterBook += positions;
  }
  EXPECT_GT(draws, 10u);
  // Not every position is quiet (a side can win at once before most wins).
  EXPECT_LT(taken, afterBook * 9 / 10);
  EXPECT_GT(taken, afterBook / 10);
}

TEST(TrainingSet, ForfeitsAreSkippedAndInconsistentRecordsRefused) {
  std::mt19937_64 rng(3);
  match::GameRecord r = randomGame(rng, 2);
  r.moves.resize(10);
  r.termination = match::Termination::kTimeForfeit;
  r.result = GameResult::kPlayer2Wins;  // player 1 to move after 10 plies: it lost on time
  TrainingSet set;
  int64_t positions = 0;
  auto used = addGame(r, set, positions);
  ASSERT_TRUE(used.ok()) << used.status();
  EXPECT_FALSE(*used);
  EXPECT_EQ(set.size(), 0u);
  r.moves.push_back("a1a1");  // not a move
  EXPECT_FALSE(addGame(r, set, positions).ok());
  EXPECT_EQ(set.size(), 0u);
}

TEST(TrainingSet, AnOverlongRecordLineIsLeftOutAndTheFileStillRead) {
  std::mt19937_64 rng(5);
  const std::string path = ::testing::TempDir() + "tune_overlong_records.txt";
  {
    std::ofstream out(path);
    out << match::formatRecord(randomGame(rng, 2)) << "\n"
        << std::string(match::kMaxInputLineBytes + 1, 'x') << "\n"
        << match::formatRecord(randomGame(rng, 2)) << "\n";
  }
  auto c = collectPositions({path}, CollectOptions());
  std::remove(path.c_str());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->games, 3);
  EXPECT_EQ(c->unreadable, 1);
  EXPECT_EQ(c->gamesUsed + c->forfeits, 2);
  EXPECT_EQ(c->firstLeftOut, path + ":2");
  EXPECT_EQ(c->firstLeftOutWhy, "a line longer than 1048576 bytes");
}

TEST(TrainingSet, AFileOfManyLongRecordsIsReadInBoundedMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer reserves terabytes of address space: ulimit -v cannot apply";
#endif
  // 30 MB of records of 10000 moves each, none consistent (the second move
  // is illegal): gobblet-tune once held every record, 6 million moves.
  std::mt19937_64 rng(7);
  match::GameRecord r = randomGame(rng, 2);
  r.moves.assign(10000, r.moves.front());
  const std::string line = match::formatRecord(r);
  const std::string path = ::testing::TempDir() + "tune_many_records.txt";
  {
    std::ofstream out(path);
    for (size_t written = 0; written < (30u << 20); written += line.size() + 1) out << line << "\n";
  }
  const auto tune = gobblet::testing::runCommand("ulimit -v 204800; exec " + gobblet::testing::binDir() +
                                                 "/gobblet-tune --out /dev/null " + path + " 2>&1");
  std::remove(path.c_str());
  EXPECT_EQ(tune.exitCode, 1) << tune.output;
  EXPECT_NE(tune.output.find("no quiet positions to fit"), std::string::npos) << tune.output;
  EXPECT_NE(tune.output.find(":1: ply 2: "), std::string::npos) << tune.output;
}

// Results drawn from a known model: the fit must reach about its error and
// come close to its scores (its weights themselves are not all determined:
// visible, in-hand and buried pieces of a size add up to the same number).
TEST(Texel, FitRecoversAPlantedModel) {
  std::mt19937_64 rng(17);
  EvalWeights truth = evalWeights();
  const int line = kEvalWeightGroups[0].first, visible = kEvalWeightGroups[2].first;
  truth[line + 5 * 2 + 0] = 60;  // kLine[2][0]: 16
  truth[line + 5 * 3 + 0] = 20;  // kLine[3][0]: 4
  for (int i = 0; i < 4; ++i) truth[visible + i] *= 3;
  const double k = 2.0;
  TrainingSet set;
  while (set.size() < 20000) {
    int64_t positions = 0;
    ASSERT_TRUE(addGame(randomGame(rng, 0), set, positions).ok());
  }
  // The results drawn from the planted model instead of the games'.
  std::uniform_real_distribution<double> uniform(0, 1);
  for (size_t i = 0; i < set.size(); ++i) {
    double s = 0;
    for (int w = 0; w < kEvalWeightCount; ++w) s += truth[w] * set.featuresOf(i)[w];
    set.results[i] = uniform(rng) < expectedScore(s, k) ? 1.0f : 0.0f;
  }
  const Weights start = toWeights(evalWeights());
  FitOptions options;
  const Weights fitted = fitWeights(set, start, k, options);
  const double startError = meanSquaredError(set, start, k), fittedError = meanSquaredError(set, fitted, k);
  const double truthError = meanSquaredError(set, toWeights(truth), k);
  EXPECT_LT(fittedError, startError);
  EXPECT_LT(fittedError - truthError, (startError - truthError) / 4);
  const auto scoreDistance = [&](const Weights& w) {  // mean squared score difference to the truth
    double sum = 0;
    for (size_t i = 0; i < set.size(); ++i) {
      double d = 0;
      for (int j = 0; j < kEvalWeightCount; ++j) d += (w[j] - truth[j]) * set.featuresOf(i)[j];
      sum += d * d;
    }
    return sum / static_cast<double>(set.size());
  };
  EXPECT_LT(scoreDistance(fitted), scoreDistance(start) / 4);
  // And K: fitted to the truth's scores it comes back near the planted K.
  EXPECT_NEAR(fitScale(set, toWeights(truth)), k, 0.5);
}

}  // namespace
}  // namespace gobblet::tune
