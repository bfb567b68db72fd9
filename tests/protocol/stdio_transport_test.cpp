// The stdin/stdout transport in process, over pipes: output with a deadline.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>

#include "protocol/stdio_transport.h"

namespace gobblet {
namespace {

using Ms = std::chrono::milliseconds;

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) == 0) read = fds[0], write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
  }
};

bool writeText(int fd, const std::string& text) {
  return ::write(fd, text.data(), text.size()) == ssize_t(text.size());
}

// A controller that never reads the engine's output and then quits: the
// writes that no longer fit give up at their deadline, so the engine obeys
// `quit` (before, it blocked for ever in write(), the search with it).
TEST(StdioTransport, ControllerThatNeverReadsCanStillQuit) {
  Pipe input, output;
  auto engine = std::async(std::launch::async, [&] { return runStdio(input.read, output.write, {}, Ms(300)); });
  std::string burst;
  for (int i = 0; i < 300; ++i) burst += "d\n";  // ~300 KB of answers: far beyond the pipe's 64 KiB
  ASSERT_TRUE(writeText(input.write, burst + "go depth 3\nquit\n"));
  EXPECT_EQ(engine.wait_for(Ms(20000)), std::future_status::ready) << "the engine blocked on its output";
  if (engine.wait_for(Ms(0)) != std::future_status::ready) {
    ::close(output.read);  // unblock it, so that the test can end
    output.read = -1;
  }
  EXPECT_EQ(engine.get(), 0);
}

// A controller that reads gets every line.
TEST(StdioTransport, ReaderGetsTheOutput) {
  Pipe input, output;
  auto engine = std::async(std::launch::async, [&] { return runStdio(input.read, output.write, {}, Ms(300)); });
  ASSERT_TRUE(writeText(input.write, "isready\nquit\n"));
  EXPECT_EQ(engine.wait_for(Ms(20000)), std::future_status::ready);
  EXPECT_EQ(engine.get(), 0);
  char buffer[256];
  const ssize_t n = ::read(output.read, buffer, sizeof buffer);
  EXPECT_EQ(std::string(buffer, n > 0 ? n : 0), "readyok\n");
}

}  // namespace
}  // namespace gobblet
