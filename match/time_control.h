// TimeControl: how long an engine may think, and the clocks of a game.
//
// A time control is any combination of a clock ("base+inc" in seconds, e.g.
// "10+0.1"), a fixed time per move, a depth and a node limit; each present
// limit is passed to the engine's `go`. The referee enforces time: with a
// clock, a move taking longer than the time left plus the margin loses; with
// a fixed move time, one taking longer than that plus the margin; with only
// depth or nodes, one taking longer than the runner's response timeout.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace gobblet::match {

enum class Protocol { kUgi, kUci };

struct TimeControl {
  int64_t baseMs = -1;      // clock: starting time; -1 = no clock
  int64_t incMs = 0;        // clock: increment per move
  int64_t moveTimeMs = -1;  // fixed time per move; -1 = none
  int depth = 0;            // 0 = none
  uint64_t nodes = 0;       // 0 = none

  bool hasClock() const { return baseMs >= 0; }
  bool empty() const { return !hasClock() && moveTimeMs < 0 && depth == 0 && nodes == 0; }
  // "10+0.1", "movetime=0.2", "depth=6", "nodes=1000", joined by spaces.
  std::string describe() const;
};

// Parses "base+inc" or "base" in seconds (decimals allowed, >= 0, base > 0).
absl::StatusOr<TimeControl> parseClock(const std::string& text);
// Parses a non-negative number of seconds into milliseconds.
absl::StatusOr<int64_t> parseSeconds(const std::string& text);

// Time left on both players' clocks in a game (index 0: player 1). Only
// meaningful for players whose time control has a clock.
struct GameClocks {
  int64_t remainingMs[2] = {0, 0};
  int64_t incMs[2] = {0, 0};
};

// The `go` line for the player to move. `clocks` gives both sides' times when
// the mover's time control has a clock; the spelling depends on the protocol
// (p1time/p2time/p1inc/p2inc for UGI, wtime/btime/winc/binc for UCI).
std::string goCommand(const TimeControl& tc, const GameClocks& clocks, Protocol protocol);

// How long the mover may take before forfeiting, in ms: see the header note.
int64_t moveAllowanceMs(const TimeControl& tc, int64_t remainingMs, int64_t marginMs, int64_t timeoutMs);

}  // namespace gobblet::match
