// The browser board's transport over real sockets: `gobblet --http
// 127.0.0.1:0` as a child process, HTTP and WebSocket clients (Boost.Beast)
// on loopback. The page is served; UGI works over WebSocket with the TCP
// server's limits; bad frames, huge messages, floods and a disconnect
// mid-search leave the server serving and give the session's memory back.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "server/http_server.h"
#include "server/websocket_connection.h"
#include "tests/support/engine_client.h"
#include "tests/server/reaper_blocker.h"

namespace gobblet {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using testing::EngineProcess;
using testing::Ms;

// Starts `gobblet --http 127.0.0.1:0 extra...` and reads its port.
class BoardServer {
 public:
  explicit BoardServer(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--http", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    process_ = std::make_unique<EngineProcess>(args);
    if (auto line = process_->err().readUntil("gobblet: serving the board on http://", Ms(10000))) {
      const size_t colon = line->rfind(':');
      port_ = static_cast<uint16_t>(std::stoi(line->substr(colon + 1)));
    }
  }
  ~BoardServer() {
    if (process_ && process_->started()) ::kill(process_->pid(), SIGTERM);
  }
  uint16_t port() const { return port_; }
  EngineProcess& process() { return *process_; }

 private:
  std::unique_ptr<EngineProcess> process_;
  uint16_t port_ = 0;
};

// One HTTP request on a fresh connection; the response (status 0 if none came).
http::response<http::string_body> get(uint16_t port, const std::string& target,
                                      const std::vector<std::pair<std::string, std::string>>& fields = {}) {
  asio::io_context io;
  tcp::socket socket(io);
  http::response<http::string_body> response;
  beast::error_code ec;
  socket.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return response;
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  for (auto& [k, v] : fields) request.set(k, v);
  http::write(socket, request, ec);
  beast::flat_buffer buffer;
  if (!ec) http::read(socket, buffer, response, ec);
  return response;
}

// The HTTP status of an upgrade request to /ugi (Beast 1.74's client does
// not report the response of a declined handshake).
unsigned upgradeStatus(uint16_t port, const std::string& origin = "") {
  std::vector<std::pair<std::string, std::string>> fields{{"Connection", "Upgrade"},
                                                          {"Upgrade", "websocket"},
                                                          {"Sec-WebSocket-Version", "13"},
                                                          {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};
  if (!origin.empty()) fields.emplace_back("Origin", origin);
  return get(port, "/ugi", fields).result_int();
}

// A WebSocket client on /ugi; every read has a timeout.
class WsClient {
 public:
  explicit WsClient(uint16_t port, const std::string& origin = "") {
    beast::error_code ec;
    ws_.next_layer().connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    if (ec) {
      handshakeError_ = ec;
      return;
    }
    ws_.set_option(websocket::stream_base::decorator([origin](websocket::request_type& req) {
      if (!origin.empty()) req.set(http::field::origin, origin);
    }));
    ws_.handshake(response_, "127.0.0.1:" + std::to_string(port), "/ugi", ec);
    handshakeError_ = ec;
  }

  bool open() const { return !handshakeError_; }

  bool send(const std::string& text) {
    beast::error_code ec;
    ws_.text(true);
    ws_.write(asio::buffer(text), ec);
    return !ec;
  }
  bool sendBinary(const std::string& bytes) {
    beast::error_code ec;
    ws_.binary(true);
    ws_.write(asio::buffer(bytes), ec);
    return !ec;
  }
  // Bytes straight onto the socket, under the WebSocket framing.
  void sendRaw(const std::string& bytes) {
    beast::error_code ec;
    asio::write(ws_.next_layer(), asio::buffer(bytes), ec);
  }

  // The next message, or nothing on timeout or close (then closed() and closeCode()).
  std::optional<std::string> line(Ms timeout = Ms(10000)) {
    if (closed_) return std::nullopt;
    beast::flat_buffer buffer;
    bool done = false;
    beast::error_code result;
    ws_.async_read(buffer, [&](beast::error_code ec, size_t) {
      done = true;
      result = ec;
    });
    io_.restart();
    io_.run_for(timeout);
    if (!done) {
      beast::error_code ignored;
      ws_.next_layer().close(ignored);  // the stream is unusable after a cancelled read
      io_.restart();
      io_.run_for(Ms(1000));
      closed_ = timedOut_ = true;
      return std::nullopt;
    }
    if (result) {
      closed_ = true;
      closeCode_ = ws_.reason().code;
      return std::nullopt;
    }
    return beast::buffers_to_string(buffer.data());
  }
  std::optional<std::string> until(const std::string& prefix, Ms timeout = Ms(10000),
                                   std::vector<std::string>* seen = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto l = line(std::chrono::duration_cast<Ms>(deadline - std::chrono::steady_clock::now()));
      if (!l) return std::nullopt;
      if (seen) seen->push_back(*l);
      if (l->rfind(prefix, 0) == 0) return l;
    }
    return std::nullopt;
  }
  // Reads until the server closes; true if it did within the timeout.
  bool closedByPeer(Ms timeout = Ms(10000)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!closed_ && std::chrono::steady_clock::now() < deadline)
      line(std::chrono::duration_cast<Ms>(deadline - std::chrono::steady_clock::now()));
    return closed_ && !timedOut_;
  }
  unsigned closeCode() const { return closeCode_; }
  // A TCP reset: no close frame.
  void abort() {
    beast::error_code ignored;
    linger l{1, 0};
    ::setsockopt(ws_.next_layer().native_handle(), SOL_SOCKET, SO_LINGER, &l, sizeof l);
    ws_.next_layer().close(ignored);
    closed_ = true;
  }

 private:
  asio::io_context io_;
  websocket::stream<tcp::socket> ws_{io_};
  websocket::response_type response_;
  beast::error_code handshakeError_;
  bool closed_ = false;
  bool timedOut_ = false;
  unsigned closeCode_ = 0;
};

// A client frame by hand: FIN + opcode, masked with a zero key (so the payload is as given).
std::string frame(uint8_t opcode, const std::string& payload, bool masked = true) {
  std::string f;
  f += static_cast<char>(0x80 | opcode);
  const uint8_t mask = masked ? 0x80 : 0;
  if (payload.size() < 126) {
    f += static_cast<char>(mask | payload.size());
  } else {
    f += static_cast<char>(mask | 126);
    f += static_cast<char>(payload.size() >> 8);
    f += static_cast<char>(payload.size() & 0xFF);
  }
  if (masked) f += std::string(4, '\0');
  return f + payload;
}

TEST(WebSocketServer, ServesThePage) {
  BoardServer server;
  ASSERT_NE(server.port(), 0);
  auto page = get(server.port(), "/");
  EXPECT_EQ(page.result_int(), 200u);
  EXPECT_NE(page.body().find("<!doctype html>"), std::string::npos);
  EXPECT_EQ(std::string(page[http::field::content_type]), "text/html; charset=utf-8");
  auto script = get(server.port(), "/app.js?v=1");
  EXPECT_EQ(script.result_int(), 200u);
  EXPECT_EQ(std::string(script[http::field::content_type]), "text/javascript; charset=utf-8");
  // The puzzles (puzzles/puzzles.txt) beside the page, as text.
  auto puzzles = get(server.port(), "/puzzles.txt");
  EXPECT_EQ(puzzles.result_int(), 200u);
  EXPECT_EQ(std::string(puzzles[http::field::content_type]), "text/plain; charset=utf-8");
  EXPECT_NE(puzzles.body().find('\t'), std::string::npos);
  EXPECT_EQ(get(server.port(), "/no-such-file").result_int(), 404u);
  EXPECT_EQ(get(server.port(), "/../etc/passwd").result_int(), 404u);
}

TEST(WebSocketServer, PlaysUgiOneSessionPerSocket) {
  BoardServer server;
  WsClient a(server.port()), b(server.port());
  ASSERT_TRUE(a.open());
  ASSERT_TRUE(b.open());
  a.send("ugi");
  ASSERT_TRUE(a.until("ugiok"));
  a.send("setoption name Variant value gobblers");
  // Several lines in one message, and a message per line, both work.
  a.send("position startpos moves S@b2\nquery fen");
  EXPECT_EQ(a.until("response"), "response 3/1S1/3 2");
  b.send("position startpos moves X@a1 X@a2");
  b.send("query fen");
  EXPECT_EQ(b.until("response"), "response 4/4/x3/X3 1");
  a.send("go depth 3");
  auto best = a.until("bestmove");
  ASSERT_TRUE(best);
  EXPECT_NE(*best, "bestmove (none)");
  a.send("quit");
  EXPECT_TRUE(a.closedByPeer());
  EXPECT_EQ(a.closeCode(), static_cast<unsigned>(websocket::close_code::normal));
}

TEST(WebSocketServer, CrossOriginUpgradeIsRefused) {
  BoardServer server;
  WsClient evil(server.port(), "http://evil.example");
  EXPECT_FALSE(evil.open());
  EXPECT_EQ(upgradeStatus(server.port(), "http://evil.example"), 403u);
  EXPECT_EQ(upgradeStatus(server.port(), "http://127.0.0.1:1"), 403u);
  WsClient same(server.port(), "http://127.0.0.1:" + std::to_string(server.port()));
  EXPECT_TRUE(same.open());
}

// DNS rebinding: a page of evil.example re-points its name at 127.0.0.1,
// so its requests carry `Host: evil.example:PORT` and a matching Origin.
// Before, the page was served and the upgrade answered 101 (same origin);
// now both are refused, and the board answers only its own names.
TEST(WebSocketServer, DnsRebindingIsRefused) {
  BoardServer server;
  ASSERT_NE(server.port(), 0);
  const std::string port = std::to_string(server.port());
  const std::vector<std::pair<std::string, std::string>> upgrade{{"Connection", "Upgrade"},
                                                                 {"Upgrade", "websocket"},
                                                                 {"Sec-WebSocket-Version", "13"},
                                                                 {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};
  const auto upgradeAs = [&](const std::string& host) {
    auto fields = upgrade;
    fields.emplace_back("Host", host);
    fields.emplace_back("Origin", "http://" + host);
    return get(server.port(), "/ugi", fields).result_int();
  };
  EXPECT_EQ(get(server.port(), "/", {{"Host", "evil.example:" + port}}).result_int(), 403u);
  EXPECT_EQ(get(server.port(), "/app.js", {{"Host", "evil.example"}}).result_int(), 403u);
  EXPECT_EQ(upgradeAs("evil.example:" + port), 403u);
  EXPECT_EQ(get(server.port(), "/", {{"Host", "localhost:" + port}}).result_int(), 200u);
  EXPECT_EQ(upgradeAs("localhost:" + port), 101u);
  EXPECT_EQ(upgradeAs("127.0.0.1:" + port), 101u);
}

// --allow-host NAME: the operator's name is served, page and /ugi; others are not.
TEST(WebSocketServer, AllowHostAddsAName) {
  BoardServer server({"--allow-host", "board.lan"});
  ASSERT_NE(server.port(), 0);
  const std::string port = std::to_string(server.port());
  EXPECT_EQ(get(server.port(), "/", {{"Host", "board.lan:" + port}}).result_int(), 200u);
  EXPECT_EQ(get(server.port(), "/ugi",
                {{"Connection", "Upgrade"},
                 {"Upgrade", "websocket"},
                 {"Sec-WebSocket-Version", "13"},
                 {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
                 {"Host", "board.lan:" + port},
                 {"Origin", "http://board.lan:" + port}})
                .result_int(),
            101u);
  EXPECT_EQ(get(server.port(), "/", {{"Host", "other.lan:" + port}}).result_int(), 403u);
}

TEST(WebSocketServer, TokenIsRequiredFirst) {
  BoardServer server({"--token", "s3cret"});
  {
    WsClient c(server.port());
    c.send("ugi");
    EXPECT_TRUE(c.until("info string error: authentication required"));
    EXPECT_TRUE(c.closedByPeer());
  }
  WsClient c(server.port());
  c.send("auth s3cret");
  EXPECT_EQ(c.line(), "info string authenticated");
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
}

TEST(WebSocketServer, SessionLimitAndCaps) {
  BoardServer server({"--max-sessions", "2", "--max-hash", "64"});
  auto a = std::make_unique<WsClient>(server.port());
  WsClient b(server.port());
  ASSERT_TRUE(a->open());
  ASSERT_TRUE(b.open());
  WsClient c(server.port());
  EXPECT_FALSE(c.open());
  EXPECT_EQ(upgradeStatus(server.port()), 503u);
  b.send("setoption name Hash value 128");
  auto err = b.line();
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("option Hash '128' is out of range [1, 64]"), std::string::npos) << *err;  // the server's cap
  b.send("setoption name TablebasePath value /etc/passwd");
  err = b.line();
  ASSERT_TRUE(err);
  EXPECT_EQ(err->rfind("info string error:", 0), 0u) << *err;
  // A place frees when a socket closes.
  a->send("quit");
  EXPECT_TRUE(a->closedByPeer());
  a.reset();
  bool reopened = false;
  for (int i = 0; i < 100 && !reopened; ++i) {
    WsClient d(server.port());
    reopened = d.open();
    if (!reopened) std::this_thread::sleep_for(Ms(20));
  }
  EXPECT_TRUE(reopened);
}

TEST(WebSocketServer, BadFramesCloseTheSocketOnly) {
  BoardServer server;
  {
    WsClient c(server.port());  // an unmasked client frame: a protocol error
    c.sendRaw(frame(0x1, "isready", /*masked=*/false));
    EXPECT_TRUE(c.closedByPeer());
    EXPECT_EQ(c.closeCode(), static_cast<unsigned>(websocket::close_code::protocol_error));
  }
  {
    WsClient c(server.port());  // reserved opcode 0x3
    c.sendRaw(frame(0x3, "x"));
    EXPECT_TRUE(c.closedByPeer());
  }
  {
    WsClient c(server.port());  // invalid UTF-8 in a text frame
    c.sendRaw(frame(0x1, "isready \xff\xfe"));
    EXPECT_TRUE(c.closedByPeer());
    EXPECT_EQ(c.closeCode(), static_cast<unsigned>(websocket::close_code::bad_payload));
  }
  {
    WsClient c(server.port());  // a binary message: told why, then closed
    c.sendBinary("isready");
    auto l = c.line();
    ASSERT_TRUE(l);
    EXPECT_NE(l->find("binary messages are not accepted"), std::string::npos) << *l;
    EXPECT_TRUE(c.closedByPeer());
    EXPECT_EQ(c.closeCode(), static_cast<unsigned>(websocket::close_code::unknown_data));
  }
  {
    WsClient c(server.port());  // junk bytes that are no frame at all
    c.sendRaw(std::string(64, '\xff'));
    EXPECT_TRUE(c.closedByPeer());
  }
  // Junk HTTP.
  {
    asio::io_context io;
    tcp::socket s(io);
    s.connect({asio::ip::make_address("127.0.0.1"), server.port()});
    beast::error_code ec;
    asio::write(s, asio::buffer(std::string("\x01\x02 nonsense\r\n\r\n")), ec);
    std::string reply(64, '\0');
    const size_t n = s.read_some(asio::buffer(reply), ec);
    EXPECT_EQ(reply.substr(0, std::min<size_t>(n, 12)), "HTTP/1.1 400");
  }
  WsClient ok(server.port());
  ok.send("isready");
  EXPECT_EQ(ok.line(), "readyok");
}

TEST(WebSocketServer, HugeMessages) {
  BoardServer server;
  WsClient c(server.port());
  // A line over the 64 KiB cap: dropped and reported, as over TCP; the socket goes on.
  c.send("position fen " + std::string(100 * 1024, 'x'));
  auto l = c.line();
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("line longer than 65536 bytes ignored"), std::string::npos) << *l;
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
  // A message over the 1 MiB cap: closed with 1009.
  // (The server stops reading at the frame header; the close frame may be
  // lost to the reset that closing a socket with unread input sends, so the
  // client sees 1009 or a reset, never an open socket.)
  c.send(std::string(2 * 1024 * 1024, 'y'));
  EXPECT_TRUE(c.closedByPeer());
  const unsigned code = c.closeCode();
  EXPECT_TRUE(code == static_cast<unsigned>(websocket::close_code::too_big) || code == 0) << code;
  WsClient d(server.port());
  d.send("isready");
  EXPECT_EQ(d.line(), "readyok");
}

TEST(WebSocketServer, FloodIsAnsweredInOrder) {
  BoardServer server;
  WsClient c(server.port());
  constexpr int kMessages = 5000;
  for (int i = 0; i < kMessages; ++i) ASSERT_TRUE(c.send(i % 2 ? "isready" : "query p1turn\nbogus"));
  c.send("position startpos moves X@a1");
  c.send("query p1turn");
  int ready = 0, responses = 0, errors = 0;
  std::optional<std::string> l;
  while ((l = c.line()) && *l != "response false") {
    if (*l == "readyok")
      ++ready;
    else if (*l == "response true")
      ++responses;
    else if (l->rfind("info string error: unknown command 'bogus'", 0) == 0)
      ++errors;
    else
      ADD_FAILURE() << *l;
  }
  EXPECT_TRUE(l);
  EXPECT_EQ(ready, kMessages / 2);
  EXPECT_EQ(responses, kMessages / 2);
  EXPECT_EQ(errors, kMessages / 2);
}

TEST(WebSocketServer, DisconnectMidSearchStopsItAndFreesItsMemory) {
  testing::releaseFreedMemoryAtOnceUnderAsan();
  BoardServer server({"--max-hash", "256"});
  testing::expectDisconnectMidSearchFreesItsMemory<WsClient>(server.process().pid(), server.port());
}

// Plain TCP connections to the board from the loopback address `from`
// (127.0.0.2 is a second client machine as far as the server can tell),
// each sending nothing.
std::vector<std::unique_ptr<tcp::socket>> idleSockets(asio::io_context& io, uint16_t port, const char* from, int n) {
  std::vector<std::unique_ptr<tcp::socket>> sockets;
  for (int i = 0; i < n; ++i) {
    auto s = std::make_unique<tcp::socket>(io);
    beast::error_code ec;
    s->open(tcp::v4(), ec);
    if (!ec) s->bind({asio::ip::make_address(from), 0}, ec);
    if (!ec) s->connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    EXPECT_FALSE(ec) << ec.message();
    sockets.push_back(std::move(s));
  }
  return sockets;
}

// A GET of the page on an open keep-alive connection: its status (0: none).
unsigned getPageOn(tcp::socket& socket, uint16_t port) {
  http::request<http::empty_body> request(http::verb::get, "/", 11);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  request.keep_alive(true);
  beast::error_code ec;
  http::write(socket, request, ec);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (!ec) http::read(socket, buffer, response, ec);
  return ec ? 0 : response.result_int();
}

// Sends `request` on every socket at once, then reads each answer, all
// within `timeout`: each answer's status (0: the socket was closed, or no
// answer came). A socket answered 101 is left open (a WebSocket).
std::vector<unsigned> requestOnEach(asio::io_context& io, const std::vector<tcp::socket*>& sockets,
                                    const http::request<http::empty_body>& request, Ms timeout = Ms(20000)) {
  struct Exchange {
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    bool done = false;
  };
  std::vector<Exchange> exchanges(sockets.size());
  std::vector<unsigned> statuses(sockets.size(), 0);
  for (size_t i = 0; i < sockets.size(); ++i)
    http::async_write(*sockets[i], request, [&, i](beast::error_code ec, size_t) {
      if (ec) {
        exchanges[i].done = true;
        return;
      }
      http::async_read(*sockets[i], exchanges[i].buffer, exchanges[i].response, [&, i](beast::error_code ec, size_t) {
        exchanges[i].done = true;
        if (!ec) statuses[i] = exchanges[i].response.result_int();
      });
    });
  io.restart();
  io.run_for(timeout);
  for (size_t i = 0; i < sockets.size(); ++i) {
    beast::error_code ignored;
    if (!exchanges[i].done) sockets[i]->close(ignored);  // its handlers end now
  }
  io.restart();
  io.run();
  return statuses;
}

http::request<http::empty_body> pageRequest(uint16_t port) {
  http::request<http::empty_body> request(http::verb::get, "/", 11);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  return request;
}

http::request<http::empty_body> upgradeRequest(uint16_t port) {
  http::request<http::empty_body> request(http::verb::get, "/ugi", 11);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  request.set(http::field::connection, "Upgrade");
  request.set(http::field::upgrade, "websocket");
  request.set(http::field::sec_websocket_version, "13");
  request.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  return request;
}

// Raises this process's soft limit of open files to at least `n` (its
// children, the server, inherit it), as far as the hard limit allows; false
// if that is not enough.
bool allowOpenFiles(rlim_t n) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  if (limit.rlim_cur >= n) return true;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < n) return false;
  limit.rlim_cur = n;
  return ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

// A flood from many machines: one idle connection (connected, nothing sent)
// from each of many loopback addresses (127.1.x.y; Linux routes all of
// 127/8 to lo), so that no address holds more than the user's one, and
// more of them than the server keeps. Each time the user (127.0.0.1)
// loads the page, more of the flood's connections come before its request
// does (the newest of them loads the page first: the server accepts in
// order, so it has taken in every one of them). Before, the tie between
// the addresses went to the first in address order, 127.0.0.1: the flood's
// next connection closed the user's, and no page load was answered (0 of 5).
TEST(WebSocketServer, FloodFromManyAddressesDoesNotKeepTheUserOut) {
  constexpr int kFlood = 300, kLoads = 5, kFloodPerLoad = 16;
  ASSERT_TRUE(allowOpenFiles(4 * (kFlood + kLoads * kFloodPerLoad)));
  BoardServer server;
  ASSERT_NE(server.port(), 0);
  asio::io_context io;
  std::vector<std::unique_ptr<tcp::socket>> flood;
  const auto floodMore = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const int k = static_cast<int>(flood.size());
      const std::string from = "127.1." + std::to_string(k / 200) + "." + std::to_string(1 + k % 200);
      auto one = idleSockets(io, server.port(), from.c_str(), 1);
      flood.push_back(std::move(one.front()));
    }
  };
  floodMore(kFlood);
  int served = 0;
  for (int i = 0; i < kLoads; ++i) {
    auto user = idleSockets(io, server.port(), "127.0.0.1", 1);
    floodMore(kFloodPerLoad);
    EXPECT_EQ(requestOnEach(io, {flood.back().get()}, pageRequest(server.port())).front(), 200u);
    served += requestOnEach(io, {user.front().get()}, pageRequest(server.port())).front() == 200u;
  }
  EXPECT_EQ(served, kLoads);
  EXPECT_EQ(get(server.port(), "/").result_int(), 200u);
  // The flood's oldest connection was closed to make room.
  EXPECT_EQ(requestOnEach(io, {flood.front().get()}, pageRequest(server.port())).front(), 0u);
}

// An honest burst: 100 pages open their socket at once (every connection
// made, and taken in by the server, before any request is sent), with room
// for 256 sessions: each upgrade is answered 101. Before, the cap of 64
// plain HTTP connections closed 36 of them (37 with the page load that
// shows they were taken in) before their request came, with no answer.
TEST(WebSocketServer, ABurstOfUpgradesWithinMaxSessionsIsAllAnswered) {
  constexpr int kSockets = 100;
  ASSERT_TRUE(allowOpenFiles(4 * kSockets));
  BoardServer server({"--max-sessions", "256"});
  ASSERT_NE(server.port(), 0);
  asio::io_context io;
  auto sockets = idleSockets(io, server.port(), "127.0.0.1", kSockets);
  // Answered once the server has accepted all of them (it accepts in order).
  EXPECT_EQ(get(server.port(), "/").result_int(), 200u);
  std::vector<tcp::socket*> all;
  for (auto& s : sockets) all.push_back(s.get());
  const auto statuses = requestOnEach(io, all, upgradeRequest(server.port()));
  EXPECT_EQ(std::count(statuses.begin(), statuses.end(), 101u), kSockets);
}

// The most plain HTTP connections a board started with `--max-sessions n` keeps.
int httpConnectionCap(int maxSessions) {
  ServerConfig config;
  config.maxSessions = maxSessions;
  return maxHttpConnections(config);
}

// A new connection beyond the cap closes first a connection that has sent
// nothing yet, the oldest first. Closing the newest instead lets the cap's
// worth of idle sockets keep every page load (and every upgrade) out: 0 of
// 80 page loads over 40 s.
TEST(WebSocketServer, IdleConnectionsOfOneAddressDoNotKeepOthersOut) {
  constexpr int kSessions = 16;
  const int cap = httpConnectionCap(kSessions);
  BoardServer server({"--max-sessions", std::to_string(kSessions)});
  ASSERT_NE(server.port(), 0);
  asio::io_context io;
  // Accepted in connection order: the attacker's before the user's.
  auto attacker = idleSockets(io, server.port(), "127.0.0.2", cap + 16);
  auto user = idleSockets(io, server.port(), "127.0.0.1", 8);
  for (auto& s : user) EXPECT_EQ(getPageOn(*s, server.port()), 200u);
  // More of the attacker's connections close only its own.
  auto more = idleSockets(io, server.port(), "127.0.0.2", cap + 16);
  for (auto& s : user) EXPECT_EQ(getPageOn(*s, server.port()), 200u);
  EXPECT_EQ(get(server.port(), "/").result_int(), 200u);
  EXPECT_EQ(getPageOn(*more.back(), server.port()), 200u);     // the newest of the attacker's still served
  EXPECT_EQ(getPageOn(*attacker.front(), server.port()), 0u);  // its oldest closed to make room
}

// Below the cap, any number of connections from one address (users behind
// one proxy) are all kept.
TEST(WebSocketServer, ConnectionsOfOneAddressAreKeptWhileThereIsRoom) {
  constexpr int kSessions = 16;
  BoardServer server({"--max-sessions", std::to_string(kSessions)});
  ASSERT_NE(server.port(), 0);
  asio::io_context io;
  auto users = idleSockets(io, server.port(), "127.0.0.1", httpConnectionCap(kSessions) - 1);
  for (auto& s : users) EXPECT_EQ(getPageOn(*s, server.port()), 200u);
}

// When the places are taken, an address that holds its limit of
// connections without a whole request closes its own oldest one for a new
// one: the user's connections that have not sent their request yet (older
// than the attacker's newest) stay. Before, the oldest such connection of
// any address went: the user's 4 were closed by the attacker's next wave.
TEST(WebSocketServer, AnAddressAtItsLimitClosesItsOwnIncompleteConnections) {
  constexpr int kSessions = 16;
  const int cap = httpConnectionCap(kSessions);
  BoardServer server({"--max-sessions", std::to_string(kSessions)});
  ASSERT_NE(server.port(), 0);
  asio::io_context io;
  auto attacker = idleSockets(io, server.port(), "127.0.0.2", cap);
  auto user = idleSockets(io, server.port(), "127.0.0.1", kIncompleteHttpConnectionsPerAddress / 2);
  auto more = idleSockets(io, server.port(), "127.0.0.2", 2 * cap);
  EXPECT_EQ(getPageOn(*more.back(), server.port()), 200u);  // (the server has taken them all in)
  for (auto& s : user) EXPECT_EQ(getPageOn(*s, server.port()), 200u);
  EXPECT_EQ(getPageOn(*attacker.back(), server.port()), 0u);  // closed to make room
}

// An address, for that limit: an IPv4 address, the same mapped into IPv6,
// or an IPv6 /64.
TEST(WebSocketServer, AnAddressIsAnIpv4AddressOrAnIpv6Network) {
  const auto key = [](const char* address) { return httpAddressKey(asio::ip::make_address(address)); };
  EXPECT_EQ(key("192.0.2.7"), key("::ffff:192.0.2.7"));
  EXPECT_NE(key("192.0.2.7"), key("192.0.2.8"));
  EXPECT_EQ(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
  EXPECT_NE(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
  EXPECT_NE(key("::1"), key("127.0.0.1"));
}

// A slowloris: `connections` connections to the board, the i-th from
// from[i % from.size()], each sending the start of a request and then one
// more header byte every `tick`, never its end; each one the server closes
// is opened again after `reopenDelay` (as the attack does when the request
// deadline, or the cap, closes them). It runs on a thread of its own until
// destroyed.
class Slowloris {
 public:
  Slowloris(uint16_t port, std::vector<std::string> from, int connections, Ms tick, Ms reopenDelay)
      : port_(port),
        from_(std::move(from)),
        tick_(tick),
        reopenDelay_(reopenDelay),
        head_("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\nX-Slow: ") {
    for (int i = 0; i < connections; ++i) open(i);
    thread_ = std::thread([this] { io_.run(); });
  }
  ~Slowloris() {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  // Connections the server has closed so far.
  int closed() const { return closed_; }
  // Waits until the server has closed at least `n`; false if not within `timeout`.
  bool waitClosed(int n, Ms timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (closed_ < n && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(Ms(20));
    return closed_ >= n;
  }

 private:
  struct Connection {
    explicit Connection(asio::io_context& io) : socket(io), timer(io) {}
    tcp::socket socket;
    asio::steady_timer timer;
    char byte = 0;
    bool over = false;
  };

  // (All of it runs on the attack's thread but the constructor's calls,
  // made before the thread starts.)
  void open(int i) {
    auto c = std::make_shared<Connection>(io_);
    beast::error_code ec;
    c->socket.open(tcp::v4(), ec);
    if (!ec) c->socket.bind({asio::ip::make_address(from_[i % from_.size()]), 0}, ec);
    if (ec) return reopenLater(i);
    c->socket.async_connect({asio::ip::make_address("127.0.0.1"), port_}, [this, c, i](beast::error_code ec) {
      if (ec) return over(c, i);
      asio::async_write(c->socket, asio::buffer(head_), [this, c](beast::error_code ec, size_t) {
        if (!ec) trickle(c);
      });
      // Whatever comes back (an answer, the close): the server is done with it.
      c->socket.async_read_some(asio::buffer(&c->byte, 1), [this, c, i](beast::error_code, size_t) {
        ++closed_;
        over(c, i);
      });
    });
  }
  void trickle(const std::shared_ptr<Connection>& c) {
    c->timer.expires_after(tick_);
    c->timer.async_wait([this, c](beast::error_code ec) {
      if (ec || c->over) return;
      asio::async_write(c->socket, asio::buffer("a", 1), [this, c](beast::error_code ec, size_t) {
        if (!ec) trickle(c);
      });
    });
  }
  void over(const std::shared_ptr<Connection>& c, int i) {
    if (c->over) return;
    c->over = true;
    beast::error_code ignored;
    c->timer.cancel();
    c->socket.close(ignored);
    reopenLater(i);
  }
  void reopenLater(int i) {
    auto timer = std::make_shared<asio::steady_timer>(io_, reopenDelay_);
    timer->async_wait([this, timer, i](beast::error_code ec) {
      if (!ec) open(i);
    });
  }

  const uint16_t port_;
  const std::vector<std::string> from_;
  const Ms tick_, reopenDelay_;
  const std::string head_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
  std::atomic<int> closed_{0};
  std::thread thread_;
};

http::request<http::empty_body> fileRequest(uint16_t port, const std::string& target) {
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  return request;
}

// A browser's page load: the page, then files it names, one after the
// other on one keep-alive connection from 127.0.0.1, with a pause before
// each (the browser reading what came); true if each was answered 200.
bool loadPage(uint16_t port, Ms pause) {
  asio::io_context io;
  tcp::socket socket(io);
  beast::error_code ec;
  socket.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return false;
  for (const char* target : {"/", "/board.css", "/app.js"}) {
    if (std::string_view(target) != "/") std::this_thread::sleep_for(pause);
    if (requestOnEach(io, {&socket}, fileRequest(port, target)).front() != 200u) return false;
  }
  return true;
}

// Under a slowloris from `attackers` (twice the plain HTTP connections the
// board keeps, so that the cap closes some of them all the time and they
// come back), five page loads of a user at 127.0.0.1 are all answered, a
// WebSocket session opened before the attack still answers, and a new one
// opens and answers. (docs/protocol.md gives the full-size attack's
// figures: 300 connections, a byte every 2 s.)
void expectTheBoardServesThroughASlowloris(const std::vector<std::string>& attackers) {
  constexpr int kSessions = 2, kLoads = 5;
  const int connections = 2 * httpConnectionCap(kSessions);
  ASSERT_TRUE(allowOpenFiles(4 * connections + 256));
  BoardServer server({"--max-sessions", std::to_string(kSessions)});
  ASSERT_NE(server.port(), 0);
  WsClient before(server.port());
  ASSERT_TRUE(before.open());
  Slowloris attack(server.port(), attackers, connections, Ms(300), Ms(100));
  // Every connection of the attack has come back about once: the cap is reached.
  ASSERT_TRUE(attack.waitClosed(connections, Ms(60000))) << attack.closed() << " closed";
  int loaded = 0;
  for (int i = 0; i < kLoads; ++i) loaded += loadPage(server.port(), Ms(200));
  EXPECT_EQ(loaded, kLoads);
  before.send("isready");
  EXPECT_EQ(before.line(), "readyok");
  WsClient during(server.port());
  ASSERT_TRUE(during.open());
  during.send("isready");
  EXPECT_EQ(during.line(), "readyok");
  EXPECT_GT(attack.closed(), connections) << "the attack did not go on";
}

// Before, the cap closed first the user's keep-alive connection idle
// between two files, since every connection of the attack had a request in
// progress: 0 of 5 page loads.
TEST(WebSocketServer, SlowlorisFromOneAddressDoesNotKeepThePageOut) {
  expectTheBoardServesThroughASlowloris({"127.0.0.2"});
}

TEST(WebSocketServer, SlowlorisFromManyAddressesDoesNotKeepThePageOut) {
  std::vector<std::string> attackers;
  for (int i = 0; i < 2 * httpConnectionCap(2); ++i) attackers.push_back("127.2.0." + std::to_string(1 + i));
  expectTheBoardServesThroughASlowloris(attackers);
}

TEST(WebSocketServer, IdleSocketsAreClosed) {
  BoardServer server({"--idle-timeout", "1"});
  WsClient c(server.port());
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
  EXPECT_EQ(c.line(Ms(10000)), "info string error: idle timeout, closing");
  EXPECT_TRUE(c.closedByPeer());
}

TEST(WebSocketServer, SigtermSendsTheBestmoveAndExits) {
  BoardServer server;
  WsClient c(server.port());
  c.send("go infinite");
  ASSERT_TRUE(c.until("info depth"));
  ::kill(server.process().pid(), SIGTERM);
  EXPECT_TRUE(c.until("bestmove"));
  EXPECT_TRUE(c.closedByPeer());
  ASSERT_TRUE(server.process().waitExit(Ms(10000)));
  std::string err;
  while (auto l = server.process().err().readLine(Ms(100))) err += *l + "\n";
  EXPECT_TRUE(WIFEXITED(server.process().exitStatus())) << "status " << server.process().exitStatus() << ":\n" << err;
  EXPECT_EQ(WEXITSTATUS(server.process().exitStatus()), 0);
}

// With a token, sockets that never authenticate wait outside the session
// slots (the oldest waiting is dropped when too many wait), as over TCP:
// they cannot lock out a client that has the token (before, the WebSocket
// side made a session at the upgrade, and 2 silent sockets filled
// --max-sessions 2).
TEST(WebSocketServer, SilentSocketsDoNotLockOutTheTokenHolder) {
  BoardServer server({"--token", "s3cret", "--max-sessions", "2"});
  std::vector<std::unique_ptr<WsClient>> silent;
  for (int i = 0; i < 40; ++i) {
    silent.push_back(std::make_unique<WsClient>(server.port()));
    ASSERT_TRUE(silent.back()->open()) << "socket " << i;
    silent.back()->send("");  // a blank line: no attempt, no extension
  }
  WsClient c(server.port());
  ASSERT_TRUE(c.open());
  testing::expectTokenHolderServedBesideSilentClients(c, "s3cret", silent);
  EXPECT_TRUE(silent.front()->closedByPeer());
}

// `auth` must come within the auth deadline (5 s by default); blank lines
// do not extend it (before, a WebSocket could wait for the idle timeout,
// 300 s, holding a session).
TEST(WebSocketServer, AuthMustComeInTime) {
  BoardServer server({"--token", "s3cret"});
  WsClient c(server.port());
  ASSERT_TRUE(c.open());
  c.send("");
  c.send("");
  EXPECT_TRUE(c.until("info string error: authentication timeout", Ms(60000)));
  EXPECT_TRUE(c.closedByPeer());
}

// Threads of this process that are running or ready to run (state R in
// /proc; Linux), the calling thread left out: a searching thread is one, a
// parked or waiting one is not.
size_t runningThreads() {
  size_t n = 0;
  const std::string self = std::to_string(::gettid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    if (entry.path().filename() == self) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t paren = text.rfind(')');
    if (paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'R') ++n;
  }
  return n;
}

// A WebSocketConnection in process: a hang-up mid `go infinite` stops the
// search at once, on the connection's strand, not when the reaper (blocked
// here, as one busy with other sessions would be) gets to the session.
// The search's thread is resident (it parks when the search ends), so the
// search has stopped when no thread of this process runs any more.
TEST(WebSocketConnection, HangUpStopsTheSearchWithoutWaitingForTheReaper) {
  SessionReaper reaper;
  testing::ReaperBlocker blocker(reaper);
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  std::atomic<bool> closed{false};
  // The upgrade request read as the HTTP side would, then the connection.
  tcp::socket serverSocket(asio::make_strand(io));
  beast::flat_buffer buffer;
  WebSocketConnection::Request request;
  acceptor.async_accept(serverSocket, [&](const beast::error_code& ec) {
    ASSERT_FALSE(ec) << ec.message();
    http::async_read(serverSocket, buffer, request, [&](const beast::error_code& ec, size_t) {
      ASSERT_FALSE(ec) << ec.message();
      auto conn = std::make_shared<WebSocketConnection>(std::move(serverSocket), ConnectionLimits{}, SessionConfig{},
                                                        reaper, nullptr, [&] { closed = true; });
      conn->start(std::move(request));
    });
  });
  std::thread ioThread([&] { io.run(); });
  {
    WsClient c(acceptor.local_endpoint().port());
    ASSERT_TRUE(c.open());
    c.send("setoption name Hash value 1");
    c.send("go infinite");
    ASSERT_TRUE(c.until("info depth"));
    // The search runs (on a loaded machine it may wait for a core now and
    // then: look a few times).
    size_t searching = 0;
    for (int i = 0; i < 100 && searching == 0; ++i) {
      searching = runningThreads();
      if (searching == 0) std::this_thread::sleep_for(Ms(5));
    }
    EXPECT_GT(searching, 0u);
    c.abort();  // a reset, mid-search
    // Stopped: no thread runs, several times in a row.
    int quiet = 0;
    for (int i = 0; i < 500 && quiet < 5; ++i) {
      std::this_thread::sleep_for(Ms(20));
      quiet = runningThreads() == 0 ? quiet + 1 : 0;
    }
    EXPECT_EQ(quiet, 5) << "the search kept running until the reaper got to it";
  }
  blocker.release();  // before the I/O ends: the connection's close waits for the reaper
  ioThread.join();
  EXPECT_TRUE(closed);
}

// Figures for the closing note (printed, not asserted: the machine is
// shared): how many sockets one server holds at once, each answering, and
// the go -> bestmove latency over WebSocket beside the same over TCP.
TEST(WebSocketServer, ManySocketsAndLatencyBesideTcp) {
  constexpr int kSockets = 200, kSearches = 40;
  BoardServer board({"--max-sessions", std::to_string(kSockets)});
  std::vector<std::unique_ptr<WsClient>> clients;
  for (int i = 0; i < kSockets; ++i) clients.push_back(std::make_unique<WsClient>(board.port()));
  for (auto& c : clients) ASSERT_TRUE(c->open());
  // 1 MiB tables: 200 sessions with the default 16 MiB would clear 3 GiB.
  for (int i = 0; i < kSockets; ++i)
    clients[i]->send("setoption name Hash value 1\nposition startpos moves X@a1\nquery p1turn\ngo depth 1");
  int answered = 0;
  for (int i = 0; i < kSockets; ++i) {
    std::vector<std::string> seen;
    const bool ok = clients[i]->until("response false", Ms(30000), &seen).has_value() &&
                    clients[i]->until("bestmove", Ms(30000), &seen).has_value();
    answered += ok;
    if (!ok)
      ADD_FAILURE() << "socket " << i << " saw " << seen.size() << " lines"
                    << (seen.empty() ? "" : ", first: " + seen[0]);
  }
  EXPECT_EQ(answered, kSockets);
  std::printf("%d WebSockets open at once, %d answered a query and a search\n", kSockets, answered);
  clients.clear();

  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> ws, tcp;
  WsClient w(board.port());
  testing::EngineServer server;
  testing::TcpClient t(server.port());
  for (int i = 0; i < kSearches; ++i) {
    auto start = std::chrono::steady_clock::now();
    w.send("go depth 3");
    ASSERT_TRUE(w.until("bestmove"));
    ws.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    start = std::chrono::steady_clock::now();
    t.send("go depth 3");
    ASSERT_TRUE(t.until("bestmove"));
    tcp.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("go depth 3 -> bestmove, median of %d: WebSocket %.2f ms, TCP %.2f ms\n", kSearches, median(ws),
              median(tcp));
}

}  // namespace
}  // namespace gobblet
