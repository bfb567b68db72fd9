#include "server/tcp_server.h"

#include <memory>
#include <string>

namespace gobblet {

namespace asio = boost::asio;
using asio::ip::tcp;

// A connection waiting for a session slot: its socket and its poll timer,
// used on the socket's strand only.
struct TcpServer::SlotWaiter {
  explicit SlotWaiter(tcp::socket s)
      : executor(s.get_executor()),
        socket(std::move(s)),
        timer(executor),
        deadline(std::chrono::steady_clock::now() + kSlotWait) {}
  const asio::any_io_executor executor;  // the socket's strand; set once, read from any thread
  tcp::socket socket;
  asio::steady_timer timer;
  std::chrono::steady_clock::time_point deadline;
  bool done = false;  // started or refused
};

bool TcpServer::tryStart(tcp::socket& socket) {
  auto conn = slots_.add([&](std::function<bool()> admit, std::function<void()> onClosed) {
    return std::make_shared<TcpConnection>(std::move(socket), config_.connection, config_.session, reaper_,
                                           std::move(admit), std::move(onClosed));
  });
  if (!conn) return false;  // every slot taken (no token); the socket is untouched
  conn->start();
  return true;
}

void TcpServer::accepted(tcp::socket socket) {
  if (tryStart(socket)) return;
  auto waiter = std::make_shared<SlotWaiter>(std::move(socket));
  std::shared_ptr<SlotWaiter> oldest;
  {
    std::lock_guard lock(waitersMutex_);
    if (static_cast<int>(waiters_.size()) >= kMaxSlotWaiters) {
      oldest = waiters_.front();
      waiters_.pop_front();
    }
    waiters_.push_back(waiter);
  }
  if (oldest) asio::post(oldest->executor, [this, oldest] { endWait(oldest); });
  asio::post(waiter->executor, [this, waiter] { waitForSlot(waiter); });
}

void TcpServer::waitForSlot(std::shared_ptr<SlotWaiter> waiter) {
  if (waiter->done) return;
  if (stopping_ || std::chrono::steady_clock::now() >= waiter->deadline) return endWait(waiter);
  if (tryStart(waiter->socket)) {
    waiter->done = true;
    std::lock_guard lock(waitersMutex_);
    waiters_.remove(waiter);
    return;
  }
  waiter->timer.expires_after(std::chrono::milliseconds(20));
  waiter->timer.async_wait([this, waiter](const boost::system::error_code&) { waitForSlot(waiter); });
}

void TcpServer::endWait(const std::shared_ptr<SlotWaiter>& waiter) {
  {
    std::lock_guard lock(waitersMutex_);
    waiters_.remove(waiter);
  }
  if (waiter->done) return;
  waiter->done = true;
  waiter->timer.cancel();
  refuse(std::move(waiter->socket));
}

void TcpServer::stopping() {
  std::list<std::shared_ptr<SlotWaiter>> waiting;
  {
    std::lock_guard lock(waitersMutex_);
    waiting.swap(waiters_);
  }
  for (auto& waiter : waiting) asio::post(waiter->executor, [this, waiter] { endWait(waiter); });
}

// Tells a client over the session limit why it is being closed.
void TcpServer::refuse(tcp::socket socket) {
  auto s = std::make_shared<tcp::socket>(std::move(socket));
  auto text = std::make_shared<std::string>("info string error: server full (" + std::to_string(config_.maxSessions) +
                                            " sessions), try later\n");
  asio::async_write(*s, asio::buffer(*text), [s, text](const boost::system::error_code&, size_t) {
    boost::system::error_code ignored;
    s->shutdown(tcp::socket::shutdown_both, ignored);
    s->close(ignored);
  });
}

}  // namespace gobblet
