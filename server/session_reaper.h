// SessionReaper: ends sessions off the network threads.
//
// Ending a session stops its search and joins the search's threads, which
// may take a while on a loaded machine. A TCP connection that closes hands
// its Session here instead of ending it on its strand, so that the I/O
// threads keep serving the other clients meanwhile. One background thread
// closes and destroys the sessions in the order they come (freeing their
// hash tables), then runs each one's `then` callback; when none is left
// waiting, it hands the freed memory back to the system.
//
// Ownership: the reaper belongs to whoever serves the connections (the
// TcpServer), never to what it reaps. Its destructor joins its thread, so
// it must not run on that thread: a `then` callback may release anything
// (the last reference to a connection, say) except the reaper itself. (A
// reaper shared by its connections was destroyed on its own thread when a
// callback dropped the last connection, and aborted joining itself.)
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "protocol/session.h"

namespace gobblet {

class SessionReaper {
 public:
  SessionReaper();
  ~SessionReaper();  // ends every session still queued, then joins
  SessionReaper(const SessionReaper&) = delete;
  SessionReaper& operator=(const SessionReaper&) = delete;

  // Takes the session; closes it (its last bestmove goes to its output),
  // destroys it, then calls `then` (may be empty) on the reaper thread.
  // Thread-safe.
  void retire(std::unique_ptr<Session> session, std::function<void()> then);

 private:
  void run();

  struct Job {
    std::unique_ptr<Session> session;
    std::function<void()> then;
  };
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace gobblet
