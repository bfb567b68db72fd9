// ConnectionServer: what the TCP server and the board's HTTP server share —
// the listening socket and its accept loop, SIGINT/SIGTERM, the pool of I/O
// threads, the SessionReaper, the session slots (SessionSlots) and an
// orderly stop. A subclass says what an accepted socket becomes (accepted())
// and what else to close on stop (stopping()).
//
// stop() (or SIGINT/SIGTERM once handleSignals() has run) closes the
// acceptor, stops every search, flushes their bestmoves and lets run()
// return once all is closed.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>

#include "absl/status/status.h"
#include "server/client_connection.h"
#include "protocol/session.h"
#include "server/session_reaper.h"
#include "server/session_slots.h"

namespace gobblet {

struct ServerConfig {
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  uint16_t port = 0;               // 0: any free port (see port())
  int maxSessions = 64;
  // What all sessions' hash tables may take together, in MiB (0: no
  // budget); see protocol/hash_budget.h. The program sizes it to the machine.
  int64_t hashBudgetMiB = 0;
  int maxPendingAuth = 0;  // with a token: connections waiting to authenticate; 0: max(16, maxSessions)
  int ioThreads = 0;       // 0: a default from the number of cores
  // The board's HTTP server: names a request's Host may use besides the
  // bound address and localhost (server/allowed_hosts.h).
  std::vector<std::string> allowedHosts;
  ConnectionLimits connection;
  SessionConfig session;
};

// Parses "HOST:PORT", "[IPV6]:PORT" or "PORT" (host 127.0.0.1).
absl::Status parseListenAddress(const std::string& text, ServerConfig& config);

class ConnectionServer {
 public:
  explicit ConnectionServer(ServerConfig config);
  virtual ~ConnectionServer();
  ConnectionServer(const ConnectionServer&) = delete;
  ConnectionServer& operator=(const ConnectionServer&) = delete;

  // Binds and listens; an error says why (bad address, port in use...).
  absl::Status listen();
  uint16_t port() const { return port_; }

  // SIGINT/SIGTERM stop the server from now on (call before announcing the
  // port, so that a signal sent as soon as it is announced is handled).
  void handleSignals();
  // Serves until stop() (or, with handleSignals, SIGINT/SIGTERM); returns
  // when every connection is closed. An exception from accepted() or from
  // a connection's handler is reported on stderr and the server serves on:
  // one client's failure never ends the others' service.
  void run(bool handleSignals = false);
  void stop();  // thread-safe

 protected:
  // A new client's socket (its executor a strand of its own).
  virtual void accepted(boost::asio::ip::tcp::socket socket) = 0;
  // On stop, on the I/O: close what the slots do not hold (they are shut down).
  virtual void stopping() {}

  ServerConfig config_;
  boost::asio::io_context io_;
  // After io_: destroyed first, joining its thread (which may be ending the
  // last connections) before the I/O objects go.
  SessionReaper reaper_;
  SessionSlots slots_;
  std::atomic<bool> stopping_{false};

 private:
  void accept();
  void runIo();  // io_.run() on this thread, until it returns without an exception

  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  uint16_t port_ = 0;
  bool signalsHandled_ = false;
};

}  // namespace gobblet
