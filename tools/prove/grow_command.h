// gobblet-prove grow: grows a proof database (proof/grow.h) from chosen
// positions or from the start, resumably, in one process or over the ranks
// of an MPI job (tools/prove/grow_mpi.h).
//
//   grow --db DB (--from P ... | --start) [--variant V] [--order breadth|priority]
//        [--nodes N] [--time S] [--max-ply P] [--positions N] [--hash MIB] [--frontier FILE] [--quiet]
//   grow --db DB [...]      the same again, without --from and --start: goes on where the last run stopped
//
// A progress line on standard error every 2 s; at the end a summary on
// standard output ("grow done|time|positions|SIGINT|SIGTERM", the rates,
// the database's entries and bytes, the frontier). SIGINT or SIGTERM stop
// the run after the positions under way: their proofs are stored, the
// frontier saved, and the process then ends by that signal. Errors: bad
// usage (a foreign or damaged frontier file among them) exit status 2, a
// failure of the work 1.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proof/grow.h"
#include "tools/command_line/command_line.h"
#include "grow_run.h"

namespace gobblet::prove_program {

// What a grow command line asks for.
struct GrowRequest {
  std::string db, frontier;  // the frontier: DB.grow unless --frontier
  std::optional<Variant> variant;
  std::vector<std::string> roots;  // --from
  bool start = false;              // --start
  std::optional<proof::GrowOrder> order;
  std::optional<int> maxPly;
  GrowLimits limits;
};
// The request of `args`, or InvalidArgument (a usage error's text).
absl::StatusOr<GrowRequest> readGrowRequest(const cli::Arguments& args);
// A failure of the work: "error: <message>" on standard error; 1.
int growFailure(absl::string_view message);
// openGrowRun() of a request.
absl::StatusOr<std::unique_ptr<GrowRun>> openGrowRun(const GrowRequest& request);

// The syntax of the grow command.
cli::Command growCommand();
// Runs it: the exit status.
int runGrowCommand(const cli::Arguments& args, const cli::UsageFn& usage);

}  // namespace gobblet::prove_program
