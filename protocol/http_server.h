// HttpServer: the browser board. Serves the embedded page (protocol/
// http_assets.h) over HTTP and the UGI protocol over WebSocket at /ugi, one
// Session per socket (protocol/websocket_connection.h), with Boost.Beast.
//
// The limits are the TCP server's (ServerConfig): maxSessions counts the
// open WebSockets (one more upgrade is answered 503), the per-session caps
// and the connection limits (token, idle timeout, line cap) apply to each
// socket. HTTP itself: GET and HEAD only, request headers capped
// (kMaxHttpHeaderBytes), no request body, a request must arrive within
// kHttpRequestDeadline, at most kMaxHttpConnections plain HTTP connections.
// An upgrade from a page of another origin (its Origin header names another
// host than its Host header) is refused 403, so that a web site the user
// visits cannot drive the engine on the user's loopback.
// stop() (or SIGINT/SIGTERM) closes the acceptor, stops every search,
// flushes each socket's bestmove and returns once all is closed.
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
#include "protocol/session_reaper.h"
#include "protocol/tcp_server.h"  // ServerConfig, parseListenAddress

namespace gobblet {

inline constexpr size_t kMaxHttpHeaderBytes = 8 * 1024;
inline constexpr std::chrono::seconds kHttpRequestDeadline{15};
inline constexpr int kMaxHttpConnections = 64;

class HttpConnection;
class WebSocketConnection;

class HttpServer {
 public:
  explicit HttpServer(ServerConfig config);
  ~HttpServer();

  // Binds and listens; an error says why (bad address, port in use...).
  absl::Status listen();
  uint16_t port() const { return port_; }

  // SIGINT/SIGTERM stop the server from now on.
  void handleSignals();
  // Serves until stop(); returns when every connection is closed.
  void run();
  void stop();  // thread-safe

 private:
  friend class HttpConnection;
  void accept();
  // Takes over an upgrade request's socket as a WebSocket; false if full.
  bool openWebSocket(boost::asio::ip::tcp::socket& socket, boost::beast::http::request<boost::beast::http::empty_body>& request);

  ServerConfig config_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::signal_set signals_;
  std::shared_ptr<SessionReaper> reaper_ = std::make_shared<SessionReaper>();
  uint16_t port_ = 0;
  std::atomic<int> sockets_{0};  // open WebSockets
  std::atomic<int> httpConnections_{0};
  std::atomic<bool> stopping_{false};
  bool signalsHandled_ = false;
  std::mutex connectionsMutex_;
  std::list<std::weak_ptr<WebSocketConnection>> webSockets_;  // for stop()
  std::list<std::weak_ptr<HttpConnection>> httpClients_;       // for stop()
};

}  // namespace gobblet
