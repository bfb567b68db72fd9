#include "server/session_slots.h"

#include <algorithm>
#include <vector>

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
      // (If `oldest` is the last reference, its onClosed() erases `entry`
      // on this thread: nothing touches `entry` after it.)
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

std::function<void()> SessionSlots::releaser(Iterator it, std::shared_ptr<bool> released) {
  return [this, it, released = std::move(released)] {
    std::lock_guard lock(mutex_);
    if (*released) return;
    *released = true;
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

// The connections are taken out first and shut down after the lock is let
// go: a shutdown may drop a connection's last reference, whose onClosed()
// changes the list.
void SessionSlots::shutdownAll() {
  std::vector<std::shared_ptr<ClientConnection>> open;
  {
    std::lock_guard lock(mutex_);
    for (auto& entry : connections_)
      if (auto conn = entry.connection.lock()) open.push_back(std::move(conn));
  }
  for (auto& conn : open) conn->shutdown();
}

}  // namespace gobblet
