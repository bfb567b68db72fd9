#include "match/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "match/engine_command.h"

extern char** environ;

namespace gobblet::match {

namespace {

constexpr size_t kMaxLineBytes = 1 << 20;

absl::Status errnoStatus(const char* what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

}  // namespace

EngineProcess::~EngineProcess() { stop(); }

absl::Status EngineProcess::start(const std::string& command) {
  if (running()) return absl::FailedPreconditionError("engine process already running");
  static std::once_flag ignoreSigpipe;
  std::call_once(ignoreSigpipe, [] { signal(SIGPIPE, SIG_IGN); });

  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return errnoStatus("pipe");
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return errnoStatus("pipe");
  }
  // posix_spawn, not fork: glibc spawns with vfork semantics (no copy of
  // this process's memory, no pthread_atfork handlers), which is cheaper and
  // is what an MPI rank may do (docs/match.md, "Engines under MPI"): a fork
  // copy-on-writes pages an RDMA network may have pinned, and Open MPI warns
  // about it (mpi_warn_on_fork). The child gets its own process group
  // (POSIX_SPAWN_SETPGROUP 0) and the pipes as stdin and stdout (dup2 clears
  // their close-on-exec flag; the originals close on exec).
  const std::string shellCommand = shellCommandFor(command);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  char* const argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>(shellCommand.c_str()),
                        nullptr};
  pid_t pid = -1;
  const int error = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    errno = error;
    return errnoStatus("posix_spawn");
  }
  close(in[0]);
  close(out[1]);
  // Our end of the child's stdin never blocks: writeLine() waits in poll()
  // with its deadline instead. (The child's end is a separate open file:
  // it stays blocking.)
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  pid_ = pid;
  toChild_ = in[1];
  fromChild_ = out[0];
  buffer_.clear();
  eof_ = false;
  reaped_ = false;
  waitStatus_ = 0;
  return absl::OkStatus();
}

absl::Status EngineProcess::writeLine(const std::string& line) {
  return writeLine(line, Clock::now() + kDefaultWriteTimeout);
}

absl::Status EngineProcess::writeLine(const std::string& line, Clock::time_point deadline) {
  if (toChild_ < 0) return absl::FailedPreconditionError("engine process not running");
  const std::string data = line + "\n";
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = write(toChild_, data.data() + written, data.size() - written);
    if (n > 0) {
      written += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      return absl::UnavailableError(absl::StrCat("cannot write to engine: ", std::strerror(errno)));
    // The pipe is full: wait for room until the deadline.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return absl::DeadlineExceededError("engine did not read its input in time");
    pollfd pfd{toChild_, POLLOUT, 0};
    const int ready = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
    if (ready < 0 && errno != EINTR) return errnoStatus("poll");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> EngineProcess::readLine(Clock::time_point deadline) {
  if (fromChild_ < 0) return absl::FailedPreconditionError("engine process not running");
  while (true) {
    if (const size_t newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (buffer_.size() > kMaxLineBytes) return absl::ResourceExhaustedError("engine sent a line over 1 MiB");
    if (eof_) return absl::UnavailableError("engine closed its output");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return absl::DeadlineExceededError("engine did not answer in time");
    pollfd pfd{fromChild_, POLLIN, 0};
    const int ready = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
    if (ready < 0 && errno != EINTR) return errnoStatus("poll");
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(fromChild_, chunk, sizeof chunk);
    if (n < 0 && errno != EINTR) return errnoStatus("read");
    if (n == 0) eof_ = true;
    if (n > 0) buffer_.append(chunk, static_cast<size_t>(n));
  }
}

void EngineProcess::stop(std::chrono::milliseconds grace) {
  if (toChild_ >= 0) close(toChild_), toChild_ = -1;
  if (pid_ > 0 && !reaped_) {
    // Wait for the child to exit by itself without reaping it (WNOWAIT): an
    // unreaped child keeps its process-group id reserved, so the group kill
    // below cannot hit an unrelated process.
    const Clock::time_point until = Clock::now() + grace;
    siginfo_t info;
    while (true) {
      info.si_pid = 0;
      if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != 0) break;
      if (Clock::now() >= until) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    kill(-pid_, SIGKILL);
    while (waitpid(pid_, &waitStatus_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
  }
  if (fromChild_ >= 0) close(fromChild_), fromChild_ = -1;
  pid_ = -1;
  buffer_.clear();
}

std::string EngineProcess::exitDescription() {
  if (pid_ > 0 && !reaped_) {
    siginfo_t info;
    info.si_pid = 0;
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
      return "running";
    if (info.si_code == CLD_EXITED) return absl::StrCat("exit code ", info.si_status);
    return absl::StrCat("killed by signal ", info.si_status);
  }
  if (!reaped_) return "not started";
  if (WIFEXITED(waitStatus_)) return absl::StrCat("exit code ", WEXITSTATUS(waitStatus_));
  if (WIFSIGNALED(waitStatus_)) return absl::StrCat("killed by signal ", WTERMSIG(waitStatus_));
  return "stopped";
}

}  // namespace gobblet::match
