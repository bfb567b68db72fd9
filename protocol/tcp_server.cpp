#include "protocol/tcp_server.h"

#include <memory>
#include <string>

namespace gobblet {

namespace asio = boost::asio;
using asio::ip::tcp;

void TcpServer::accepted(tcp::socket socket) {
  auto conn = slots_.add([&](std::function<bool()> admit, std::function<void()> onClosed) {
    return std::make_shared<TcpConnection>(std::move(socket), config_.connection, config_.session, reaper_,
                                           std::move(admit), std::move(onClosed));
  });
  if (!conn) return refuse(std::move(socket));  // every slot taken (no token)
  conn->start();
}

// Tells a client over the session limit why it is being closed.
void TcpServer::refuse(tcp::socket socket) {
  auto s = std::make_shared<tcp::socket>(std::move(socket));
  auto text = std::make_shared<std::string>("info string error: server full (" +
                                            std::to_string(config_.maxSessions) + " sessions), try later\n");
  asio::async_write(*s, asio::buffer(*text), [s, text](const boost::system::error_code&, size_t) {
    boost::system::error_code ignored;
    s->shutdown(tcp::socket::shutdown_both, ignored);
    s->close(ignored);
  });
}

}  // namespace gobblet
