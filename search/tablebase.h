// Tablebase: exact values of the 3x3 family, solved by retrograde analysis
// (see docs/tablebase.md for the method and the file format).
//
// A Tablebase is opened from a file (mapped read-only with mmap and shared
// by every session of a process) and answers, for any valid position of its
// variant, win/draw/loss for the side to move and the distance in plies to
// the end of the game with optimal play (winner fastest, loser slowest).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/variant.h"

namespace gobblet {

enum class TbValue : uint8_t { kLoss, kDraw, kWin, kUnknown };

struct TbProbe {
  TbValue value = TbValue::kUnknown;  // for the side to move
  int distance = 0;                   // plies to the end; 0 for a decided position and for draws
};

class Tablebase {
 public:
  virtual ~Tablebase() = default;

  // Opens and validates a tablebase file; a wrong, truncated or corrupt
  // file gives an error that says what is wrong.
  static absl::StatusOr<std::shared_ptr<const Tablebase>> open(const std::string& path);

  // Where the engine looks for a variant's file without configuration:
  // $GOBBLET_TB_DIR, else $XDG_DATA_HOME/gobblet, else ~/.local/share/gobblet;
  // the file name is derived from the variant name.
  static std::string defaultPath(const Variant& variant);

  virtual const Variant& variant() const = 0;
  // kUnknown if the board is not of this variant or not reachable.
  virtual TbProbe probe(const Board& board) const = 0;
};

}  // namespace gobblet
