// WebSocketConnection: one browser (or other WebSocket client) on /ugi,
// served by its own Session — the UGI protocol with WebSocket framing.
//
// Each text message holds one or more protocol lines (its end also ends a
// line); each output line goes out as one text message. The limits are the
// TCP server's (ConnectionLimits): `auth <token>` first if the server has a
// token, the line cap (a longer line is dropped and reported, as over TCP),
// unread output capped, the idle timeout. WebSocket adds: a message cap
// (kMaxWebSocketMessageBytes: beyond it the socket is closed with 1009), a
// binary message is refused (error line, close 1003), malformed frames and
// invalid UTF-8 close the socket (Beast's checks), and a write that makes no
// progress for kWebSocketWriteDeadline drops the client.
//
// All work runs on the socket's strand; output from the session's search
// threads is posted there. On close the session goes to the SessionReaper,
// which stops its search and frees its memory off the I/O threads; on an
// orderly close the last bestmove is written before the close frame.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "protocol/line_buffer.h"
#include "protocol/session.h"
#include "protocol/session_reaper.h"
#include "protocol/tcp_connection.h"  // ConnectionLimits

namespace gobblet {

inline constexpr size_t kMaxWebSocketMessageBytes = 1024 * 1024;
inline constexpr std::chrono::seconds kWebSocketWriteDeadline{30};
inline constexpr std::chrono::seconds kWebSocketHandshakeDeadline{15};

class WebSocketConnection : public std::enable_shared_from_this<WebSocketConnection> {
 public:
  using Socket = boost::asio::ip::tcp::socket;  // its executor must be a strand
  using Request = boost::beast::http::request<boost::beast::http::empty_body>;

  // `onClosed` runs once, on the strand, when the socket is closed.
  WebSocketConnection(Socket socket, const ConnectionLimits& limits, const SessionConfig& sessionConfig,
                      std::shared_ptr<SessionReaper> reaper, std::function<void()> onClosed);

  // Answers the upgrade request (already read by the HTTP side), then serves.
  void start(Request request);
  // Asks the connection to close (from any thread): stops the search,
  // flushes the output, sends a close frame.
  void shutdown();

 private:
  void read();
  void onRead(const boost::system::error_code& ec, size_t bytes);
  bool handleLine(std::string_view line, bool overlong);
  void armIdleTimer();
  void send(std::string line);  // on the strand
  void write();
  void finish(bool flush);
  void flushAndClose();
  void closeSocket();
  void closed();  // once: the socket is gone

  boost::beast::websocket::stream<Socket> ws_;
  boost::asio::steady_timer idleTimer_;
  boost::asio::steady_timer writeTimer_;
  ConnectionLimits limits_;
  boost::beast::flat_buffer readBuffer_;
  LineBuffer lines_;
  std::unique_ptr<Session> session_;
  SessionConfig sessionConfig_;
  std::shared_ptr<SessionReaper> reaper_;
  std::deque<std::string> outQueue_;
  size_t outBytes_ = 0;
  bool writing_ = false;
  bool authenticated_;
  bool open_ = false;          // the handshake is done
  bool finished_ = false;      // no more input is handled
  bool closeWhenFlushed_ = false;
  bool closing_ = false;       // a close frame is on its way
  bool socketClosed_ = false;
  boost::beast::websocket::close_code closeCode_ = boost::beast::websocket::close_code::normal;
  std::chrono::steady_clock::time_point lastInput_;
  std::function<void()> onClosed_;
};

}  // namespace gobblet
