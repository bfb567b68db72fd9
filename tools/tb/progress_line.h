// ProgressLine: how gobblet-tb shows the progress of a long phase on
// standard error. On a terminal, one line rewritten in place (carriage
// return) twice a second; anywhere else (a log file, a pipe, CI) a new line
// every kLogIntervalSeconds and one at the end of each phase, so that a log
// holds a few lines, not thousands of carriage-return updates.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gobblet {

class ProgressLine {
 public:
  static constexpr double kTerminalIntervalSeconds = 0.5;
  static constexpr double kLogIntervalSeconds = 5.0;

  // Shows progress to `out` (a terminal or not, as isatty says).
  explicit ProgressLine(FILE* out = stderr);
  // Reports `done` of `total` units of `phase`; called as often as the
  // caller likes, it prints only at the intervals above (and always on a
  // new phase).
  void operator()(const std::string& phase, uint64_t done, uint64_t total);
  // Ends the current phase: prints its last state (on a terminal, over the
  // line, then a newline).
  void end();

 private:
  void print(bool final);

  FILE* out_;
  bool terminal_;
  std::string phase_;
  uint64_t done_ = 0, total_ = 0;
  std::chrono::steady_clock::time_point start_, lastPrint_;
};

}  // namespace gobblet
