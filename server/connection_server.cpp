#include "server/connection_server.h"

#include <algorithm>
#include <charconv>
#include <csignal>
#include <exception>
#include <iostream>
#include <thread>
#include <vector>

#include "engine/parallel_for.h"
#include "server/process_memory.h"
#include "server/token_auth.h"

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

ConnectionServer::ConnectionServer(ServerConfig config)
    : config_(std::move(config)),
      slots_(config_.maxSessions, config_.maxPendingAuth, authenticationRequired(config_.connection.token)),
      acceptor_(asio::make_strand(io_)),  // its handlers and stop()'s close on one strand
      signals_(io_) {
  if (config_.hashBudgetMiB > 0) config_.session.hashBudget = std::make_shared<HashBudget>(config_.hashBudgetMiB);
  mapLargeBlocksApart();  // sessions come and go: their freed memory goes back (process_memory.h)
}

ConnectionServer::~ConnectionServer() { stop(); }

absl::Status ConnectionServer::listen() {
  boost::system::error_code ec;
  tcp::resolver resolver(io_);
  auto results = resolver.resolve(config_.host, std::to_string(config_.port), tcp::resolver::passive, ec);
  if (ec || results.empty())
    return absl::InvalidArgumentError("cannot resolve '" + config_.host + "': " + ec.message());
  const tcp::endpoint endpoint = results.begin()->endpoint();
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return absl::UnavailableError("cannot listen on " + config_.host + ":" + std::to_string(config_.port) + ": " +
                                  ec.message());
  port_ = acceptor_.local_endpoint().port();
  return absl::OkStatus();
}

void ConnectionServer::handleSignals() {
  if (signalsHandled_) return;
  signalsHandled_ = true;
  signals_.add(SIGINT);  // installs the handler now, before run()
  signals_.add(SIGTERM);
  signals_.async_wait([this](const boost::system::error_code& ec, int) {
    if (!ec) stop();
  });
}

void ConnectionServer::run(bool handleSignals) {
  if (handleSignals) this->handleSignals();
  accept();
  int threads = config_.ioThreads;
  if (threads <= 0) threads = std::max(4, 2 * static_cast<int>(std::thread::hardware_concurrency()));
  // One run() per thread, this one included. A run() that begins after
  // the others ended (a thread that could not be started) returns at once.
  parallelFor(threads, threads, [this](int, uint64_t) { runIo(); });
}

namespace {

// One line on stderr for a failure the server outlives.
void reportFailure(const char* what) {
  std::string reason = "unknown exception";
  try {
    throw;
  } catch (const std::exception& e) {
    reason = e.what();
  } catch (...) {
  }
  std::cerr << "gobblet: server: " << what << ": " << reason << "; serving on\n" << std::flush;
}

}  // namespace

void ConnectionServer::runIo() {
  // A handler's exception leaves io_.run() on this thread only; the
  // context stays valid, so the thread reports it and goes on serving
  // (letting it reach parallelFor would end the process at stop).
  for (;;) {
    try {
      io_.run();
      return;
    } catch (...) {
      reportFailure("a connection's handler failed");
    }
  }
}

void ConnectionServer::stop() {
  if (stopping_.exchange(true)) return;
  asio::post(acceptor_.get_executor(), [this] {  // (the acceptor's strand: not beside an accept)
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    signals_.cancel(ignored);
    slots_.shutdownAll();
    stopping();
  });
}

void ConnectionServer::accept() {
  acceptor_.async_accept(asio::make_strand(io_), [this](const boost::system::error_code& ec, tcp::socket socket) {
    if (ec) {
      if (ec == asio::error::operation_aborted || stopping_) return;
      accept();  // e.g. out of file descriptors: keep serving the others
      return;
    }
    if (stopping_) return;
    try {
      accepted(std::move(socket));
    } catch (...) {  // e.g. out of memory for its session: that client is closed
      reportFailure("a connection could not be set up");
    }
    accept();
  });
}

}  // namespace gobblet
