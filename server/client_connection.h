// ClientConnection: what every client connection does whatever its
// transport (TCP lines or WebSocket messages) — the protections against
// hostile or stalled clients (docs/protocol.md, "Reliability under hostile
// load") in one place, so that each transport gets all of them.
//
// - The auth gate: each line goes through the connection's TokenAuth
//   (server/token_auth.h, which decides what an unauthenticated client may
//   send); here are its deadline (`auth` must come within authTimeout, blank
//   lines do not extend it) and what the client is told. The Session (and
//   its memory) is made only once the client is authenticated, and only if
//   admit() grants a session slot (see SessionSlots).
// - Line dispatch: each line to the session, an overlong line reported,
//   `quit` (or the session's end) closes.
// - The idle policy: no input and no search for idleTimeout closes; a client
//   waiting for its bestmove is not idle.
// - Output: a queue with a byte budget (a client that stops reading is
//   dropped) and a deadline on every write; on an orderly close the queue
//   (and the last bestmove) is flushed within the flush deadline.
// - Hang-up: the session's search is stopped at once, on the strand (`stop`
//   does not block), and the session handed to the SessionReaper, which
//   waits for the search's threads and frees its memory off the I/O threads.
//
// The transport (a subclass) only moves bytes: it reads and calls
// noteInput() and handleLine(), writes the queue's front in writeFront(),
// ends the output in endOfOutput() and closes its socket in closeSocket()
// (which calls socketGone()). All work runs on the connection's strand;
// output from the session's search threads is posted there, so the queue
// needs no lock.
//
// Lifetime: the connection is held by shared_ptrs in its pending handlers.
// The reaper is owned by the server, not by the connections: a connection
// may die on any thread, including the reaper's.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>

#include "engine/line_buffer.h"
#include "server/output_queue.h"
#include "protocol/session.h"
#include "server/session_reaper.h"
#include "server/token_auth.h"

namespace gobblet {

struct ConnectionLimits {
  std::string token;                      // empty: no authentication
  std::chrono::seconds idleTimeout{300};  // no input and no search for this long: closed
  // With a token: `auth` must come within this (or idleTimeout if shorter).
  std::chrono::milliseconds authTimeout{5000};
  // A write the client does not read for this long (or idleTimeout if
  // shorter): the client is dropped.
  std::chrono::milliseconds writeTimeout{30000};
  // Closing (quit, end of input, server shutdown): the pending output is
  // flushed for at most this long (or idleTimeout if shorter).
  std::chrono::milliseconds flushTimeout{2000};
  size_t maxLineBytes = kMaxLineBytes;
  // Unread output beyond this (what the queued lines cost the heap:
  // server/output_queue.h): the client is dropped.
  size_t maxPendingOutputBytes = 8 * 1024 * 1024;
};

class ClientConnection : public std::enable_shared_from_this<ClientConnection> {
 public:
  // A connection that never closed its socket (its start failed) still
  // gives its session slot back.
  virtual ~ClientConnection();

  // Asks the connection to close (from any thread): stops the search,
  // flushes the output (within the flush deadline) and closes the socket.
  void shutdown();
  // From any thread: closes the connection if it has not authenticated yet
  // (to make room for others: see SessionSlots).
  void dropIfUnauthenticated();

 protected:
  // `strand` runs all of the connection's work. `admit` runs (on the strand)
  // when the client has authenticated, or at begin() without a token: false
  // means no session slot is free (the client is told so and closed);
  // nullptr admits always. `onClosed` runs once, on the strand, when the
  // socket is gone. `lineEnd` is appended to each output line.
  ClientConnection(boost::asio::any_io_executor strand, const ConnectionLimits& limits,
                   const SessionConfig& sessionConfig, SessionReaper& reaper, std::function<bool()> admit,
                   std::function<void()> onClosed, std::string lineEnd);

  // On the strand, once the transport can read and write: opens the session
  // (no token) or arms the auth deadline, and arms the idle timer. False if
  // the connection has already ended (no slot).
  bool begin();
  // On the strand: input has arrived (the idle clock restarts).
  void noteInput() { lastInput_ = std::chrono::steady_clock::now(); }
  // Handles one line; false ends the connection (no more lines wanted).
  bool handleLine(std::string_view line, bool overlong);
  // handleLine as a LineBuffer callback.
  LineBuffer::OnLine lineHandler() {
    return [this](std::string_view line, bool overlong) { return handleLine(line, overlong); };
  }
  // Queues one output line (on the strand).
  void send(std::string line);
  // Ends the session (no more input is handled): its search is stopped at
  // once; with `flush` the pending output and the last bestmove are written
  // before the socket closes, without it the socket closes now.
  void finish(bool flush);
  bool finished() const { return finished_; }
  // The transport's closeSocket() calls this once its socket is closed.
  void socketGone();
  bool socketClosed() const { return socketClosed_; }
  const ConnectionLimits& limits() const { return limits_; }

  // Writes outQueue front (a whole line, lineEnd included); `done` must run
  // on the strand when the write ends.
  virtual void writeFront(const std::string& line, std::function<void(const boost::system::error_code&)> done) = 0;
  // The queue is flushed on an orderly close: end the output (TCP closes the
  // socket, WebSocket sends its close frame).
  virtual void endOfOutput() = 0;
  // Closes the socket now (idempotent); must call socketGone().
  virtual void closeSocket() = 0;

  boost::asio::any_io_executor strand_;
  // The thread handling an input line on the strand, while it does (else
  // none): the session's output made there is queued at once instead of
  // posted, so that a flood of commands cannot pile up posted handlers
  // that the output cap does not see (19-33 MiB per client before).
  std::atomic<std::thread::id> lineThread_{};
  // Output lines posted to the strand and not yet queued: while any wait,
  // output made on the strand is posted too, behind them (a `go` that
  // replaces a search sends the old search's bestmove first).
  std::atomic<int> postedLines_{0};

 private:
  bool openSession();
  std::chrono::milliseconds capped(std::chrono::milliseconds configured) const;
  void armIdleTimer();
  void armAuthTimer();
  void write();
  void flushAndClose();

  boost::asio::steady_timer idleTimer_;
  boost::asio::steady_timer authTimer_;
  boost::asio::steady_timer writeTimer_;  // the write in flight must end before it expires
  boost::asio::steady_timer flushTimer_;  // closing: the flush must end before it expires
  ConnectionLimits limits_;
  SessionConfig sessionConfig_;
  SessionReaper& reaper_;
  std::unique_ptr<Session> session_;
  std::string lineEnd_;
  OutputQueue outQueue_;
  bool writing_ = false;
  uint64_t writeSerial_ = 0;  // which write the write timer is for
  bool begun_ = false;
  bool dropRequested_ = false;  // dropped from the waiting pool before begin(): told at begin()
  TokenAuth auth_;
  bool finished_ = false;  // no more input is handled
  bool closeWhenFlushed_ = false;
  bool outputEnded_ = false;  // endOfOutput() has run: nothing more is queued
  bool socketClosed_ = false;
  std::chrono::steady_clock::time_point lastInput_;
  std::function<bool()> admit_;
  std::function<void()> onClosed_;
};

}  // namespace gobblet
