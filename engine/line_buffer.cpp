#include "engine/line_buffer.h"

namespace gobblet {

bool LineBuffer::feed(std::string_view bytes, const OnLine& onLine) {
  while (!bytes.empty()) {
    const size_t nl = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, nl);  // up to, not including, the newline
    bytes.remove_prefix(nl == std::string_view::npos ? bytes.size() : nl + 1);
    if (!skipping_) {
      if (partial_.size() + piece.size() > cap_) {
        // Too long: forget it, report it once, skip to its end.
        partial_.clear();
        skipping_ = true;
        if (!onLine({}, true)) return false;
      } else {
        partial_.append(piece);
      }
    }
    if (nl == std::string_view::npos) break;  // the line continues in a later feed
    if (skipping_) {
      skipping_ = false;
      continue;
    }
    const std::string line = std::move(partial_);
    partial_.clear();
    if (!onLine(line, false)) return false;
  }
  return true;
}

bool LineBuffer::finish(const OnLine& onLine) {
  skipping_ = false;
  if (partial_.empty()) return true;
  const std::string line = std::move(partial_);
  partial_.clear();
  return onLine(line, false);
}

}  // namespace gobblet
