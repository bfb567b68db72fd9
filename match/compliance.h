// Compliance: checks that an engine speaks UGI (or UCI) as the spec
// (kz04px/ugi) and the managers that follow it (cutegames) expect, step by
// step, judging every answer with the rules core.
//
// The steps, in order (each one PASS, FAIL or SKIP):
//   handshake                 ugi -> ugiok within the timeout
//   id name, id author        one non-empty line each before ugiok
//   option lines              "option name N type T ..." well formed: known
//                             type, default/min/max/var as the type needs
//   handshake lines           nothing but id and option lines from the first
//                             id line to ugiok (a startup banner before it
//                             is tolerated)
//   isready after options     (setoption name Variant ...) isready -> readyok
//   uginewgame + isready
//   position startpos + isready, position fen + isready,
//   position fen moves + isready   (UGI: query p1turn must then be right)
//   go <limits>               clocks with and without increments, in both
//                             orders and for either side to move, movetime,
//                             depth, nodes: exactly one bestmove of exactly
//                             two words, legal, within the limit; at least
//                             one "info ... score"; the last info before
//                             bestmove carries nodes, time and nps
//   go infinite + isready + stop   readyok while searching, bestmove after stop
//   cutegames' order of commands   a few plies on clocks exactly as cutegames
//                             sends them (queries right after position, no
//                             isready after uginewgame), answers checked
//   query: running game, won game, threefold repetition, no legal move
//                             gameover / p1turn / result against the referee
//                             (UGI only; skipped when the variant has no such
//                             position)
//   quit                      the process ends
//
// After a failed step the engine is restarted (new process, handshake and
// options) so that each later step is judged on its own; after a failed
// handshake the remaining steps are skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/variant.h"
#include "match/time_control.h"

namespace gobblet::match {

struct ComplianceSettings {
  std::string command;  // run by /bin/sh
  Variant variant = Variant::gobblet();
  Protocol protocol = Protocol::kUgi;
  int64_t timeoutMs = 10000;  // handshake, readyok, responses, depth/nodes searches, stop, quit
  int64_t marginMs = 100;     // allowed beyond a clock or move time
};

enum class StepOutcome { kPass, kFail, kSkip };

// One step's verdict. `exchange` holds the lines sent ("> ...") and received
// ("< ...") during the step, for a failure report.
struct StepReport {
  std::string name;
  StepOutcome outcome = StepOutcome::kPass;
  std::string why;                    // for kFail and kSkip
  std::vector<std::string> exchange;  // for kFail: the step's last lines sent (> ) and read (< )
  size_t earlierLines = 0;            // lines of the exchange before those
};

// The most an engine may write in one step of the check: beyond it the
// step fails with "too much output" (the checker's memory stays bounded).
inline constexpr size_t kMaxStepOutputBytes = size_t{16} << 20;

// Runs every step against a fresh engine process, calling `onStep` after
// each one; returns all reports.
std::vector<StepReport> runCompliance(const ComplianceSettings& settings,
                                      const std::function<void(const StepReport&)>& onStep);

// "PASS <name>", "SKIP <name>: <why>", or "FAIL <name>: <why>" followed by
// the step's exchange (its last lines when long), indented.
std::string formatStep(const StepReport& report);

}  // namespace gobblet::match
