// The tablebase library's one public header: exact values of the 3x3
// family, solved by retrograde analysis (docs/tablebase.md describes the
// method and the file format). The search, the protocol and the tools reach
// the tablebase through this header; the other files of this folder are the
// library's inside (numbering, building, file format, verifying).
//
// A Tablebase answers, for any position of its variant, win/draw/loss for
// the side to move and the distance in plies to the end of the game with
// optimal play (winner fastest, loser slowest).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/move.h"
#include "engine/variant.h"

namespace gobblet::tb {

enum class Value : uint8_t { kLoss, kDraw, kWin, kUnknown };

struct Probe {
  Value value = Value::kUnknown;  // for the side to move
  int distance = 0;               // plies to the end; 0 for a decided position and for draws
};

class Tablebase {
 public:
  virtual ~Tablebase() = default;
  virtual const Variant& variant() const = 0;
  // kUnknown if the board is not of this variant or not reachable.
  virtual Probe probe(const Board& board) const = 0;
};

// Opens and validates a tablebase file; a missing, wrong, truncated or
// corrupt file, or one that is not a regular file, gives an error that says
// what is wrong (never a hang: a FIFO is refused without blocking). The
// values are read into memory that the file cannot change afterwards.
// Every caller of a process shares one copy per path (the one cache of
// open files): a file stays loaded while anyone holds it, and a path that
// failed is tried again next time.
absl::StatusOr<std::shared_ptr<const Tablebase>> open(const std::string& path);

// Where the engine looks for a variant's file without configuration:
// $GOBBLET_TB_DIR, else $XDG_DATA_HOME/gobblet, else ~/.local/share/gobblet;
// the file name is derived from the variant name.
std::string defaultPath(const Variant& variant);

// "win in 13", "loss in 4", "draw" or "unknown".
std::string describe(const Probe& probe);

// A legal move with its exact value for the side that plays it.
struct RankedMove {
  Move move;
  Probe value;  // for the mover: the child's value seen from the other side, one ply longer
};

// Every legal move of `board` (rules core) with its value, best first: wins
// (shortest first), draws, unknowns, losses (longest first); moves of equal
// value keep the rules core's order. Empty if the game is over.
std::vector<RankedMove> rankMoves(const Tablebase& tablebase, const Board& board);

}  // namespace gobblet::tb
