#include "server/http_server.h"

#include <optional>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "http_assets.h"
#include "server/allowed_hosts.h"
#include "websocket_connection.h"

namespace gobblet {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

const HttpAsset* findHttpAsset(std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target == "/") target = "/index.html";
  for (const HttpAsset& asset : httpAssets())
    if (asset.path == target) return &asset;
  return nullptr;
}

namespace {

// Boost 1.74's Beast has its own string_view.
std::string_view view(beast::string_view s) { return {s.data(), s.size()}; }
beast::string_view view(std::string_view s) { return {s.data(), s.size()}; }

// Does the Origin header (if any) name the host the request was sent to,
// an allowed one? A browser always sends Origin on a WebSocket upgrade;
// tools may not.
bool sameOrigin(const http::request<http::empty_body>& request, const AllowedHosts& hosts) {
  const auto origin = request.find(http::field::origin);
  if (origin == request.end()) return true;
  return hosts.allowsOrigin(view(origin->value()), view(request[http::field::host]));
}

}  // namespace

// HttpConnection: one plain HTTP client (the browser fetching the page) until
// it asks for /ugi, when its socket becomes a WebSocketConnection.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  // What a connection is doing, in the order in which the server closes
  // one to make room (HttpServer::accepted): no whole request yet (nothing,
  // or part of one), idle between requests, a request being answered.
  enum class Phase : uint64_t { kIncomplete, kIdle, kAnswering };
  static constexpr int kPhaseShift = 56;  // httpClock_ below 2^56
  static Phase phaseOf(uint64_t key) { return static_cast<Phase>(key >> kPhaseShift); }

  HttpConnection(tcp::socket socket, std::string address, HttpServer& server)
      : stream_(std::move(socket)), address_(std::move(address)), server_(server) {}

  // Enters `phase` in the server's indexes, unless it is in that phase
  // already or has left; under the server's httpClientsMutex_.
  void enterLocked(Phase phase) {
    if (gone_ || (key_ != 0 && phaseOf(key_) == phase)) return;
    if (key_ != 0) server_.unindexLocked(key_);
    key_ = (static_cast<uint64_t>(phase) << kPhaseShift) | ++server_.httpClock_;
    server_.indexLocked(key_, {weak_from_this(), address_});
  }
  // Leaves the indexes for good: closed, dropped or a WebSocket now. (One
  // that ends otherwise, its handler failing, leaves an entry that no
  // longer locks: the next accepted() to reach it takes it out.)
  void leaveLocked() {
    if (key_ != 0) server_.unindexLocked(key_);
    key_ = 0;
    gone_ = true;
  }
  // Closed by the server to make room: out of the index (under the
  // server's httpClientsMutex_), then the socket shut (on its strand).
  void dropLocked() {
    leaveLocked();
    cancel();
  }

  void start() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
  }
  void cancel() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
      boost::system::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
      self->stream_.close();
    });
  }

 private:
  void enter(Phase phase) {
    std::lock_guard lock(server_.httpClientsMutex_);
    enterLocked(phase);
  }
  void leave() {
    std::lock_guard lock(server_.httpClientsMutex_);
    leaveLocked();
  }

  // Waits for a request: its first bytes, then the rest (a request already
  // begun in the buffer, pipelined, is read at once), all within the
  // deadline.
  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHttpHeaderBytes);
    parser_->body_limit(0);
    stream_.expires_after(kHttpRequestDeadline);
    if (buffer_.size() > 0) return readRequest();
    stream_.async_read_some(buffer_.prepare(kFirstRead), [self = shared_from_this()](beast::error_code ec, size_t n) {
      self->buffer_.commit(n);
      if (ec) return self->close();  // gone, silent until the deadline, or dropped: nothing to answer
      self->readRequest();
    });
  }

  void readRequest() {
    enter(Phase::kIncomplete);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->onRequest(ec); });
  }

  void onRequest(beast::error_code ec) {
    if (ec) {
      // A client that sends junk gets a 400 before the close; one that is gone, nothing.
      if (ec != http::error::end_of_stream && ec != beast::error::timeout && ec != asio::error::operation_aborted &&
          ec != asio::error::connection_reset)
        return respond(http::status::bad_request, "text/plain; charset=utf-8", "bad request\n", false);
      return close();
    }
    enter(Phase::kAnswering);
    auto& request = parser_->get();
    // DNS rebinding: a page of another name pointed at this machine names
    // itself in Host. The page and /ugi alike answer only this machine's names.
    if (!server_.allowedHosts_.allowsHost(view(request[http::field::host])))
      return respond(http::status::forbidden, "text/plain; charset=utf-8",
                     "this board answers only requests to its own address or localhost (or a name given to "
                     "gobblet --allow-host)\n",
                     false);
    if (beast::websocket::is_upgrade(request)) {
      const std::string_view target = view(request.target());
      if (target.substr(0, target.find('?')) != "/ugi")
        return respond(http::status::not_found, "text/plain; charset=utf-8", "no WebSocket here: use /ugi\n", false);
      if (!sameOrigin(request, server_.allowedHosts_))
        return respond(http::status::forbidden, "text/plain; charset=utf-8", "cross-origin WebSocket refused\n", false);
      stream_.expires_never();
      auto upgrade = parser_->release();
      if (!server_.openWebSocket(stream_.socket(), upgrade))
        return respond(http::status::service_unavailable, "text/plain; charset=utf-8",
                       "server full (" + std::to_string(server_.config_.maxSessions) + " sessions), try later\n",
                       false);
      return leave();  // the socket now belongs to the WebSocket
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head)
      return respond(http::status::method_not_allowed, "text/plain; charset=utf-8", "GET only\n", false);
    const HttpAsset* asset = findHttpAsset(view(request.target()));
    if (!asset)
      return respond(http::status::not_found, "text/plain; charset=utf-8", "not found\n", request.keep_alive());
    respond(http::status::ok, asset->contentType, asset->body, request.keep_alive(),
            request.method() == http::verb::head);
  }

  void respond(http::status status, std::string_view type, std::string_view body, bool keepAlive,
               bool headOnly = false) {
    auto response = std::make_shared<http::response<http::string_body>>(status, 11);
    response->set(http::field::server, "gobblet");
    response->set(http::field::content_type, view(type));
    response->set(http::field::cache_control, "no-cache");
    response->set("X-Content-Type-Options", "nosniff");
    response->set("Content-Security-Policy",
                  "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                  "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    response->keep_alive(keepAlive);
    if (!headOnly) response->body() = std::string(body);
    response->content_length(body.size());
    stream_.expires_after(kHttpRequestDeadline);  // also a write deadline
    http::async_write(stream_, *response, [self = shared_from_this(), response](beast::error_code ec, size_t) {
      if (ec || !response->keep_alive() || self->server_.stopping_) return self->close();
      self->enter(Phase::kIdle);
      self->read();
    });
  }

  void close() {
    leave();
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.close();
  }

  static constexpr size_t kFirstRead = 512;

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  const std::string address_;  // httpAddressKey() of the peer
  HttpServer& server_;
  // Under the server's httpClientsMutex_: its key in the server's indexes
  // (0: not there), and whether it has left it for good.
  uint64_t key_ = 0;
  bool gone_ = false;
};

std::string httpAddressKey(const asio::ip::address& address) {
  const auto v4 = [](const asio::ip::address_v4& a) {
    const auto bytes = a.to_bytes();
    return std::string(bytes.begin(), bytes.end());
  };
  if (address.is_v4()) return v4(address.to_v4());
  const asio::ip::address_v6 v6 = address.to_v6();
  if (v6.is_v4_mapped()) return v4(asio::ip::make_address_v4(asio::ip::v4_mapped, v6));
  const auto bytes = v6.to_bytes();
  return std::string(bytes.begin(), bytes.begin() + 8);
}

void HttpServer::indexLocked(uint64_t key, HttpClient client) {
  if (HttpConnection::phaseOf(key) == HttpConnection::Phase::kIncomplete)
    incompleteByAddress_[client.address].insert(key);
  httpClients_.emplace(key, std::move(client));
}

void HttpServer::unindexLocked(uint64_t key) {
  const auto it = httpClients_.find(key);
  if (it == httpClients_.end()) return;
  if (HttpConnection::phaseOf(key) == HttpConnection::Phase::kIncomplete) {
    const auto address = incompleteByAddress_.find(it->second.address);
    if (address != incompleteByAddress_.end()) {
      address->second.erase(key);
      if (address->second.empty()) incompleteByAddress_.erase(address);
    }
  }
  httpClients_.erase(it);
}

void HttpServer::stopping() {
  std::lock_guard lock(httpClientsMutex_);
  for (const auto& [key, client] : httpClients_)
    if (auto conn = client.connection.lock()) conn->cancel();
}

// Makes room before adding the new connection when there is none
// (maxHttpConnections_): the oldest connection of the new one's address
// without a whole request if that address holds its limit of them, else
// the first connection of the index — no whole request yet, else idle
// between requests, else a request being answered, the longest so first
// (see the header). Both indexes are ordered, so the choice costs
// O(log n) however large maxSessions makes the cap.
void HttpServer::accepted(tcp::socket socket) {
  boost::system::error_code ec;
  const tcp::endpoint peer = socket.remote_endpoint(ec);
  if (ec) return;  // gone already
  std::string address = httpAddressKey(peer.address());
  auto conn = std::make_shared<HttpConnection>(std::move(socket), address, *this);
  {
    std::lock_guard lock(httpClientsMutex_);
    while (static_cast<int>(httpClients_.size()) >= maxHttpConnections_) {
      uint64_t key = httpClients_.begin()->first;
      const auto own = incompleteByAddress_.find(address);
      if (own != incompleteByAddress_.end() &&
          static_cast<int>(own->second.size()) >= kIncompleteHttpConnectionsPerAddress)
        key = *own->second.begin();
      if (auto victim = httpClients_.at(key).connection.lock()) {
        victim->dropLocked();
        break;
      }
      unindexLocked(key);  // ended without leaving (see leaveLocked)
    }
    conn->enterLocked(HttpConnection::Phase::kIncomplete);
  }
  conn->start();
}

// Without a token a socket takes a session slot now, if one is free; with
// one it waits for its `auth` among the unauthenticated (SessionSlots).
bool HttpServer::openWebSocket(tcp::socket& socket, http::request<http::empty_body>& request) {
  if (stopping_) return false;
  auto conn = slots_.add([&](std::function<bool()> admit, std::function<void()> onClosed) {
    return std::make_shared<WebSocketConnection>(std::move(socket), config_.connection, config_.session, reaper_,
                                                 std::move(admit), std::move(onClosed));
  });
  if (!conn) return false;  // every slot taken (no token)
  conn->start(std::move(request));
  return true;
}

}  // namespace gobblet
