// TcpConnection in process, over a loopback socket pair: who owns what when
// a connection ends, and the deadlines that keep a client from holding it.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include <sys/socket.h>
#include <sys/time.h>

#include "server/tcp_connection.h"
#include "tests/server/reaper_blocker.h"

namespace gobblet {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using Ms = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;
using testing::ReaperBlocker;

// One server-side connection and its client socket, with the I/O running
// on a thread of its own.
class Loopback {
 public:
  explicit Loopback(const ConnectionLimits& limits, SessionReaper& reaper, int serverSendBuffer = 0)
      : acceptor_(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)), client(io_) {
    client.open(tcp::v4());
    if (serverSendBuffer) client.set_option(asio::socket_base::receive_buffer_size(serverSendBuffer));
    client.connect(acceptor_.local_endpoint());
    // Reads give up after 1 s (an error line), so that a failure cannot hang the test.
    const timeval timeout{1, 0};
    ::setsockopt(client.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    tcp::socket server = acceptor_.accept();
    if (serverSendBuffer) server.set_option(asio::socket_base::send_buffer_size(serverSendBuffer));
    auto conn = std::make_shared<TcpConnection>(std::move(server), limits, SessionConfig{}, reaper, nullptr,
                                                [this] { closed = true; });
    connection = conn;
    conn->start();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~Loopback() {
    boost::system::error_code ignored;
    client.close(ignored);
    // The I/O ends once the connection has (every deadline is bounded).
    thread_.join();
  }

  void send(const std::string& text) { asio::write(client, asio::buffer(text)); }
  // The next line from the server within `timeout`, or "<error>".
  std::string line(Ms timeout = Ms(10000)) {
    for (const auto end = Clock::now() + timeout;;) {
      if (size_t nl = buffer_.find('\n'); nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      char chunk[4096];
      boost::system::error_code ec;
      const size_t n = client.read_some(asio::buffer(chunk), ec);
      const bool again = ec == asio::error::would_block || ec == asio::error::try_again;
      if (again && Clock::now() < end) continue;
      if (ec) return "<" + ec.message() + ">";
      buffer_.append(chunk, n);
    }
  }
  // The next line starting with `prefix` within `timeout`, or "<error>".
  std::string until(const std::string& prefix, Ms timeout = Ms(10000)) {
    for (const auto end = Clock::now() + timeout;;) {
      const auto left = std::chrono::duration_cast<Ms>(end - Clock::now());
      if (left <= Ms(0)) return "<timeout>";
      std::string l = line(left);
      if (l.rfind(prefix, 0) == 0 || l[0] == '<') return l;
    }
  }
  void reset() {
    client.set_option(asio::socket_base::linger(true, 0));
    client.close();
  }
  // Polls until `done`, for at most `timeout`.
  static bool waitFor(const std::function<bool()>& done, Ms timeout) {
    for (const auto end = Clock::now() + timeout; Clock::now() < end;) {
      if (done()) return true;
      std::this_thread::sleep_for(Ms(5));
    }
    return done();
  }

  std::weak_ptr<TcpConnection> connection;
  std::atomic<bool> closed{false};

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;

 public:
  tcp::socket client;

 private:
  std::thread thread_;
  std::string buffer_;
};

// The connection's last reference is dropped on the reaper's thread (its
// `then` callback holds it). That must not end the reaper: it belongs to
// its owner, here the test (before, the connections shared it, and the
// last one destroyed it on its own thread, which aborted joining itself).
// A connection made but never started (its start failed) still calls its
// onClosed when it goes: the session slot it holds comes back.
TEST(TcpConnection, OneNeverStartedGivesItsSlotBackWhenItGoes) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  tcp::socket client(io);
  client.connect(acceptor.local_endpoint());
  SessionReaper reaper;
  bool closed = false;
  auto conn = std::make_shared<TcpConnection>(acceptor.accept(), ConnectionLimits{}, SessionConfig{}, reaper, nullptr,
                                              [&closed] { closed = true; });
  EXPECT_FALSE(closed);
  conn.reset();
  EXPECT_TRUE(closed);
}

TEST(TcpConnection, LastReferenceMayDieOnTheReaperThread) {
  auto reaper = std::make_unique<SessionReaper>();
  for (int round = 0; round < 10; ++round) {
    Loopback loop(ConnectionLimits{}, *reaper);
    loop.send("setoption name Hash value 1\ngo infinite\n");
    ASSERT_EQ(loop.until("info depth").rfind("info depth", 0), 0u);
    loop.reset();
    EXPECT_TRUE(Loopback::waitFor([&] { return loop.connection.expired(); }, Ms(10000)));
  }
  reaper.reset();  // on this thread: joins the reaper's
}

// A client that hangs up mid-search: its search stops at once, on the
// connection's strand, also while the reaper is busy with other sessions.
// (The bestmove of a stopped search is written before the socket closes,
// which is how the client sees it after its half-close.)
TEST(TcpConnection, HangUpStopsTheSearchWithoutWaitingForTheReaper) {
  SessionReaper reaper;
  ReaperBlocker blocker(reaper);
  Loopback loop(ConnectionLimits{}, reaper);
  loop.send("setoption name Hash value 1\ngo infinite\n");
  ASSERT_EQ(loop.until("info depth").rfind("info depth", 0), 0u);
  loop.client.shutdown(tcp::socket::shutdown_send);  // end of input: like quit
  EXPECT_EQ(loop.until("bestmove").rfind("bestmove ", 0), 0u) << "the search kept running";
  blocker.release();  // before the loop ends: its I/O waits for the reaper
}

// A client that never reads, then quits: the flush of its unread output
// has a deadline, so the connection still ends (before, it waited for ever
// and kept its slot; SIGTERM could not stop the server).
TEST(TcpConnection, ClientThatNeverReadsCannotHoldTheConnection) {
  SessionReaper reaper;
  ConnectionLimits limits;
  limits.writeTimeout = Ms(60000);  // the flush deadline must do it
  limits.flushTimeout = Ms(300);
  limits.maxPendingOutputBytes = 64 << 20;  // not dropped for the cap: the deadline must do it
  Loopback loop(limits, reaper, /*serverSendBuffer=*/4096);
  std::string burst;
  for (int i = 0; i < 400; ++i) burst += "d\n";  // ~400 KB of answers, far beyond the buffers
  loop.send(burst + "quit\n");
  EXPECT_TRUE(Loopback::waitFor([&] { return loop.closed.load(); }, Ms(20000)))
      << "a client that does not read kept its connection";
}

// The same while the connection is still open: a write the client does not
// take within the write deadline drops the client.
TEST(TcpConnection, StalledWriteDropsTheClient) {
  SessionReaper reaper;
  ConnectionLimits limits;
  limits.writeTimeout = Ms(300);
  limits.maxPendingOutputBytes = 64 << 20;
  Loopback loop(limits, reaper, /*serverSendBuffer=*/4096);
  std::string burst;
  for (int i = 0; i < 400; ++i) burst += "d\n";
  loop.send(burst);
  EXPECT_TRUE(Loopback::waitFor([&] { return loop.closed.load(); }, Ms(20000)));
}

// With a token: `auth` must come within the auth deadline, and blank lines
// do not extend it (before, they reset the idle timer, so a client sending
// them held its slot for ever).
TEST(TcpConnection, AuthenticateInTimeBlankLinesDoNotCount) {
  SessionReaper reaper;
  ConnectionLimits limits;
  limits.token = "s3cret";
  limits.authTimeout = Ms(300);
  Loopback loop(limits, reaper);
  const auto t0 = Clock::now();
  for (int i = 0; i < 200 && !loop.closed; ++i) {
    boost::system::error_code ec;
    asio::write(loop.client, asio::buffer(std::string("\n")), ec);
    std::this_thread::sleep_for(Ms(25));
  }
  EXPECT_TRUE(loop.closed) << "still open after 5 s of blank lines";
  EXPECT_EQ(loop.line(), "info string error: authentication timeout, closing");
  std::printf("closed %lld ms after connecting\n",
              static_cast<long long>(std::chrono::duration_cast<Ms>(Clock::now() - t0).count()));
}

TEST(TcpConnection, AuthenticatedInTimeIsServed) {
  SessionReaper reaper;
  ConnectionLimits limits;
  limits.token = "s3cret";
  limits.authTimeout = Ms(300);
  Loopback loop(limits, reaper);
  loop.send("auth s3cret\n");
  EXPECT_EQ(loop.line(), "info string authenticated");
  std::this_thread::sleep_for(Ms(500));  // past the auth deadline: no longer applies
  loop.send("isready\n");
  EXPECT_EQ(loop.line(), "readyok");
}

}  // namespace
}  // namespace gobblet
