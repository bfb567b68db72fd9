// FileLines: a text file read one line at a time in bounded memory.
//
// The file is read 4 KiB at a time through a LineBuffer
// (engine/line_buffer.h), so whatever the file's size or the length of its
// lines, it holds at most one line of up to the cap plus the lines of one
// 4 KiB chunk. A line longer than the cap is handed out as "overlong"
// (without its text); its bytes are skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <istream>
#include <optional>
#include <string>

#include "engine/line_buffer.h"

namespace gobblet::match {

class FileLines {
 public:
  struct Line {
    std::string text;    // without its '\n' (a '\r' before it stays); empty when overlong
    int64_t number = 0;  // 1-based
    bool overlong = false;
  };

  // Reads `in`, which must outlive this object.
  FileLines(std::istream& in, size_t maxLineBytes);

  // The next line without taking it, or nullptr at the end of the input.
  const Line* peek();
  // Takes the next line; nothing at the end of the input.
  std::optional<Line> next();

 private:
  std::istream& in_;
  LineBuffer buffer_;
  std::deque<Line> ready_;  // lines split off but not yet taken
  int64_t number_ = 0;      // of the last line split off
  bool finished_ = false;   // the input is exhausted
};

}  // namespace gobblet::match
