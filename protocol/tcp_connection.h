// TcpConnection: one TCP client, served by its own Session.
//
// All of a connection's work runs on its strand: reading, feeding lines to
// the session, queueing output and writing it. Output from the session's
// search threads is posted to the strand, so the write queue needs no lock.
// Safety limits (ConnectionLimits) bound what one client can cost: line
// length (LineBuffer), unread output (a client that stops reading is
// dropped), idle time (no input while no search runs), and, before
// anything else, an `auth <token>` line if the server has a token.
//
// Lifetime: the connection is held by shared_ptrs in its pending handlers;
// it closes when the client disconnects, sends `quit`, idles out, or the
// server shuts down. Its session is then handed to the SessionReaper, which
// stops the search and frees the session's memory without holding up the
// I/O threads; on an orderly close the socket is closed only after the
// search's last bestmove has been written.
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
  size_t maxLineBytes = kMaxLineBytes;
  size_t maxPendingOutputBytes = 8 * 1024 * 1024;  // unread output beyond this: the client is dropped
};

class TcpConnection : public std::enable_shared_from_this<TcpConnection> {
 public:
  using Socket = boost::asio::ip::tcp::socket;

  // `onClosed` runs (once, on the strand) when the connection has closed.
  TcpConnection(Socket socket, const ConnectionLimits& limits, const SessionConfig& sessionConfig,
                std::shared_ptr<SessionReaper> reaper, std::function<void()> onClosed);

  // Starts reading and the idle timer.
  void start();
  // Asks the connection to close (from any thread): stops the search,
  // flushes the output and closes the socket.
  void shutdown();

 private:
  void read();
  void onRead(const boost::system::error_code& ec, size_t bytes);
  bool handleLine(std::string_view line, bool overlong);
  void armIdleTimer();
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
  ConnectionLimits limits_;
  std::array<char, 8192> readBuffer_;
  LineBuffer lines_;
  std::unique_ptr<Session> session_;
  SessionConfig sessionConfig_;
  std::shared_ptr<SessionReaper> reaper_;
  std::deque<std::string> outQueue_;
  size_t outBytes_ = 0;
  bool writing_ = false;
  bool authenticated_;
  bool finished_ = false;      // no more input is handled
  bool closeWhenFlushed_ = false;
  bool socketClosed_ = false;
  std::chrono::steady_clock::time_point lastInput_;
  std::function<void()> onClosed_;
};

}  // namespace gobblet
