#include "server/session_slots.h"

#include <algorithm>

namespace gobblet {

SessionSlots::SessionSlots(int maxSessions, int maxPendingAuth, bool authRequired)
    : maxSessions_(maxSessions),
      maxPending_(maxPendingAuth > 0 ? maxPendingAuth : std::max(16, maxSessions)),
      authRequired_(authRequired) {}

// Without a token the entry takes a session slot now (add() checked there
// is one); with one it waits for its `auth`, and if too many wait, the
// oldest is dropped.
SessionSlots::Iterator SessionSlots::reserve() {
  if (authRequired_ && pending_ >= maxPending_) {
    for (Entry& entry : connections_) {
      if (entry.state != SlotState::kPending) continue;
      entry.state = SlotState::kEvicted;
      --pending_;
      if (auto oldest = entry.connection.lock()) oldest->dropIfUnauthenticated();
      break;
    }
  }
  auto it = connections_.emplace(connections_.end());
  if (authRequired_) {
    ++pending_;
  } else {
    it->state = SlotState::kActive;
    ++active_;
  }
  return it;
}

// Runs on the connection's strand once it has authenticated.
std::function<bool()> SessionSlots::admitter(Iterator it) {
  return [this, it] {
    if (!authRequired_) return true;
    std::lock_guard lock(mutex_);
    if (it->state != SlotState::kPending) return false;  // dropped meanwhile
    --pending_;
    if (active_ >= maxSessions_) {
      it->state = SlotState::kEvicted;
      return false;
    }
    it->state = SlotState::kActive;
    ++active_;
    return true;
  };
}

void SessionSlots::release(Iterator it) {
  if (it->state == SlotState::kPending) --pending_;
  if (it->state == SlotState::kActive) --active_;
  connections_.erase(it);
}

std::function<void()> SessionSlots::releaser(Iterator it) {
  return [this, it] {
    std::lock_guard lock(mutex_);
    release(it);
  };
}

int SessionSlots::active() const {
  std::lock_guard lock(mutex_);
  return active_;
}

int SessionSlots::pending() const {
  std::lock_guard lock(mutex_);
  return pending_;
}

void SessionSlots::shutdownAll() {
  std::lock_guard lock(mutex_);
  for (auto& entry : connections_)
    if (auto conn = entry.connection.lock()) conn->shutdown();
}

}  // namespace gobblet
