// One run of gobblet-match after its command line was read: the compliance
// check, or the match itself (the ranks' agreement and the playing ranks'
// work under MPI, the openings, the record to write or to resume, the
// progress lines, the signal notice, the final table). tools/match/main.cpp
// turns the command line into a MatchRequest and calls runMatch().
#pragma once

#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "match/compliance.h"
#include "match/tournament.h"

namespace gobblet::match {

// Errors of this file: InvalidArgument when the command line asks for what
// cannot be (the program reports a usage error, exit status 2); any other
// code is a failure of the work (exit status 1).
absl::Status usageError(absl::string_view message);
absl::Status workFailure(absl::string_view message);
bool isUsageError(const absl::Status& status);

// Runs the UGI compliance check, writing each step and the verdict to
// `out` as they come; true if no step failed.
bool checkCompliance(const ComplianceSettings& check, std::FILE* out);

// What a match run is asked to do.
struct MatchRequest {
  TournamentSettings settings;  // checked (checkTournamentSettings); openingsPath not opened yet
  std::string recordPath;       // --record, or empty
  std::string recordFormat;     // "line", "pgn", or empty: from the record's name
  std::string resumePath;       // --resume, or empty
  bool quiet = false;           // no progress line per game
};

// How the games of a match are spread over the ranks of an MPI job
// (mpi_distribution.h); a run without one plays them all in this process.
class MatchRanks {
 public:
  virtual ~MatchRanks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // OK on every rank if every rank runs `what` (the same build and text).
  virtual absl::Status agree(const std::string& what) = 0;
  // Rank 0: deals the games to the others and counts them (runTournament's contract).
  virtual absl::StatusOr<TournamentState> coordinate(const TournamentSettings& settings,
                                                     const GameCallback& onGame) = 0;
  // Rank 0 refusing the match before it starts: sends the other ranks home.
  virtual void dismiss() = 0;
  // The other ranks: play the games rank 0 deals until it says none.
  virtual absl::Status work(const TournamentSettings& settings) = 0;
};

// Plays the match of `request`, writing to `out`; `ranks` null or of size 1:
// in this process alone. Under MPI every rank calls it: the ranks first
// agree on what decides the games, ranks 1.. then play and return; rank 0
// (or the only process) opens the openings and the record (a refusal sends
// the other ranks home), says what it plays, installs the signal notice
// (interrupt_notice.h), plays, writing each game to the record as it is
// counted (a game the record cannot take ends the match: DataLoss), and
// writes the final table. Errors as usageError()/workFailure() say.
absl::Status runMatch(MatchRequest request, MatchRanks* ranks, std::FILE* out);

}  // namespace gobblet::match
