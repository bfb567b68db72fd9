#include "match/replay.h"

#include <optional>
#include <ostream>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "match/record_file_reader.h"

namespace gobblet::match {

absl::Status verifyRecord(const GameRecord& record) {
  auto start = parsePosition(record.variant, record.start);
  if (!start.ok()) return absl::InvalidArgumentError(absl::StrCat("start: ", start.status().message()));
  Referee referee(*start, 0);
  for (size_t i = 0; i < record.moves.size(); ++i)
    if (auto status = referee.play(record.moves[i]); !status.ok())
      return absl::InvalidArgumentError(absl::StrCat("ply ", i + 1, ": ", status.message()));  // names the move
  const Verdict verdict = referee.verdict();
  const int mover = referee.game().position().sideToMove();
  auto mismatch = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("reason=", toString(record.termination),
                                                   " result=", resultToString(record.result),
                                                   record.detail.empty() ? "" : " (" + record.detail + ")", ": ", why));
  };
  switch (record.termination) {
    case Termination::kNone:  // ended by rule, which rule not recorded
      if (!verdict.over() || verdict.termination == Termination::kMaxPlies)
        return mismatch("the rules say the game is still running");
      if (verdict.result != record.result)
        return mismatch(absl::StrCat("the rules say reason=", toString(verdict.termination),
                                     " result=", resultToString(verdict.result)));
      return absl::OkStatus();
    case Termination::kLine:
    case Termination::kNoMoves:
    case Termination::kRepetition:
      if (verdict.termination != record.termination || verdict.result != record.result)
        return mismatch(absl::StrCat("the rules say reason=", toString(verdict.termination),
                                     " result=", resultToString(verdict.result)));
      return absl::OkStatus();
    default:
      break;
  }
  if (verdict.over()) return mismatch(absl::StrCat("the game had ended by rule (", toString(verdict.termination), ")"));
  switch (record.termination) {
    case Termination::kMaxPlies:
      if (record.result != GameResult::kDraw) return mismatch("a ply limit ends in a draw");
      break;
    case Termination::kIllegalMove:
      if (parseMove(referee.game().position(), record.illegalMove).ok())
        return mismatch(absl::StrCat("'", record.illegalMove, "' is legal"));
      [[fallthrough]];
    case Termination::kTimeForfeit:
      if (record.result != lossFor(mover)) return mismatch("the side to move should have lost");
      break;
    default:
      if (record.result == GameResult::kDraw) return mismatch("a forfeit is not a draw");
      break;
  }
  return absl::OkStatus();
}

absl::StatusOr<ReplaySummary> replayFile(const std::string& path, std::ostream& out, const Variant& defaultVariant) {
  auto reader = RecordFileReader::open(path, defaultVariant);
  if (!reader.ok()) return reader.status();
  ReplaySummary summary;
  while (const std::optional<RecordFileEntry> entry = (*reader)->next()) {
    ++summary.games;
    const absl::Status status = entry->record.ok() ? verifyRecord(*entry->record) : entry->record.status();
    if (!status.ok()) {
      ++summary.invalid;
      // The file's bytes, quoted in the message, go to a terminal: printable only.
      out << printableText(entry->where, 300) << ": "
          << printableText(std::string_view(status.message().data(), status.message().size()), 600) << "\n";
    }
  }
  out << "replayed " << summary.games << " games: " << summary.games - summary.invalid << " consistent, "
      << summary.invalid << " inconsistent\n";
  return summary;
}

}  // namespace gobblet::match
