// gobblet-prove grow from the command line: a run stopped and resumed
// makes the same database and frontier, byte for byte, as one run; a run
// killed outright, or a database cut mid-record, leaves a database that
// db check accepts and a run that goes on; SIGINT stops after the position
// under way; bad usage and foreign frontiers are refused (exit 2); under
// mpirun (where gobblet-prove has MPI) 2 ranks make the same database as
// one process, and a rank that sends garbage ends the job with its reason
// and a database db check accepts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/paths.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"

namespace gobblet {
namespace {

const std::string kProve = gobblet::testing::binDir() + "/gobblet-prove";
// Tic-tac-toe with a small budget: a few hundred positions, proved, known,
// drawn and failed ones among them.
const std::string kGrow = " --variant tictactoe --nodes 500 --quiet";

testing::CommandResult run(const std::string& arguments) {
  return testing::runCommand(kProve + " " + arguments + " 2>&1");
}

bool sameFiles(const std::string& a, const std::string& b) {
  return testing::runCommand("cmp '" + a + "' '" + b + "' >/dev/null 2>&1").exitCode == 0;
}

// A shell loop that waits (at most 60 s) until `path` holds more than
// `bytes`: a run is then under way, its lock held and its signals caught,
// however loaded the machine (a fixed sleep is not enough under ASan).
std::string waitForSize(const std::string& path, int bytes) {
  return "for i in $(seq 1200); do [ $(stat -c %s '" + path + "' 2>/dev/null || echo 0) -gt " + std::to_string(bytes) +
         " ] && break; sleep 0.05; done; ";
}

void expectAccepted(const std::string& db) {
  const auto checked = run("db check '" + db + "'");
  EXPECT_EQ(checked.exitCode, 0) << checked.output;
  EXPECT_EQ(checked.output.rfind("accepted: 3x3:1,5,0", 0), 0u) << checked.output;
}

TEST(GrowProgram, StopAndResumeMakeWhatOneRunMakes) {
  const testing::ScratchDir dir("grow");
  const std::string one = dir.file("one.pdb"), two = dir.file("two.pdb");
  const auto whole = run("grow --db '" + one + "' --start" + kGrow);
  ASSERT_EQ(whole.exitCode, 0) << whole.output;
  EXPECT_EQ(whole.output.rfind("grow done", 0), 0u) << whole.output;
  EXPECT_NE(whole.output.find(" proved, "), std::string::npos) << whole.output;
  expectAccepted(one);
  const auto first = run("grow --db '" + two + "' --start --positions 60" + kGrow);
  ASSERT_EQ(first.exitCode, 0) << first.output;
  EXPECT_EQ(first.output.rfind("grow positions", 0), 0u) << first.output;
  EXPECT_FALSE(sameFiles(one, two)) << "the first part is not the whole";
  // The resumed runs take the budget from the frontier.
  const auto second = run("grow --db '" + two + "' --positions 100 --quiet");
  ASSERT_EQ(second.exitCode, 0) << second.output;
  EXPECT_NE(second.output.find("all runs 160 positions"), std::string::npos) << second.output;
  const auto rest = run("grow --db '" + two + "' --quiet");
  ASSERT_EQ(rest.exitCode, 0) << rest.output;
  EXPECT_EQ(rest.output.rfind("grow done", 0), 0u) << rest.output;
  EXPECT_TRUE(sameFiles(one, two)) << "databases differ";
  EXPECT_TRUE(sameFiles(one + ".grow", two + ".grow")) << "frontiers differ";
  // Done is done: another run settles nothing.
  const auto again = run("grow --db '" + two + "' --quiet");
  EXPECT_EQ(again.exitCode, 0) << again.output;
  EXPECT_NE(again.output.find("this run 0 positions"), std::string::npos) << again.output;
}

// SIGKILL at some moment of the run, then a record cut at the end, as a
// crash mid-write leaves it: db check refuses the cut record, the next run
// drops it, and db check then accepts the database.
TEST(GrowProgram, AKilledRunLeavesACheckableDatabase) {
  const testing::ScratchDir dir("grow");
  const std::string db = dir.file("k.pdb");
  const std::string run4 = " --variant gobblers --nodes 3000 --max-ply 4 --quiet";
  const auto killed =
      testing::runCommand("{ " + kProve + " grow --db '" + db + "' --start" + run4 + " >/dev/null 2>&1 & run=$!; " +
                          waitForSize(db, 200) + "kill -KILL $run; wait $run; echo \"killed $?\"; }");
  EXPECT_NE(killed.output.find("killed 137"), std::string::npos) << killed.output;
  ASSERT_TRUE(std::filesystem::exists(db));
  const auto size = std::filesystem::file_size(db);
  ASSERT_GT(size, 200u) << "a few proofs stored before the kill";
  std::filesystem::resize_file(db, size - 7);
  const auto cut = run("db check '" + db + "'");
  EXPECT_EQ(cut.exitCode, 1) << cut.output;
  EXPECT_NE(cut.output.find("cut short"), std::string::npos) << cut.output;
  // Killed before its first checkpoint: no frontier, so the run starts anew.
  const bool saved = std::filesystem::exists(db + ".grow");
  const auto on = run("grow --db '" + db + "' --positions 3" + (saved ? std::string(" --quiet") : " --start" + run4));
  EXPECT_EQ(on.exitCode, 0) << on.output;
  EXPECT_NE(on.output.find("database tail of "), std::string::npos) << on.output;
  const auto checked = run("db check '" + db + "'");
  EXPECT_EQ(checked.exitCode, 0) << checked.output;
  EXPECT_NE(run("db stats '" + db + "'").output.find("tail none"), std::string::npos);
}

// SIGINT: the position under way is finished and stored, the frontier
// saved, the process ended by the signal; the next run goes on from there.
TEST(GrowProgram, SigintStopsAfterThePositionUnderWay) {
  const testing::ScratchDir dir("grow");
  const std::string db = dir.file("s.pdb");
  const auto stopped =
      testing::runCommand("{ timeout -s KILL 120 " + kProve + " grow --db '" + db +
                          "' --start --variant gobblers --nodes 3000 --max-ply 4 --quiet 2>&1 & run=$!; " +
                          waitForSize(db, 32) + "kill -INT $run; wait $run; echo \"exit $?\"; }");
  EXPECT_NE(stopped.output.find("exit 130"), std::string::npos) << "ended by the signal: " << stopped.output;
  EXPECT_EQ(stopped.output.rfind("grow SIGINT", 0), 0u) << stopped.output;
  EXPECT_TRUE(std::filesystem::exists(db + ".grow"));
  EXPECT_EQ(run("db check '" + db + "'").exitCode, 0);
  const auto on = run("grow --db '" + db + "' --positions 3 --quiet");
  EXPECT_EQ(on.exitCode, 0) << on.output;
  EXPECT_NE(on.output.find("this run 3 positions"), std::string::npos) << on.output;
}

TEST(GrowProgram, BadUsageIsRefused) {
  const testing::ScratchDir dir("grow");
  const std::string db = dir.file("b.pdb");
  EXPECT_EQ(run("grow --start").exitCode, 2);
  const auto none = run("grow --db '" + db + "'");
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.output.find("--from POSITION or --start"), std::string::npos) << none.output;
  EXPECT_EQ(run("grow --db '" + db + "' --from 'not a position' --variant gobblers").exitCode, 2);
  EXPECT_EQ(run("grow --db '" + db + "' --start --variant gobblers --time soon").exitCode, 2);
  ASSERT_EQ(run("grow --db '" + db + "' --from '3/1l1/3 2' --variant gobblers --positions 1").exitCode, 0);
  const auto twice = run("grow --db '" + db + "' --start");
  EXPECT_EQ(twice.exitCode, 2);
  EXPECT_NE(twice.output.find("holds a frontier already"), std::string::npos) << twice.output;
  EXPECT_EQ(run("grow --db '" + db + "' --variant tictactoe").exitCode, 2);
  EXPECT_EQ(run("grow --db '" + db + "' --order priority").exitCode, 2);
  std::ofstream(db + ".grow", std::ios::app) << "queue 1 0 0 3/3/3 1\n";  // after the checksum
  const auto edited = run("grow --db '" + db + "'");
  EXPECT_EQ(edited.exitCode, 2);
  EXPECT_NE(edited.output.find("after the checksum"), std::string::npos) << edited.output;
  std::ofstream(db + ".grow") << "hello\n";
  const auto foreign = run("grow --db '" + db + "'");
  EXPECT_EQ(foreign.exitCode, 2);
  EXPECT_NE(foreign.output.find("not a grow frontier"), std::string::npos) << foreign.output;
}

// Two runs on one frontier would each save their own over the other's:
// the second is refused while the first runs.
TEST(GrowProgram, OneRunAFrontier) {
  const testing::ScratchDir dir("grow");
  const std::string db = dir.file("o.pdb");
  const auto both =
      testing::runCommand(kProve + " grow --db '" + db +
                          "' --start --variant gobblers --nodes 3000 --max-ply 4 --quiet >/dev/null 2>&1 & " +
                          "first=$!; " + waitForSize(db, 32) + kProve + " grow --db '" + db +
                          "' 2>&1; echo \"second $?\"; kill -INT $first; " + "wait $first; echo \"first $?\"");
  EXPECT_NE(both.output.find("another grow run is using the frontier"), std::string::npos) << both.output;
  EXPECT_NE(both.output.find("second 2"), std::string::npos) << both.output;
  EXPECT_NE(both.output.find("first 130"), std::string::npos) << both.output;
  EXPECT_EQ(run("db check '" + db + "'").exitCode, 0);
}

// Why the MPI tests cannot run here, or "" if they can.
std::string whyNoMpi() {
#ifndef GOBBLET_PROVE_MPI
  return "gobblet-prove was built without MPI";
#else
  if (testing::runCommand("command -v mpirun >/dev/null 2>&1").exitCode != 0) return "no mpirun on the PATH";
  return "";
#endif
}

std::string mpirun(int ranks, const std::string& env = "") {
  return "timeout 300 mpirun --allow-run-as-root --oversubscribe -x ASAN_OPTIONS=detect_leaks=0 " +
         (env.empty() ? "" : "-x " + env + " ") + "-np " + std::to_string(ranks) + " ";
}

TEST(GrowProgram, TwoRanksMakeWhatOneProcessMakes) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const testing::ScratchDir dir("grow");
  const std::string one = dir.file("one.pdb"), two = dir.file("two.pdb");
  ASSERT_EQ(run("grow --db '" + one + "' --start" + kGrow).exitCode, 0);
  const auto ranks = testing::runCommand(mpirun(2) + kProve + " grow --db '" + two + "' --start" + kGrow + " 2>&1");
  ASSERT_EQ(ranks.exitCode, 0) << ranks.output;
  EXPECT_EQ(ranks.output.rfind("grow done", 0), 0u) << ranks.output;
  EXPECT_TRUE(sameFiles(one, two)) << "databases differ";
  expectAccepted(two);
  const auto three =
      testing::runCommand(mpirun(3) + kProve + " grow --db '" + dir.file("three.pdb") + "' --start" + kGrow + " 2>&1");
  ASSERT_EQ(three.exitCode, 0) << three.output;
  expectAccepted(dir.file("three.pdb"));
}

TEST(GrowProgram, ARankThatSendsGarbageEndsTheJob) {
  if (const std::string why = whyNoMpi(); !why.empty()) GTEST_SKIP() << why;
  const testing::ScratchDir dir("grow");
  const std::string db = dir.file("g.pdb");
  const auto garbage = testing::runCommand(mpirun(2, "GOBBLET_GROW_TEST_RANK=1:garbage") + kProve + " grow --db '" +
                                           db + "' --start" + kGrow + " 2>&1");
  EXPECT_NE(garbage.exitCode, 0) << garbage.output;
  EXPECT_NE(garbage.output.find("error: rank 1, position "), std::string::npos) << garbage.output;
  EXPECT_NE(garbage.output.find("checksum"), std::string::npos) << garbage.output;
  expectAccepted(db);
  const auto died = testing::runCommand(mpirun(2, "GOBBLET_GROW_TEST_RANK=1:die") + kProve + " grow --db '" +
                                        dir.file("d.pdb") + "' --start" + kGrow + " 2>&1");
  EXPECT_NE(died.exitCode, 0) << died.output;
  EXPECT_NE(died.exitCode, 124) << "ended by the timeout: " << died.output;
  expectAccepted(dir.file("d.pdb"));
}

}  // namespace
}  // namespace gobblet
