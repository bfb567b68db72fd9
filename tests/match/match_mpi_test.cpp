// gobblet-match over MPI (match/mpi_distribution.h): the same match
// on 1, 2 and 3 ranks gives the same game for every number, the same table
// and the same SPRT verdict; an SPRT decision stops every rank; --resume
// under mpirun. Skipped when the build found no MPI (GOBBLET_MPIEXEC empty).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/match_output.h"
#include "tests/support/whole_file.h"
#include "tests/support/paths.h"

namespace {

using gobblet::finalTable;
using gobblet::gamesByNumber;

const std::string kBin = gobblet::testing::binDir();
const std::string kMatch = kBin + "/gobblet-match";
const std::string kEngine = kBin + "/gobblet";
const std::string kFake = kBin + "/gobblet-fake-engine";
const std::string kMpiexec = GOBBLET_MPIEXEC;

using Outcome = gobblet::testing::CommandResult;

// `ranks` 0: a plain run, no launcher; else mpiexec with that many ranks
// (oversubscribed: the machine may have fewer cores). A run that does not
// end within 300 s is killed (exit code 124).
Outcome runMatch(int ranks, const std::string& args) {
  const std::string launcher = ranks == 0 ? std::string()
                                          : "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + kMpiexec +
                                                " --oversubscribe -np " + std::to_string(ranks) + " ";
  return gobblet::testing::runCommand((ranks == 0 ? "timeout 300 " : "timeout 300 env ") + launcher + kMatch + " " +
                                      args + " 2>&1");
}

#define SKIP_WITHOUT_MPI() \
  if (kMpiexec.empty()) GTEST_SKIP() << "built without MPI (libopenmpi-dev): gobblet-match runs on one machine only"

TEST(MatchMpi, SameGamesTotalsAndVerdictOnOneTwoAndThreeRanks) {
  SKIP_WITHOUT_MPI();
  const gobblet::testing::ScratchDir dir("match_mpi_same");
  // The real engine, node-limited (one thread, hash cleared every game): a
  // game depends on its opening and the engines' settings alone.
  const std::string match =
      "--variant gobblers --games 24 --random-plies 2 --seed 5 --nodes 400 --quiet "
      "--sprt elo0=-20 elo1=20 alpha=0.01 beta=0.01 "
      "--engine cmd=" +
      kEngine +
      " name=a option.Hash=4 "
      "--engine 'cmd=" +
      kEngine + "' name=b option.Hash=4 option.Threads=1 ";
  std::map<int, std::string> reference;
  std::string referenceTable;
  for (const int ranks : {0, 2, 3}) {
    const std::string record = dir.file("ranks" + std::to_string(ranks) + ".txt");
    const Outcome run = runMatch(ranks, match + "--concurrency 2 --record " + record);
    ASSERT_EQ(run.exitCode, 0) << ranks << " ranks\n" << run.output;
    if (ranks > 0) {
      EXPECT_NE(run.output.find("over MPI: " + std::to_string(ranks) + " ranks"), std::string::npos) << run.output;
    }
    const std::map<int, std::string> games = gamesByNumber(record);
    EXPECT_EQ(games.size(), 24u) << run.output;
    if (ranks == 0) {
      reference = games, referenceTable = finalTable(run.output);
      EXPECT_NE(referenceTable.find("24 of 24 games played"), std::string::npos) << run.output;
      EXPECT_NE(referenceTable.find("SPRT elo0=-20"), std::string::npos) << run.output;
      continue;
    }
    for (const auto& [number, line] : reference)
      EXPECT_EQ(games.count(number) ? games.at(number) : "", line) << "game " << number << " on " << ranks << " ranks";
    EXPECT_EQ(finalTable(run.output), referenceTable) << ranks << " ranks";
  }
}

TEST(MatchMpi, AnSprtDecisionStopsEveryRankWithTheSameVerdict) {
  SKIP_WITHOUT_MPI();
  const gobblet::testing::ScratchDir dir("match_mpi_sprt");
  // The cheat loses every game, so the test decides after the same number
  // of games however they are dealt; 1000000 planned games would take hours
  // if a rank went on playing. The engines' commands carry the scratch
  // directory's name, to look for leftovers afterwards.
  const std::string match =
      "--variant gobblers --games 1000000 --depth 1 --quiet --concurrency 2 "
      "--sprt elo0=0 elo1=50 "
      "--engine 'cmd=" +
      kFake + " --mode first --log " + dir.file("good.log") +
      "' name=good "
      "--engine 'cmd=" +
      kFake + " --mode illegal --log " + dir.file("cheat.log") + "' name=cheat";
  std::string verdict;
  for (const int ranks : {0, 3}) {
    const Outcome run = runMatch(ranks, match);
    ASSERT_EQ(run.exitCode, 0) << ranks << " ranks (124: still running after 300 s)\n" << run.output;
    std::smatch m;
    const std::string output = run.output;
    ASSERT_TRUE(std::regex_search(output, m, std::regex("H1 accepted after \\d+ games"))) << output;
    if (verdict.empty()) verdict = m.str();
    EXPECT_EQ(m.str(), verdict) << ranks << " ranks";
    EXPECT_EQ(output.find("1000000 of 1000000"), std::string::npos) << output;
    // Every rank has gone, and with it every engine it started.
    // ("[g]" keeps the pattern from matching the shell that runs pgrep.)
    const Outcome left =
        gobblet::testing::runCommand("pgrep -f '[g]obblet-fake-engine --mode .* --log " + dir.path() + "' | wc -l");
    EXPECT_EQ(left.output, "0\n") << "engines left running after " << ranks << " ranks";
  }
}

TEST(MatchMpi, ResumesUnderMpirun) {
  SKIP_WITHOUT_MPI();
  const gobblet::testing::ScratchDir dir("match_mpi_resume");
  const std::string log = dir.file("engine1.log");
  const std::string match =
      "--variant gobblers --games 12 --random-plies 2 --seed 9 --depth 1 --quiet "
      "--engine 'cmd=" +
      kFake + " --mode hashed --seed 1 --log " + log +
      "' name=a "
      "--engine 'cmd=" +
      kFake + " --mode hashed --seed 2' name=b ";
  const std::string full = dir.file("full.txt"), partial = dir.file("partial.txt");
  const Outcome whole = runMatch(0, match + "--record " + full);
  ASSERT_EQ(whole.exitCode, 0) << whole.output;
  // The record of a run interrupted after games 1-4 and 7 (games 5 and 6
  // were under way).
  std::istringstream in(gobblet::readWholeFile(full));
  std::string line, kept;
  while (std::getline(in, line)) {
    const bool header = line[0] == '#';
    const int number = header ? 0 : std::stoi(line.substr(5));
    if (header || number <= 4 || number == 7) kept += line + "\n";
  }
  std::ofstream(partial) << kept;
  std::remove(log.c_str());
  const Outcome resumed = runMatch(3, match + "--concurrency 2 --resume " + partial);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("5 games already played"), std::string::npos) << resumed.output;
  EXPECT_EQ(finalTable(resumed.output), finalTable(whole.output));
  EXPECT_EQ(gamesByNumber(partial), gamesByNumber(full));
  // Engine a plays in every game: 7 new games, 7 uginewgame.
  const std::string sent = gobblet::readWholeFile(log);
  size_t newGames = 0;
  for (size_t at = 0; (at = sent.find("uginewgame", at)) != std::string::npos; ++at) ++newGames;
  EXPECT_EQ(newGames, 7u) << sent;
}

}  // namespace

// A rank with another --max-plies (or the engines swapped) played its games
// by its own settings: rank 0 reported 0-20 for a true 20-0. Now every rank
// ends before any game, rank 0 naming the difference.
TEST(MatchMpi, RanksWithOtherSettingsAreRefusedBeforeAnyGame) {
  SKIP_WITHOUT_MPI();
  const gobblet::testing::ScratchDir dir("match_mpi_differ");
  const std::string match = kMatch + " --variant gobblers --games 4 --depth 1 --record " + dir.file("r.txt") +
                            " --engine cmd=" + kFake + " name=a --engine cmd=" + kFake + " name=b ";
  const Outcome r = gobblet::testing::runCommand(
      "timeout 300 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + kMpiexec +
      " --oversubscribe -np 2 " + match + " : -np 1 " + match + "--max-plies 7 2>&1");
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.exitCode, 124) << r.output;
  EXPECT_NE(r.output.find("rank 0: the ranks do not run the same thing: rank 2 has '"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("max-plies=\"7\""), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("game 1"), std::string::npos) << r.output;
}

// srun without MPI's process manager: every task would play the whole
// match into the same record. Refused before the record is touched.
TEST(MatchMpi, SrunWithoutMpisProcessManagerIsRefused) {
  const gobblet::testing::ScratchDir dir("match_srun");
  const Outcome r = gobblet::testing::runCommand(
      "SLURM_STEP_NUM_TASKS=2 " + kMatch + " --variant gobblers --games 2 --depth 1 --record " + dir.file("r.txt") +
      " --engine cmd=" + kFake + " --engine cmd=" + kFake + " 2>&1");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("started by srun as one of 2 tasks, but without MPI's process manager"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
}
