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
// connection beyond that closes one that uses its place least. First
// choice: if its own address already holds
// kIncompleteHttpConnectionsPerAddress connections that have not sent a
// whole request, the oldest of those. Else, over all addresses, one that
// has not sent a whole request (nothing yet, or part of one), else one
// idle between requests (keep-alive), else one whose request is being
// answered; among those, the one that has been so the longest. An honest
// client sends its request at once, whole, and is answered at once: a
// connection that trickles a request (a slowloris, holding its place for
// the whole request deadline) goes before the browser's idle keep-alive
// connections and before any request being answered, and the youngest
// incomplete connection, the browser's new one, goes last. The limit per
// address holds only when the places are taken (users behind one proxy
// are not limited while there is room), and it closes only the arriving
// address's own connections, so that many addresses with one connection
// each cannot close those of a user whose browser holds several; an
// address is an IPv4 address or an IPv6 /64 (one machine's share).
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
#include <set>
#include <string>

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
// Connections of one address that have not sent a whole request, kept when
// the places are taken: more than a browser opens at once to one server (6).
inline constexpr int kIncompleteHttpConnectionsPerAddress = 8;
// The address a connection counts under for that limit: an IPv4 address
// (also when mapped into IPv6), or an IPv6 address's first 64 bits, the
// network one machine is given.
std::string httpAddressKey(const boost::asio::ip::address& address);

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
  // make room: what each is doing in the top bits of the key (no whole
  // request yet, idle between requests, a request being answered), then
  // since when (httpClock_). A connection leaves it when it is closed,
  // dropped or becomes a WebSocket; for the cap and stop().
  struct HttpClient {
    std::weak_ptr<HttpConnection> connection;
    std::string address;  // httpAddressKey() of its peer
  };
  // Under httpClientsMutex_: a connection's entry in both indexes, and out
  // of both.
  void indexLocked(uint64_t key, HttpClient client);
  void unindexLocked(uint64_t key);
  std::mutex httpClientsMutex_;
  std::map<uint64_t, HttpClient> httpClients_;  // guarded by httpClientsMutex_
  // The keys of the connections without a whole request yet, by address
  // (oldest first): for the limit per address.
  std::map<std::string, std::set<uint64_t>> incompleteByAddress_;  // guarded by httpClientsMutex_
  uint64_t httpClock_ = 0;                                         // guarded by httpClientsMutex_
};

}  // namespace gobblet
