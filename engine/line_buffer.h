// LineBuffer: turns a byte stream (stdin, a socket, a file) into lines.
// It reads and writes nothing: the transports (protocol/, server/) and the
// file readers (match/file_lines.h) hand it the bytes they received.
//
// Bytes are fed as they arrive; each complete line is handed to a callback
// without its '\n' (a trailing '\r' is left for the parser, which treats it
// as a space). Only the unfinished last line is stored, and never more than
// the cap of it: a line that grows past the cap is dropped, everything up to
// its '\n' is skipped, and the callback hears of it as "overlong". So the
// memory per stream stays below the cap, whatever a client sends.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace gobblet {

inline constexpr size_t kMaxLineBytes = 64 * 1024;

class LineBuffer {
 public:
  explicit LineBuffer(size_t maxLineBytes = kMaxLineBytes) : cap_(maxLineBytes) {}

  // Called with each line (overlong = false) or once per line that exceeded
  // the cap (overlong = true, line empty). Returning false stops the feed:
  // the rest of the bytes given to that feed() call are discarded.
  using OnLine = std::function<bool(std::string_view line, bool overlong)>;

  // Feeds received bytes; returns false if the callback stopped it.
  bool feed(std::string_view bytes, const OnLine& onLine);
  // At end of stream: hands out the unterminated last line, if any.
  bool finish(const OnLine& onLine);

 private:
  std::string partial_;    // the current line so far (at most cap_ bytes)
  bool skipping_ = false;  // dropping the rest of an overlong line
  size_t cap_;
};

}  // namespace gobblet
