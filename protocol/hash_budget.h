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
#pragma once

#include <cstdint>
#include <mutex>

namespace gobblet {

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
