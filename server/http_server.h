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
// kHttpRequestDeadline, and at most maxHttpConnections(config) plain HTTP
// connections: maxSessions + kHttpConnectionsBesideSessions, so that a
// burst of upgrades up to maxSessions (every page opening its socket at
// once) is never closed unanswered, with 64 more for page loads. A new
// connection beyond that closes the one that uses its place least: one
// that has sent nothing yet, else one idle between requests (keep-alive),
// else one with a request in progress (being read or answered); among
// those, the one that has been so the longest. An honest client sends its
// request at once and is answered at once, so the connections that go are
// those that hold a place without using it, whether they come from one
// address or from many. The client's address plays no part: ranking by
// address would let one idle connection from each of many addresses (easy
// with IPv6) close those of a user whose browser holds several.
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
#include <map>
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
// Plain HTTP connections the board keeps besides one per session.
inline constexpr int kHttpConnectionsBesideSessions = 64;
inline int maxHttpConnections(const ServerConfig& config) {
  return (config.maxSessions > 0 ? config.maxSessions : 0) + kHttpConnectionsBesideSessions;
}

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
  const int maxHttpConnections_ = maxHttpConnections(config_);
  // The plain HTTP connections, by the order in which they are closed to
  // make room: what each is doing in the top bits of the key (nothing sent
  // yet, idle between requests, a request in progress), then since when
  // (httpClock_). A connection leaves it when it is closed, dropped or
  // becomes a WebSocket; for the cap and stop().
  std::mutex httpClientsMutex_;
  std::map<uint64_t, std::weak_ptr<HttpConnection>> httpClients_;  // guarded by httpClientsMutex_
  uint64_t httpClock_ = 0;                                         // guarded by httpClientsMutex_
};

}  // namespace gobblet
