// HttpServer: the browser board. Serves the embedded page (protocol/
// http_assets.h) over HTTP and the UGI protocol over WebSocket at /ugi, one
// Session per socket (server/websocket_connection.h), with Boost.Beast.
//
// The listening, signals, I/O threads, reaper and session slots are
// ConnectionServer's, and each WebSocket is a ClientConnection, as each TCP
// connection is: the same limits (ServerConfig) and the same protections.
// Without a token, maxSessions counts the open WebSockets (one more upgrade
// is answered 503); with one, a socket takes a session slot only once
// authenticated (within the auth deadline) and waits until then in the
// bounded pool of SessionSlots, so silent sockets cannot lock out a token
// holder. HTTP itself: GET and HEAD only, request headers capped
// (kMaxHttpHeaderBytes), no request body, a request must arrive within
// kHttpRequestDeadline, at most kMaxHttpConnections plain HTTP connections:
// a new connection beyond that closes the oldest connection of the address
// that holds the most, so that a client that keeps reconnecting cannot keep
// the page and the upgrades of everyone else out (when the newest was
// closed, 64 idle sockets did).
// A request whose Host is not this machine's (the bound address, localhost,
// or a name of ServerConfig::allowedHosts: server/allowed_hosts.h) is
// refused 403, the page as well as /ugi, so that a web site that re-points
// its own name at this machine (DNS rebinding) gets nothing; and an upgrade
// from a page of another origin (its Origin header names another host than
// its Host header) is refused 403, so that a web site the user visits
// cannot drive the engine on the user's loopback.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>
#include <boost/beast/http.hpp>

#include "absl/status/status.h"
#include "server/allowed_hosts.h"
#include "server/connection_server.h"  // ServerConfig, parseListenAddress

namespace gobblet {

inline constexpr size_t kMaxHttpHeaderBytes = 8 * 1024;
inline constexpr std::chrono::seconds kHttpRequestDeadline{15};
inline constexpr int kMaxHttpConnections = 64;

class HttpConnection;

class HttpServer : public ConnectionServer {
 public:
  explicit HttpServer(ServerConfig config)
      : ConnectionServer(config), allowedHosts_(config.host, config.allowedHosts) {}

 private:
  friend class HttpConnection;
  void accepted(boost::asio::ip::tcp::socket socket) override;
  void stopping() override;  // closes the plain HTTP connections
  // Takes over an upgrade request's socket as a WebSocket; false if full.
  bool openWebSocket(boost::asio::ip::tcp::socket& socket,
                     boost::beast::http::request<boost::beast::http::empty_body>& request);

  const AllowedHosts allowedHosts_;
  std::mutex httpClientsMutex_;
  // The plain HTTP connections, oldest first: for the caps and stop().
  std::list<std::weak_ptr<HttpConnection>> httpClients_;
};

}  // namespace gobblet
