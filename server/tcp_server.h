// TcpServer: the engine protocol over TCP (Boost.Asio), one Session per
// connection (server/tcp_connection.h).
//
// Each connection gets its own session: its own game, options and search;
// tablebases are shared through the process-wide registry. A pool of I/O
// threads runs the connections' strands (a session may block its strand
// briefly, e.g. while a stopped search finishes, so there are several).
// The listening, signals, I/O threads, reaper and session-slot accounting
// are ConnectionServer's, shared with the board's HttpServer: without a
// token, a connection that finds every session slot taken waits up to
// kSlotWait for one (the sessions of clients that just hung up free theirs
// as their closes are handled: right after a storm of hang-ups a fresh
// client was told "server full" while every slot belonged to a gone
// client), at most kMaxSlotWaiters at once, the oldest told first; then it
// is told the server is full and closed. With a token, a connection takes a
// session slot only once authenticated and waits until then in the bounded
// pool of SessionSlots.
#pragma once

#include <utility>  // before Asio: Boost 1.74 misses it under C++20

#include <chrono>
#include <list>
#include <memory>
#include <mutex>

#include <boost/asio.hpp>

#include "server/connection_server.h"  // ServerConfig, parseListenAddress
#include "server/tcp_connection.h"

namespace gobblet {

inline constexpr std::chrono::milliseconds kSlotWait{1500};
inline constexpr int kMaxSlotWaiters = 64;

class TcpServer : public ConnectionServer {
 public:
  explicit TcpServer(ServerConfig config) : ConnectionServer(std::move(config)) {}

 private:
  struct SlotWaiter;
  void accepted(boost::asio::ip::tcp::socket socket) override;
  void stopping() override;  // refuses the connections waiting for a slot
  // Gives the socket a session if a slot is free (the socket is moved then).
  bool tryStart(boost::asio::ip::tcp::socket& socket);
  // Polls for a free slot until the waiter's deadline (on its strand).
  void waitForSlot(std::shared_ptr<SlotWaiter> waiter);
  // Ends a wait (on the waiter's strand): refused unless it got a session.
  void endWait(const std::shared_ptr<SlotWaiter>& waiter);
  void refuse(boost::asio::ip::tcp::socket socket);

  std::mutex waitersMutex_;
  std::list<std::shared_ptr<SlotWaiter>> waiters_;  // oldest first
};

}  // namespace gobblet
