// TcpServer: the engine protocol over TCP (Boost.Asio), one Session per
// connection (protocol/tcp_connection.h).
//
// Each connection gets its own session: its own game, options and search;
// tablebases are shared through the process-wide registry. A pool of I/O
// threads runs the connections' strands (a session may block its strand
// briefly, e.g. while a stopped search finishes, so there are several).
// The listening, signals, I/O threads, reaper and session-slot accounting
// are ConnectionServer's, shared with the board's HttpServer: without a
// token, connections beyond maxSessions are told so and closed at once;
// with one, a connection takes a session slot only once authenticated and
// waits until then in the bounded pool of SessionSlots.
#pragma once

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>

#include "protocol/connection_server.h"  // ServerConfig, parseListenAddress
#include "protocol/tcp_connection.h"

namespace gobblet {

class TcpServer : public ConnectionServer {
 public:
  explicit TcpServer(ServerConfig config) : ConnectionServer(std::move(config)) {}

 private:
  void accepted(boost::asio::ip::tcp::socket socket) override;
  void refuse(boost::asio::ip::tcp::socket socket);
};

}  // namespace gobblet
