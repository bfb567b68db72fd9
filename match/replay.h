// Replay: re-referee recorded games with the rules core.
//
// A record is consistent when every move is legal in turn, the game is not
// over before the last move, and the recorded ending is what the rules say:
//   line / no-moves / repetition  the final position ends the game that way,
//                                 with the recorded result;
//   max-plies                     the final position does not end the game by
//                                 rule, and the result is a draw;
//   illegal-move                  the game is running, the recorded rejected
//                                 move is indeed illegal, the mover lost;
//   time-forfeit                  the game is running and the mover lost;
//   crash / unresponsive          the game is running and someone lost (an
//                                 engine may fail when it is not to move);
//   none (PGN without a reason,   the game ended by rule (line, no moves or
//     e.g. cutegames' claims)     repetition) with the recorded result.
#pragma once

#include <iosfwd>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "match/game_record.h"

namespace gobblet::match {

// OK, or InvalidArgument saying the first inconsistency.
absl::Status verifyRecord(const GameRecord& record);

struct ReplaySummary {
  int games = 0;    // records read
  int invalid = 0;  // unreadable or inconsistent
};

// Reads a record file game by game (record_file_reader.h, bounded memory),
// verifies every game and reports each failure (and a summary) to `out`.
// NotFound if the file cannot be opened.
absl::StatusOr<ReplaySummary> replayFile(const std::string& path, std::ostream& out,
                                         const Variant& defaultVariant = Variant::gobblet());

}  // namespace gobblet::match
