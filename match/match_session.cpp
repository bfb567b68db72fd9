#include "match/match_session.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "interrupt_notice.h"
#include "match/pgn.h"
#include "match/report.h"
#include "match/resume.h"

namespace gobblet::match {
namespace {

// The record of a match being played, once opened.
struct OpenRecord {
  std::ofstream file;       // not open: no record
  std::string path;         // the record's path (--resume's or --record's), or empty
  bool pgn = false;         // PGN, else a record line per game
  std::string resumedText;  // "resuming FILE: N games already played", or empty
};

// Why the record file `path` did not take `what` (errno as left by the
// failed write, 0 if none was told).
std::string recordWriteError(const std::string& path, const std::string& what, int error) {
  return absl::StrCat("cannot write ", what, " to the record file '", path,
                      "': ", error ? std::strerror(error) : "write failed");
}

// Whether the record is PGN: --record-format, else FILE's name (.pgn).
bool recordIsPgn(const MatchRequest& request) {
  const std::string& path = request.recordPath;
  return request.recordFormat == "pgn" || (request.recordFormat.empty() && path.size() >= 4 &&
                                           absl::AsciiStrToLower(path.substr(path.size() - 4)) == ".pgn");
}

// --resume: reads the games of the record into `settings` (each checked to
// be this match's game of its number) and opens the file to append to.
absl::Status openResumed(const MatchRequest& request, TournamentSettings& settings, OpenRecord& record) {
  const std::string& path = request.resumePath;
  if (!request.recordPath.empty() && request.recordPath != path)
    return usageError("--resume FILE appends to FILE: leave out --record, or give the same file");
  auto resumable = openRecordForResume(path, settings);
  if (!resumable.ok()) return usageError(absl::StrCat("--resume: ", resumable.status().message()));
  if (!request.recordFormat.empty() && (request.recordFormat == "pgn") != resumable->pgn)
    return usageError(absl::StrCat("--resume: '", path, "' is not in the --record-format given"));
  record.pgn = resumable->pgn;
  settings.resumed = std::move(resumable->games);
  // Checked now, so that a record that does not belong is refused before any engine starts.
  if (auto dealer = GameDealer::create(settings); !dealer.ok())
    return usageError(absl::StrCat("--resume: ", dealer.status().message()));
  record.resumedText = absl::StrCat("resuming ", path, ": ", settings.resumed.size(), " games already played",
                                    resumable->droppedPartialLine   ? " (a partial last line was cut off)"
                                    : resumable->droppedPartialGame ? " (a last game cut short was cut off)"
                                                                    : "");
  record.path = path;
  record.file.open(path, std::ios::app);
  if (!record.file) return usageError(absl::StrCat("cannot write record file '", path, "'"));
  return absl::OkStatus();
}

// --record: creates the file and writes its match line.
absl::Status openNewRecord(const MatchRequest& request, const TournamentSettings& settings, OpenRecord& record) {
  record.path = request.recordPath;
  record.pgn = recordIsPgn(request);
  record.file.open(record.path, std::ios::trunc);
  if (!record.file) return usageError(absl::StrCat("cannot write record file '", record.path, "'"));
  errno = 0;
  record.file << recordHeader(settings, record.pgn) << "\n" << std::flush;
  if (!record.file) return workFailure(recordWriteError(record.path, "its match line", errno));
  return absl::OkStatus();
}

// Everything that may still refuse the match on rank 0 (or the only
// process): the opening file, the record to resume or to write.
absl::Status openMatch(const MatchRequest& request, TournamentSettings& settings, OpenRecord& record) {
  if (!settings.openingsPath.empty()) {
    auto openings = OpeningFile::open(settings.variant, settings.openingsPath);
    if (!openings.ok()) return usageError(openings.status().message());
    settings.openingFile = *std::move(openings);
  }
  if (!request.resumePath.empty()) return openResumed(request, settings, record);
  if (!request.recordPath.empty()) return openNewRecord(request, settings, record);
  return absl::OkStatus();
}

// The lines before the first game: the engines, the ranks, the resumed games.
void printPreamble(const TournamentSettings& settings, const MatchRanks* ranks, const OpenRecord& record,
                   std::FILE* out) {
  std::fprintf(out, "variant %s, engines:", settings.variant.name().c_str());
  for (const EngineConfig& e : settings.engines)
    std::fprintf(out, " %s (%s)", e.name.c_str(), e.limits.describe().c_str());
  std::fprintf(out, "\n");
  if (ranks)
    std::fprintf(out, "over MPI: %d ranks, rank 0 hands out the games, %d play them (--concurrency %d each)\n",
                 ranks->size(), ranks->size() - 1, settings.concurrency);
  if (!record.resumedText.empty()) std::fprintf(out, "%s\n", record.resumedText.c_str());
  std::fflush(out);
}

// After each game: its progress line, then its record, flushed and counted
// for the signal notice. A game the record cannot take (a full disk,
// /dev/full) is DataLoss, which starts no further game: games played on
// would be lost. `recorded` counts the games the record holds.
GameCallback recordEachGame(const TournamentSettings& settings, bool quiet, OpenRecord& record, int& recorded,
                            std::FILE* out) {
  PgnHeader pgnHeader;
  pgnHeader.date = pgnDateToday();
  return [&settings, quiet, &record, &recorded, out, pgnHeader](const GameRecord& game,
                                                                const TournamentState& now) -> absl::Status {
    if (!quiet) std::fprintf(out, "%s\n", progressLine(game, now, settings).c_str()), std::fflush(out);
    if (!record.file.is_open()) return absl::OkStatus();
    if (!record.file) return absl::OkStatus();  // failed already: said once
    const RecordWriting writing;                // a signal's notice counts this game or not, as the record will
    errno = 0;
    record.file << (record.pgn ? formatPgn(game, pgnHeader) : formatRecord(game) + "\n") << std::flush;
    if (!record.file)
      return absl::DataLossError(absl::StrCat(recordWriteError(record.path, absl::StrCat("game ", game.number), errno),
                                              "; no further game was started: ", recorded,
                                              " games are recorded; once it can be written, --resume ", record.path,
                                              " plays the others"));
    noticeRecorded(++recorded);
    return absl::OkStatus();
  };
}

}  // namespace

absl::Status usageError(absl::string_view message) { return absl::InvalidArgumentError(message); }
absl::Status workFailure(absl::string_view message) { return absl::AbortedError(message); }
bool isUsageError(const absl::Status& status) { return status.code() == absl::StatusCode::kInvalidArgument; }

bool checkCompliance(const ComplianceSettings& check, std::FILE* out) {
  int passed = 0, failed = 0, skipped = 0;
  runCompliance(check, [&](const StepReport& step) {
    std::fprintf(out, "%s\n", formatStep(step).c_str());
    std::fflush(out);
    (step.outcome == StepOutcome::kPass ? passed : step.outcome == StepOutcome::kFail ? failed : skipped)++;
  });
  std::fprintf(out, "%s: %d passed, %d failed, %d skipped (%s, %s)\n", failed == 0 ? "COMPLIANT" : "NOT COMPLIANT",
               passed, failed, skipped, check.variant.name().c_str(), check.protocol == Protocol::kUgi ? "ugi" : "uci");
  return failed == 0;
}

absl::Status runMatch(MatchRequest request, MatchRanks* ranks, std::FILE* out) {
  if (ranks && ranks->size() < 2) ranks = nullptr;
  TournamentSettings& settings = request.settings;
  if (ranks) {
    // Every rank plays its games by its own settings: they must be rank 0's
    // (a rank with the engines swapped turned a 20-0 into 0-20).
    if (absl::Status same = ranks->agree(absl::StrCat("gobblet-match ", matchLine(settings), " timeout-ms=",
                                                      settings.game.timeoutMs, " margin-ms=", settings.game.marginMs));
        !same.ok())
      return workFailure(same.message());
    if (ranks->rank() > 0) {
      if (absl::Status status = ranks->work(settings); !status.ok()) return workFailure(status.message());
      return absl::OkStatus();
    }
  }
  OpenRecord record;
  if (absl::Status refused = openMatch(request, settings, record); !refused.ok()) {
    if (ranks) ranks->dismiss();
    return refused;
  }
  printPreamble(settings, ranks, record, out);
  int recorded = static_cast<int>(settings.resumed.size());
  const GameCallback onGame = recordEachGame(settings, request.quiet, record, recorded, out);
  installInterruptNotice(
      record.path, recorded,
      scheduledGameCount(static_cast<int>(settings.engines.size()), settings.format, settings.gamesPerPairing));
  auto state = ranks ? ranks->coordinate(settings, onGame) : runTournament(settings, onGame);
  if (!state.ok()) return workFailure(state.status().message());
  noticeMatchOver();
  std::fprintf(out, "%s", finalReport(*state, settings).c_str());
  return absl::OkStatus();
}

}  // namespace gobblet::match
