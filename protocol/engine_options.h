// EngineOptions: the settings a controller can change with `setoption`.
//
// One struct holds the current values; OptionLimits holds the bounds the
// transport imposes (a TCP server caps Hash and Threads per session so that
// one client cannot take the machine). setOption() validates a name/value
// pair and applies it only if it is valid: on error nothing changes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/variant.h"

namespace gobblet {

struct OptionLimits {
  int maxHashMiB = 32768;
  int maxThreads = 256;
  bool tablebasePathSettable = true;  // false over TCP: the server picks the files
};

struct EngineOptions {
  int hashMiB = 16;
  int threads = 1;
  Variant variant = Variant::gobblet();
  std::string tablebasePath;  // empty: Tablebase::defaultPath(variant) if that file exists
  int multiPv = 1;
  int64_t moveOverheadMs = 30;
  bool ponder = false;  // only announced for GUIs; pondering works without it
};

inline constexpr int kMaxMultiPv = 256;
inline constexpr int64_t kMaxMoveOverheadMs = 10000;

// Which option a setOption() call changed, so that the session can act on it.
enum class OptionId { kHash, kThreads, kVariant, kTablebasePath, kMultiPv, kMoveOverhead, kPonder };

// The `option name ... type ...` lines of the handshake, one per option.
std::vector<std::string> optionDescriptions(const OptionLimits& limits);

// Validates and applies one option (name case-insensitive, as in UCI). On an
// unknown name or a bad value returns InvalidArgument and leaves `options`
// unchanged. `changed` gets the option's id on success.
absl::Status setOption(EngineOptions& options, const OptionLimits& limits, const std::string& name,
                       const std::string& value, bool hasValue, OptionId* changed);

}  // namespace gobblet
