// Openings: the positions matches start from.
//
// An opening is a start position plus moves played from it before the
// engines take over ("book" moves; engines still receive them, so they see
// the whole history). Each opening is played twice, once with each engine
// as player 1.
//
// Opening file format, one opening per line ('#' starts a comment line,
// blank lines are skipped):
//   L@b2 a1b2 ...                  moves from the variant's start position
//   <position> [moves M1 M2 ...]   a position in notation.h's text (it
//                                  contains '/'), then optional moves
// Every move must be legal and no opening may end the game. The file is read
// one line at a time (file_lines.h), so its size does not matter; a line
// over kMaxInputLineBytes or an opening over kMaxGamePlies moves is an error
// (input_limits.h).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/move.h"
#include "engine/variant.h"
#include "match/file_lines.h"

namespace gobblet::match {

struct Opening {
  std::string label;  // "file:<line>" or "random-<k>" or "start"
  Board start;
  std::vector<Move> moves;
};

// Parses one opening line (see above). `label` names it in errors.
absl::StatusOr<Opening> parseOpening(const Variant& variant, const std::string& line, const std::string& label);

// An opening file, read one opening at a time and from the top again after
// its last opening, so that a match of any length cycles through it in
// bounded memory.
class OpeningFile {
 public:
  // Opens `path` and reads it through once, checking every opening; an error
  // names the file and the line. NotFound if it cannot be opened,
  // InvalidArgument if it holds no opening.
  static absl::StatusOr<std::unique_ptr<OpeningFile>> open(const Variant& variant, const std::string& path);

  int64_t size() const { return size_; }  // openings in the file

  // The file's next opening, its first after its last. Fails if the file
  // changed since open() and no longer reads (or cannot be read again).
  absl::StatusOr<Opening> next();

  // Back to the first line; false if the file cannot be read again.
  bool rewind();

 private:
  OpeningFile(const Variant& variant, const std::string& path);
  // The opening of the next opening line, or nothing at the end of the file.
  absl::StatusOr<std::optional<Opening>> readOpening();

  Variant variant_;
  std::string path_;
  std::ifstream in_;
  std::optional<FileLines> lines_;
  int64_t size_ = 0;
};

// `plies` uniformly random legal moves from the start position, drawn again
// (up to 1000 times) if the game ends within them. Deterministic for a given
// generator state. Fails if no such sequence was found (tiny variants).
absl::StatusOr<Opening> randomOpening(const Variant& variant, int plies, std::mt19937_64& rng,
                                      const std::string& label);

}  // namespace gobblet::match
