// TcpServer: the engine protocol over TCP (Boost.Asio), one Session per
// connection.
//
// Each connection gets its own session: its own game, options and search;
// tablebases are shared through the process-wide registry. A pool of I/O
// threads runs the connections' strands (a session may block its strand
// briefly, e.g. while a stopped search finishes, so there are several).
// Connections beyond maxSessions are told so and closed at once.
// With a token, a connection takes a session slot only once authenticated;
// until then it is one of at most maxPendingAuth waiting connections (the
// oldest is dropped to admit a new one), so that silent clients cannot
// lock out the ones that know the token.
// stop() (or SIGINT/SIGTERM in runUntilSignal) closes the acceptor, stops
// every search, flushes their bestmoves and returns once all is closed.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>

#include "absl/status/statusor.h"
#include "protocol/session_reaper.h"
#include "protocol/tcp_connection.h"

namespace gobblet {

struct ServerConfig {
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  uint16_t port = 0;               // 0: any free port (see TcpServer::port())
  int maxSessions = 64;
  int maxPendingAuth = 0;  // with a token: connections waiting to authenticate; 0: max(16, maxSessions)
  int ioThreads = 0;  // 0: a default from the number of cores
  ConnectionLimits connection;
  SessionConfig session;
};

// Parses "HOST:PORT", "[IPV6]:PORT" or "PORT" (host 127.0.0.1).
absl::Status parseListenAddress(const std::string& text, ServerConfig& config);

class TcpServer {
 public:
  explicit TcpServer(ServerConfig config);
  ~TcpServer();

  // Binds and listens; an error says why (bad address, port in use...).
  absl::Status listen();
  uint16_t port() const { return port_; }

  // Serves until stop() (or, with handleSignals, SIGINT/SIGTERM); returns
  // when every connection is closed.
  // SIGINT/SIGTERM stop the server from now on (call before announcing the
  // port, so that a signal sent as soon as it is announced is handled).
  void handleSignals();
  void run(bool handleSignals);
  void stop();  // thread-safe

  int activeSessions() const { return active_.load(); }

 private:
  void accept();
  void refuse(boost::asio::ip::tcp::socket socket);
  void admit(boost::asio::ip::tcp::socket socket);

  // A connection as the server counts it: waiting to authenticate (no
  // session yet), holding a session slot, or dropped while waiting.
  enum class SlotState { kPending, kActive, kEvicted };
  struct Entry {
    std::weak_ptr<TcpConnection> connection;
    SlotState state = SlotState::kPending;
  };

  ServerConfig config_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  // After io_: destroyed first, joining its thread (which may be ending the
  // last connections) before the I/O objects go.
  SessionReaper reaper_;
  uint16_t port_ = 0;
  std::atomic<int> active_{0};
  int pending_ = 0;  // guarded by connectionsMutex_
  std::atomic<bool> stopping_{false};
  std::mutex connectionsMutex_;
  bool signalsHandled_ = false;
  std::list<Entry> connections_;  // in accept order, for stop() and eviction; pruned as they close
};

}  // namespace gobblet
