// TrainingSet: quiet positions of recorded games with the games' results,
// as evaluation features (search/evaluate.h), for fitting the weights.
//
// A game counts if its record is consistent (replay.h's verifyRecord), of the
// wanted variant, and ended over the board (a line, no moves, a repetition or
// the ply limit; forfeits say nothing about the position). Of each game, the
// positions after the opening's book moves -- the final one too when it is
// undecided (a draw) -- are taken when they are quiet (isQuiet,
// search/tactics.h: the static evaluation is the search's value there); each
// is stored as
//
//   features  kEvalWeightCount signed bytes: count[0][w] - count[1][w]
//             (player 1's counts minus player 2's, tempo included), so that
//             the evaluation from player 1's view is the dot product with
//             the weights;
//   result    the game's result for player 1: 1, 0.5 or 0.
//
// The games of every `validationEvery`-th opening go to the validation set
// instead of the training set, whole: gobblet-match plays each opening twice
// (games 2k-1 and 2k, colours swapped), so that the two sets share neither a
// game nor an opening.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "search/evaluate.h"
#include "match/game_record.h"

namespace gobblet::tune {

struct TrainingSet {
  std::vector<int8_t> features;  // kEvalWeightCount per position
  std::vector<float> results;    // per position
  size_t size() const { return results.size(); }
  const int8_t* featuresOf(size_t i) const { return features.data() + i * kEvalWeightCount; }
};

struct CollectOptions {
  Variant variant = Variant::gobblet();
  int validationEvery = 10;  // 0: no validation set
};

struct Collection {
  TrainingSet training, validation;
  int games = 0;      // games read
  int gamesUsed = 0;  // consistent, of the variant, ended over the board
  // The games left out, by why; the first such game's place ("FILE:LINE").
  int unreadable = 0, inconsistent = 0, otherVariant = 0, forfeits = 0;
  std::string firstLeftOut, firstLeftOutWhy;
  int64_t positions = 0;       // undecided positions after the book in the games used
  int64_t quietPositions = 0;  // of which quiet: the sets' sizes together
};

// Adds the quiet positions of one game (see above); returns whether the
// game was used. InvalidArgument if the record is inconsistent.
absl::StatusOr<bool> addGame(const match::GameRecord& record, TrainingSet& set, int64_t& positions);

// Reads every record file (line records or PGN) into a collection, game by
// game (match/record_file_reader.h: the files' size does not matter, only
// the positions kept). Games left out are counted by why; NotFound if a
// file cannot be opened.
absl::StatusOr<Collection> collectPositions(const std::vector<std::string>& recordFiles, const CollectOptions& options);

}  // namespace gobblet::tune
