#include "protocol/hash_budget.h"

#include <algorithm>
#include <cassert>

namespace gobblet {

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
