#include "grow_run.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/notation.h"

namespace gobblet::prove_program {

std::atomic<int> gGrowSignal{0};

namespace {

extern "C" void onGrowSignal(int signal) { gGrowSignal.store(signal); }

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

uint64_t fileBytes(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace

void catchGrowSignals() {
  struct sigaction action = {};
  action.sa_handler = onGrowSignal;
  action.sa_flags = SA_RESTART;  // the files' reads and writes go on; the flag is looked at between positions
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

GrowRun::GrowRun(std::unique_ptr<proof::ProofDatabase> database, proof::GrowFrontier frontier, std::string frontierPath,
                 GrowLimits limits, int lockFd)
    : database_(std::move(database)),
      frontier_(std::move(frontier)),
      frontierPath_(std::move(frontierPath)),
      limits_(limits),
      lockFd_(lockFd),
      before_(frontier_.counts()),
      started_(std::chrono::steady_clock::now()),
      lastSave_(started_),
      lastLine_(started_) {}

GrowRun::~GrowRun() {
  if (lockFd_ >= 0) ::close(lockFd_);  // (the lock goes with it)
}

bool GrowRun::stopping() const {
  if (gGrowSignal.load() != 0) return true;
  if (limits_.seconds > 0 && secondsSince(started_) >= limits_.seconds) return true;
  return limits_.positions > 0 && frontier_.counts().handled - before_.handled >= limits_.positions;
}

bool GrowRun::settleKnown(const proof::GrowItem& item) {
  if (!database_->find(item.position)) return false;
  frontier_.record(item, proof::GrowVerdict::kKnown, 0, 0);
  afterRecord();
  return true;
}

absl::Status GrowRun::settle(const proof::GrowItem& item, const proof::GrowAttempt& attempt) {
  auto settled = proof::settleGrowAttempt(*database_, attempt);
  if (!settled.ok())
    return absl::Status(settled.status().code(), absl::StrCat("storing the proof of ", positionToString(item.position),
                                                              ": ", settled.status().message()));
  frontier_.record(item, settled->verdict, settled->appended, attempt.nodes);
  afterRecord();
  return absl::OkStatus();
}

void GrowRun::afterRecord() {
  if (!limits_.quiet && secondsSince(lastLine_) >= kProgressSeconds) {
    lastLine_ = std::chrono::steady_clock::now();
    std::fprintf(stderr, "%s\n", progressLine().c_str());
  }
  if (secondsSince(lastSave_) >= kCheckpointSeconds) {
    if (auto status = checkpoint(); !status.ok())
      std::fprintf(stderr, "grow: %s (the next checkpoint tries again)\n", std::string(status.message()).c_str());
  }
}

absl::Status GrowRun::checkpoint() {
  lastSave_ = std::chrono::steady_clock::now();
  return frontier_.save(frontierPath_);
}

std::string GrowRun::progressLine() const {
  const proof::GrowCounts& c = frontier_.counts();
  const double seconds = secondsSince(started_);
  const uint64_t handled = c.handled - before_.handled, proved = c.proved - before_.proved;
  return absl::StrFormat(
      "grow: %llu positions (%llu proved, %llu known, %llu failed, %llu drawn), %zu queued, %zu to retry, pass %d; "
      "%.1f positions/s, %.2f proved/s; database %llu entries, %llu bytes",
      ull(c.handled), ull(c.proved), ull(c.known), ull(c.failed), ull(c.drawn), frontier_.queued(),
      frontier_.failedWaiting(), frontier_.pass(), seconds > 0 ? handled / seconds : 0.0,
      seconds > 0 ? proved / seconds : 0.0, ull(database_->entries()), ull(fileBytes(database_->path())));
}

absl::Status GrowRun::finish(bool failed) {
  const absl::Status saved = checkpoint();
  const proof::GrowCounts& c = frontier_.counts();
  const double seconds = secondsSince(started_);
  const char* why = failed                                              ? "error"
                    : frontier_.done()                                  ? "done"
                    : gGrowSignal.load() == SIGINT                      ? "SIGINT"
                    : gGrowSignal.load() == SIGTERM                     ? "SIGTERM"
                    : limits_.seconds > 0 && seconds >= limits_.seconds ? "time"
                                                                        : "positions";
  const uint64_t handled = c.handled - before_.handled, proved = c.proved - before_.proved;
  const uint64_t entries = database_->entries(), bytes = fileBytes(database_->path());
  std::printf("grow %s\n", why);
  std::printf("this run %llu positions, %llu proved, %.3f s, %.2f positions/s, %.2f proved/s, %llu nodes\n",
              ull(handled), ull(proved), seconds, seconds > 0 ? handled / seconds : 0.0,
              seconds > 0 ? proved / seconds : 0.0, ull(c.nodes - before_.nodes));
  std::printf("all runs %llu positions: %llu proved, %llu known, %llu failed, %llu drawn; %llu entries appended\n",
              ull(c.handled), ull(c.proved), ull(c.known), ull(c.failed), ull(c.drawn), ull(c.entries));
  std::printf("database %llu entries, %llu bytes, %.0f bytes an entry\n", ull(entries), ull(bytes),
              entries > 0 ? static_cast<double>(bytes) / static_cast<double>(entries) : 0.0);
  std::printf("frontier %zu queued, %zu to retry, pass %d, %zu positions seen (%s)\n", frontier_.queued(),
              frontier_.failedWaiting(), frontier_.pass(), frontier_.seen(), frontierPath_.c_str());
  std::fflush(stdout);
  return saved;
}

namespace {
// openGrowRun() once the frontier's lock is held (`lockFd`, which the run
// then owns).
absl::StatusOr<std::unique_ptr<GrowRun>> openGrowRunLocked(const std::string& dbPath, const std::string& frontierPath,
                                                           std::optional<Variant> variant,
                                                           const std::vector<std::string>& roots, bool fromStart,
                                                           std::optional<proof::GrowOrder> order,
                                                           std::optional<int> maxPly, const GrowLimits& limits,
                                                           int lockFd);
}  // namespace

absl::StatusOr<std::unique_ptr<GrowRun>> openGrowRun(const std::string& dbPath, const std::string& frontierPath,
                                                     std::optional<Variant> variant,
                                                     const std::vector<std::string>& roots, bool fromStart,
                                                     std::optional<proof::GrowOrder> order, std::optional<int> maxPly,
                                                     const GrowLimits& limits) {
  // One run a frontier: two would each save their own over the other's.
  const std::string lockPath = frontierPath + ".lock";
  const int lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd < 0) return absl::UnavailableError(absl::StrCat("cannot open ", lockPath, ": ", std::strerror(errno)));
  if (flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(lockFd);
    if (error == EWOULDBLOCK)
      return absl::FailedPreconditionError(
          absl::StrCat("another grow run is using the frontier ", frontierPath, " (", lockPath, " is locked)"));
    return absl::UnavailableError(absl::StrCat("cannot lock ", lockPath, ": ", std::strerror(error)));
  }
  auto made =
      openGrowRunLocked(dbPath, frontierPath, std::move(variant), roots, fromStart, order, maxPly, limits, lockFd);
  if (!made.ok()) ::close(lockFd);
  return made;
}

namespace {

absl::StatusOr<std::unique_ptr<GrowRun>> openGrowRunLocked(const std::string& dbPath, const std::string& frontierPath,
                                                           std::optional<Variant> variant,
                                                           const std::vector<std::string>& roots, bool fromStart,
                                                           std::optional<proof::GrowOrder> order,
                                                           std::optional<int> maxPly, const GrowLimits& limits,
                                                           int lockFd) {
  std::optional<proof::GrowFrontier> frontier;
  if (exists(frontierPath)) {
    if (!roots.empty() || fromStart)
      return absl::InvalidArgumentError(absl::StrCat(frontierPath, " holds a frontier already: run without --from ",
                                                     "and --start to go on with it, or name another --frontier"));
    auto loaded = proof::GrowFrontier::load(frontierPath);
    if (!loaded.ok()) return loaded.status();
    frontier = std::move(*loaded);
    if (variant && *variant != frontier->variant())
      return absl::InvalidArgumentError(
          absl::StrCat(frontierPath, " is a frontier of ", frontier->variant().name(), ", not of ", variant->name()));
    if (order && *order != frontier->order())
      return absl::InvalidArgumentError(
          absl::StrCat(frontierPath, " was started with --order ", proof::growOrderWord(frontier->order())));
    if (maxPly && *maxPly != frontier->maxPly())
      return absl::InvalidArgumentError(absl::StrCat(frontierPath, " was started with --max-ply ", frontier->maxPly()));
    variant = frontier->variant();
  } else if (roots.empty() && !fromStart) {
    return absl::InvalidArgumentError(
        absl::StrCat("no frontier at ", frontierPath, ": give --from POSITION or --start to begin one"));
  }
  auto database = proof::ProofDatabase::open(dbPath, proof::ProofDatabase::Mode::kReadWrite, variant);
  if (!database.ok()) return database.status();
  const Variant& v = (*database)->variant();
  if ((*database)->tail().bytes > 0) {  // a writer killed mid-record: cut off now (an empty append does)
    std::printf("database tail of %llu bytes dropped: %s\n", ull((*database)->tail().bytes),
                (*database)->tail().reason.c_str());
    if (auto cut = (*database)->append(std::vector<proof::Certificate>{}); !cut.ok()) return cut.status();
  }
  if (!frontier) {
    std::vector<Board> boards;
    if (fromStart) boards.emplace_back(v);
    for (const std::string& text : roots) {
      auto board = parsePosition(v, text);
      if (!board.ok()) return board.status();
      boards.push_back(*board);
    }
    auto started =
        proof::GrowFrontier::start(v, order.value_or(proof::GrowOrder::kBreadth), maxPly.value_or(200), boards);
    if (!started.ok()) return started.status();
    frontier = std::move(*started);
  } else if (frontier->variant() != v) {
    return absl::InvalidArgumentError(absl::StrCat(frontierPath, " is a frontier of ", frontier->variant().name(), ", ",
                                                   dbPath, " a database of ", v.name()));
  }
  proof::GrowBudget budget = frontier->budget();
  if (limits.nodes) budget.nodes = *limits.nodes;
  if (limits.hashMiB) budget.hashMiB = *limits.hashMiB;
  frontier->setBudget(budget);
  return std::make_unique<GrowRun>(std::move(*database), std::move(*frontier), frontierPath, limits, lockFd);
}

}  // namespace

}  // namespace gobblet::prove_program
