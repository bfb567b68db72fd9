#include "tools/tune/training_set.h"

#include <optional>

#include "engine/notation.h"
#include "search/tactics.h"
#include "match/record_file_reader.h"
#include "match/replay.h"

namespace gobblet::tune {

absl::StatusOr<bool> addGame(const match::GameRecord& record, TrainingSet& set, int64_t& positions) {
  if (auto status = match::verifyRecord(record); !status.ok()) return status;
  if (match::isForfeit(record.termination)) return false;
  const float result = record.result == GameResult::kPlayer1Wins   ? 1.0f
                       : record.result == GameResult::kPlayer2Wins ? 0.0f
                                                                   : 0.5f;
  Board board = *parsePosition(record.variant, record.start);  // verified above
  // Position i is the one before move i; the last, after every move, counts
  // when undecided.
  for (size_t i = 0; i <= record.moves.size(); ++i) {
    if (static_cast<int>(i) >= record.bookPlies && board.winner() == kNoWinner) {
      ++positions;
      if (isQuiet(board)) {
        const EvalFeatures f = evaluateFeatures(board);
        int8_t row[kEvalWeightCount];
        for (int w = 0; w < kEvalWeightCount; ++w) {
          // Every count is at most 10 lines x 4 pieces or 16 squares x 3
          // buried pieces: the difference fits a byte.
          row[w] = static_cast<int8_t>(f.count[0][w] - f.count[1][w]);
        }
        set.features.insert(set.features.end(), row, row + kEvalWeightCount);
        set.results.push_back(result);
      }
    }
    if (i < record.moves.size()) board.makeMove(*parseMove(board, record.moves[i]));
  }
  return true;
}

absl::StatusOr<Collection> collectPositions(const std::vector<std::string>& recordFiles,
                                            const CollectOptions& options) {
  Collection c;
  for (const std::string& path : recordFiles) {
    auto reader = match::RecordFileReader::open(path, options.variant);
    if (!reader.ok()) return reader.status();
    while (const std::optional<match::RecordFileEntry> next = (*reader)->next()) {
      const match::RecordFileEntry& entry = *next;
      ++c.games;
      const auto leaveOut = [&](int& count, const std::string& why) {
        if (count++ == 0 && c.firstLeftOut.empty()) c.firstLeftOut = entry.where, c.firstLeftOutWhy = why;
      };
      if (!entry.record.ok()) {
        leaveOut(c.unreadable, std::string(entry.record.status().message()));
        continue;
      }
      const match::GameRecord& record = *entry.record;
      if (record.variant != options.variant) {
        leaveOut(c.otherVariant, "variant " + record.variant.name());
        continue;
      }
      // Games 2k-1 and 2k share an opening (a record without numbers counts
      // in file order).
      const int number = record.number > 0 ? record.number : c.games;
      const bool validation =
          options.validationEvery > 0 && (number - 1) / 2 % options.validationEvery == options.validationEvery - 1;
      auto used = addGame(record, validation ? c.validation : c.training, c.positions);
      if (!used.ok())
        leaveOut(c.inconsistent, std::string(used.status().message()));
      else if (!*used)
        leaveOut(c.forfeits, "a forfeit");
      else
        ++c.gamesUsed;
    }
  }
  c.quietPositions = static_cast<int64_t>(c.training.size() + c.validation.size());
  return c;
}

}  // namespace gobblet::tune
