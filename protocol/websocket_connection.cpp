#include "protocol/websocket_connection.h"

#include <optional>

#include "protocol/command.h"

namespace gobblet {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {

// Bytes asked of one read: a message may arrive in several reads.
constexpr size_t kReadChunkBytes = 8192;

}  // namespace

WebSocketConnection::WebSocketConnection(Socket socket, const ConnectionLimits& limits,
                                         const SessionConfig& sessionConfig, std::shared_ptr<SessionReaper> reaper,
                                         std::function<void()> onClosed)
    : ws_(std::move(socket)),
      idleTimer_(ws_.get_executor()),
      writeTimer_(ws_.get_executor()),
      limits_(limits),
      lines_(limits.maxLineBytes),
      sessionConfig_(sessionConfig),
      reaper_(std::move(reaper)),
      authenticated_(limits.token.empty()),
      onClosed_(std::move(onClosed)) {}

void WebSocketConnection::start(Request request) {
  asio::dispatch(ws_.get_executor(), [self = shared_from_this(), request = std::move(request)]() mutable {
    boost::system::error_code ignored;
    self->ws_.next_layer().set_option(asio::ip::tcp::no_delay(true), ignored);
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = kWebSocketHandshakeDeadline;  // also bounds the closing handshake
    timeouts.idle_timeout = websocket::stream_base::none();   // our own idle rule: see armIdleTimer
    timeouts.keep_alive_pings = false;
    self->ws_.set_option(timeouts);
    self->ws_.read_message_max(kMaxWebSocketMessageBytes);
    self->ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(beast::http::field::server, "gobblet");
    }));
    auto req = std::make_shared<Request>(std::move(request));  // lives until the handshake completes
    self->ws_.async_accept(*req, [self, req](const boost::system::error_code& ec) {
      if (ec) {
        self->closeSocket();
        return;
      }
      self->open_ = true;
      // The session's output may come from search threads: hop onto the strand.
      std::weak_ptr<WebSocketConnection> weak = self;
      self->session_ = std::make_unique<Session>(
          [weak](const std::string& line) {
            if (auto conn = weak.lock())
              asio::post(conn->ws_.get_executor(), [conn, line] { conn->send(line); });
          },
          self->sessionConfig_);
      self->lastInput_ = std::chrono::steady_clock::now();
      self->armIdleTimer();
      self->read();
    });
  });
}

void WebSocketConnection::shutdown() {
  asio::post(ws_.get_executor(), [self = shared_from_this()] {
    if (!self->open_) {
      self->closeSocket();  // still in the handshake: nothing to say
      return;
    }
    if (!self->finished_) self->send("info string error: server shutting down");
    self->finish(true);
  });
}

void WebSocketConnection::read() {
  ws_.async_read_some(readBuffer_, kReadChunkBytes,
                      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
                        self->onRead(ec, n);
                      });
}

void WebSocketConnection::onRead(const boost::system::error_code& ec, size_t) {
  if (finished_) return;
  const LineBuffer::OnLine onLine = [this](std::string_view line, bool overlong) {
    return handleLine(line, overlong);
  };
  if (ec) {
    // The client closed, vanished, or broke the protocol (bad frame, invalid
    // UTF-8, message over the cap: Beast has already sent the close frame
    // with its code). Nothing more can be written.
    finish(false);
    return;
  }
  lastInput_ = std::chrono::steady_clock::now();
  if (!ws_.got_text()) {
    send("info string error: binary messages are not accepted: send UGI lines as text");
    closeCode_ = websocket::close_code::unknown_data;
    finish(true);
    return;
  }
  const auto data = readBuffer_.cdata();
  const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
  bool go = lines_.feed(bytes, onLine);
  readBuffer_.consume(readBuffer_.size());
  // The end of a message ends its last line.
  if (go && !finished_ && ws_.is_message_done()) go = lines_.finish(onLine);
  if (go && !finished_) read();
}

// Handles one line; false ends the connection.
bool WebSocketConnection::handleLine(std::string_view line, bool overlong) {
  if (finished_) return false;
  if (!authenticated_) {
    auto command = parseCommand(line);
    if (command.ok() && command->kind == CommandKind::kEmpty) return true;
    // Compare the whole token without stopping at the first difference.
    bool match = command.ok() && command->kind == CommandKind::kAuth && command->token.size() == limits_.token.size();
    unsigned diff = 0;
    for (size_t i = 0; match && i < limits_.token.size(); ++i) diff |= command->token[i] ^ limits_.token[i];
    if (!match || diff != 0) {
      send("info string error: authentication required: send 'auth <token>' first");
      finish(true);
      return false;
    }
    authenticated_ = true;
    send("info string authenticated");
    return true;
  }
  if (overlong) {
    session_->reportOverlongLine(limits_.maxLineBytes);
    return true;
  }
  if (!session_->handleLine(line)) {
    finish(true);
    return false;
  }
  return true;
}

void WebSocketConnection::armIdleTimer() {
  idleTimer_.expires_at(lastInput_ + limits_.idleTimeout);
  idleTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec || self->finished_) return;
    // A client waiting for its bestmove is not idle; nor is one that spoke lately.
    const bool quiet = std::chrono::steady_clock::now() >= self->lastInput_ + self->limits_.idleTimeout;
    if (quiet && !self->session_->busy()) {
      self->send("info string error: idle timeout, closing");
      self->finish(true);
      return;
    }
    if (quiet) self->lastInput_ = std::chrono::steady_clock::now();
    self->armIdleTimer();
  });
}

void WebSocketConnection::send(std::string line) {
  if (socketClosed_ || closing_) return;
  outBytes_ += line.size();
  outQueue_.push_back(std::move(line));
  if (outBytes_ > limits_.maxPendingOutputBytes) {
    // The client does not read what it asked for: drop it rather than buffer without end.
    closeSocket();
    finish(false);
    return;
  }
  if (!writing_) write();
}

void WebSocketConnection::write() {
  if (socketClosed_) return;
  if (outQueue_.empty()) {
    if (closeWhenFlushed_ && !closing_) {
      closing_ = true;
      writeTimer_.expires_after(kWebSocketWriteDeadline);
      writeTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (!ec) self->closeSocket();
      });
      ws_.async_close(closeCode_, [self = shared_from_this()](const boost::system::error_code&) {
        self->closeSocket();
      });
    }
    return;
  }
  writing_ = true;
  ws_.text(true);
  // A client that takes no data for this long is gone or hostile.
  writeTimer_.expires_after(kWebSocketWriteDeadline);
  writeTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec && self->writing_) {
      self->closeSocket();
      self->finish(false);
    }
  });
  ws_.async_write(asio::buffer(outQueue_.front()), [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
    self->writing_ = false;
    self->writeTimer_.cancel();
    if (!self->outQueue_.empty()) {
      self->outBytes_ -= self->outQueue_.front().size();
      self->outQueue_.pop_front();
    }
    if (ec) {
      self->closeSocket();
      self->finish(false);
      return;
    }
    self->write();
  });
}

void WebSocketConnection::finish(bool flush) {
  if (finished_) return;
  finished_ = true;
  idleTimer_.cancel();
  if (!flush) closeSocket();
  if (!session_) {
    if (flush) flushAndClose();
    return;
  }
  // The reaper stops the search (its bestmove is posted here, ahead of what
  // follows) and frees the session; then the rest is flushed and a close
  // frame sent. The work guard keeps the I/O threads running until then.
  std::optional<asio::any_io_executor> work =
      asio::prefer(ws_.get_executor(), asio::execution::outstanding_work.tracked);
  // Let go of the reaper here: were this connection its last owner, the
  // reaper would be destroyed on its own thread (the callback below ends
  // there) and join itself.
  const std::shared_ptr<SessionReaper> reaper = std::move(reaper_);
  reaper->retire(std::move(session_), [self = shared_from_this(), work, flush]() mutable {
    if (flush) asio::post(self->ws_.get_executor(), [self] { self->flushAndClose(); });
    work.reset();
  });
}

void WebSocketConnection::flushAndClose() {
  closeWhenFlushed_ = true;
  if (!writing_) write();
}

void WebSocketConnection::closeSocket() {
  if (socketClosed_) return;
  socketClosed_ = true;
  writeTimer_.cancel();
  idleTimer_.cancel();
  boost::system::error_code ignored;
  beast::get_lowest_layer(ws_).shutdown(Socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).close(ignored);
  // A write in flight still owns the front buffer until its handler runs.
  if (writing_ && !outQueue_.empty()) {
    outQueue_.erase(outQueue_.begin() + 1, outQueue_.end());
    outBytes_ = outQueue_.front().size();
  } else {
    outQueue_.clear();
    outBytes_ = 0;
  }
  closed();
}

void WebSocketConnection::closed() {
  if (!onClosed_) return;
  auto onClosed = std::move(onClosed_);
  onClosed_ = nullptr;
  onClosed();
}

}  // namespace gobblet
