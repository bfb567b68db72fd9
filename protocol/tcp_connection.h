// TcpConnection: one TCP client, served by its own Session.
//
// All of a connection's work runs on its strand: reading, feeding lines to
// the session, queueing output and writing it. Output from the session's
// search threads is posted to the strand, so the write queue needs no lock.
// Safety limits (ConnectionLimits) bound what one client can cost: line
// length (LineBuffer), unread output (a client that stops reading is
// dropped), idle time (no input while no search runs), the time a write may
// wait for the client to read (every write has a deadline), and, before
// anything else, an `auth <token>` line if the server has a token, which
// must come within the auth deadline (blank lines do not extend it). The
// Session (and its memory) is only made once the client is authenticated.
//
// Lifetime: the connection is held by shared_ptrs in its pending handlers;
// it closes when the client disconnects, sends `quit`, idles out, misses a
// deadline, or the server shuts down. Its search is then stopped at once,
// on the strand (Session `stop`: it does not block), and the session handed
// to the SessionReaper, which waits for the search's threads and frees the
// session's memory without holding up the I/O threads; on an orderly close
// the socket is closed only after the search's last bestmove has been
// written, or when the flush deadline passes, whichever is first. The
// reaper is owned by the server, not by the connections: a connection may
// die on any thread, including the reaper's.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>

#include "protocol/line_buffer.h"
#include "protocol/session.h"
#include "protocol/session_reaper.h"

namespace gobblet {

struct ConnectionLimits {
  std::string token;                                // empty: no authentication
  std::chrono::seconds idleTimeout{300};            // no input and no search for this long: closed
  // With a token: `auth` must come within this (or idleTimeout if shorter).
  std::chrono::milliseconds authTimeout{5000};
  // A write the client does not read for this long (or idleTimeout if
  // shorter): the client is dropped.
  std::chrono::milliseconds writeTimeout{30000};
  // Closing (quit, end of input, server shutdown): the pending output is
  // flushed for at most this long (or idleTimeout if shorter).
  std::chrono::milliseconds flushTimeout{2000};
  size_t maxLineBytes = kMaxLineBytes;
  size_t maxPendingOutputBytes = 8 * 1024 * 1024;  // unread output beyond this: the client is dropped
};

class TcpConnection : public std::enable_shared_from_this<TcpConnection> {
 public:
  using Socket = boost::asio::ip::tcp::socket;

  // `admit` runs (on the strand) when the client has authenticated, or at
  // start() without a token: false means no session slot is free (the
  // client is told so and closed). `onClosed` runs (once, on the strand)
  // when the connection has closed. `reaper` must outlive every connection's
  // finish(): the server owns it and runs the I/O until the connections end.
  TcpConnection(Socket socket, const ConnectionLimits& limits, const SessionConfig& sessionConfig,
                SessionReaper& reaper, std::function<bool()> admit, std::function<void()> onClosed);

  // Starts reading and the idle (or auth) timer.
  void start();
  // Asks the connection to close (from any thread): stops the search,
  // flushes the output (within the flush deadline) and closes the socket.
  void shutdown();
  // From any thread: closes the connection if it has not authenticated yet
  // (to make room for others: see TcpServer).
  void dropIfUnauthenticated();

 private:
  void read();
  void onRead(const boost::system::error_code& ec, size_t bytes);
  bool handleLine(std::string_view line, bool overlong);
  void armIdleTimer();
  void armAuthTimer();
  // Creates the session once the client may have one (admit() said yes).
  bool openSession();
  // The deadline for `configured`, capped by the idle timeout.
  std::chrono::milliseconds capped(std::chrono::milliseconds configured) const;
  void send(std::string line);  // on the strand
  void write();
  // Ends the session (no more input is handled); with `flush` the pending
  // output and the search's last bestmove are written first.
  void finish(bool flush);
  void flushAndClose();  // closes the socket once the output queue is written
  void closeSocket();

  Socket socket_;
  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::steady_timer idleTimer_;
  boost::asio::steady_timer authTimer_;
  boost::asio::steady_timer writeTimer_;  // the write in flight must end before it expires
  boost::asio::steady_timer flushTimer_;  // closing: the flush must end before it expires
  ConnectionLimits limits_;
  std::array<char, 8192> readBuffer_;
  LineBuffer lines_;
  std::unique_ptr<Session> session_;
  SessionConfig sessionConfig_;
  SessionReaper& reaper_;
  std::deque<std::string> outQueue_;
  size_t outBytes_ = 0;
  bool writing_ = false;
  uint64_t writeSerial_ = 0;  // which write the write timer is for
  bool authenticated_;
  bool finished_ = false;      // no more input is handled
  bool closeWhenFlushed_ = false;
  bool socketClosed_ = false;
  std::chrono::steady_clock::time_point lastInput_;
  std::function<bool()> admit_;
  std::function<void()> onClosed_;
};

}  // namespace gobblet
