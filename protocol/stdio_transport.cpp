#include "protocol/stdio_transport.h"

#include <unistd.h>

#include <cerrno>

#include "protocol/line_buffer.h"

namespace gobblet {

namespace {

// Writes all of `data`; gives up silently if the reader has gone (EPIPE):
// there is nobody left to tell.
void writeAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

int runStdio(int in, int out, SessionConfig config) {
  Session session([out](const std::string& line) { writeAll(out, line + "\n"); }, config);
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
