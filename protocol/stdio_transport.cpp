#include "protocol/stdio_transport.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "engine/line_buffer.h"

namespace gobblet {

namespace {

// Pieces of at most this size: a pipe that poll() reports writable takes
// a write of up to a page without blocking (the descriptor stays blocking:
// it may be shared with the controller, so it is not ours to change).
constexpr size_t kWriteChunk = 4096;

// Output with a deadline per write. Writes all of `data`, or gives up: if
// the reader has gone (EPIPE: there is nobody left to tell), or if it takes
// nothing for `timeout`; from then on all output is dropped. Called under
// the session's output lock, one line at a time.
class DeadlineWriter {
 public:
  DeadlineWriter(int fd, std::chrono::milliseconds timeout) : fd_(fd), timeout_(timeout) {}

  void write(const std::string& data) {
    size_t done = 0;
    while (!dead_ && done < data.size()) {
      pollfd p{fd_, POLLOUT, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(timeout_.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) {  // the controller stopped reading (or poll failed)
        dead_ = true;
        return;
      }
      const ssize_t n = ::write(fd_, data.data() + done, std::min(kWriteChunk, data.size() - done));
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        dead_ = true;
        return;
      }
      done += static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
  std::chrono::milliseconds timeout_;
  bool dead_ = false;
};

}  // namespace

int runStdio(int in, int out, SessionConfig config, std::chrono::milliseconds writeTimeout) {
  DeadlineWriter writer(out, writeTimeout);
  Session session([&writer](const std::string& line) { writer.write(line + "\n"); }, config);
  LineBuffer lines;
  const LineBuffer::OnLine onLine = [&](std::string_view line, bool overlong) {
    if (overlong) {
      session.reportOverlongLine(kMaxLineBytes);
      return true;
    }
    return session.handleLine(line);
  };
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(in, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // end of input (or an unreadable stdin): finish like quit
      lines.finish(onLine);
      break;
    }
    if (!lines.feed(std::string_view(buffer, static_cast<size_t>(n)), onLine)) break;
  }
  session.close();
  return 0;
}

}  // namespace gobblet
