// The engine over real TCP sockets: `gobblet --listen 127.0.0.1:0` as a
// child process, clients on loopback. Sessions, limits, authentication,
// disconnects mid-search and shutdown by signal.
#include <gtest/gtest.h>

#include <grp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "engine/game.h"
#include "tests/support/engine_client.h"
#include "tests/support/shell_command.h"
#include "tests/support/scratch_dir.h"
#include "tablebase/tablebase.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

using testing::EngineServer;
using testing::Ms;
using testing::TcpClient;

// ThreadSanitizer slows the server several times over: waits that bound
// real work (not deadlines under test) are that much longer there.
#if defined(__SANITIZE_THREAD__)
constexpr int kSanitizerSlowdown = 5;
#else
constexpr int kSanitizerSlowdown = 1;
#endif

TEST(TcpServer, PlaysLikeStdin) {
  EngineServer server;
  ASSERT_NE(server.port(), 0);
  TcpClient c(server.port());
  ASSERT_TRUE(c.connected());
  c.send("ugi");
  std::vector<std::string> seen;
  ASSERT_TRUE(c.until("ugiok", Ms(5000), &seen));
  EXPECT_EQ(seen[0].rfind("id name ", 0), 0u);
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
  c.send("position startpos moves X@a1 X@d4");
  c.send("go depth 2");
  auto best = c.until("bestmove");
  ASSERT_TRUE(best);
  EXPECT_NE(*best, "bestmove (none)");
  c.send("query p1turn");
  EXPECT_EQ(c.line(), "response true");
  c.send("quit");
  EXPECT_TRUE(c.closedByPeer(Ms(5000)));
}

TEST(TcpServer, EachConnectionHasItsOwnSession) {
  EngineServer server;
  TcpClient a(server.port()), b(server.port());
  a.send("setoption name Variant value gobblers");
  a.send("position startpos moves S@b2");
  b.send("position startpos moves X@a1 X@a2");
  a.send("d");
  b.send("d");
  EXPECT_EQ(a.until("position "), "position 3/1S1/3 2");
  EXPECT_EQ(b.until("position "), "position 4/4/x3/X3 1");
}

TEST(TcpServer, TokenIsRequiredFirst) {
  EngineServer server({"--token", "s3cret"});
  {
    TcpClient c(server.port());
    c.send("ugi");
    auto l = c.line();
    ASSERT_TRUE(l);
    EXPECT_NE(l->find("authentication required"), std::string::npos) << *l;
    EXPECT_TRUE(c.closedByPeer(Ms(5000)));
  }
  {
    TcpClient c(server.port());
    c.send("auth wrong");
    EXPECT_TRUE(c.until("info string error: authentication required"));
    EXPECT_TRUE(c.closedByPeer(Ms(5000)));
  }
  TcpClient c(server.port());
  c.send("auth s3cret");
  EXPECT_EQ(c.line(), "info string authenticated");
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
}

// Does the server on `port` take `token`, and only it?
void expectTokenRequired(uint16_t port, const std::string& token) {
  {
    TcpClient c(port);
    c.send("auth " + token + "x");
    EXPECT_TRUE(c.until("info string error: authentication required"));
  }
  TcpClient c(port);
  c.send("auth " + token);
  EXPECT_EQ(c.line(), "info string authenticated");
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
}

// `--token T` is seen by every local user in `ps`, so the token may come
// from a file (`--token-file`, its first line) or from GOBBLET_TOKEN
// instead; each is checked to be honoured (an ignored variable would let
// the server take any client).
TEST(TcpServer, TokenFromAFileOrTheEnvironment) {
  testing::ScratchDir dir;
  const std::string file = dir.file("token");
  std::ofstream(file) << "fr0m-f1le\r\n";
  {
    EngineServer server({"--token-file", file});
    ASSERT_NE(server.port(), 0);
    expectTokenRequired(server.port(), "fr0m-f1le");
  }
  ::setenv("GOBBLET_TOKEN", "fr0m-env", 1);
  {
    EngineServer server;
    ::unsetenv("GOBBLET_TOKEN");
    ASSERT_NE(server.port(), 0);
    expectTokenRequired(server.port(), "fr0m-env");
    // The server does not pass it on: its own environment no longer has it.
    std::ifstream environ("/proc/" + std::to_string(server.process().pid()) + "/environ");
    std::string all((std::istreambuf_iterator<char>(environ)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all.find("fr0m-env"), std::string::npos);
  }
  ::unsetenv("GOBBLET_TOKEN");
}

// A GOBBLET_TOKEN that is set but empty is refused (a usage error), never
// taken as "no token": the server would otherwise take any client.
TEST(TcpServer, AnEmptyTokenInTheEnvironmentIsRefused) {
  const testing::CommandResult r =
      testing::runCommand("GOBBLET_TOKEN= " + testing::engineBinary() + " --listen 127.0.0.1:0 2>&1");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("GOBBLET_TOKEN"), std::string::npos) << r.output;
}

// All sessions' hash tables share one budget (`--hash-budget`): without
// it, each of 64 sessions could take `Hash 256` (16 GiB in all; eight
// sockets reached 2,055 MiB in 5 s).
TEST(TcpServer, HashTablesShareTheServersBudget) {
  EngineServer server({"--hash-budget", "64", "--max-hash", "64"});
  ASSERT_NE(server.port(), 0);
  auto a = std::make_unique<TcpClient>(server.port());
  a->send("setoption name Hash value 48");  // 48 of 64
  a->send("isready");
  EXPECT_EQ(a->line(), "readyok");
  TcpClient b(server.port());  // the default 16: 64 of 64
  b.send("setoption name Hash value 32");
  auto refused = b.line();
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("does not fit in this server's hash budget (64 MiB"), std::string::npos) << *refused;
  b.send("setoption name Hash value 8");  // smaller always fits
  b.send("isready");
  EXPECT_EQ(b.line(), "readyok");
  // A closed session gives its share back (once the server has freed it).
  a->send("quit");
  a.reset();
  bool fitted = false;
  for (int i = 0; i < 100 && !fitted; ++i) {
    b.send("setoption name Hash value 40");
    b.send("isready");
    auto line = b.line();
    ASSERT_TRUE(line);
    if (*line == "readyok")
      fitted = true;
    else
      EXPECT_EQ(b.line(), "readyok");
    if (!fitted) std::this_thread::sleep_for(Ms(100));
  }
  EXPECT_TRUE(fitted);
}

// The server's process may hold less than the machine has (here RLIMIT_DATA,
// the bound of its heap and private mappings; server/process_memory.h reads
// the cgroup's limit too): the default hash budget is at most half of that,
// and an explicit `--hash-budget` beyond it is refused at start. Before, the
// budget was a quarter of the machine's memory whatever the process's
// limits (6144 MiB on 24 GiB under a 1 GiB limit): a `Hash`, or the table of
// a `go prove` beside it, was granted that the process could not allocate.
rlim_t dataLimitBytes = 0;
void limitData() {
  rlimit limit{dataLimitBytes, dataLimitBytes};
  ::setrlimit(RLIMIT_DATA, &limit);
}

TEST(TcpServer, HashBudgetFitsWhatTheProcessMayHold) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers' shadow memory is far beyond such a limit";
#endif
  // Below a quarter of the machine, so that the machine's share alone
  // would give more.
  const int64_t physicalMiB = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE) >> 20;
  const int64_t limitMiB = std::min<int64_t>(1024, physicalMiB / 4 - 1);
  ASSERT_GE(limitMiB, 256) << "a machine this small cannot run the check";
  dataLimitBytes = static_cast<rlim_t>(limitMiB) << 20;
  {
    EngineServer server({"--max-hash", "32768", "--io-threads", "2"}, limitData);
    ASSERT_NE(server.port(), 0);
    TcpClient c(server.port());
    c.send("setoption name Hash value 32768");
    const auto refused = c.line();
    ASSERT_TRUE(refused);
    const std::string budgetIs = "does not fit in this server's hash budget (";
    const size_t at = refused->find(budgetIs);
    ASSERT_NE(at, std::string::npos) << *refused;
    const int64_t budgetMiB = std::stoll(refused->substr(at + budgetIs.size()));
    EXPECT_LE(budgetMiB, limitMiB / 2) << *refused;
    EXPECT_GT(budgetMiB, 0) << *refused;
    c.send("isready");
    EXPECT_EQ(c.line(), "readyok");
  }
  // (A server that takes it serves until `timeout` ends it.)
  const testing::CommandResult r = testing::runCommand(
      "ulimit -d " + std::to_string(limitMiB * 1024) + " && exec timeout 20 " + testing::engineBinary() +
      " --listen 127.0.0.1:0 --hash-budget " + std::to_string(limitMiB + 1) + " 2>&1");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("--hash-budget " + std::to_string(limitMiB + 1) + " MiB is more than this process may hold"),
            std::string::npos)
      << r.output;
}

// The cap on unread output ("8 MiB") holds for what the output costs: the
// queue counts what its lines cost the heap (not only their characters),
// output made on the connection's strand is queued at once (not left
// waiting as a posted handler the cap does not see), and a large queue's
// memory is given back to the system when it is freed. Without these,
// eight clients flooding `d` and never reading grew the server by 264 MiB,
// and 259 MiB stayed after they were dropped.
TEST(TcpServer, ClientsThatFloodAndNeverReadCostOnlyTheCap) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers' allocators keep freed memory: resident size says nothing here";
#endif
  EngineServer server;
  ASSERT_NE(server.port(), 0);
  const pid_t pid = server.process().pid();
  const long before = testing::residentKiB(pid);
  constexpr int kClients = 8;
  std::vector<int> fds;
  for (int i = 0; i < kClients; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const int small = 4096;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(server.port());
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
    fds.push_back(fd);
  }
  std::string flood;
  for (int i = 0; i < 2000; ++i) flood += "d\n";
  long peak = before;
  int dropped = 0;
  std::vector<bool> open(kClients, true);
  const auto deadline = testing::Clock::now() + std::chrono::seconds(120);
  while (dropped < kClients && testing::Clock::now() < deadline) {
    for (int i = 0; i < kClients; ++i) {
      if (!open[i]) continue;
      if (::send(fds[i], flood.data(), flood.size(), MSG_NOSIGNAL) < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
        open[i] = false;  // the server dropped it
        ++dropped;
      }
    }
    peak = std::max(peak, testing::residentKiB(pid));
    std::this_thread::sleep_for(Ms(5));
  }
  for (int fd : fds) ::close(fd);
  EXPECT_EQ(dropped, kClients) << "the server never dropped the clients that do not read";
  // What a client held is about the cap (8 MiB), not two or three times it.
  EXPECT_LT(peak - before, kClients * 12 * 1024) << "peak " << peak << " KiB from " << before << " KiB";
  // And it is given back once they are gone.
  long after = testing::residentKiB(pid);
  for (int i = 0; i < 100 && after - before > 24 * 1024; ++i) {
    std::this_thread::sleep_for(Ms(100));
    after = testing::residentKiB(pid);
  }
  EXPECT_LT(after - before, 24 * 1024) << "after " << after << " KiB from " << before << " KiB";
  // And it still serves.
  TcpClient c(server.port());
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
}

// Bad token sources stop the start with a usage error naming the problem.
TEST(TcpServer, BadTokenSourcesAreRefusedAtStart) {
  testing::ScratchDir dir;
  std::ofstream(dir.file("two words")) << "two words\n";
  std::ofstream(dir.file("empty")) << "\n";
  std::ofstream(dir.file("long")) << std::string(300, 'k');
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--token-file", dir.file("missing")}, "No such file"},
      {{"--token-file", dir.path()}, "not a regular file"},
      {{"--token-file", dir.file("two words")}, "one word"},
      {{"--token-file", dir.file("empty")}, "empty"},
      {{"--token-file", dir.file("long")}, "longer than a token"},
      {{"--token", "a\x1b[2Jb"}, "one word"},
      {{"--token", "t", "--token-file", dir.file("empty")}, "choose one"},
  };
  for (const auto& [extra, why] : cases) {
    std::vector<std::string> args{"--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    testing::EngineProcess e(args);
    auto line = e.err().readUntil("gobblet: ", Ms(10000));
    ASSERT_TRUE(line) << extra[1];
    EXPECT_NE(line->find(why), std::string::npos) << *line;
    ASSERT_TRUE(e.waitExit(Ms(10000))) << extra[1];
    EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) == 2) << extra[1];
  }
}

// With a token, silent clients that never authenticate wait outside the
// session slots (and the oldest waiting is dropped when too many wait):
// they cannot lock out a client that has the token (before, 8 silent
// sockets filled --max-sessions 8).
TEST(TcpServer, SilentClientsDoNotLockOutTheTokenHolder) {
  EngineServer server({"--token", "s3cret", "--max-sessions", "2"});
  std::vector<std::unique_ptr<TcpClient>> silent;
  for (int i = 0; i < 40; ++i) {
    silent.push_back(std::make_unique<TcpClient>(server.port()));
    silent.back()->send("");  // a blank line: no attempt, no extension
  }
  TcpClient c(server.port());
  testing::expectTokenHolderServedBesideSilentClients(c, "s3cret", silent);
}

TEST(TcpServer, SessionLimit) {
  EngineServer server({"--max-sessions", "2"});
  auto a = std::make_unique<TcpClient>(server.port());
  TcpClient b(server.port());
  a->send("isready");
  b.send("isready");
  ASSERT_EQ(a->line(), "readyok");
  ASSERT_EQ(b.line(), "readyok");
  TcpClient c(server.port());
  auto l = c.line();
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("server full"), std::string::npos) << *l;
  EXPECT_TRUE(c.closedByPeer(Ms(5000)));
  a.reset();  // frees a slot once the server has seen the close
  bool admitted = false;
  for (int attempt = 0; attempt < 50 && !admitted; ++attempt) {
    TcpClient d(server.port());
    d.send("isready");
    admitted = d.line() == std::optional<std::string>("readyok");
    if (!admitted) std::this_thread::sleep_for(Ms(20));
  }
  EXPECT_TRUE(admitted);
}

// A client that arrives while every slot belongs to a client that has just
// hung up is served once the server has seen the hang-up, not told "server
// full": it waits up to kSlotWait for a slot. Before, it was refused at once
// (TcpStress.HangUpStormOf1000Clients failed so under load).
TEST(TcpServer, ANewClientWaitsForTheSlotOfOneThatLeaves) {
  EngineServer server({"--max-sessions", "1"});
  auto a = std::make_unique<TcpClient>(server.port());
  a->send("isready");
  ASSERT_EQ(a->line(), "readyok");
  TcpClient b(server.port());  // finds the slot taken: waits
  b.send("isready");
  std::this_thread::sleep_for(Ms(200));
  a.reset();  // frees the slot once the server has seen the close
  EXPECT_EQ(b.line(Ms(5000)), std::optional<std::string>("readyok"));
}

TEST(TcpServer, PerSessionLimits) {
  EngineServer server({"--max-hash", "8", "--max-threads", "2"});
  TcpClient c(server.port());
  c.send("uci");
  std::vector<std::string> seen;
  ASSERT_TRUE(c.until("uciok", Ms(5000), &seen));
  bool hashLine = false, tbLine = false;
  for (const auto& l : seen) {
    hashLine |= l == "option name Hash type spin default 8 min 1 max 8";
    tbLine |= l.find("TablebasePath") != std::string::npos || l.find("EvalFile") != std::string::npos ||
              l.find("ProofDatabase") != std::string::npos;
  }
  EXPECT_TRUE(hashLine);
  EXPECT_FALSE(tbLine) << "clients must not open files on the server";
  for (const char* bad : {"setoption name Hash value 9", "setoption name Threads value 3",
                          "setoption name TablebasePath value /etc/passwd", "setoption name EvalFile value /etc/passwd",
                          "setoption name ProofDatabase value /tmp/gobblet-client.pdb", "bench", "perft 9"}) {
    c.send(bad);
    auto l = c.line();
    ASSERT_TRUE(l);
    EXPECT_EQ(l->rfind("info string error: ", 0), 0u) << bad << " -> " << *l;
  }
  c.send("setoption name Hash value 8");
  c.send("setoption name Threads value 2");
  c.send("isready");
  EXPECT_EQ(c.line(), "readyok");
}

TEST(TcpServer, GarbageAndLongLines) {
  EngineServer server;
  TcpClient c(server.port());
  c.sendRaw(std::string("\x00\xff\xfe garbage\r\n", 13));
  auto l = c.line();
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rfind("info string error: ", 0), 0u);
  c.sendRaw(std::string(200 * 1024, 'z'));
  c.sendRaw("\nisready\n");
  l = c.line();
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("line longer than"), std::string::npos) << *l;
  EXPECT_EQ(c.line(), "readyok");
}

TEST(TcpServer, DisconnectMidSearchStopsItAndFreesItsMemory) {
  testing::releaseFreedMemoryAtOnceUnderAsan();
  EngineServer server({"--max-hash", "256"});
  testing::expectDisconnectMidSearchFreesItsMemory<TcpClient>(server.process().pid(), server.port());
}

TEST(TcpServer, IdleClientsAreClosedSearchingOnesAreNot) {
  EngineServer server({"--idle-timeout", "1"});
  TcpClient idle(server.port()), busy(server.port());
  busy.send("go infinite");
  ASSERT_TRUE(busy.until("info depth"));
  auto l = idle.line(Ms(5000));
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("idle timeout"), std::string::npos) << *l;
  EXPECT_TRUE(idle.closedByPeer(Ms(3000)));
  std::this_thread::sleep_for(Ms(1200));
  busy.send("stop");
  EXPECT_TRUE(busy.until("bestmove", Ms(5000))) << "a client waiting for its bestmove is not idle";
}

// The threads of every process of user `uid`, from /proc: what
// RLIMIT_NPROC counts for that user.
int tasksOfUser(uid_t uid) {
  int tasks = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream status(entry.path() / "status");
    int threads = 0;
    bool mine = false;
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Uid:", 0) == 0) mine = std::atoi(line.c_str() + 4) == static_cast<int>(uid);
      if (line.rfind("Threads:", 0) == 0) threads = std::atoi(line.c_str() + 8);
    }
    if (mine) tasks += threads;
  }
  return tasks;
}

// A low task limit (`ulimit -u`, as systemd's TasksMax or a container's
// pids limit would set): the sessions the system gives no search thread
// get an error and bestmove (none); the others search on, and SIGTERM
// still ends the server cleanly. (Before, the first refused thread aborted
// the server, dropping every client.) A task limit binds users other than
// root only: the server runs as nobody, so the test needs root.
// The task limit the next server started as nobody runs under (0: none).
rlim_t nobodyTaskLimit = 0;

constexpr uid_t kNobody = 65534;

void becomeNobody() {
  if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) ::_exit(126);
  const rlimit limit{nobodyTaskLimit, nobodyTaskLimit};
  if (nobodyTaskLimit && ::setrlimit(RLIMIT_NPROC, &limit) != 0) ::_exit(126);
}

TEST(TcpServer, ALowTaskLimitCostsOnlyTheSessionsWithoutAThread) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run the server as nobody (a task limit does not bind root)";
  const std::vector<std::string> options{"--io-threads", "2", "--max-sessions", "40", "--max-hash", "1"};
  int idle = 0;  // the tasks of user nobody with an idle server running (other processes of nobody count too)
  {
    nobodyTaskLimit = 0;
    EngineServer unlimited(options, becomeNobody);
    if (unlimited.port() == 0 && unlimited.process().waitExit(Ms(5000)) &&
        WIFEXITED(unlimited.process().exitStatus()) && WEXITSTATUS(unlimited.process().exitStatus()) >= 126)
      GTEST_SKIP() << "this machine cannot run the server as nobody (exit status "
                   << WEXITSTATUS(unlimited.process().exitStatus()) << ": no uid 65534, or the build not readable)";
    ASSERT_NE(unlimited.port(), 0) << "the server did not start as nobody";
    std::this_thread::sleep_for(Ms(300));  // every I/O thread started
    idle = tasksOfUser(kNobody);
    ASSERT_GT(idle, 0);
  }
  // Room for a few more threads than the idle server has: one per search.
  constexpr int kRoom = 4;
  nobodyTaskLimit = static_cast<rlim_t>(idle + kRoom);
  EngineServer server(options, becomeNobody);
  ASSERT_NE(server.port(), 0) << "the server did not start under a task limit of " << idle + kRoom;
  const pid_t pid = server.process().pid();
  std::this_thread::sleep_for(Ms(300));

  constexpr int kClients = 3 * kRoom;
  std::vector<std::unique_ptr<TcpClient>> clients;
  int searching = 0, refused = 0;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<TcpClient>(server.port()));
    TcpClient& c = *clients.back();
    ASSERT_TRUE(c.connected());
    c.send("position startpos");
    c.send("go infinite");
    std::vector<std::string> seen;  // up to its first info depth, or its bestmove
    while (auto line = c.line(Ms(10000 * kSanitizerSlowdown))) {
      seen.push_back(*line);
      if (line->rfind("info depth", 0) == 0 || line->rfind("bestmove", 0) == 0) break;
    }
    if (!seen.empty() && seen.back().rfind("info depth", 0) == 0) {
      ++searching;
      continue;
    }
    const bool error = std::any_of(seen.begin(), seen.end(), [](const std::string& l) {
      return l.rfind("info string error: go: the system refused a thread", 0) == 0;
    });
    EXPECT_TRUE(error && !seen.empty() && seen.back() == "bestmove (none)")
        << "client " << i << ": " << (seen.empty() ? "(nothing)" : seen.back());
    ++refused;
  }
  EXPECT_GE(searching, 1);
  EXPECT_GE(refused, 1) << "the limit refused no thread: the test proves nothing";
  EXPECT_EQ(searching + refused, kClients);
  for (auto& c : clients) {
    c->send("stop");
    c->send("isready");
    EXPECT_TRUE(c->until("readyok", Ms(10000 * kSanitizerSlowdown))) << "every session still answers";
  }
  ::kill(pid, SIGTERM);
  ASSERT_TRUE(server.process().waitExit(Ms(10000 * kSanitizerSlowdown)));
  EXPECT_TRUE(WIFEXITED(server.process().exitStatus()) && WEXITSTATUS(server.process().exitStatus()) == 0)
      << "status " << server.process().exitStatus();
}

TEST(TcpServer, SigtermStopsSearchesAndExitsCleanly) {
  EngineServer server;
  TcpClient c(server.port());
  c.send("go infinite");
  ASSERT_TRUE(c.until("info depth"));
  ::kill(server.process().pid(), SIGTERM);
  EXPECT_TRUE(c.until("bestmove", Ms(5000))) << "a search ended by shutdown still answers";
  EXPECT_TRUE(c.closedByPeer(Ms(5000)));
  ASSERT_TRUE(server.process().waitExit(Ms(5000)));
  EXPECT_TRUE(WIFEXITED(server.process().exitStatus()) && WEXITSTATUS(server.process().exitStatus()) == 0);
}

// Clients that hang up while their search is still writing `info` lines:
// the server's next write to such a socket fails. It must then close that
// socket rather than queue more output on it (a write queued after a failed
// one could wait forever, keeping the connection, its session slot and the
// I/O threads alive), so SIGTERM still ends the server promptly.
TEST(TcpServer, SigtermAfterClientsHungUpMidOutputEndsTheServer) {
  EngineServer server({"--max-hash", "4"});
  for (int round = 0; round < 3; ++round) {
    std::vector<std::unique_ptr<TcpClient>> clients;
    for (int i = 0; i < 10; ++i) clients.push_back(std::make_unique<TcpClient>(server.port()));
    for (auto& c : clients) c->send("setoption name Hash value 1\ngo infinite");
    for (auto& c : clients) ASSERT_TRUE(c->until("info depth"));
    clients.clear();  // orderly closes, unread output pending
  }
  std::this_thread::sleep_for(Ms(300));
  TcpClient after(server.port());
  after.send("isready");
  EXPECT_EQ(after.line(), "readyok");
  ::kill(server.process().pid(), SIGTERM);
  EXPECT_TRUE(after.closedByPeer(Ms(5000)));
  ASSERT_TRUE(server.process().waitExit(Ms(2000))) << "the server did not end after SIGTERM";
  EXPECT_TRUE(WIFEXITED(server.process().exitStatus()) && WEXITSTATUS(server.process().exitStatus()) == 0);
}

TEST(TcpServer, BadCommandLine) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--listen", "127.0.0.1:99999"},
                                             {"--listen", "nohost:"},
                                             {"--listen", "1.2.3.4.5:80"},
                                             {"--max-sessions", "0", "--listen", "0"},
                                             {"--frobnicate"},
                                             {"--max-hash", "8"}}) {
    testing::EngineProcess e(args);
    ASSERT_TRUE(e.waitExit(Ms(5000)));
    EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) != 0) << args[0];
    auto l = e.err().readLine(Ms(1000));
    ASSERT_TRUE(l);
    EXPECT_EQ(l->rfind("gobblet: ", 0), 0u) << *l;
  }
}

// A controller that knows only UGI plays whole games over TCP: one
// connection per player, `position ... moves`, `go`, and the queries to
// learn when the game is over and who won. Checked against the rules core.
TEST(TcpServer, UgiOnlyControllerPlaysFullGames) {
  EngineServer server;
  for (const std::string variant : {"gobblers", "gobblet"}) {
    TcpClient players[2] = {TcpClient(server.port()), TcpClient(server.port())};
    for (TcpClient& p : players) {
      p.send("ugi");
      ASSERT_TRUE(p.until("ugiok"));
      p.send("setoption name Variant value " + variant);
      p.send("uginewgame");
      p.send("isready");
      ASSERT_EQ(p.line(), "readyok");
    }
    Game game{Board(*Variant::parse(variant))};
    std::string moves;
    std::string over = "response false";
    int plies = 0;
    for (; plies < 300; ++plies) {
      TcpClient& p = players[plies % 2];
      p.send("position startpos" + (moves.empty() ? std::string() : " moves" + moves));
      p.send("query gameover");
      over = p.line().value_or("?");
      if (over != "response false") break;
      p.send("go depth 3");
      auto best = p.until("bestmove");
      ASSERT_TRUE(best);
      const std::string move = best->substr(9, best->find(' ', 9) - 9);
      ASSERT_TRUE(game.play(move).ok()) << *best;
      moves += " " + move;
    }
    EXPECT_EQ(over, "response true") << variant << ": no end after " << plies << " plies";
    TcpClient& last = players[plies % 2];  // the one that was given the final position
    last.send("query result");
    const GameResult r = game.result();
    EXPECT_EQ(last.line(), std::string("response ") + resultWord(r));
    std::printf("%s over TCP: %d plies, result %s\n", variant.c_str(), plies, resultWord(r));
  }
}

// A client that asks and never reads: once its unread output passes the
// cap the server drops it instead of buffering without end; others go on.
TEST(TcpServer, ClientThatDoesNotReadIsDropped) {
  EngineServer server;
  TcpClient hog(server.port());
  // Each `d` answers ~1 KB; 40000 of them far exceed the 8 MiB cap plus the socket buffers.
  std::string burst;
  for (int i = 0; i < 1000; ++i) burst += "d\n";
  bool sendFailed = false;
  for (int i = 0; i < 40 && !sendFailed; ++i) sendFailed = !hog.sendRaw(burst);
  std::this_thread::sleep_for(Ms(300));
  EXPECT_TRUE(hog.closedByPeer(Ms(10000 * kSanitizerSlowdown))) << "the server kept a non-reading client";
  TcpClient other(server.port());
  other.send("isready");
  EXPECT_EQ(other.line(), "readyok");
}

// The default tablebase of a variant is found through $GOBBLET_TB_DIR and
// mapped once per server process, however many sessions use it.
TEST(TcpServer, TablebaseIsMappedOnceAndShared) {
  const std::string tbTool = gobblet::testing::binDir() + "/gobblet-tb";
  if (::access(tbTool.c_str(), X_OK) != 0) GTEST_SKIP() << "gobblet-tb not built";
  char dir[] = "/tmp/gobblet_tcp_tb_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  ::setenv("GOBBLET_TB_DIR", dir, 1);
  const std::string file = tb::defaultPath(Variant::ticTacToe());
  ASSERT_EQ(std::system((tbTool + " build tictactoe --out " + file + " > /dev/null 2>&1").c_str()), 0);
  EngineServer server;
  ::unsetenv("GOBBLET_TB_DIR");
  std::vector<std::unique_ptr<TcpClient>> clients;
  for (int i = 0; i < 4; ++i) {
    clients.push_back(std::make_unique<TcpClient>(server.port()));
    clients.back()->send("setoption name Variant value tictactoe");
    clients.back()->send("isready");
    EXPECT_EQ(clients.back()->line(), "info string tablebase '" + file + "' loaded for 3x3:1,5,0");
    EXPECT_EQ(clients.back()->line(), "readyok");
  }
  for (auto& c : clients) {
    c->send("position startpos moves S@a1 S@a2 S@b2");
    c->send("go depth 1");
    auto info = c->until("info depth 1");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->find(" tbhits 0 "), std::string::npos) << *info;
    EXPECT_TRUE(c->until("bestmove"));
  }
  std::ifstream maps("/proc/" + std::to_string(server.process().pid()) + "/maps");
  int mappings = 0;
  for (std::string line; std::getline(maps, line);) mappings += line.find(file) != std::string::npos;
  EXPECT_EQ(mappings, 1);
  std::remove(file.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace gobblet
