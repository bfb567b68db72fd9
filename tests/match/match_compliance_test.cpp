// gobblet-match --compliance: an engine that follows the UGI spec passes
// every step (our engine for gobblet and gobblers, the fake engine, the fake
// under UCI), and each misbehaving fake -- ponder suffix, wrong query
// answer, illegal move, hang, crash, malformed option, no handshake -- fails
// exactly the step that covers it and no other.
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "match/compliance.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet::match {
namespace {

const std::string kBin = gobblet::testing::binDir();
const std::string kFake = kBin + "/gobblet-fake-engine";

// Margin beyond clocks and move times: generous, the machine may be loaded
// (time limits are not what these tests are about).
constexpr int64_t kLoadedMachineMarginMs = 1500;

std::vector<StepReport> check(const std::string& command, const Variant& v, int64_t timeoutMs = 10000,
                              Protocol protocol = Protocol::kUgi) {
  ComplianceSettings s;
  s.command = command;
  s.variant = v;
  s.timeoutMs = timeoutMs;
  s.marginMs = kLoadedMachineMarginMs;
  s.protocol = protocol;
  return runCompliance(s, [](const StepReport&) {});
}

std::set<std::string> named(const std::vector<StepReport>& reports, StepOutcome outcome) {
  std::set<std::string> names;
  for (const StepReport& r : reports)
    if (r.outcome == outcome) names.insert(r.name);
  return names;
}

std::string all(const std::vector<StepReport>& reports) {
  std::string text;
  for (const StepReport& r : reports) text += formatStep(r) + "\n";
  return text;
}

const StepReport* find(const std::vector<StepReport>& reports, const std::string& name) {
  for (const StepReport& r : reports)
    if (r.name == name) return &r;
  return nullptr;
}

// Every step the checker must run (match/compliance.h lists them), in order.
const std::vector<std::string> kUgiSteps = {"handshake",
                                            "id name",
                                            "id author",
                                            "option lines",
                                            "handshake lines",
                                            "isready after options",
                                            "uginewgame + isready",
                                            "position startpos + isready",
                                            "position fen + isready",
                                            "position fen moves + isready",
                                            "go p1time 5000 p2time 5000",
                                            "go p2time 4000 p1time 60000",
                                            "go p1time 5000 p2time 5000 p1inc 100 p2inc 100",
                                            "go p2inc 100 p1inc 100 p2time 4000 p1time 60000",
                                            "go movetime 300",
                                            "go depth 3",
                                            "go nodes 5000",
                                            "go infinite + isready + stop",
                                            "cutegames' order of commands",
                                            "query: running game",
                                            "query: won game",
                                            "query: threefold repetition",
                                            "query: no legal move",
                                            "quit"};
const std::set<std::string> kGoSteps(kUgiSteps.begin() + 10, kUgiSteps.begin() + 18);
const std::string kCutegames = "cutegames' order of commands";

std::set<std::string> plus(std::set<std::string> steps, const std::string& step) {
  steps.insert(step);
  return steps;
}

TEST(MatchCompliance, AFakeThatFollowsTheSpecPassesEveryStep) {
  for (const Variant& v : {Variant::gobblers(), Variant::gobblet()}) {
    SCOPED_TRACE(v.name());
    std::vector<StepReport> reports = check(kFake, v);
    std::vector<std::string> names;
    for (const StepReport& r : reports) names.push_back(r.name);
    EXPECT_EQ(names, kUgiSteps);
    EXPECT_TRUE(named(reports, StepOutcome::kFail).empty()) << all(reports);
    // Neither game has a position without a legal move (the largest pieces
    // can always move), so that step is skipped, saying why.
    EXPECT_EQ(named(reports, StepOutcome::kSkip), std::set<std::string>{"query: no legal move"}) << all(reports);
  }
  // Tic-tac-toe has one (a full board), but no repetition (pieces never move).
  std::vector<StepReport> reports = check(kFake, Variant::ticTacToe());
  EXPECT_TRUE(named(reports, StepOutcome::kFail).empty()) << all(reports);
  EXPECT_EQ(named(reports, StepOutcome::kSkip), std::set<std::string>{"query: threefold repetition"}) << all(reports);
}

// Our engine passes every step. The go steps hold it to the protocol's
// strict form: a bestmove of exactly two words (no "ponder <m>" after it),
// and a last info line before it that carries nodes, time and nps (no
// "info string" diagnostics after the search's final info).
TEST(MatchCompliance, OurEnginePasses) {
  for (const Variant& v : {Variant::gobblet(), Variant::gobblers()}) {
    SCOPED_TRACE(v.name());
    std::vector<StepReport> reports = check(kBin + "/gobblet", v);
    EXPECT_EQ(reports.size(), kUgiSteps.size()) << all(reports);
    EXPECT_TRUE(named(reports, StepOutcome::kFail).empty()) << all(reports);
    EXPECT_EQ(named(reports, StepOutcome::kSkip), std::set<std::string>{"query: no legal move"}) << all(reports);
  }
}

TEST(MatchCompliance, EachMisbehaviourIsCaughtByItsStep) {
  struct Case {
    std::string args;
    std::set<std::string> failing;
    std::string why;    // part of each failing step's reason
    int stepMs = 2000;  // each step's deadline
  };
  const Case cases[] = {
      {"--mode ponder", plus(kGoSteps, kCutegames), "two words"},
      {"--mode wrongquery",
       {"query: threefold repetition"},
       "query gameover: the engine says false, the rules say true"},
      {"--mode illegal --when movetime", {"go movetime 300"}, "is not a legal move here"},
      {"--mode garbage --when nodes", {"go nodes 5000"}, "'xyzzy' is not a legal move here"},
      {"--mode hang --when depth", {"go depth 3"}, "no bestmove within 2000 ms"},
      {"--mode crash --when p2inc",
       {"go p1time 5000 p2time 5000 p1inc 100 p2inc 100", "go p2inc 100 p1inc 100 p2time 4000 p1time 60000",
        kCutegames},
       "the engine exited while we waited for bestmove"},
      {"--mode badoption", {"option lines"}, "a spin option needs integer default, min and max"},
      {"--mode chatty", {"handshake lines"}, "unexpected line between id and ugiok: 'info string loading'"},
      {"--mode banner", {}, ""},  // a startup banner is no fault
      // 64 MiB of info lines: the step fails at 16 MiB (the checker kept
      // every line: 1.9 GB for 2 s of flood, then bad_alloc). A deadline
      // long enough for reading 16 MiB even under ASan on a loaded
      // machine (2 s was not): the step must fail for the volume, not
      // for the time.
      {"--mode flood --when depth",
       {"go depth 3"},
       "too much output: over 16 MiB in one step (waiting for bestmove)",
       60000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    std::vector<StepReport> reports = check(kFake + " " + c.args, Variant::gobblers(), c.stepMs);
    EXPECT_EQ(reports.size(), kUgiSteps.size()) << all(reports);
    EXPECT_EQ(named(reports, StepOutcome::kFail), c.failing) << all(reports);
    for (const std::string& name : c.failing) {
      const StepReport* r = find(reports, name);
      ASSERT_NE(r, nullptr);
      EXPECT_NE(r->why.find(c.why), std::string::npos) << formatStep(*r);
      EXPECT_FALSE(r->exchange.empty()) << formatStep(*r);
    }
  }
  // No answer to "ugi": the handshake fails and nothing else can be judged.
  std::vector<StepReport> reports = check(kFake + " --mode nohello", Variant::gobblers(), 1000);
  EXPECT_EQ(named(reports, StepOutcome::kFail), std::set<std::string>{"handshake"}) << all(reports);
  EXPECT_EQ(named(reports, StepOutcome::kPass).size(), 0u) << all(reports);
  EXPECT_NE(reports[0].why.find("no ugiok in time"), std::string::npos) << all(reports);
}

TEST(MatchCompliance, UciEnginesGetUciSpellingAndNoQueries) {
  std::vector<StepReport> reports = check(kFake + " --proto uci", Variant::gobblet(), 10000, Protocol::kUci);
  EXPECT_TRUE(named(reports, StepOutcome::kFail).empty()) << all(reports);
  EXPECT_NE(find(reports, "go binc 100 winc 100 btime 4000 wtime 60000"), nullptr) << all(reports);
  EXPECT_NE(find(reports, "ucinewgame + isready"), nullptr) << all(reports);
  EXPECT_EQ(named(reports, StepOutcome::kSkip).size(), 5u) << all(reports);  // queries and cutegames' order
}

// Runs gobblet-match; returns its exit code, output in `output`.
int runMatch(const std::string& args, std::string& output) {
  const testing::CommandResult r = testing::runCommand(kBin + "/gobblet-match " + args + " 2>&1");
  output += r.output;
  return r.exitCode;
}

// An engine whose words hold ESC, BEL and NUL: the compliance report shows
// them as \xNN (its reasons quote the engine's lines, its exchange is them).
TEST(MatchCompliance, HostileEngineBytesReachTheTerminalEscaped) {
  const testing::ScratchDir dir("compliance_hostile");
  const std::string engine = dir.file("engine.sh");
  std::ofstream(engine) << "#!/bin/sh\n"
                           "while read -r line; do\n"
                           "  printf 'id name \\033]0;pwned\\007\\n'\n"
                           "  printf 'bestmove \\033[2J\\000x\\n'\n"
                           "done\n";
  ASSERT_EQ(::chmod(engine.c_str(), 0700), 0);
  std::string output;
  EXPECT_EQ(runMatch("--compliance " + engine + " --timeout 2", output), 1) << output;
  EXPECT_NE(output.find("\\x1b"), std::string::npos) << output;
  for (char c : output) {
    ASSERT_NE(c, '\x1b') << output;
    ASSERT_NE(c, '\x07') << output;
    ASSERT_NE(c, '\0') << output;
  }
}

TEST(MatchCompliance, CommandLinePrintsOneLinePerStepAndExitsZeroOnlyWhenAllPass) {
  std::string good, bad, usage;
  EXPECT_EQ(runMatch("--compliance '" + kFake + "' --variant gobblers --margin 1.5", good), 0) << good;
  EXPECT_NE(good.find("PASS handshake\nPASS id name\n"), std::string::npos) << good;
  EXPECT_NE(good.find("SKIP query: no legal move: "), std::string::npos) << good;
  EXPECT_NE(good.find("COMPLIANT: 23 passed, 0 failed, 1 skipped (gobblers, ugi)"), std::string::npos) << good;

  EXPECT_EQ(runMatch("--compliance '" + kFake + " --mode ponder --when movetime' --margin 1.5", bad), 1) << bad;
  EXPECT_NE(bad.find("FAIL go movetime 300: 'bestmove "), std::string::npos) << bad;
  EXPECT_NE(bad.find("\n     > go movetime 300\n"), std::string::npos) << bad;  // the exchange
  EXPECT_NE(bad.find("NOT COMPLIANT: 22 passed, 1 failed, 1 skipped (gobblet, ugi)"), std::string::npos) << bad;

  EXPECT_EQ(runMatch("--compliance '" + kFake + "' --proto xyz", usage), 2) << usage;
  EXPECT_NE(usage.find("--proto must be ugi or uci"), std::string::npos) << usage;
}

}  // namespace
}  // namespace gobblet::match
