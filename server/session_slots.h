// SessionSlots: the server's count of its client connections, the same for
// every transport.
//
// A connection holds a session slot once it may have a Session: at once
// without a token, after a successful `auth` with one. Until then it is one
// of at most maxPendingAuth connections waiting to authenticate, outside the
// slots; when a new one would exceed that, the oldest waiting one is dropped
// — so silent clients cannot lock out the ones that know the token. With no
// token a connection beyond maxSessions is refused at once (add() says
// no); with one, a client that authenticates when every
// slot is taken is told the server is full (admit() says no).
#pragma once

#include <functional>
#include <list>
#include <memory>
#include <mutex>

#include "server/client_connection.h"

namespace gobblet {

class SessionSlots {
 public:
  // maxPendingAuth 0: max(16, maxSessions). `authRequired`: the server has
  // a token (authenticationRequired(), server/token_auth.h).
  SessionSlots(int maxSessions, int maxPendingAuth, bool authRequired);

  // Registers a new connection made by `make(admit, onClosed)` (the
  // callbacks to give the ClientConnection), dropping the oldest waiting one
  // if too many wait. Returns the connection (to start it), or nullptr
  // without calling `make` if, without a token, every slot is taken (the
  // check and the count are one step: two clients at once cannot both take
  // the last slot). If `make` throws, the slot is given back and the
  // exception goes on.
  template <class Make>
  auto add(const Make& make) -> decltype(make(std::function<bool()>(), std::function<void()>())) {
    std::lock_guard lock(mutex_);
    if (!authRequired_ && active_ >= maxSessions_) return nullptr;
    auto it = reserve();
    auto released = std::make_shared<bool>(false);
    try {
      auto conn = make(admitter(it), releaser(it, released));
      it->connection = conn;
      return conn;
    } catch (...) {
      // (A connection destroyed while it was made has called onClosed already.)
      if (!*released) *released = true, release(it);
      throw;
    }
  }
  // Connections that hold a session slot, and that wait to authenticate.
  int active() const;
  int pending() const;
  // Asks every connection to close (server shutdown).
  void shutdownAll();

 private:
  // A connection as the server counts it: waiting to authenticate (no
  // session yet), holding a session slot, or dropped while waiting.
  enum class SlotState { kPending, kActive, kEvicted };
  struct Entry {
    std::weak_ptr<ClientConnection> connection;
    SlotState state = SlotState::kPending;
  };
  using Iterator = std::list<Entry>::iterator;

  Iterator reserve();                           // under mutex_
  void release(Iterator it);                    // under mutex_: the entry's count given back
  std::function<bool()> admitter(Iterator it);  // the connection's admit()
  // The connection's onClosed(): gives the slot back once, whoever calls it
  // first (the connection closing, or add() when making it failed).
  std::function<void()> releaser(Iterator it, std::shared_ptr<bool> released);

  const int maxSessions_;
  const int maxPending_;
  const bool authRequired_;
  int active_ = 0;   // guarded by mutex_
  int pending_ = 0;  // guarded by mutex_
  // Recursive: a connection's last reference may be dropped while it is
  // held (a connection destroyed inside add(), or by reserve()'s eviction),
  // and its onClosed() then takes it again on the same thread.
  mutable std::recursive_mutex mutex_;
  std::list<Entry> connections_;  // in accept order, for shutdownAll() and eviction; pruned as they close
};

}  // namespace gobblet
