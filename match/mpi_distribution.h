// MPI distribution: one match played over the ranks of an MPI job
// (`mpirun -np N gobblet-match ...`, Slurm's `srun`), built only when CMake
// finds MPI (GOBBLET_MATCH_MPI; match/CMakeLists.txt).
//
// Rank 0 is the coordinator: it owns the GameDealer (tournament.h: the
// schedule, the openings, the scores, the SPRT), the record and the output,
// and plays no game. Every other rank is a worker: --concurrency threads,
// each with its own engines (WorkerEngines), ask rank 0 for a game, play it
// and send the record back, so faster ranks play more games. A game travels
// as its number, its players and its opening (the opening file is read on
// rank 0 only); a result as its record line (game_record.h), which rank 0
// counts and writes exactly as a local run would. When no game is left, or
// the SPRT has decided, or an opening cannot be made, a worker's next
// request is answered "none": it finishes the games it has under way (they
// are counted, as in a local run), stops its engines and says so; rank 0
// returns once every worker has.
//
// Messages (tags), all between rank 0 and one worker:
//   request  worker -> 0  (empty)      "give me a game"
//   assign   0 -> worker  game text    the answer: a game, or empty for none
//   result   worker -> 0  record line  a finished game
//   done     worker -> 0  (empty)      the worker's threads have all stopped
// A worker's threads take turns at MPI (MPI_THREAD_SERIALIZED): request and
// assign go as one exchange under the worker's lock. Rank 0 polls
// (MPI_Iprobe, then a 1 ms sleep) instead of blocking in MPI_Recv, which
// Open MPI implements by spinning: the coordinator costs no core.
//
// A rank that dies ends the job (MPI's default error handler); the record
// holds every game counted so far, and --resume (resume.h) continues it.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "match/match_session.h"
#include "match/tournament.h"

namespace gobblet::match {

class MpiSession : public MatchRanks {
 public:
  // Whether every rank runs `what` (MatchRanks::agree): the program's own
  // check (tools/command_line/mpi_agree.h), which compares its build too.
  using Agreement = std::function<absl::Status(const std::string& what)>;

  // MPI_Init_thread asking for MPI_THREAD_SERIALIZED; fails if the library
  // cannot give it.
  static absl::StatusOr<std::unique_ptr<MpiSession>> start(int& argc, char**& argv, Agreement agreement);
  ~MpiSession() override;             // MPI_Finalize; MPI_Abort (every rank) when an exception unwinds it
  [[noreturn]] void abort(int code);  // MPI_Abort: ends every rank
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  absl::Status agree(const std::string& what) override { return agreement_(what); }

  // Rank 0 of two or more: hands out the games of `settings` to the other
  // ranks and counts their results, calling `onGame` after each (one call
  // at a time, in the order the results arrive), until every worker has
  // stopped. Fails as runTournament() does; the workers are sent home then
  // too.
  absl::StatusOr<TournamentState> coordinate(const TournamentSettings& settings, const GameCallback& onGame) override;
  // Rank 0 when it refuses the match before it starts (a bad --resume
  // record): answers every request "none" until every worker has stopped.
  void dismiss() override;
  // Every other rank: plays the games rank 0 hands out until it says none.
  // Fails only on a message that does not read (a bug, not a game's fate:
  // engines that crash or cheat lose their games as in a local run).
  absl::Status work(const TournamentSettings& settings) override;

 private:
  MpiSession() = default;
  // Rank 0's loop: `dealer` null hands out nothing.
  absl::Status serve(const TournamentSettings* settings, GameDealer* dealer, const GameCallback* onGame);

  int rank_ = 0, size_ = 1;
  Agreement agreement_;
};

}  // namespace gobblet::match
