// WebSocketConnection: one browser (or other WebSocket client) on /ugi,
// served by its own Session — the UGI protocol with WebSocket framing.
//
// Each text message holds one or more protocol lines (its end also ends a
// line); each output line goes out as one text message. Everything but the
// framing is ClientConnection's (server/client_connection.h), shared with
// the TCP transport: `auth <token>` first and within the auth deadline, the
// session made only after auth and only in a free session slot, the line
// cap, the output budget and write/flush deadlines, the idle policy, the
// search stopped at once on a hang-up. WebSocket adds: a message cap
// (kMaxWebSocketMessageBytes: beyond it the socket is closed with 1009), a
// binary message is refused (error line, close 1003), malformed frames and
// invalid UTF-8 close the socket (Beast's checks), and the opening handshake
// must end within kWebSocketHandshakeDeadline. An orderly close writes the
// last bestmove, then the close frame.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "server/client_connection.h"
#include "engine/line_buffer.h"
#include "protocol/session.h"
#include "server/session_reaper.h"

namespace gobblet {

inline constexpr size_t kMaxWebSocketMessageBytes = 1024 * 1024;
inline constexpr std::chrono::seconds kWebSocketHandshakeDeadline{15};

class WebSocketConnection : public ClientConnection {
 public:
  using Socket = boost::asio::ip::tcp::socket;  // its executor must be a strand
  using Request = boost::beast::http::request<boost::beast::http::empty_body>;

  // See ClientConnection for `admit`, `onClosed` and `reaper`.
  WebSocketConnection(Socket socket, const ConnectionLimits& limits, const SessionConfig& sessionConfig,
                      SessionReaper& reaper, std::function<bool()> admit, std::function<void()> onClosed);

  // Answers the upgrade request (already read by the HTTP side), then serves.
  void start(Request request);

 private:
  std::shared_ptr<WebSocketConnection> self() {
    return std::static_pointer_cast<WebSocketConnection>(shared_from_this());
  }
  void read();
  void onRead(const boost::system::error_code& ec, size_t bytes);
  void writeFront(const std::string& line, std::function<void(const boost::system::error_code&)> done) override;
  void endOfOutput() override;
  void closeSocket() override;

  boost::beast::websocket::stream<Socket> ws_;
  boost::beast::flat_buffer readBuffer_;
  LineBuffer lines_;
  boost::beast::websocket::close_code closeCode_ = boost::beast::websocket::close_code::normal;
};

}  // namespace gobblet
