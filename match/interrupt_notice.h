// What a match says when it is ended by SIGINT or SIGTERM: Ctrl-C, mpirun
// forwarding either, Slurm at the job's time limit (SIGTERM, then SIGKILL
// after the cluster's KillWait, 30 s by default). The record holds every
// game counted so far (each line is flushed as the game is counted), so the
// notice says how many and how to go on:
//
//   gobblet-match: SIGTERM: the record games.txt holds 46 games; to play the
//   others, run the same command with --resume games.txt
//
// Once the record holds every game of the match, or the match has ended
// (the SPRT decided), there is nothing to resume and it says so instead:
//
//   gobblet-match: SIGTERM: the match is complete: the record games.txt
//   holds all 20 games
//
// Then the process dies of the signal as it would have without the notice.
// Rank 0 (or the only process) installs it; the playing ranks die quietly.
#pragma once

#include <signal.h>

#include <cstdint>
#include <string>

namespace gobblet::match {

// Installs the handlers for a match of `matchGames` games recording to
// `recordPath` (empty: none), which holds `games` games now.
void installInterruptNotice(const std::string& recordPath, int games, int64_t matchGames);
// The record holds `games` games now (after a line was written and flushed).
void noticeRecorded(int games);
// The match has ended (its final table is next): a signal from now on
// says the match is complete, whatever number of games the record holds.
void noticeMatchOver();

// Held while a game is written to the record and counted: the signals wait
// (blocked on this thread; a handler on another thread waits for the
// release), so that the notice's count is the record's, never one short.
class RecordWriting {
 public:
  RecordWriting();
  ~RecordWriting();
  RecordWriting(const RecordWriting&) = delete;
  RecordWriting& operator=(const RecordWriting&) = delete;

 private:
  sigset_t before_;
};

}  // namespace gobblet::match
