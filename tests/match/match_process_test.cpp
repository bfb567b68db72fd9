// EngineProcess: line I/O with a child, deadlines, end of file, crashes and
// killing whatever the child left behind. Every wait here is bounded.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "match/engine_command.h"
#include "match/engine_player.h"
#include "match/engine_process.h"

namespace gobblet::match {
namespace {

using std::chrono::milliseconds;

Clock::time_point in(int ms) { return Clock::now() + milliseconds(ms); }

int64_t msSince(Clock::time_point t) { return std::chrono::duration_cast<milliseconds>(Clock::now() - t).count(); }

TEST(MatchProcess, EchoesLines) {
  EngineProcess p;
  ASSERT_TRUE(p.start("cat").ok());
  EXPECT_TRUE(p.running());
  EXPECT_FALSE(p.start("cat").ok());  // already running
  ASSERT_TRUE(p.writeLine("hello world").ok());
  ASSERT_TRUE(p.writeLine("second").ok());
  EXPECT_EQ(p.readLine(in(5000)).value(), "hello world");
  EXPECT_EQ(p.readLine(in(5000)).value(), "second");
  p.stop();
  EXPECT_FALSE(p.running());
  EXPECT_EQ(p.exitDescription(), "exit code 0");  // cat ends when its input closes
}

TEST(MatchProcess, LeadingAssignmentsSetTheEnvironmentOfTheEngineOnly) {
  // "exec NAME=VALUE program" made sh look for a program named NAME=VALUE:
  // exit 127 at once, recorded as a crash.
  EngineProcess p;
  ASSERT_TRUE(
      p.start("GOBBLET_MATCH_A=1 GOBBLET_MATCH_B='two words' sh -c 'echo \"$GOBBLET_MATCH_A/$GOBBLET_MATCH_B\"'").ok());
  auto line = p.readLine(in(5000));
  ASSERT_TRUE(line.ok()) << line.status() << " (" << p.exitDescription() << ")";
  EXPECT_EQ(*line, "1/two words");
  p.stop();
  EXPECT_EQ(p.exitDescription(), "exit code 0");
  EXPECT_EQ(std::getenv("GOBBLET_MATCH_A"), nullptr);  // the runner's own environment is untouched

  EXPECT_EQ(shellCommandFor("./engine -q"), "exec ./engine -q");
  EXPECT_EQ(shellCommandFor("A=1 ./engine"), "exec env A=1 ./engine");
  EXPECT_EQ(shellCommandFor("./engine A=1"), "exec ./engine A=1");
  EXPECT_EQ(shellCommandFor("1A=1 ./engine"), "exec 1A=1 ./engine");  // not a name: sh says so
  EXPECT_EQ(programName("A=1 B=\"x y\" ./build/gobblet --threads 2"), "gobblet");
  EXPECT_EQ(programName("'/opt/my engine/run' x=1"), "run");
  EXPECT_EQ(programName("A=1 B=2"), "");

  EngineConfig config;
  EXPECT_TRUE(applyEngineSetting(config, "cmd=A=1 ./engine").ok());
  EXPECT_EQ(applyEngineSetting(config, "cmd=A=1 B=2").message(),
            "engine setting 'cmd=A=1 B=2': environment assignments but no program to run");
}

TEST(MatchProcess, StripsCarriageReturnsAndSeesEndOfOutput) {
  EngineProcess p;
  ASSERT_TRUE(p.start("printf 'a\\r\\nb\\nlast-without-newline'").ok());
  EXPECT_EQ(p.readLine(in(5000)).value(), "a");
  EXPECT_EQ(p.readLine(in(5000)).value(), "b");
  auto end = p.readLine(in(5000));
  EXPECT_TRUE(absl::IsUnavailable(end.status())) << end.status();
}

TEST(MatchProcess, TimesOutOnASilentChild) {
  EngineProcess p;
  ASSERT_TRUE(p.start("sleep 20").ok());
  const auto t = Clock::now();
  auto line = p.readLine(in(150));
  EXPECT_TRUE(absl::IsDeadlineExceeded(line.status())) << line.status();
  EXPECT_GE(msSince(t), 140);
  EXPECT_LT(msSince(t), 3000);
  const auto s = Clock::now();
  p.stop(milliseconds(50));
  EXPECT_LT(msSince(s), 3000);  // killed, not waited for
  EXPECT_EQ(p.exitDescription(), "killed by signal 9");
}

TEST(MatchProcess, KillsTheWholeProcessGroup) {
  EngineProcess p;
  // The shell keeps a background child; stopping must not wait for it to end
  // and must not leave it running holding the pipe.
  ASSERT_TRUE(p.start("sh -c 'sleep 20 & echo started; wait'").ok());
  EXPECT_EQ(p.readLine(in(5000)).value(), "started");
  const auto t = Clock::now();
  p.stop(milliseconds(50));
  EXPECT_LT(msSince(t), 3000);
}

TEST(MatchProcess, ReportsMissingCommandsAndCrashes) {
  EngineProcess missing;
  ASSERT_TRUE(missing.start("/nonexistent/engine --flag").ok());
  EXPECT_TRUE(absl::IsUnavailable(missing.readLine(in(5000)).status()));
  missing.stop(milliseconds(1000));
  EXPECT_EQ(missing.exitDescription(), "exit code 127");

  EngineProcess crash;
  ASSERT_TRUE(crash.start("sh -c 'echo bye; kill -SEGV $$'").ok());
  EXPECT_EQ(crash.readLine(in(5000)).value(), "bye");
  EXPECT_TRUE(absl::IsUnavailable(crash.readLine(in(5000)).status()));
  crash.stop(milliseconds(1000));
  EXPECT_EQ(crash.exitDescription(), "killed by signal 11");
  // Writing to a dead child is an error, not a SIGPIPE.
  EXPECT_FALSE(crash.writeLine("anyone?").ok());
}

TEST(MatchProcess, WritingToAnExitedChildFails) {
  EngineProcess p;
  ASSERT_TRUE(p.start("true").ok());
  EXPECT_TRUE(absl::IsUnavailable(p.readLine(in(5000)).status()));
  // The end of its output is not yet its exit (coreutils close stdout at
  // exit, before the kernel closes stdin): wait until it has exited.
  for (const auto until = in(5000); p.exitDescription() == "running" && Clock::now() < until;)
    std::this_thread::sleep_for(milliseconds(2));
  absl::Status status;
  for (int i = 0; i < 100 && status.ok(); ++i) status = p.writeLine("ping");  // the pipe breaks once it has exited
  EXPECT_FALSE(status.ok());
}

TEST(MatchProcess, RefusesEndlessLines) {
  EngineProcess p;
  ASSERT_TRUE(p.start("head -c 3000000 /dev/zero").ok());
  auto line = p.readLine(in(10000));
  EXPECT_TRUE(absl::IsResourceExhausted(line.status())) << line.status();
}

TEST(MatchProcess, NotStartedIsAnError) {
  EngineProcess p;
  EXPECT_FALSE(p.writeLine("x").ok());
  EXPECT_FALSE(p.readLine(in(10)).ok());
  EXPECT_EQ(p.exitDescription(), "not started");
  p.stop();
}

// A child that stops reading its input: once the pipe is full, a write
// waits no later than its deadline (before, write() blocked for ever and
// with it the whole match).
TEST(MatchProcess, WritingToAChildThatDoesNotReadTimesOut) {
  EngineProcess p;
  ASSERT_TRUE(p.start("sleep 30").ok());
  const std::string big(64 * 1024, 'x');
  const auto t = Clock::now();
  absl::Status status;
  for (int i = 0; i < 100 && status.ok(); ++i) status = p.writeLine(big, in(200));
  EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << status;
  EXPECT_LT(msSince(t), 5000);
  p.stop(milliseconds(50));
}

// The same through the player: an engine that answers the handshake and
// then stops reading loses the move on time (DeadlineExceeded, as for an
// engine that stops answering) and is restarted by the next newGame().
TEST(MatchProcess, PlayerOfAnEngineThatStopsReadingLosesOnTimeAndRestarts) {
  EngineConfig config;
  config.command = "sh -c 'echo ugiok; echo readyok; exec sleep 30'";
  config.name = "deaf";
  EnginePlayer player(config, Variant::gobblet(), PlayerTimeouts{});
  ASSERT_TRUE(player.newGame().ok());
  const std::string hugePosition = "position startpos" + std::string(1 << 20, ' ');
  const auto t = Clock::now();
  auto reply = player.think(hugePosition, "go movetime 100", in(300));
  EXPECT_TRUE(absl::IsDeadlineExceeded(reply.status())) << reply.status();
  EXPECT_LT(msSince(t), 5000);
  EXPECT_TRUE(player.newGame().ok());  // a fresh process
  player.stop();
}

}  // namespace
}  // namespace gobblet::match
