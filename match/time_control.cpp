#include "match/time_control.h"

#include <cmath>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace gobblet::match {

namespace {

std::string seconds(int64_t ms) {
  std::string text = absl::StrCat(ms / 1000);
  if (ms % 1000 != 0) {
    std::string fraction = absl::StrCat(1000 + ms % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    absl::StrAppend(&text, ".", fraction);
  }
  return text;
}

}  // namespace

std::string TimeControl::describe() const {
  std::vector<std::string> parts;
  if (hasClock()) parts.push_back(absl::StrCat(seconds(baseMs), "+", seconds(incMs)));
  if (moveTimeMs >= 0) parts.push_back(absl::StrCat("movetime=", seconds(moveTimeMs)));
  if (depth > 0) parts.push_back(absl::StrCat("depth=", depth));
  if (nodes > 0) parts.push_back(absl::StrCat("nodes=", nodes));
  return parts.empty() ? "none" : absl::StrJoin(parts, " ");
}

absl::StatusOr<int64_t> parseSeconds(const std::string& text) {
  double value;
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value) || value < 0 || value > 1e7)
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a number of seconds"));
  return static_cast<int64_t>(std::llround(value * 1000));
}

absl::StatusOr<TimeControl> parseClock(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, '+');
  if (parts.size() > 2)
    return absl::InvalidArgumentError(absl::StrCat("time control '", text, "': expected base+inc in seconds"));
  TimeControl tc;
  auto base = parseSeconds(parts[0]);
  if (!base.ok() || *base <= 0)
    return absl::InvalidArgumentError(absl::StrCat("time control '", text, "': bad base time '", parts[0], "'"));
  tc.baseMs = *base;
  if (parts.size() == 2) {
    auto inc = parseSeconds(parts[1]);
    if (!inc.ok())
      return absl::InvalidArgumentError(absl::StrCat("time control '", text, "': bad increment '", parts[1], "'"));
    tc.incMs = *inc;
  }
  return tc;
}

std::string goCommand(const TimeControl& tc, const GameClocks& clocks, Protocol protocol) {
  std::string line = "go";
  if (tc.hasClock()) {
    const bool ugi = protocol == Protocol::kUgi;
    absl::StrAppend(&line, ugi ? " p1time " : " wtime ", clocks.remainingMs[0], ugi ? " p2time " : " btime ",
                    clocks.remainingMs[1], ugi ? " p1inc " : " winc ", clocks.incMs[0], ugi ? " p2inc " : " binc ",
                    clocks.incMs[1]);
  }
  if (tc.moveTimeMs >= 0) absl::StrAppend(&line, " movetime ", tc.moveTimeMs);
  if (tc.depth > 0) absl::StrAppend(&line, " depth ", tc.depth);
  if (tc.nodes > 0) absl::StrAppend(&line, " nodes ", tc.nodes);
  return line;
}

int64_t moveAllowanceMs(const TimeControl& tc, int64_t remainingMs, int64_t marginMs, int64_t timeoutMs) {
  if (tc.hasClock()) return remainingMs + marginMs;
  if (tc.moveTimeMs >= 0) return tc.moveTimeMs + marginMs;
  return timeoutMs;
}

}  // namespace gobblet::match
