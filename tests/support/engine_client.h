// Test helpers for the protocol tests: the real `gobblet` binary as a child
// process over pipes, and line-based TCP clients. Every read has a timeout,
// so a hung engine fails a test instead of blocking the suite.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <thread>
#include <fstream>
#include <cstdlib>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "tests/support/paths.h"

namespace gobblet::testing {

inline std::string engineBinary() { return gobblet::testing::binDir() + "/gobblet"; }

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::milliseconds;

// Reads lines from a file descriptor with a deadline.
class LineReader {
 public:
  explicit LineReader(int fd = -1) : fd_(fd) {}
  void reset(int fd) {
    fd_ = fd;
    buffer_.clear();
    eof_ = false;
  }
  // The next line (without '\n'), or nullopt on timeout or end of stream.
  std::optional<std::string> readLine(Ms timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      if (const size_t nl = buffer_.find('\n'); nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      if (eof_) return std::nullopt;
      const auto left = std::chrono::duration_cast<Ms>(deadline - Clock::now()).count();
      if (left <= 0) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      const int r = ::poll(&p, 1, static_cast<int>(left));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) continue;
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }
  // Reads until a line starting with `prefix`; collects every line read
  // (including that one) into `seen` if given. nullopt on timeout/EOF.
  std::optional<std::string> readUntil(const std::string& prefix, Ms timeout,
                                       std::vector<std::string>* seen = nullptr) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<Ms>(deadline - Clock::now());
      auto line = readLine(left.count() > 0 ? left : Ms(0));
      if (!line) return std::nullopt;
      if (seen) seen->push_back(*line);
      if (line->rfind(prefix, 0) == 0) return line;
    }
  }
  bool eof() const { return eof_; }

 private:
  int fd_;
  std::string buffer_;
  bool eof_ = false;
};

inline bool writeAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// The engine as a child process: its stdin, stdout and stderr are pipes.
// `inChild`, if given, runs in the child before the engine is executed
// (async-signal-safe calls only: setuid, setrlimit...).
class EngineProcess {
 public:
  explicit EngineProcess(std::vector<std::string> args = {}, void (*inChild)() = nullptr) {
    int in[2], out[2], err[2];
    if (::pipe(in) || ::pipe(out) || ::pipe(err)) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
      if (inChild) inChild();
      const std::string bin = engineBinary();
      std::vector<char*> argv{const_cast<char*>(bin.c_str())};
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(bin.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    stdin_ = in[1];
    out_.reset(out[0]);
    err_.reset(err[0]);
    stdoutFd_ = out[0];
    stderrFd_ = err[0];
  }
  ~EngineProcess() {
    closeStdin();
    if (pid_ > 0 && !exited_) {
      if (!waitExit(Ms(3000))) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
      }
    }
    if (stdoutFd_ >= 0) ::close(stdoutFd_);
    if (stderrFd_ >= 0) ::close(stderrFd_);
  }
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  bool send(const std::string& line) { return sendRaw(line + "\n"); }
  bool sendRaw(const std::string& bytes) { return stdin_ >= 0 && writeAll(stdin_, bytes); }
  void closeStdin() {
    if (stdin_ >= 0) ::close(stdin_);
    stdin_ = -1;
  }
  LineReader& out() { return out_; }
  LineReader& err() { return err_; }
  std::optional<std::string> line(Ms timeout = Ms(5000)) { return out_.readLine(timeout); }
  std::optional<std::string> until(const std::string& prefix, Ms timeout = Ms(10000),
                                   std::vector<std::string>* seen = nullptr) {
    return out_.readUntil(prefix, timeout, seen);
  }
  // Waits for the process to end; true if it did, with its status in exitStatus().
  bool waitExit(Ms timeout) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      int status = 0;
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        status_ = status;
        return true;
      }
      ::usleep(2000);
    }
    return false;
  }
  int exitStatus() const { return status_; }

 private:
  pid_t pid_ = -1;
  int stdin_ = -1, stdoutFd_ = -1, stderrFd_ = -1;
  LineReader out_, err_;
  bool exited_ = false;
  int status_ = -1;
};

// A TCP client speaking lines to 127.0.0.1:port.
class TcpClient {
 public:
  explicit TcpClient(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
    int one = 1;
    if (fd_ >= 0) ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    reader_.reset(fd_);
  }
  ~TcpClient() { close(); }
  TcpClient(const TcpClient&) = delete;
  TcpClient& operator=(const TcpClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  bool send(const std::string& line) { return sendRaw(line + "\n"); }
  bool sendRaw(const std::string& bytes) {
    if (fd_ < 0) return false;
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }
  std::optional<std::string> line(Ms timeout = Ms(5000)) { return reader_.readLine(timeout); }
  std::optional<std::string> until(const std::string& prefix, Ms timeout = Ms(10000),
                                   std::vector<std::string>* seen = nullptr) {
    return reader_.readUntil(prefix, timeout, seen);
  }
  // True once the server has closed the connection (reads to EOF, up to timeout).
  bool closedByPeer(Ms timeout) {
    while (reader_.readLine(timeout)) {
    }
    return reader_.eof();
  }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Closes with a TCP reset instead of an orderly shutdown.
  void abort() {
    if (fd_ < 0) return;
    linger l{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close();
  }

 private:
  int fd_ = -1;
  LineReader reader_;
};

// Starts `gobblet --listen 127.0.0.1:0 extra...` and reads its port.
class EngineServer {
 public:
  explicit EngineServer(std::vector<std::string> extra = {}, void (*inChild)() = nullptr) {
    std::vector<std::string> args{"--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    process_ = std::make_unique<EngineProcess>(args, inChild);
    if (auto line = process_->err().readUntil("gobblet: listening on", Ms(10000))) {
      port_ = static_cast<uint16_t>(std::stoi(line->substr(line->rfind(':') + 1)));
    }
  }
  ~EngineServer() {
    if (process_ && process_->started()) ::kill(process_->pid(), SIGTERM);
  }
  uint16_t port() const { return port_; }
  EngineProcess& process() { return *process_; }

 private:
  std::unique_ptr<EngineProcess> process_;
  uint16_t port_ = 0;
};

// With a token and silent clients waiting unauthenticated (`silent`, in
// connection order, more than the server lets wait), a client that has the
// token is still authenticated and served, and the oldest silent client was
// told why it was dropped. The same check for every transport (TcpClient,
// the WebSocket tests' WsClient).
template <class Client>
void expectTokenHolderServedBesideSilentClients(Client& holder, const std::string& token,
                                                std::vector<std::unique_ptr<Client>>& silent) {
  holder.send("auth " + token);
  EXPECT_EQ(holder.line(), "info string authenticated");
  holder.send("isready");
  EXPECT_EQ(holder.line(), "readyok");
  // The dropped ones were told why.
  auto l = silent.front()->line(Ms(5000));
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("waiting to authenticate"), std::string::npos) << *l;
}

// Resident memory of a process in KiB (Linux), -1 if unknown.
inline long residentKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

// Under AddressSanitizer freed memory waits in a quarantine: a server started
// after this gives it back at once, so that its RSS shows what it freed.
inline void releaseFreedMemoryAtOnceUnderAsan() {
#if defined(__SANITIZE_ADDRESS__)
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string options = std::string(asan ? asan : "") + (asan && *asan ? ":" : "") + "quarantine_size_mb=0";
  ::setenv("ASAN_OPTIONS", options.c_str(), 1);
#endif
}

// A client of the server `pid` (started with --max-hash 256 or more) that
// searches with a 128 MiB table and resets its connection mid-search: the
// table was resident, the server frees it, and it goes on serving. The same
// check for every transport (TcpClient, the WebSocket tests' WsClient).
template <class Client>
void expectDisconnectMidSearchFreesItsMemory(pid_t pid, uint16_t port) {
  const long before = residentKiB(pid);
  {
    Client c(port);
    c.send("setoption name Hash value 128");
    c.send("go infinite");
    ASSERT_TRUE(c.until("info depth"));
    // The table's pages become resident as the search stores into them
    // (a fresh table is the kernel's zero pages): wait until most of it is,
    // else the check below could pass on a table never used.
    long during = residentKiB(pid);
    for (int i = 0; i < 500 && during <= before + 96 * 1024; ++i) {
      std::this_thread::sleep_for(Ms(20));
      during = residentKiB(pid);
    }
    std::printf("server RSS: %ld KiB idle, %ld KiB with a 128 MiB session searching\n", before, during);
    EXPECT_GT(during, before + 96 * 1024) << "the 128 MiB hash table is not resident during the search";
    c.abort();  // a reset, mid-search
  }
  long after = -1;
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(Ms(20));
    after = residentKiB(pid);
    if (after < before + 32 * 1024) break;
  }
  std::printf("server RSS %ld KiB after the disconnect\n", after);
  EXPECT_LT(after, before + 32 * 1024) << "the session's hash table was not freed";
  Client d(port);
  d.send("go depth 1");
  EXPECT_TRUE(d.until("bestmove"));
}

}  // namespace gobblet::testing
