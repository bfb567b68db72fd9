// Training data: the positions of self-play games with the search's score
// and the game's result, in a binary file that gobblet-datagen writes and
// the trainer (tools/datagen/train.py) and the WDL fit read. The format is
// docs/datagen.md's; every number is little-endian.
//
//   header (96 bytes)
//     0  char[8]  magic "GOBDATA\0"
//     8  u32      format version (kTrainingDataVersion)
//    12  u32      header size (96)
//    16  u32      record size (32)
//    20  u32      0
//    24  char[24] variant name (Variant::name()), NUL-padded
//    48  u64      games finished: every position of games 0 .. N-1 is in the file
//    56  u64      seed              } the settings that made the file: a
//    64  u32      nodes per move    } resumed run must be given the same
//    68  u32      depth per move    } (0: no such limit)
//    72  u32      random plies      } of each game's opening
//    76  u32      ply limit         } a game that reaches it is a draw
//    80  u32      hash MiB          } of each game's search
//    84  u64      net               } the evaluation searched with: 0 the
//                                   } hand-written one, else the net's
//                                   } netFingerprint() (search/eval_file.h)
//    92  u8[4]    0
//
//   records (32 bytes each), game by game, in the order of the games
//     0  u16[2][4] pieces[player][size]: bit i = square i (docs/notation.md)
//    16  i16       score from the side to move's view: centi-units, or if
//                  flags & kDecided the plies to the end (> 0: it wins)
//    18  u8        side to move (0: player 1)
//    19  i8        the game's result for the side to move: 1, 0 or -1
//    20  u8        depth the search completed
//    21  u8        flags: kDecided, kQuiet
//    22  u16       ply: moves played before this position in its game
//    24  u32       game: 0-based number of the game in the file
//    28  u16       the search's best move (engine/move.h's raw())
//    30  u16       0
//
// Records of games >= "games finished" (a run stopped while writing) are
// not part of the file: the reader skips them and a resumed run cuts them.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/variant.h"

namespace gobblet::datagen {

inline constexpr char kTrainingDataMagic[8] = {'G', 'O', 'B', 'D', 'A', 'T', 'A', '\0'};
inline constexpr uint32_t kTrainingDataVersion = 1;
inline constexpr uint32_t kHeaderSize = 96;
inline constexpr uint32_t kRecordSize = 32;

// What made a file; a resumed run must match it.
struct DataSettings {
  Variant variant = Variant::gobblet();
  uint64_t seed = 1;
  uint32_t nodes = 0;        // per move (0: no limit)
  uint32_t depth = 0;        // per move (0: no limit)
  uint32_t randomPlies = 8;  // of each opening
  uint32_t plyLimit = 400;   // a game that reaches it is a draw
  uint32_t hashMiB = 4;
  uint64_t net = 0;  // the evaluation: 0 the hand-written one, else netFingerprint() of the net
  friend bool operator==(const DataSettings&, const DataSettings&) = default;
};

struct DataHeader {
  DataSettings settings;
  uint64_t gamesFinished = 0;
};

// One position (see the layout above).
struct PositionRecord {
  enum Flags : uint8_t {
    kDecided = 1,  // the score is a distance to a win or a loss
    kQuiet = 2,    // no threat against the side to move, no win in one (search/tactics.h)
  };
  std::array<std::array<uint16_t, 4>, 2> pieces{};
  int16_t score = 0;
  uint8_t sideToMove = 0;
  int8_t result = 0;
  uint8_t depth = 0;
  uint8_t flags = 0;
  uint16_t ply = 0;
  uint32_t game = 0;
  uint16_t bestMove = 0;
  friend bool operator==(const PositionRecord&, const PositionRecord&) = default;
};

// The pieces and side to move of `board` in a record (the rest left as it is).
void setPosition(PositionRecord& record, const Board& board);
// The position of a record in `variant`; InvalidArgument if it is not one
// (a piece off the board, counts the variant cannot have, a bad side).
absl::StatusOr<Board> positionOf(const PositionRecord& record, const Variant& variant);

std::array<uint8_t, kHeaderSize> encodeHeader(const DataHeader& header);
// Refuses, with the reason, what is not a header of this version.
absl::StatusOr<DataHeader> decodeHeader(const uint8_t* bytes, size_t size);
std::array<uint8_t, kRecordSize> encodeRecord(const PositionRecord& record);
PositionRecord decodeRecord(const uint8_t* bytes);

// A whole file read into memory: its header and the records of its
// finished games (records of later games are counted, not kept).
struct TrainingData {
  DataHeader header;
  std::vector<PositionRecord> records;
  uint64_t unfinishedRecords = 0;
};
// NotFound if it cannot be opened; InvalidArgument, naming the file and what
// is wrong, if it is not a training data file of this version, is cut inside
// a record, or a record of a finished game is not a position of its variant.
absl::StatusOr<TrainingData> readTrainingData(const std::string& path);

// What opening a file to go on does with a record the reader refuses.
enum class OnDamage {
  kRefuse,           // refuse the file (InvalidArgument), naming the record and the whole games before it
  kCutToWholeGames,  // keep the games wholly before that record, cut the rest, go on from there
};

// Appends the games of a run to a file, game by game, keeping the header's
// "games finished" true after each game (the file stays readable whenever
// the run stops). A writer holds the file's lock (flock) while it is open:
// one writer at a time, as two that append at once would break the game
// order of the file.
class TrainingDataWriter {
 public:
  // Creates `path` (or fills an empty file), or opens it to go on: then its
  // header must hold `settings` (else InvalidArgument naming the first
  // difference), and the records of unfinished games are cut off. A file
  // another writer holds is refused at once (FailedPrecondition).
  static absl::StatusOr<TrainingDataWriter> open(const std::string& path, const DataSettings& settings,
                                                 OnDamage onDamage = OnDamage::kRefuse);
  TrainingDataWriter(TrainingDataWriter&&) noexcept;
  TrainingDataWriter& operator=(TrainingDataWriter&&) noexcept;
  ~TrainingDataWriter();

  const DataSettings& settings() const { return header_.settings; }
  uint64_t gamesFinished() const { return gamesFinished_; }
  uint64_t records() const { return records_; }
  // The position keys (Board::key()) of the records already in the file,
  // when it was opened to go on.
  const std::vector<uint64_t>& existingKeys() const { return existingKeys_; }
  // With OnDamage::kCutToWholeGames, what was cut (the reader's refusal and
  // the games kept); empty if the file was whole.
  const std::string& repaired() const { return repaired_; }

  // Appends one game's records (game number gamesFinished()) and counts the
  // game as finished; an error (a full disk) leaves the header as it was.
  absl::Status appendGame(const std::vector<PositionRecord>& records);

 private:
  TrainingDataWriter() = default;
  std::FILE* file_ = nullptr;
  std::string path_;
  DataHeader header_;
  uint64_t gamesFinished_ = 0;
  uint64_t records_ = 0;
  std::vector<uint64_t> existingKeys_;
  std::string repaired_;
};

}  // namespace gobblet::datagen
