// One run of `gobblet-prove grow` on the process that owns the database
// and the frontier (the only one, or rank 0 under mpirun): the proof
// database open for appending, the frontier (proof/grow.h) loaded or
// started, the limits of the run, the progress line, the checkpoints.
//
// Durability: every proof is appended to the database (synced) before
// the frontier records it; the frontier is saved atomically every
// kCheckpointSeconds and when the run ends. A run killed outright loses at
// most the frontier's last seconds: the positions taken since are taken
// again by the next run, and the ones proved meanwhile are then known (the
// database holds them), so no proof is lost and none is stored twice.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "proof/database.h"
#include "proof/grow.h"

namespace gobblet::prove_program {

// Set by SIGINT or SIGTERM (the signal's number): the run stops after the
// positions under way.
extern std::atomic<int> gGrowSignal;
// Installs the handler that sets gGrowSignal.
void catchGrowSignals();

struct GrowLimits {
  std::optional<uint64_t> nodes;  // the prover's nodes a position (default: the frontier's, else 100000)
  std::optional<size_t> hashMiB;  // its table (default: the frontier's, else 64)
  double seconds = 0;             // the run's wall time (0: none); checked between positions
  uint64_t positions = 0;         // positions this run settles (0: no limit)
  bool quiet = false;             // no progress line
};

class GrowRun {
 public:
  static constexpr double kCheckpointSeconds = 30;
  static constexpr double kProgressSeconds = 2;

  GrowRun(std::unique_ptr<proof::ProofDatabase> database, proof::GrowFrontier frontier, std::string frontierPath,
          GrowLimits limits, int lockFd);
  ~GrowRun();
  GrowRun(const GrowRun&) = delete;
  GrowRun& operator=(const GrowRun&) = delete;

  proof::ProofDatabase& database() { return *database_; }
  proof::GrowFrontier& frontier() { return frontier_; }
  const GrowLimits& limits() const { return limits_; }
  // The prover's budget a position (the frontier's, as this run set it).
  const proof::GrowBudget& budget() const { return frontier_.budget(); }

  // Whether the run should hand out no further position: a signal, its
  // time, its count of positions.
  bool stopping() const;
  // A position the database decides already (recorded as known), or none.
  bool settleKnown(const proof::GrowItem& item);
  // Stores `attempt` (proof/grow.h settleGrowAttempt) and records the item;
  // then the progress line and the checkpoint when due. An error leaves
  // the item unrecorded (the frontier keeps it queued).
  absl::Status settle(const proof::GrowItem& item, const proof::GrowAttempt& attempt);
  // Saves the frontier now.
  absl::Status checkpoint();
  // Saves the frontier and prints the summary on standard output; why the
  // run ended: "done", "time", "positions", "SIGINT", "SIGTERM", or
  // "error" when `failed`.
  absl::Status finish(bool failed = false);
  // The progress line (no newline).
  std::string progressLine() const;

 private:
  void afterRecord();

  std::unique_ptr<proof::ProofDatabase> database_;
  proof::GrowFrontier frontier_;
  std::string frontierPath_;
  GrowLimits limits_;
  int lockFd_;                // FRONTIER.lock, held (flock) while the run lives: one run a frontier
  proof::GrowCounts before_;  // the frontier's counts when this run began
  std::chrono::steady_clock::time_point started_, lastSave_, lastLine_;
};

// The database at `dbPath` (created for `variant` if missing) and the
// frontier at `frontierPath`: loaded when the file is there, else started
// from `roots` (InvalidArgument if there are none). `variant` may be
// unset when the frontier or the database names it. InvalidArgument for
// a frontier of another variant than the database's, or settings that
// differ from the frontier's (`order`, `maxPly`, given only when set);
// FailedPrecondition while another run holds the frontier (its lock file,
// FRONTIER.lock, under flock).
absl::StatusOr<std::unique_ptr<GrowRun>> openGrowRun(const std::string& dbPath, const std::string& frontierPath,
                                                     std::optional<Variant> variant,
                                                     const std::vector<std::string>& roots, bool fromStart,
                                                     std::optional<proof::GrowOrder> order, std::optional<int> maxPly,
                                                     const GrowLimits& limits);

}  // namespace gobblet::prove_program
