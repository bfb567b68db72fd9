// gobblet-match end to end: a match between fake engines written to a record
// file, the final table, the SPRT stop, --replay, and argument errors.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/whole_file.h"
#include "tests/support/paths.h"

namespace {

const std::string kBin = gobblet::testing::binDir();
const std::string kMatch = kBin + "/gobblet-match";
const std::string kFake = kBin + "/gobblet-fake-engine";

using Outcome = gobblet::testing::CommandResult;  // output: stdout and stderr

Outcome runMatch(const std::string& args) { return gobblet::testing::runCommand(kMatch + " " + args + " 2>&1"); }

int countLines(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) lines += !line.empty() && line[0] != '#';  // not the match line (resume.h)
  return lines;
}

TEST(MatchCli, AnEngineCommandMayStartWithEnvironmentAssignments) {
  // Once "exec GOBBLET_FAKE=1 ..." in sh: exit 127, every game a crash.
  Outcome match = runMatch("--variant gobblers --games 2 --depth 1 --timeout 2 --engine 'cmd=GOBBLET_FAKE=1 " + kFake +
                           " --seed 1' --engine 'cmd=" + kFake + " --seed 2'");
  ASSERT_EQ(match.exitCode, 0) << match.output;
  EXPECT_NE(match.output.find("gobblet-fake-engine#1 vs gobblet-fake-engine#2"), std::string::npos) << match.output;
  EXPECT_EQ(match.output.find("crash"), std::string::npos) << match.output;
  Outcome onlyAssignments = runMatch("--depth 1 --engine cmd=A=1 --engine cmd=" + kFake);
  EXPECT_EQ(onlyAssignments.exitCode, 2) << onlyAssignments.output;
  EXPECT_NE(onlyAssignments.output.find("environment assignments but no program to run"), std::string::npos)
      << onlyAssignments.output;
}

TEST(MatchCli, PlaysRecordsAndReplaysAMatch) {
  const std::string record = ::testing::TempDir() + "match_cli_record.txt";
  Outcome match = runMatch(
      "--variant gobblers --games 6 --random-plies 2 --concurrency 2 --depth 1 --timeout 2 --record " + record +
      " --engine 'cmd=" + kFake + " --seed 1' name=alpha --engine 'cmd=" + kFake + " --seed 2' name=beta");
  ASSERT_EQ(match.exitCode, 0) << match.output;
  EXPECT_NE(match.output.find("game 6/6"), std::string::npos) << match.output;
  EXPECT_NE(match.output.find("alpha vs beta"), std::string::npos) << match.output;
  EXPECT_NE(match.output.find("6 of 6 games played"), std::string::npos) << match.output;
  EXPECT_NE(match.output.find("LOS"), std::string::npos) << match.output;
  EXPECT_EQ(countLines(record), 6);

  Outcome replay = runMatch("--replay " + record);
  EXPECT_EQ(replay.exitCode, 0) << replay.output;
  EXPECT_NE(replay.output.find("replayed 6 games: 6 consistent, 0 inconsistent"), std::string::npos) << replay.output;

  // Flip one result: the replay must notice and fail.
  std::string tampered = gobblet::readWholeFile(record);
  const size_t at = tampered.find("result=");
  ASSERT_NE(at, std::string::npos);
  tampered.replace(at, 10, tampered.compare(at, 10, "result=1-0") == 0 ? "result=0-1" : "result=1-0");
  std::ofstream(record) << tampered;
  Outcome bad = runMatch("--replay " + record);
  EXPECT_EQ(bad.exitCode, 1) << bad.output;
  EXPECT_NE(bad.output.find("1 inconsistent"), std::string::npos) << bad.output;
  std::remove(record.c_str());
}

// Hostile bytes in a record file (ESC, BEL, NUL) reach the operator's
// terminal only as \xNN: --replay quotes the bad field, gobblet-tune the first
// game it leaves out. Before, both echoed the raw bytes (terminal escape
// injection: ESC ]0; retitles the window, ESC [2J clears it).
bool holdsControlBytes(const std::string& text) {
  for (char c : text)
    if (c == '\x1b' || c == '\x07' || c == '\0') return true;
  return false;
}

TEST(MatchCli, ReplayAndTuneShowHostileRecordBytesEscaped) {
  const gobblet::testing::ScratchDir dir("match_cli_hostile");
  const std::string record = dir.file("hostile.txt");
  std::ofstream(record) << std::string(
                               "game=1 p1=\"a\" p2=\"b\" variant=gobblet opening=\"\" start=\"\" book=0 "
                               "moves=\"\" result=1/2-1/2 detail=\"\" reason=\x1b]0;pwned\x07\x1b[2J") +
                               std::string(1, '\0') + "\n";
  const Outcome replay = runMatch("--replay " + record);
  EXPECT_EQ(replay.exitCode, 1) << replay.output;
  EXPECT_NE(replay.output.find("\\x1b]0;pwned\\x07\\x1b[2J"), std::string::npos) << replay.output;
  EXPECT_FALSE(holdsControlBytes(replay.output)) << replay.output;
  const Outcome tune = gobblet::testing::runCommand(kBin + "/gobblet-tune " + record + " 2>&1");
  EXPECT_NE(tune.output.find("\\x1b]0;pwned"), std::string::npos) << tune.output;
  EXPECT_FALSE(holdsControlBytes(tune.output)) << tune.output;
}

TEST(MatchCli, SprtStopsAndReportsTheVerdict) {
  Outcome r = runMatch(
      "--variant gobblers --games 500 --depth 1 --quiet --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05 "
      "--engine 'cmd=" +
      kFake + " --seed 4' name=good --engine 'cmd=" + kFake + " --mode illegal' name=cheat");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("H1 accepted"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("500 of 500"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("game 1/"), std::string::npos) << "--quiet prints no progress\n" << r.output;
}

// SIGTERM (mpirun forwarding Ctrl-C, Slurm's time limit) and SIGINT end a
// match with what the record holds and how to go on, and the process dies
// of the signal; the count is the record's (it said nothing before).
TEST(MatchCli, ASignalSaysWhatTheRecordHoldsAndHowToResume) {
  const gobblet::testing::ScratchDir dir("match_signal");
  for (const char* signal : {"TERM", "INT"}) {
    const std::string record = dir.file(std::string("games-") + signal + ".txt");
    const Outcome r = gobblet::testing::runCommand(
        "cd " + dir.path() + " && { " + kMatch + " --variant gobblers --games 5000 --depth 1 --quiet --record " +
        record + " --engine cmd=" + kFake + " --engine cmd=" + kFake + " 2>err.txt & pid=$!; " +
        "for i in $(seq 600); do [ \"$(grep -c '^game=' " + record + " 2>/dev/null)\" -ge 3 ] 2>/dev/null && break; " +
        "sleep 0.1; done; kill -" + signal + " $pid; wait $pid; echo status=$?; cat err.txt; }");
    ASSERT_NE(r.output.find(std::string("status=") + (signal[0] == 'T' ? "143" : "130")), std::string::npos)
        << r.output;
    const std::string text = gobblet::readWholeFile(record);
    size_t games = 0;
    for (size_t at = 0; (at = text.find("\ngame=", at)) != std::string::npos; ++at) ++games;
    ASSERT_GE(games, 3u) << text;
    EXPECT_NE(r.output.find(std::string("gobblet-match: SIG") + signal + ": the record " + record + " holds " +
                            std::to_string(games) + " games; to play the others, run the same command with --resume " +
                            record),
              std::string::npos)
        << r.output;
  }
}

TEST(MatchCli, RejectsBadArguments) {
  const std::string engine = " --engine cmd=" + kFake + " --engine cmd=" + kFake;
  for (const std::string& args : std::vector<std::string>{
           "--frobnicate", "--engine name=x --engine cmd=y", "--tc fast" + engine, "--games 0" + engine,
           "--variant chess" + engine, "--sprt elo0=5 elo1=0" + engine, "--engine cmd=" + kFake,
           "--openings /nonexistent/file" + engine, "--format swiss" + engine}) {
    Outcome r = runMatch(args);
    EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("error: "), std::string::npos) << args << "\n" << r.output;
  }
  Outcome missing = runMatch("--replay /nonexistent/records.txt");
  EXPECT_EQ(missing.exitCode, 1) << missing.output;
}

TEST(MatchCli, RefusesEnginesWithoutALimit) {
  // No tc/movetime/depth/nodes would mean a bare "go", which a real engine
  // takes as "think forever": refused before any game starts.
  const std::string a = " --engine 'cmd=" + kFake + " --seed 1' name=a";
  const std::string b = " --engine 'cmd=" + kFake + " --seed 2' name=b";
  const std::pair<std::string, std::string> cases[] = {{"--games 2" + a + b, "a"},
                                                       {"--games 2" + a + " depth=1" + b, "b"}};
  for (const auto& [args, culprit] : cases) {
    Outcome r = runMatch(args);
    EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("error: engine '" + culprit + "' has no limit"), std::string::npos) << args << "\n"
                                                                                                << r.output;
    EXPECT_EQ(r.output.find("game 1/"), std::string::npos) << args << "\n" << r.output;
  }
  // Any one limit, for one engine or for all, is enough.
  for (const std::string& args :
       {"--games 2 --nodes 100" + a + b, "--games 2" + a + " depth=1" + b + " movetime=0.05"}) {
    Outcome r = runMatch(args);
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("2 of 2 games played"), std::string::npos) << args << "\n" << r.output;
  }
}

}  // namespace
