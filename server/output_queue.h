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

// Returns freed heap memory to the system (glibc's malloc_trim; nothing
// elsewhere). For after a large queue was freed: glibc keeps freed blocks
// in its arenas, so a flood's memory stayed with the server after the
// client left.
void returnFreedMemory();

// Makes each heap block of 64 KiB or more a mapping of its own, given back
// to the system when freed (glibc's M_MMAP_THRESHOLD; nothing elsewhere).
// glibc otherwise raises that bound to the largest block freed so far (a
// 16 MiB hash table), and the blocks under it stay in its arenas: a
// search's per-ply net state (66 KiB, search/nnue/accumulator_stack.h) of a
// storm of sessions kept tens of MiB with the server
// (TcpStress.HangUpStormOf1000Clients). For a process serving sessions.
void mapLargeBlocksApart();

}  // namespace gobblet
