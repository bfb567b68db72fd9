// TcpConnection: one TCP client, served by its own Session — UGI lines over
// a TCP socket.
//
// Only the transport lives here: reading bytes into a LineBuffer, writing
// each queued line, closing the socket. Everything else — the auth gate and
// its deadline, the session made only after auth, line dispatch, the idle
// policy, the output budget and write/flush deadlines, stopping the search
// at once on a hang-up — is ClientConnection's (server/client_connection.h),
// shared with the WebSocket transport. End of input is like `quit` (what is
// pending is answered); a reset is a hang-up.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>

#include "server/client_connection.h"
#include "engine/line_buffer.h"
#include "protocol/session.h"
#include "server/session_reaper.h"

namespace gobblet {

class TcpConnection : public ClientConnection {
 public:
  using Socket = boost::asio::ip::tcp::socket;

  // See ClientConnection for `admit`, `onClosed` and `reaper` (which must
  // outlive every connection's finish(): the server owns it and runs the
  // I/O until the connections end).
  TcpConnection(Socket socket, const ConnectionLimits& limits, const SessionConfig& sessionConfig,
                SessionReaper& reaper, std::function<bool()> admit, std::function<void()> onClosed);

  // Starts reading and the idle (or auth) timer.
  void start();

 private:
  void read();
  void onRead(const boost::system::error_code& ec, size_t bytes);
  void writeFront(const std::string& line, std::function<void(const boost::system::error_code&)> done) override;
  void endOfOutput() override { closeSocket(); }
  void closeSocket() override;

  Socket socket_;
  std::array<char, 8192> readBuffer_;
  LineBuffer lines_;
};

}  // namespace gobblet
