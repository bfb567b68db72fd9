#include "websocket_connection.h"

namespace gobblet {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {

// Bytes asked of one read: a message may arrive in several reads.
constexpr size_t kReadChunkBytes = 8192;

}  // namespace

WebSocketConnection::WebSocketConnection(Socket socket, const ConnectionLimits& limits,
                                         const SessionConfig& sessionConfig, SessionReaper& reaper,
                                         std::function<bool()> admit, std::function<void()> onClosed)
    : ClientConnection(socket.get_executor(), limits, sessionConfig, reaper, std::move(admit), std::move(onClosed), ""),
      ws_(std::move(socket)),
      lines_(limits.maxLineBytes) {}

void WebSocketConnection::start(Request request) {
  asio::dispatch(strand_, [self = self(), request = std::move(request)]() mutable {
    if (self->socketClosed()) return;  // shut down before it started
    boost::system::error_code ignored;
    self->ws_.next_layer().set_option(asio::ip::tcp::no_delay(true), ignored);
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = kWebSocketHandshakeDeadline;  // also bounds the closing handshake
    timeouts.idle_timeout = websocket::stream_base::none();    // ClientConnection's idle rule
    timeouts.keep_alive_pings = false;
    self->ws_.set_option(timeouts);
    self->ws_.read_message_max(kMaxWebSocketMessageBytes);
    self->ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(beast::http::field::server, "gobblet"); }));
    auto req = std::make_shared<Request>(std::move(request));  // lives until the handshake completes
    self->ws_.async_accept(*req, [self, req](const boost::system::error_code& ec) {
      if (ec) {
        self->closeSocket();
        return;
      }
      if (self->begin()) self->read();
    });
  });
}

void WebSocketConnection::read() {
  ws_.async_read_some(readBuffer_, kReadChunkBytes,
                      [self = self()](const boost::system::error_code& ec, size_t n) { self->onRead(ec, n); });
}

void WebSocketConnection::onRead(const boost::system::error_code& ec, size_t) {
  if (finished()) return;
  if (ec) {
    // The client closed, vanished, or broke the protocol (bad frame, invalid
    // UTF-8, message over the cap: Beast has already sent the close frame
    // with its code). Nothing more can be written.
    finish(false);
    return;
  }
  noteInput();
  if (!ws_.got_text()) {
    send("info string error: binary messages are not accepted: send UGI lines as text");
    closeCode_ = websocket::close_code::unknown_data;
    finish(true);
    return;
  }
  const LineBuffer::OnLine onLine = lineHandler();
  const auto data = readBuffer_.cdata();
  const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
  bool go = lines_.feed(bytes, onLine);
  readBuffer_.consume(readBuffer_.size());
  // The end of a message ends its last line.
  if (go && !finished() && ws_.is_message_done()) go = lines_.finish(onLine);
  if (go && !finished()) read();
}

void WebSocketConnection::writeFront(const std::string& line,
                                     std::function<void(const boost::system::error_code&)> done) {
  ws_.text(true);
  ws_.async_write(asio::buffer(line),
                  [done = std::move(done)](const boost::system::error_code& ec, size_t) { done(ec); });
}

// The output is flushed: the close frame (the flush deadline still bounds
// the closing handshake).
void WebSocketConnection::endOfOutput() {
  ws_.async_close(closeCode_, [self = self()](const boost::system::error_code&) { self->closeSocket(); });
}

void WebSocketConnection::closeSocket() {
  if (socketClosed()) return;
  boost::system::error_code ignored;
  beast::get_lowest_layer(ws_).shutdown(Socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).close(ignored);
  socketGone();
}

}  // namespace gobblet
