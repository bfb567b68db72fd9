// Growing a proof database (proof/database.h): the frontier of a run that
// works through the game from chosen positions, proving each and storing
// every proof (proof/store_proof.h), so that the database reaches further
// back towards the start the longer it runs. `gobblet-prove grow`
// (tools/prove/grow_command.h) drives it, in one process or over MPI.
//
//   auto frontier = GrowFrontier::start(variant, GrowOrder::kBreadth, 40, {Board(variant)});
//   while (auto item = frontier->next()) {
//     GrowAttempt attempt = attemptGrowItem(item->position, database, maxNodes);
//     auto verdict = settleGrowAttempt(database, attempt);   // stores a proof, checked first
//     frontier->record(*item, verdict->verdict, verdict->appended, attempt.nodes);
//   }
//   frontier->save("gobblers.pdb.grow");                     // atomically: a later run goes on
//
// The work. A position is taken from the queue; one the database decides
// is skipped (known); else the prover tries it with a node budget. A win or
// a loss is stored with the positions its strategy reaches by a drop
// (proved). A position left undecided (failed) or claimed a draw (drawn:
// the database holds wins and losses only) has its children queued, each
// once (by canonical form, engine/canonical.h), those up to maxPly plies
// from the run's roots, the game over in none. A decided position's
// children are not queued: its proof is what a solve needs of it.
// Pass 0 takes each position once. When its queue is empty and it decided
// anything, the positions that failed are tried again, as pass 1, with
// what the database holds now (their children are not queued again), and
// so on while a pass decides anything: the proofs deep in the game become
// leaves for the ones above them.
//
// The order. breadth: by plies from the roots, then in the order found
// (a breadth-first search). priority: the positions with the most pieces
// on the board first, then the most plies, then the order found. Pieces
// never leave the board and the database's leaves follow drops only, so
// positions with more pieces on the board can be proved first and then
// serve as leaves for those with fewer; from a root this dives to the end
// of one line, then works back up. A retry pass (1 and after) takes its
// positions in the priority order whatever the run's order.
//
// The frontier file (save/load): a text file written whole to FILE.tmp,
// synced, then renamed over FILE, so that FILE is always a whole frontier:
//   gobblet-grow-frontier 1
//   variant <name>        order breadth|priority        max-ply <P>
//   budget <nodes a position> <table MiB>                 (the last run's: the next one's default)
//   pass <N> <decided in it>      next <seq>      counts <handled> <proved> <known> <drawn> <failed> <entries> <nodes>
//   queue <seq> <pass> <ply> <position>     (one a line, positions canonical; the taken but unrecorded ones too)
//   failed <seq> <ply> <position>
//   seen <position>                         (every position ever queued)
//   checksum <FNV-1a 64 of every line before, 16 hex digits>
// load() refuses a file that is not a frontier, of another version, cut,
// edited (the checksum), or with a line that does not read, naming the line.
// Memory: every position ever queued, about 100 bytes each.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/variant.h"
#include "proof/certificate.h"
#include "proof/database.h"
#include "proof/prover.h"

namespace gobblet::proof {

enum class GrowOrder { kBreadth, kPriority };
// "breadth", "priority".
const char* growOrderWord(GrowOrder order);
// The order a word names; InvalidArgument for another word.
absl::StatusOr<GrowOrder> parseGrowOrder(std::string_view word);

// What became of a position taken from the frontier.
enum class GrowVerdict {
  kKnown,   // the database decided it already
  kProved,  // proved won or lost now, and stored
  kDrawn,   // claimed a draw by the prover (not stored: the database holds wins and losses)
  kFailed,  // not decided within the budget
};

struct GrowItem {
  Board position;    // canonical
  int ply = 0;       // plies from the run's root it was first found from
  int pass = 0;      // 0 its first try, N its Nth retry
  uint64_t seq = 0;  // the order it was found in (the roots first)
};

// The prover's budget for each position.
struct GrowBudget {
  uint64_t nodes = 100000;
  size_t hashMiB = 64;
};

struct GrowCounts {
  uint64_t handled = 0, proved = 0, known = 0, drawn = 0, failed = 0;  // positions, all runs together
  uint64_t entries = 0;  // database entries the proofs appended (their drop sub-positions included)
  uint64_t nodes = 0;    // the prover's nodes
};

class GrowFrontier {
 public:
  // A new frontier holding `roots` (canonical forms, each once), found in
  // that order, at ply 0. InvalidArgument: no root, a root of another
  // variant or where the game is over, maxPly below 0.
  static absl::StatusOr<GrowFrontier> start(const Variant& variant, GrowOrder order, int maxPly,
                                            const std::vector<Board>& roots);
  // The frontier saved at `path`. NotFound: no such file; InvalidArgument:
  // not a frontier, another version; DataLoss: cut, edited or a line that
  // does not read (the line named).
  static absl::StatusOr<GrowFrontier> load(const std::string& path);
  // Writes the frontier to `path` atomically (above); positions taken and
  // not yet recorded are saved as queued. Unavailable if the write fails
  // (`path` is then as it was).
  absl::Status save(const std::string& path) const;

  // The next position to try, or none: nothing left (done()), or nothing
  // to hand out until the positions taken are recorded (a new pass starts
  // only when none is out). The position stays the frontier's until
  // record() settles it: save() keeps it queued.
  std::optional<GrowItem> next();
  // Settles a position next() gave: `appended` entries stored, `nodes`
  // searched. A failed or drawn first try queues its children.
  void record(const GrowItem& item, GrowVerdict verdict, uint64_t appended, uint64_t nodes);
  // No position is queued, none is out, and no further pass would start.
  bool done() const;

  const Variant& variant() const { return variant_; }
  GrowOrder order() const { return order_; }
  int maxPly() const { return maxPly_; }
  int pass() const { return pass_; }
  const GrowCounts& counts() const { return counts_; }
  const GrowBudget& budget() const { return budget_; }
  void setBudget(const GrowBudget& budget) { budget_ = budget; }
  size_t queued() const { return queue_.size() + out_.size(); }  // taken but unrecorded included
  size_t failedWaiting() const { return failed_.size(); }        // failed, to be retried by a later pass
  size_t seen() const { return seen_.size(); }

 private:
  using Key = std::tuple<int, int, int, uint64_t>;  // pass, then the order's two fields, then seq
  GrowFrontier(const Variant& variant, GrowOrder order, int maxPly)
      : variant_(variant), order_(order), maxPly_(maxPly) {}
  Key key(const GrowItem& item) const;
  void enqueue(GrowItem item);
  // Queues the children of `item` not seen before.
  void expand(const GrowItem& item);

  Variant variant_;
  GrowOrder order_;
  int maxPly_;
  int pass_ = 0;
  uint64_t decidedInPass_ = 0;  // proved or known in this pass
  uint64_t nextSeq_ = 0;
  GrowCounts counts_;
  GrowBudget budget_;
  std::map<Key, GrowItem> queue_;
  std::map<uint64_t, GrowItem> out_;      // taken, not yet recorded, by seq
  std::map<uint64_t, GrowItem> failed_;   // failed in this pass, by seq
  std::unordered_set<std::string> seen_;  // positionToString of every canonical position queued
};

// One position tried: the prover's outcome, with the certificate of a win
// or a loss.
struct GrowAttempt {
  Outcome outcome = Outcome::kUnknown;
  std::optional<Certificate> certificate;
  uint64_t nodes = 0;
};

// Tries `position` (not over) with the prover: at most `maxNodes` nodes,
// `hashMiB` of table, one thread, no history (a position of the frontier
// is a root of its own; a stored proof holds whatever game reaches it),
// `database` (may be null) giving its leaves. Errors: the prover's.
absl::StatusOr<GrowAttempt> attemptGrowItem(const Board& position, const KnownPositions* database, uint64_t maxNodes,
                                            size_t hashMiB);

struct GrowSettled {
  GrowVerdict verdict = GrowVerdict::kFailed;
  uint64_t appended = 0;  // entries stored
};
// What `attempt` gives the database: a win or a loss is stored
// (storeProof: checked given the database, all or nothing); a draw or an
// unknown stores nothing. Errors: storeProof()'s (InvalidArgument: the
// checker rejects the certificate, Unavailable: the write failed and the
// database is as it was).
absl::StatusOr<GrowSettled> settleGrowAttempt(ProofDatabase& database, const GrowAttempt& attempt);

}  // namespace gobblet::proof
