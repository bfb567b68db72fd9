#include "server/tcp_connection.h"

namespace gobblet {

namespace asio = boost::asio;

TcpConnection::TcpConnection(Socket socket, const ConnectionLimits& limits, const SessionConfig& sessionConfig,
                             SessionReaper& reaper, std::function<bool()> admit, std::function<void()> onClosed)
    : ClientConnection(asio::make_strand(socket.get_executor()), limits, sessionConfig, reaper, std::move(admit),
                       std::move(onClosed), "\n"),
      socket_(std::move(socket)),
      lines_(limits.maxLineBytes) {}

void TcpConnection::start() {
  boost::system::error_code ignored;
  // Lines are small and a controller waits for each answer: no Nagle delay.
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
  asio::dispatch(strand_, [self = std::static_pointer_cast<TcpConnection>(shared_from_this())] {
    if (self->begin()) self->read();
  });
}

void TcpConnection::read() {
  socket_.async_read_some(
      asio::buffer(readBuffer_),
      asio::bind_executor(strand_, [self = std::static_pointer_cast<TcpConnection>(shared_from_this())](
                                       auto ec, size_t n) { self->onRead(ec, n); }));
}

void TcpConnection::onRead(const boost::system::error_code& ec, size_t bytes) {
  if (finished()) return;
  const LineBuffer::OnLine onLine = lineHandler();
  if (ec) {
    // End of stream: like quit (answer what is pending). A reset: the client is gone.
    if (ec == asio::error::eof) {
      lines_.finish(onLine);
      finish(true);
    } else {
      finish(false);
    }
    return;
  }
  noteInput();
  if (lines_.feed(std::string_view(readBuffer_.data(), bytes), onLine) && !finished()) read();
}

void TcpConnection::writeFront(const std::string& line, std::function<void(const boost::system::error_code&)> done) {
  asio::async_write(socket_, asio::buffer(line),
                    asio::bind_executor(strand_, [done = std::move(done)](auto ec, size_t) { done(ec); }));
}

void TcpConnection::closeSocket() {
  if (socketClosed()) return;
  boost::system::error_code ignored;
  socket_.shutdown(Socket::shutdown_both, ignored);
  socket_.close(ignored);
  socketGone();
}

}  // namespace gobblet
