// The largest inputs gobblet-match and gobblet-tune take from files (record
// lines, PGN, opening files). Files are read one line, one game or one
// opening at a time (file_lines.h, record_file_reader.h, openings.h), so
// the memory they take is bounded by these caps whatever the file's size;
// anything longer is an error naming the file and the line.
#pragma once

#include <cstddef>

namespace gobblet::match {

// One line of a record, PGN or opening file, without its newline. A record
// line of kMaxGamePlies moves takes about 600 KB.
inline constexpr size_t kMaxInputLineBytes = size_t{1} << 20;

// One PGN game: tags, movetext, comments, from its first tag to its result.
inline constexpr size_t kMaxPgnGameBytes = size_t{4} << 20;

// Moves of one recorded game or one opening; also the largest --max-plies.
inline constexpr int kMaxGamePlies = 100000;

}  // namespace gobblet::match
