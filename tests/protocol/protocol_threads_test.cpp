// A session whose threads the system refuses (a task limit: `ulimit -u`,
// systemd's TasksMax, a container's pids limit) answers each command that
// needs one with an error, and `go` with bestmove (none); the process and
// the other sessions go on.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "protocol/session.h"
#include "tests/support/limited_starter.h"

namespace gobblet {
namespace {

using Lines = std::vector<std::string>;

bool holds(const Lines& lines, const std::string& prefix) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
}

// Waits (bounded) until a line starting with `prefix` has been written.
bool waitFor(std::mutex& mutex, const Lines& lines, const std::string& prefix) {
  for (int i = 0; i < 2000; ++i) {
    {
      std::lock_guard lock(mutex);
      if (holds(lines, prefix)) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

TEST(ProtocolThreads, RefusedThreadsAreErrorsAndBestmoveNone) {
  testing::LimitedStarter none{0};
  SessionConfig config;
  config.startThread = none.starter();
  std::mutex mutex;
  Lines out;
  Session session(
      [&](const std::string& line) {
        std::lock_guard lock(mutex);
        out.push_back(line);
      },
      config);
  session.handleLine("position startpos");
  for (const char* go : {"go infinite", "go depth 3"}) {
    {
      std::lock_guard lock(mutex);
      out.clear();
    }
    session.handleLine(go);
    ASSERT_TRUE(waitFor(mutex, out, "bestmove")) << go;
    std::lock_guard lock(mutex);
    EXPECT_TRUE(holds(out, "info string error: go: the system refused a thread")) << go << ": " << out[0];
    EXPECT_EQ(out.back(), "bestmove (none)") << go;
  }
  for (const auto& [command, refusal] :
       {std::pair{"perft 2", "info string error: perft: "}, std::pair{"bench 1", "info string error: bench: "}}) {
    {
      std::lock_guard lock(mutex);
      out.clear();
    }
    session.handleLine(command);
    std::lock_guard lock(mutex);
    ASSERT_EQ(out.size(), 1u) << command;
    EXPECT_EQ(out[0].rfind(refusal, 0), 0u) << out[0];
    EXPECT_NE(out[0].find("the system refused a thread"), std::string::npos) << out[0];
  }
  {
    std::lock_guard lock(mutex);
    out.clear();
  }
  session.handleLine("isready");
  ASSERT_TRUE(waitFor(mutex, out, "readyok")) << "the session still answers";

  // Another session, with threads, plays on.
  Lines other;
  std::mutex otherMutex;
  Session fine([&](const std::string& line) {
    std::lock_guard lock(otherMutex);
    other.push_back(line);
  });
  fine.handleLine("position startpos");
  fine.handleLine("go depth 3");
  ASSERT_TRUE(waitFor(otherMutex, other, "bestmove"));
  std::lock_guard lock(otherMutex);
  EXPECT_NE(other.back(), "bestmove (none)");
}

// Bench's own search thread refused: an error, not a node count of 0.
TEST(ProtocolThreads, ABenchWithoutASearchThreadIsAnError) {
  testing::LimitedStarter workerOnly{1};  // the worker thread; then nothing
  SessionConfig config;
  config.startThread = workerOnly.starter();
  std::mutex mutex;
  Lines out;
  Session session(
      [&](const std::string& line) {
        std::lock_guard lock(mutex);
        out.push_back(line);
      },
      config);
  session.handleLine("bench 1");
  ASSERT_TRUE(waitFor(mutex, out, "info string error: bench:"));
  std::lock_guard lock(mutex);
  EXPECT_FALSE(holds(out, "bench nodes")) << out.back();
}

}  // namespace
}  // namespace gobblet
