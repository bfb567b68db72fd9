// gobblet-prove grow under mpirun (compiled only when CMake finds MPI:
// GOBBLET_PROVE_MPI, tools/prove/CMakeLists.txt).
//
// Rank 0 owns the database and the frontier (tools/prove/grow_run.h) and
// proves nothing itself: it hands each other rank one position at a time,
// stores the proof each sends back (the checker judges it, given the
// database, before it is appended: proof/store_proof.h), records the
// verdict and hands out the next. The other ranks read the same database
// file, read-only, following what rank 0 appends (ProofDatabase::refresh
// before each position), so it must be on a filesystem every rank sees.
// With one proving rank (mpirun -np 2) the positions are settled in the
// order of a one-process run, and the database grows the same.
//
// Messages (tags), all between rank 0 and one rank:
//   job     0 -> rank   "<seq> <nodes> <table MiB> <position>", or empty: stop
//   result  rank -> 0   "<seq> <outcome> <nodes>\n" then a win's or a loss's
//                       certificate file (proof/certificate.h), or
//                       "<seq> error <why>"
// Every rank polls (MPI_Iprobe, then a 1 ms sleep) rather than blocking in
// a receive, which Open MPI implements by spinning: a rank waiting costs no
// core.
//
// A result that does not read, names another position than the one
// handed out, or whose certificate the checker rejects, ends the job:
// rank 0 saves the frontier (the position still queued), names the rank
// and the reason, and calls MPI_Abort. A rank that dies ends the job
// (MPI's default error handler): the database holds every whole record
// (a cut tail is dropped by the next reader), the frontier its last
// checkpoint.
#pragma once

#include "tools/command_line/command_line.h"

namespace gobblet::prove_program {

#ifdef GOBBLET_PROVE_MPI
// grow over MPI_COMM_WORLD (mpirun started this process as one of
// `ranks`): the exit status of this rank.
int runGrowRanks(const cli::Arguments& args, const cli::UsageFn& usage);
#endif

}  // namespace gobblet::prove_program
