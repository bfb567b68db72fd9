#include "protocol/hash_budget.h"

#include <algorithm>
#include <cassert>

namespace gobblet {

namespace {
constexpr int64_t kMiB = int64_t{1} << 20;
}  // namespace

std::optional<MemoryLimit> processMemoryLimit(const MemoryBounds& bounds) {
  std::optional<MemoryLimit> tightest;
  const auto consider = [&tightest](const char* name, int64_t bytes) {
    if (bytes > 0 && (!tightest || bytes < tightest->bytes)) tightest = MemoryLimit{name, bytes};
  };
  consider("RLIMIT_AS", bounds.addressSpace);
  consider("RLIMIT_DATA", bounds.data);
  consider("the cgroup's memory limit", bounds.cgroup);
  return tightest;
}

int64_t defaultHashBudgetMiB(const MemoryBounds& bounds) {
  int64_t mib = bounds.physical > 0 ? std::max<int64_t>(64, bounds.physical / kMiB / 4) : 1024;
  if (const auto limit = processMemoryLimit(bounds)) mib = std::min(mib, limit->bytes / kMiB / 2);
  return std::max<int64_t>(1, mib);
}

bool HashBudget::reserve(int64_t mib, bool force) {
  assert(mib >= 0);
  std::lock_guard lock(mutex_);
  if (!force && reservedMiB_ + mib > totalMiB_) return false;
  reservedMiB_ += mib;
  return true;
}

void HashBudget::release(int64_t mib) {
  std::lock_guard lock(mutex_);
  assert(mib >= 0 && mib <= reservedMiB_);
  reservedMiB_ -= mib;
}

int64_t HashBudget::leftMiB() const {
  std::lock_guard lock(mutex_);
  return std::max<int64_t>(0, totalMiB_ - reservedMiB_);
}

}  // namespace gobblet
