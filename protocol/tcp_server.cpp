#include "protocol/tcp_server.h"

#include <charconv>
#include <csignal>

namespace gobblet {

namespace asio = boost::asio;
using asio::ip::tcp;

absl::Status parseListenAddress(const std::string& text, ServerConfig& config) {
  std::string host = "127.0.0.1", port = text;
  if (!text.empty() && text[0] == '[') {
    const size_t close = text.find("]:");
    if (close == std::string::npos) return absl::InvalidArgumentError("expected [IPV6]:PORT, not '" + text + "'");
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (const size_t colon = text.rfind(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || port.empty() || value > 65535)
    return absl::InvalidArgumentError("bad port '" + port + "' in '" + text + "' (expected HOST:PORT)");
  if (host.empty()) return absl::InvalidArgumentError("empty host in '" + text + "'");
  config.host = host;
  config.port = static_cast<uint16_t>(value);
  return absl::OkStatus();
}

TcpServer::TcpServer(ServerConfig config) : config_(std::move(config)), acceptor_(io_), signals_(io_) {}

TcpServer::~TcpServer() { stop(); }

absl::Status TcpServer::listen() {
  boost::system::error_code ec;
  tcp::resolver resolver(io_);
  auto results = resolver.resolve(config_.host, std::to_string(config_.port), tcp::resolver::passive, ec);
  if (ec || results.empty()) return absl::InvalidArgumentError("cannot resolve '" + config_.host + "': " + ec.message());
  const tcp::endpoint endpoint = results.begin()->endpoint();
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return absl::UnavailableError("cannot listen on " + config_.host + ":" + std::to_string(config_.port) + ": " + ec.message());
  port_ = acceptor_.local_endpoint().port();
  return absl::OkStatus();
}

void TcpServer::handleSignals() {
  if (signalsHandled_) return;
  signalsHandled_ = true;
  signals_.add(SIGINT);  // installs the handler now, before run()
  signals_.add(SIGTERM);
  signals_.async_wait([this](const boost::system::error_code& ec, int) {
    if (!ec) stop();
  });
}

void TcpServer::run(bool handleSignals) {
  if (handleSignals) this->handleSignals();
  accept();
  int threads = config_.ioThreads;
  if (threads <= 0) threads = std::max(4, 2 * static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([this] { io_.run(); });
  io_.run();
  for (std::thread& t : pool) t.join();
}

void TcpServer::stop() {
  if (stopping_.exchange(true)) return;
  asio::post(io_, [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    signals_.cancel(ignored);
    std::lock_guard lock(connectionsMutex_);
    for (auto& entry : connections_)
      if (auto conn = entry.connection.lock()) conn->shutdown();
  });
}

void TcpServer::accept() {
  acceptor_.async_accept(asio::make_strand(io_), [this](const boost::system::error_code& ec, tcp::socket socket) {
    if (ec) {
      if (ec == asio::error::operation_aborted || stopping_) return;
      accept();  // e.g. out of file descriptors: keep serving the others
      return;
    }
    if (stopping_) return;
    const bool token = !config_.connection.token.empty();
    if (!token && active_.load() >= config_.maxSessions) refuse(std::move(socket));
    else admit(std::move(socket));
    accept();
  });
}

// Registers a new connection. Without a token it takes a session slot now
// (the caller checked there is one); with a token it waits for its `auth`
// as a pending connection, and if too many wait, the oldest is dropped.
void TcpServer::admit(tcp::socket socket) {
  const bool token = !config_.connection.token.empty();
  const int maxPending = config_.maxPendingAuth > 0 ? config_.maxPendingAuth : std::max(16, config_.maxSessions);
  std::shared_ptr<TcpConnection> conn;
  {
    std::lock_guard lock(connectionsMutex_);
    if (token && pending_ >= maxPending) {
      for (Entry& entry : connections_) {
        if (entry.state != SlotState::kPending) continue;
        entry.state = SlotState::kEvicted;
        --pending_;
        if (auto oldest = entry.connection.lock()) oldest->dropIfUnauthenticated();
        break;
      }
    }
    auto it = connections_.emplace(connections_.end());
    if (token) {
      ++pending_;
    } else {
      it->state = SlotState::kActive;
      ++active_;
    }
    // Runs on the connection's strand once it has authenticated.
    auto onAuthenticated = [this, it, token] {
      if (!token) return true;
      std::lock_guard lock(connectionsMutex_);
      if (it->state != SlotState::kPending) return false;  // dropped meanwhile
      --pending_;
      if (active_.load() >= config_.maxSessions) {
        it->state = SlotState::kEvicted;
        return false;
      }
      it->state = SlotState::kActive;
      ++active_;
      return true;
    };
    auto onClosed = [this, it] {
      std::lock_guard lock(connectionsMutex_);
      if (it->state == SlotState::kPending) --pending_;
      if (it->state == SlotState::kActive) --active_;
      connections_.erase(it);
    };
    conn = std::make_shared<TcpConnection>(std::move(socket), config_.connection, config_.session, reaper_,
                                           std::move(onAuthenticated), std::move(onClosed));
    it->connection = conn;
  }
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
