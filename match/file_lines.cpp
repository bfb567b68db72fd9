#include "match/file_lines.h"

namespace gobblet::match {

FileLines::FileLines(std::istream& in, size_t maxLineBytes) : in_(in), buffer_(maxLineBytes) {}

const FileLines::Line* FileLines::peek() {
  const LineBuffer::OnLine keep = [this](std::string_view text, bool overlong) {
    ready_.push_back({std::string(text), ++number_, overlong});
    return true;
  };
  while (ready_.empty() && !finished_) {
    char chunk[4096];
    in_.read(chunk, sizeof chunk);
    const std::streamsize got = in_.gcount();
    if (got > 0) buffer_.feed(std::string_view(chunk, static_cast<size_t>(got)), keep);
    if (got < static_cast<std::streamsize>(sizeof chunk)) {
      buffer_.finish(keep);
      finished_ = true;
    }
  }
  return ready_.empty() ? nullptr : &ready_.front();
}

std::optional<FileLines::Line> FileLines::next() {
  if (peek() == nullptr) return std::nullopt;
  std::optional<Line> line = std::move(ready_.front());
  ready_.pop_front();
  return line;
}

}  // namespace gobblet::match
