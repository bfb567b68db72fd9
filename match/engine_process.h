// EngineProcess: a child process spoken to line by line over pipes.
//
// The command is run by /bin/sh ("exec <command>"), so it may carry
// arguments and redirections, and leading NAME=VALUE environment
// assignments for the engine alone (engine_command.h). The child gets its own process group, which is
// killed as a whole when the process is stopped, so that nothing an engine
// spawns outlives it. Every read takes a deadline: a child that hangs or
// never answers costs at most that long, never the runner. So does every
// write: the child's stdin is written without blocking, so a child that
// stops reading (a full pipe) costs at most the write's deadline.
//
// Layout: the child's stdin and stdout pipes plus a buffer of bytes read but
// not yet returned as lines. SIGPIPE is ignored process-wide the first time
// a process is started, so that writing to a dead child is an error status,
// not a signal.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace gobblet::match {

using Clock = std::chrono::steady_clock;

class EngineProcess {
 public:
  EngineProcess() = default;
  ~EngineProcess();  // stop()
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Starts `command`; fails if the process is already running or the pipes
  // or the process cannot be spawned. A command that does not exist still starts
  // (the shell reports it and exits 127): the first read sees end of file.
  absl::Status start(const std::string& command);

  bool running() const { return pid_ > 0; }

  // Writes one line (a newline is added), waiting no later than `deadline`
  // for the child to take it: DeadlineExceeded when its input stays full
  // (the child stopped reading; part of the line may have been written, so
  // the child should then be stopped); Unavailable if the child has gone.
  absl::Status writeLine(const std::string& line, Clock::time_point deadline);
  // The same with a deadline kDefaultWriteTimeout from now.
  absl::Status writeLine(const std::string& line);
  static constexpr std::chrono::milliseconds kDefaultWriteTimeout{5000};

  // Reads the next line (without its newline or carriage return), waiting no
  // later than `deadline`. DeadlineExceeded on timeout; Unavailable when the
  // child closed its output (exited or crashed); ResourceExhausted if a line
  // exceeds 1 MiB.
  absl::StatusOr<std::string> readLine(Clock::time_point deadline);

  // Closes the child's input, gives it `grace` to exit, then kills its
  // process group and reaps it. Safe to call when not running.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(200));

  // After the child has exited: "exit code N" or "killed by signal N";
  // "running" or "not started" otherwise. Polls without blocking.
  std::string exitDescription();

 private:
  pid_t pid_ = -1;
  int toChild_ = -1;    // write end of the child's stdin
  int fromChild_ = -1;  // read end of the child's stdout
  std::string buffer_;  // bytes read past the last returned line
  bool eof_ = false;
  int waitStatus_ = 0;
  bool reaped_ = false;
};

}  // namespace gobblet::match
