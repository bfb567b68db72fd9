#include "grow_command.h"

#include <csignal>
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/command_line/mpi_launch.h"
#include "grow_mpi.h"

namespace gobblet::prove_program {

cli::Command growCommand() {
  return {
      "grow",
      "Grows a proof database from the given positions or the start: proves each position with a node budget, "
      "stores every proof, queues the children of those left undecided; a second run without --from and "
      "--start goes on where the last stopped (SIGINT or SIGTERM stop it after the positions under way). "
      "Under mpirun rank 0 keeps the database and the others prove.",
      {{cli::text("--db", "DB", "the proof database to grow (created if missing)"),
        cli::text("--variant", "V", "the variant (default: the frontier's or the database's); " + variantNamesText()),
        cli::text("--from", "P", "start from this position (docs/notation.md)").repeated(),
        cli::flag("--start", "start from the variant's start position"),
        cli::choice("--order", {"breadth", "priority"},
                    "breadth first, or the positions with the most pieces on the board first (default: "
                    "breadth, or the frontier's)"),
        cli::integer("--nodes", "N", 1, int64_t{1} << 50,
                     "the prover's nodes a position (default: 100000, or the frontier's)"),
        cli::text("--time", "S", "stop after S seconds in all, between positions (default: no limit)"),
        cli::integer("--max-ply", "P", 0, 10000,
                     "queue no position more than P plies from the start positions (default: 200, or the "
                     "frontier's)"),
        cli::integer("--positions", "N", 1, int64_t{1} << 50, "stop after N positions this run (default: no limit)"),
        cli::integer("--hash", "MIB", 1, 1 << 20, "the prover's table in MiB (default: 64, or the frontier's)"),
        cli::text("--frontier", "FILE", "the frontier file (default: DB.grow)"),
        cli::flag("--quiet", "no progress line")},
       {}}};
}

absl::StatusOr<GrowRequest> readGrowRequest(const cli::Arguments& args) {
  GrowRequest r;
  if (!args.has("--db")) return absl::InvalidArgumentError("grow needs --db DB");
  r.db = args.text("--db");
  r.frontier = args.has("--frontier") ? args.text("--frontier") : r.db + ".grow";
  if (r.frontier == r.db) return absl::InvalidArgumentError("the frontier file cannot be the database");
  if (args.has("--variant")) {
    auto variant = Variant::parse(args.text("--variant"));
    if (!variant.ok()) return variant.status();
    r.variant = *variant;
  }
  r.roots = args.all("--from");
  r.start = args.has("--start");
  if (args.has("--order")) {
    auto order = proof::parseGrowOrder(args.text("--order"));
    if (!order.ok()) return order.status();
    r.order = *order;
  }
  if (args.has("--max-ply")) r.maxPly = static_cast<int>(args.integer("--max-ply"));
  if (args.has("--nodes")) r.limits.nodes = static_cast<uint64_t>(args.integer("--nodes"));
  if (args.has("--hash")) r.limits.hashMiB = static_cast<size_t>(args.integer("--hash"));
  if (args.has("--positions")) r.limits.positions = static_cast<uint64_t>(args.integer("--positions"));
  if (args.has("--time") && (!absl::SimpleAtod(args.text("--time"), &r.limits.seconds) || !(r.limits.seconds > 0)))
    return absl::InvalidArgumentError("--time wants a positive number of seconds, not \"" + args.text("--time") + "\"");
  r.limits.quiet = args.has("--quiet");
  return r;
}

int growFailure(absl::string_view message) {
  cli::Program program;
  program.name = "gobblet-prove";
  return cli::failure(program, message);
}

absl::StatusOr<std::unique_ptr<GrowRun>> openGrowRun(const GrowRequest& r) {
  return openGrowRun(r.db, r.frontier, r.variant, r.roots, r.start, r.order, r.maxPly, r.limits);
}

namespace {

// The run in this process alone.
int growHere(const cli::Arguments& args, const cli::UsageFn& usage) {
  auto request = readGrowRequest(args);
  if (!request.ok()) return usage(request.status().message());
  auto run = openGrowRun(*request);
  if (!run.ok()) return usage(run.status().message());
  GrowRun& g = **run;
  catchGrowSignals();
  absl::Status failed;
  while (!g.stopping()) {
    std::optional<proof::GrowItem> item = g.frontier().next();
    if (!item) break;
    if (g.settleKnown(*item)) continue;
    auto attempt = proof::attemptGrowItem(item->position, &g.database(), g.budget().nodes, g.budget().hashMiB);
    if (!attempt.ok()) {
      failed = attempt.status();
      break;
    }
    if (failed = g.settle(*item, *attempt); !failed.ok()) break;
  }
  const absl::Status saved = g.finish(!failed.ok());
  if (!failed.ok()) return growFailure(failed.message());
  if (!saved.ok()) return growFailure(saved.message());
  if (const int signal = gGrowSignal.load(); signal != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  return 0;
}

}  // namespace

int runGrowCommand(const cli::Arguments& args, const cli::UsageFn& usage) {
  const cli::MpiLaunch launch = cli::mpiLaunch();
  if (launch.srunTasksWithoutMpi > 0)
    return usage(cli::srunWithoutMpiError("gobblet-prove", launch.srunTasksWithoutMpi));
  if (!launch.launched || launch.size <= 1) return growHere(args, usage);
#ifdef GOBBLET_PROVE_MPI
  return runGrowRanks(args, usage);
#else
  return usage(absl::StrCat("started as one of ", launch.size,
                            " ranks (mpirun), but this gobblet-prove was built without MPI: each rank would grow the "
                            "same database; build with Open MPI (libopenmpi-dev)"));
#endif
}

}  // namespace gobblet::prove_program
