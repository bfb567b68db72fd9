// HashBudget: the memory a server's sessions may spend on their hash tables
// together, so that clients cannot exhaust the machine between them (without
// it, 64 sessions each asking `Hash 256` would commit 16 GiB, and eight
// sockets reached 2 GiB in 5 s).
//
// Each session of a server reserves its Hash here before its table is made:
// the default Hash when the session starts, and the difference on each
// `setoption name Hash`. A Hash that does not fit in what is left is refused
// with an error naming the budget; the session keeps its table. Every
// session may have a table of the smallest Hash even when the budget is
// spent (a search needs one), so the budget may be overdrawn by at most
// that much per session, and sessions are capped in number
// (ServerConfig::maxSessions). A closed session gives its share back.
//
// Thread-safe: sessions on different threads share one budget.
//
// A server's default budget comes from what its process may hold
// (MemoryBounds, filled by server/process_memory.h): a quarter of the
// machine's memory, as other programs share it, and no more than half of
// what the process's own limits allow (RLIMIT_AS, RLIMIT_DATA, its
// cgroup's memory limit), as the process needs the rest for itself (its
// threads' stacks, tablebases, output queues) and `go prove` takes its
// table from the budget beside the search's: a budget the process cannot
// hold turns a granted `Hash` into a failed allocation.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace gobblet {

// What a process may hold in memory, in bytes; 0 where there is no such
// bound or it is unknown.
struct MemoryBounds {
  int64_t physical = 0;      // the machine's memory
  int64_t addressSpace = 0;  // RLIMIT_AS: the process's virtual memory
  int64_t data = 0;          // RLIMIT_DATA: its heap and private mappings
  int64_t cgroup = 0;        // its control group's memory limit
};

// The tightest of the process's own limits (address space, data, cgroup),
// with its name for messages; none if it has none.
struct MemoryLimit {
  std::string name;  // "RLIMIT_AS", "RLIMIT_DATA" or "the cgroup's memory limit"
  int64_t bytes = 0;
};
std::optional<MemoryLimit> processMemoryLimit(const MemoryBounds& bounds);

// The default hash budget of a server, in MiB: a quarter of the machine's
// memory (at least 64 MiB; 1024 if it is unknown), then at most half of
// processMemoryLimit(), and at least 1.
int64_t defaultHashBudgetMiB(const MemoryBounds& bounds);

class HashBudget {
 public:
  explicit HashBudget(int64_t totalMiB) : totalMiB_(totalMiB) {}
  HashBudget(const HashBudget&) = delete;
  HashBudget& operator=(const HashBudget&) = delete;

  // Takes `mib` from the budget if that much is left (or `force`, for the
  // smallest table a session must have); false, taking nothing, if not.
  bool reserve(int64_t mib, bool force = false);
  // Gives back what reserve() took. Precondition: mib <= what is reserved.
  void release(int64_t mib);

  int64_t totalMiB() const { return totalMiB_; }
  int64_t leftMiB() const;  // never negative

 private:
  const int64_t totalMiB_;
  mutable std::mutex mutex_;
  int64_t reservedMiB_ = 0;
};

}  // namespace gobblet
