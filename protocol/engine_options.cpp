#include "protocol/engine_options.h"

#include <algorithm>
#include <charconv>

#include "absl/strings/ascii.h"
#include "protocol/command.h"

namespace gobblet {

namespace {

absl::Status badValue(const std::string& name, const std::string& value, const std::string& why) {
  return absl::InvalidArgumentError("option " + name + ": bad value " + quoteWord(value) + " (" + why + ")");
}

// Parses a whole decimal integer in [lo, hi].
bool parseSpin(const std::string& text, int64_t lo, int64_t hi, int64_t& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty() && out >= lo && out <= hi;
}

}  // namespace

std::vector<std::string> optionDescriptions(const OptionLimits& limits) {
  const EngineOptions d;
  std::vector<std::string> lines = {
      "option name Hash type spin default " + std::to_string(std::min(d.hashMiB, limits.maxHashMiB)) +
          " min 1 max " + std::to_string(limits.maxHashMiB),
      "option name Threads type spin default 1 min 1 max " + std::to_string(limits.maxThreads),
      "option name Variant type string default gobblet",
      "option name MultiPV type spin default 1 min 1 max " + std::to_string(kMaxMultiPv),
      "option name MoveOverhead type spin default " + std::to_string(d.moveOverheadMs) + " min 0 max " +
          std::to_string(kMaxMoveOverheadMs),
      "option name Ponder type check default false",
  };
  if (limits.tablebasePathSettable) lines.insert(lines.begin() + 3, "option name TablebasePath type string default <empty>");
  return lines;
}

absl::Status setOption(EngineOptions& options, const OptionLimits& limits, const std::string& name,
                       const std::string& value, bool hasValue, OptionId* changed) {
  const std::string key = absl::AsciiStrToLower(name);
  int64_t n = 0;
  OptionId id;
  const bool known = key == "hash" || key == "threads" || key == "variant" || key == "multipv" ||
                     key == "moveoverhead" || key == "ponder";
  if (known && !hasValue) return absl::InvalidArgumentError("option " + name + " needs 'value <x>'");
  if (key == "hash") {
    if (!parseSpin(value, 1, limits.maxHashMiB, n))
      return badValue("Hash", value, "MiB, 1.." + std::to_string(limits.maxHashMiB));
    options.hashMiB = static_cast<int>(n);
    id = OptionId::kHash;
  } else if (key == "threads") {
    if (!parseSpin(value, 1, limits.maxThreads, n))
      return badValue("Threads", value, "1.." + std::to_string(limits.maxThreads));
    options.threads = static_cast<int>(n);
    id = OptionId::kThreads;
  } else if (key == "variant") {
    auto variant = Variant::parse(value);
    if (!variant.ok()) return badValue("Variant", value, std::string(variant.status().message()));
    options.variant = *variant;
    id = OptionId::kVariant;
  } else if (key == "tablebasepath") {
    if (!limits.tablebasePathSettable)
      return absl::InvalidArgumentError("option TablebasePath cannot be set here (the server chooses the files)");
    options.tablebasePath = value == "<empty>" ? "" : value;
    id = OptionId::kTablebasePath;
  } else if (key == "multipv") {
    if (!parseSpin(value, 1, kMaxMultiPv, n)) return badValue("MultiPV", value, "1.." + std::to_string(kMaxMultiPv));
    options.multiPv = static_cast<int>(n);
    id = OptionId::kMultiPv;
  } else if (key == "moveoverhead") {
    if (!parseSpin(value, 0, kMaxMoveOverheadMs, n))
      return badValue("MoveOverhead", value, "ms, 0.." + std::to_string(kMaxMoveOverheadMs));
    options.moveOverheadMs = n;
    id = OptionId::kMoveOverhead;
  } else if (key == "ponder") {
    const std::string v = absl::AsciiStrToLower(value);
    if (v != "true" && v != "false") return badValue("Ponder", value, "true or false");
    options.ponder = v == "true";
    id = OptionId::kPonder;
  } else {
    return absl::InvalidArgumentError("unknown option " + quoteWord(name));
  }
  if (changed) *changed = id;
  return absl::OkStatus();
}

}  // namespace gobblet
