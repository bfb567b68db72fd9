// OutputQueue: the lines a connection has yet to write to its client, and
// what they really cost the heap.
//
// The cap on unread output (ConnectionLimits::maxPendingOutputBytes) is
// checked against heapBytes(): every queued line's string object and its
// heap block, not only its characters: counting characters alone lets a
// client that floods and never reads hold 18-25 MiB under an "8 MiB" cap
// (a 40-byte line costs about 130 bytes). Each line is
// stored in a block of exactly its size, so the count stays close to what
// malloc holds.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace gobblet {

class OutputQueue {
 public:
  // Appends `line` followed by `end` (the transport's line end) as one entry.
  void push(std::string_view line, std::string_view end);

  bool empty() const { return lines_.empty(); }
  const std::string& front() const { return lines_.front(); }  // precondition: !empty()
  void pop();                                                  // precondition: !empty()
  // Forgets every line but the front one (a write in flight still owns it).
  void keepOnlyFront();
  void clear();

  // What the queued lines cost the heap, in bytes (an estimate from the
  // strings' capacities and the allocator's per-block overhead).
  size_t heapBytes() const { return heapBytes_; }

 private:
  static size_t costOf(const std::string& line);

  std::deque<std::string> lines_;
  size_t heapBytes_ = 0;
};

}  // namespace gobblet
