// gobblet-match ended by a signal: once every game of the match is
// recorded, the notice gives no resume hint (there is nothing to resume)
// and the process still dies of the signal; under mpirun, a signal that
// reaches the ranks gives the signal's exit status, as without mpirun.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/whole_file.h"
#include "tests/support/paths.h"

namespace {

const std::string kBin = gobblet::testing::binDir();
const std::string kMatch = kBin + "/gobblet-match";
const std::string kFake = kBin + "/gobblet-fake-engine";
const std::string kMpiexec = GOBBLET_MPIEXEC;

// The games a record file holds (its "game=" lines).
int recordedGames(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int games = 0;
  while (std::getline(in, line)) games += line.rfind("game=", 0) == 0;
  return games;
}

// Waits (up to 300 s) until `done` holds; false if it never did.
template <typename Condition>
bool waitFor(const Condition& done) {
  for (int i = 0; i < 3000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

// A match whose standard output cannot be written once it has said its
// first line: the test fills the FIFO it writes to, and only then lets the
// engines start (they wait for a file). So the process is still there,
// waiting to write its final table, when the record holds every game; a
// SIGTERM then ends it.
TEST(MatchSignal, AfterEveryGameIsRecordedTheNoticeGivesNoResumeHint) {
  const gobblet::testing::ScratchDir dir("match_signal_complete");
  const std::string out = dir.file("out"), err = dir.file("err.txt"), record = dir.file("games.txt"),
                    go = dir.file("go"), engine = dir.file("engine.sh");
  {
    std::ofstream script(engine);
    script << "#!/bin/sh\nwhile [ ! -e " << go << " ]; do sleep 0.05; done\nexec " << kFake << " \"$@\"\n";
  }
  ASSERT_EQ(::chmod(engine.c_str(), 0755), 0);
  ASSERT_EQ(::mkfifo(out.c_str(), 0600), 0);
  const std::string command = "exec " + kMatch + " --variant gobblers --games 6 --depth 1 --quiet --timeout 300 " +
                              "--record " + record + " --engine cmd=" + engine + " --engine cmd=" + engine + " >" +
                              out + " 2>" + err;
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const int reader = ::open(out.c_str(), O_RDONLY);  // waits for the match's shell to open it
  ASSERT_GE(reader, 0);
  std::string first;
  char c;
  while (first.find('\n') == std::string::npos && ::read(reader, &c, 1) == 1) first += c;
  ASSERT_NE(first.find("variant gobblers"), std::string::npos) << first;
  const int filler = ::open(out.c_str(), O_WRONLY | O_NONBLOCK);
  ASSERT_GE(filler, 0);
  const std::string block(4096, '.');
  while (::write(filler, block.data(), block.size()) > 0) {
  }
  ASSERT_EQ(errno, EAGAIN);
  std::ofstream(go).put('\n');

  const bool allRecorded = waitFor([&] { return recordedGames(record) == 6; });
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ::close(filler), ::close(reader);
  ASSERT_TRUE(allRecorded) << gobblet::readWholeFile(err);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status;
  const std::string notice = gobblet::readWholeFile(err);
  EXPECT_EQ(notice.find("to play the others"), std::string::npos) << notice;
  EXPECT_NE(notice.find("gobblet-match: SIGTERM: the match is complete: the record " + record + " holds all 6 games"),
            std::string::npos)
      << notice;
}

// Under mpirun, SIGTERM or SIGINT reaching the ranks (Slurm's scancel and
// time limit signal every task; here each rank is signalled) ends the match
// with rank 0's notice, and mpirun's exit status is the signal's, as a
// plain run's is.
TEST(MatchSignal, UnderMpirunTheExitStatusIsTheSignals) {
  if (kMpiexec.empty()) GTEST_SKIP() << "built without MPI (libopenmpi-dev)";
  const gobblet::testing::ScratchDir dir("match_signal_mpi");
  for (const char* signal : {"TERM", "INT"}) {
    const std::string record = dir.file(std::string("games-") + signal + ".txt");
    const std::string root = ::getuid() == 0 ? " --allow-run-as-root" : "";
    const gobblet::testing::CommandResult r = gobblet::testing::runCommand(
        "cd " + dir.path() + " && { " + kMpiexec + root + " --oversubscribe -np 2 " + kMatch +
        " --variant gobblers --games 5000 --depth 1 --quiet --record " + record + " --engine cmd=" + kFake +
        " --engine cmd=" + kFake + " >out.txt 2>err.txt & pid=$!; " +
        "for i in $(seq 3000); do [ \"$(grep -c '^game=' " + record + " 2>/dev/null)\" -ge 3 ] 2>/dev/null && break; " +
        "sleep 0.1; done; kill -" + signal + " $(pgrep -P $pid -x gobblet-match); wait $pid; echo status=$?; " +
        "cat err.txt; }");
    EXPECT_NE(r.output.find(std::string("status=") + (signal[0] == 'T' ? "143" : "130")), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(std::string("gobblet-match: SIG") + signal + ": the record " + record + " holds "),
              std::string::npos)
        << r.output;
  }
}

}  // namespace
