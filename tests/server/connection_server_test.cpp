// ConnectionServer in process: a failure in one client's handling is
// reported and the server serves on, and stop() still ends run() cleanly.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/socket.h>
#include <sys/time.h>

#include "server/connection_server.h"

namespace gobblet {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// Greets each client with "hello N\n" and closes; the first `failures`
// clients make accepted() throw instead, and each greeting also posts a
// handler that throws, as a connection's handler might.
class GreetingServer : public ConnectionServer {
 public:
  GreetingServer(int failures, int ioThreads) : ConnectionServer(config(ioThreads)), failures_(failures) {}

  std::atomic<int> greeted{0};

 protected:
  void accepted(tcp::socket socket) override {
    if (failures_-- > 0) throw std::runtime_error("no session for this client");
    const std::string text = "hello " + std::to_string(++greeted) + "\n";
    boost::system::error_code ignored;
    asio::write(socket, asio::buffer(text), ignored);
    socket.close(ignored);
    asio::post(io_, [] { throw std::runtime_error("a handler's failure"); });
  }

 private:
  static ServerConfig config(int ioThreads) {
    ServerConfig config;
    config.ioThreads = ioThreads;
    return config;
  }

  std::atomic<int> failures_;
};

// What a new client of the server on `port` reads before the server closes
// the connection (empty when it is closed without a word).
std::string firstWords(uint16_t port) {
  asio::io_context io;
  tcp::socket client(io);
  client.connect(tcp::endpoint(asio::ip::address_v4::loopback(), port));
  const timeval timeout{10, 0};  // a failure cannot hang the test
  ::setsockopt(client.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string text;
  char chunk[256];
  for (;;) {
    const ssize_t got = ::recv(client.native_handle(), chunk, sizeof chunk, 0);
    if (got <= 0) return text;
    text.append(chunk, static_cast<size_t>(got));
  }
}

TEST(ConnectionServer, AFailureInOneClientsHandlingIsReportedAndTheServerServesOn) {
  for (int ioThreads : {1, 3}) {
    GreetingServer server(/*failures=*/2, ioThreads);
    ASSERT_TRUE(server.listen().ok());
    testing::internal::CaptureStderr();
    std::thread serving([&] { server.run(); });
    EXPECT_EQ(firstWords(server.port()), "") << "accepted() threw: that client is closed";
    EXPECT_EQ(firstWords(server.port()), "");
    EXPECT_EQ(firstWords(server.port()), "hello 1\n") << ioThreads << " I/O threads";
    EXPECT_EQ(firstWords(server.port()), "hello 2\n");
    server.stop();
    serving.join();  // before the fix: the handler's exception ended the process here
    const std::string errors = testing::internal::GetCapturedStderr();
    EXPECT_NE(errors.find("a connection could not be set up: no session for this client; serving on"),
              std::string::npos)
        << errors;
    EXPECT_NE(errors.find("a connection's handler failed: a handler's failure; serving on"), std::string::npos)
        << errors;
  }
}

}  // namespace
}  // namespace gobblet
