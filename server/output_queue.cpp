#include "server/output_queue.h"

#include <cstring>

namespace gobblet {

namespace {

// The heap block behind a string of `capacity` characters (plus its
// terminator), as glibc sizes it: a size word of header, rounded up to 16
// bytes, at least 32.
size_t heapBlockBytes(size_t capacity) {
  const size_t block = (capacity + 1 + sizeof(size_t) + 15) / 16 * 16;
  return block < 32 ? 32 : block;
}

// libstdc++ keeps strings of up to 15 characters inside the object.
constexpr size_t kInlineCapacity = std::string().capacity();

}  // namespace

size_t OutputQueue::costOf(const std::string& line) {
  // The object itself sits in the deque's blocks.
  size_t cost = sizeof(std::string);
  if (line.capacity() > kInlineCapacity) cost += heapBlockBytes(line.capacity());
  return cost;
}

void OutputQueue::push(std::string_view line, std::string_view end) {
  std::string entry(line.size() + end.size(), '\0');  // exactly this size: no growth slack
  std::memcpy(entry.data(), line.data(), line.size());
  std::memcpy(entry.data() + line.size(), end.data(), end.size());
  heapBytes_ += costOf(entry);
  lines_.push_back(std::move(entry));
}

void OutputQueue::pop() {
  heapBytes_ -= costOf(lines_.front());
  lines_.pop_front();
}

// The front line stays where it is (a write in flight points into it, and
// a short line lives inside its string object): erasing at the back of a
// deque moves nothing else.
void OutputQueue::keepOnlyFront() {
  if (lines_.empty()) return;
  lines_.erase(lines_.begin() + 1, lines_.end());  // (no shrink_to_fit: it would move the front)
  heapBytes_ = costOf(lines_.front());
}

void OutputQueue::clear() {
  std::deque<std::string>().swap(lines_);  // also frees the deque's own blocks
  heapBytes_ = 0;
}

}  // namespace gobblet
