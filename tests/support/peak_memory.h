// The process's peak resident memory, for tests that check what reading a
// forged file or taking a table costs: reset the peak, do it, read the peak.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace gobblet {

// The process's peak resident memory (VmHWM, bytes).
inline uint64_t peakResidentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  ADD_FAILURE() << "no VmHWM in /proc/self/status";
  return 0;
}

// Sets the peak back to what is resident now (Linux: /proc/self/clear_refs, "5").
inline void resetPeakResident() { std::ofstream("/proc/self/clear_refs") << "5"; }

}  // namespace gobblet
