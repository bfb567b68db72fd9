#include "server/client_connection.h"

#include <algorithm>
#include <optional>

#include "server/process_memory.h"

namespace gobblet {

namespace asio = boost::asio;

namespace {

// Freeing more queued output than this returns the memory to the system.
constexpr size_t kLargeOutputBytes = size_t{1} << 20;

constexpr const char* kDroppedWaitingForAuth =
    "info string error: too many connections waiting to authenticate, closing";

}  // namespace

ClientConnection::ClientConnection(asio::any_io_executor strand, const ConnectionLimits& limits,
                                   const SessionConfig& sessionConfig, SessionReaper& reaper,
                                   std::function<bool()> admit, std::function<void()> onClosed, std::string lineEnd)
    : strand_(std::move(strand)),
      idleTimer_(strand_),
      authTimer_(strand_),
      writeTimer_(strand_),
      flushTimer_(strand_),
      limits_(limits),
      sessionConfig_(sessionConfig),
      reaper_(reaper),
      lineEnd_(std::move(lineEnd)),
      auth_(limits.token),
      admit_(std::move(admit)),
      onClosed_(std::move(onClosed)) {}

std::chrono::milliseconds ClientConnection::capped(std::chrono::milliseconds configured) const {
  return std::min<std::chrono::milliseconds>(configured, limits_.idleTimeout);
}

bool ClientConnection::begin() {
  if (socketClosed_ || finished_) return false;  // shut down before it began
  begun_ = true;
  if (dropRequested_ && !auth_.authenticated()) {  // dropped from the waiting pool before it began
    send(kDroppedWaitingForAuth);
    finish(true);
    return false;
  }
  noteInput();
  if (auth_.authenticated() && !openSession()) return false;
  if (!auth_.authenticated()) armAuthTimer();
  armIdleTimer();
  return true;
}

bool ClientConnection::openSession() {
  if (admit_ && !admit_()) {
    send("info string error: server full, try later");
    finish(true);
    return false;
  }
  // The session's output may come from search threads: hop onto the strand.
  std::weak_ptr<ClientConnection> weak = shared_from_this();
  session_ = std::make_unique<Session>(
      [weak](const std::string& line) {
        auto conn = weak.lock();
        if (!conn) return;
        if (conn->lineThread_.load() == std::this_thread::get_id() && conn->postedLines_.load() == 0) {
          conn->send(line);  // on the strand already, nothing earlier waiting
          return;
        }
        ++conn->postedLines_;
        asio::post(conn->strand_, [conn, line] {
          --conn->postedLines_;
          conn->send(line);
        });
      },
      sessionConfig_);
  return true;
}

void ClientConnection::shutdown() {
  asio::post(strand_, [self = shared_from_this()] {
    if (!self->begun_) {
      self->closeSocket();  // not serving yet (e.g. in the WebSocket handshake): nothing to say
      return;
    }
    if (!self->finished_) self->send("info string error: server shutting down");
    self->finish(true);
  });
}

// A connection that has not begun yet (its WebSocket handshake answered,
// its first read not yet started: on a loaded machine its thread may wait
// while the pool fills) is told when it begins, as the others are now.
void ClientConnection::dropIfUnauthenticated() {
  asio::post(strand_, [self = shared_from_this()] {
    if (!self->begun_) {
      self->dropRequested_ = true;
      return;
    }
    if (self->auth_.authenticated() || self->finished_) return;
    self->send(kDroppedWaitingForAuth);
    self->finish(true);
  });
}

bool ClientConnection::handleLine(std::string_view line, bool overlong) {
  if (finished_ || socketClosed_) return false;
  // (An overlong line comes empty: to the gate, like a blank one, no attempt.)
  switch (auth_.judge(line)) {
    case TokenAuth::Verdict::kSession:
      break;
    case TokenAuth::Verdict::kNoAttempt:
      return true;  // the auth deadline stays where it is
    case TokenAuth::Verdict::kRefused:
      send("info string error: authentication required: send 'auth <token>' first");
      finish(true);
      return false;
    case TokenAuth::Verdict::kAuthenticated:
      authTimer_.cancel();
      if (!openSession()) return false;
      send("info string authenticated");
      return true;
  }
  if (overlong) {
    session_->reportOverlongLine(limits_.maxLineBytes);
    return true;
  }
  lineThread_ = std::this_thread::get_id();
  const bool more = session_->handleLine(line);
  lineThread_ = std::thread::id();
  if (!more) {
    finish(true);
    return false;
  }
  return true;
}

void ClientConnection::armIdleTimer() {
  idleTimer_.expires_at(lastInput_ + limits_.idleTimeout);
  idleTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec || self->finished_) return;
    // A client waiting for its bestmove is not idle; nor is one that spoke lately.
    const bool quiet = std::chrono::steady_clock::now() >= self->lastInput_ + self->limits_.idleTimeout;
    if (quiet && !(self->session_ && self->session_->busy())) {
      self->send("info string error: idle timeout, closing");
      self->finish(true);
      return;
    }
    if (quiet) self->lastInput_ = std::chrono::steady_clock::now();
    self->armIdleTimer();
  });
}

// The auth deadline runs from begin(); nothing but a successful `auth`
// stops it.
void ClientConnection::armAuthTimer() {
  authTimer_.expires_after(capped(limits_.authTimeout));
  authTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec || self->finished_ || self->auth_.authenticated()) return;
    self->send("info string error: authentication timeout, closing");
    self->finish(true);
  });
}

void ClientConnection::send(std::string line) {
  if (socketClosed_ || outputEnded_) return;
  outQueue_.push(line, lineEnd_);
  if (outQueue_.heapBytes() > limits_.maxPendingOutputBytes) {
    // The client does not read what it asked for: drop it rather than buffer
    // without end (also while a close is being flushed). The socket closes
    // now; finish() comes from the strand afterwards, because this line may
    // be written from inside the session's own handleLine (which finish()
    // hands to the reaper).
    closeSocket();
    asio::post(strand_, [self = shared_from_this()] { self->finish(false); });
    return;
  }
  if (!writing_) write();
}

void ClientConnection::write() {
  if (socketClosed_) {
    writing_ = false;
    return;
  }
  if (outQueue_.empty()) {
    writing_ = false;
    if (closeWhenFlushed_ && !outputEnded_) {
      outputEnded_ = true;
      endOfOutput();
    }
    return;
  }
  writing_ = true;
  // The write's deadline: a client that does not take this line in time
  // is dropped (closing the socket ends the write with an error).
  const uint64_t serial = ++writeSerial_;
  writeTimer_.expires_after(capped(limits_.writeTimeout));
  writeTimer_.async_wait([self = shared_from_this(), serial](const boost::system::error_code& ec) {
    if (ec || !self->writing_ || self->writeSerial_ != serial) return;
    self->closeSocket();
    self->finish(false);
  });
  writeFront(outQueue_.front(), [self = shared_from_this()](const boost::system::error_code& ec) {
    // The written line is done with, whatever happened.
    self->writing_ = false;
    self->writeTimer_.cancel();
    if (!self->outQueue_.empty()) self->outQueue_.pop();
    if (ec) {
      // The client is gone. Close now, also when the connection has already
      // finished: queueing another write on this socket could leave it
      // pending forever (and with it the connection and the I/O threads).
      self->closeSocket();
      self->finish(false);
      return;
    }
    self->write();
  });
}

void ClientConnection::finish(bool flush) {
  if (finished_) return;
  finished_ = true;
  idleTimer_.cancel();
  authTimer_.cancel();
  if (!flush) closeSocket();  // the client is gone or misbehaves: nothing more is sent
  if (!session_) {
    if (flush) flushAndClose();
    return;
  }
  // Stop the search now, here on the strand (`stop` only asks, it does not
  // wait): a client that hangs up must not leave its search running until
  // the reaper reaches its session. Its bestmove is posted here, ahead of
  // what follows.
  session_->handleLine("stop");
  // The reaper waits for the search's threads and frees the session; then
  // the rest is flushed and the socket closed. The work guard keeps the I/O
  // threads running until then.
  std::optional<asio::any_io_executor> work = asio::prefer(strand_, asio::execution::outstanding_work.tracked);
  reaper_.retire(std::move(session_), [self = shared_from_this(), work, flush]() mutable {
    if (flush) asio::post(self->strand_, [self] { self->flushAndClose(); });
    // Let go of the connection while the work guard still holds the I/O:
    // once it ends, run() may return and the io_context (whose strand
    // service the connection's strand uses) be destroyed; a connection
    // dying after that, here on the reaper's thread, used freed memory
    // (found by ThreadSanitizer).
    self.reset();
    work.reset();
  });
}

// Ends the output once the queue is written, or closes the socket at the
// flush deadline: closing never waits on a client for longer than that.
void ClientConnection::flushAndClose() {
  closeWhenFlushed_ = true;
  if (socketClosed_) return;
  flushTimer_.expires_after(capped(limits_.flushTimeout));
  flushTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->closeSocket();
  });
  if (!writing_) write();
}

ClientConnection::~ClientConnection() {
  if (onClosed_) onClosed_();
}

void ClientConnection::socketGone() {
  socketClosed_ = true;
  writeTimer_.cancel();
  flushTimer_.cancel();
  idleTimer_.cancel();
  authTimer_.cancel();
  // A write in flight still owns the front buffer until its handler runs.
  // A large queue's memory goes back to the system, not only to malloc.
  const bool large = outQueue_.heapBytes() > kLargeOutputBytes;
  if (writing_)
    outQueue_.keepOnlyFront();
  else
    outQueue_.clear();
  if (large) returnFreedMemory();
  if (onClosed_) {
    auto onClosed = std::move(onClosed_);
    onClosed_ = nullptr;
    onClosed();
  }
}

}  // namespace gobblet
