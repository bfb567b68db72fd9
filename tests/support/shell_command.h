// runCommand: runs a shell command, as a user would type it, and collects
// what it writes to standard output. The command's own redirections say
// what else is collected (append " 2>&1" for standard error too).
#pragma once

#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <string>

namespace gobblet::testing {

struct CommandResult {
  int exitCode = -1;   // the exit status; -1 if it could not run or did not exit normally
  std::string output;  // its standard output
};

inline CommandResult runCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) result.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace gobblet::testing
