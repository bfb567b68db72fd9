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

// The lines a session writes, from whichever thread writes them. Declared
// before the Session, so that it outlives it.
class Transcript {
 public:
  Session::Output output() {
    return [this](const std::string& line) {
      std::lock_guard lock(mutex_);
      lines_.push_back(line);
    };
  }
  Lines lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    lines_.clear();
  }
  // Waits (bounded) until a line starting with `prefix` has been written.
  bool waitFor(const std::string& prefix) {
    for (int i = 0; i < 2000; ++i) {
      if (holds(lines(), prefix)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

 private:
  std::mutex mutex_;
  Lines lines_;
};

TEST(ProtocolThreads, RefusedThreadsAreErrorsAndBestmoveNone) {
  testing::LimitedStarter none{0};
  SessionConfig config;
  config.startThread = none.starter();
  Transcript out;
  Session session(out.output(), config);
  session.handleLine("position startpos");
  for (const char* go : {"go infinite", "go depth 3"}) {
    out.clear();
    session.handleLine(go);
    ASSERT_TRUE(out.waitFor("bestmove")) << go;
    const Lines lines = out.lines();
    EXPECT_TRUE(holds(lines, "info string error: go: the system refused a thread")) << go << ": " << lines[0];
    EXPECT_EQ(lines.back(), "bestmove (none)") << go;
  }
  for (const auto& [command, refusal] :
       {std::pair{"perft 2", "info string error: perft: "}, std::pair{"bench 1", "info string error: bench: "}}) {
    out.clear();
    session.handleLine(command);
    const Lines lines = out.lines();
    ASSERT_EQ(lines.size(), 1u) << command;
    EXPECT_EQ(lines[0].rfind(refusal, 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("the system refused a thread"), std::string::npos) << lines[0];
  }
  out.clear();
  session.handleLine("isready");
  ASSERT_TRUE(out.waitFor("readyok")) << "the session still answers";

  // Another session, with threads, plays on.
  Transcript other;
  Session fine(other.output());
  fine.handleLine("position startpos");
  fine.handleLine("go depth 3");
  ASSERT_TRUE(other.waitFor("bestmove"));
  EXPECT_NE(other.lines().back(), "bestmove (none)");
}

// Bench's own search thread refused: an error, not a node count of 0.
TEST(ProtocolThreads, ABenchWithoutASearchThreadIsAnError) {
  testing::LimitedStarter workerOnly{1};  // the worker thread; then nothing
  SessionConfig config;
  config.startThread = workerOnly.starter();
  Transcript out;
  Session session(out.output(), config);
  session.handleLine("bench 1");
  ASSERT_TRUE(out.waitFor("info string error: bench:"));
  const Lines lines = out.lines();
  EXPECT_FALSE(holds(lines, "bench nodes")) << lines.back();
}

}  // namespace
}  // namespace gobblet
