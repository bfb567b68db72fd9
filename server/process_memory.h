// The server process's memory: what it may hold (its hash budget is sized
// from that: protocol/hash_budget.h), and its heap, where what sessions
// free goes back to the system. A server lives for weeks while sessions
// come and go; glibc's malloc keeps freed blocks in its arenas unless told
// otherwise. The heap calls do nothing where the C library is not glibc.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/hash_budget.h"

namespace gobblet {

// What this process may hold: the machine's memory, its RLIMIT_AS and
// RLIMIT_DATA (soft limits, the ones enforced), and its cgroup's memory
// limit (cgroupMemoryLimit() over the real files).
MemoryBounds processMemoryBounds();

// A file's whole text, or nothing if it cannot be read.
using ReadTextFile = std::function<std::optional<std::string>(const std::string& path)>;

// The memory limit of this process's control group, in bytes (0: none):
// the least limit of its cgroup and of each cgroup above it up to the
// mounted hierarchy's root (a parent's limit holds for its children),
// under cgroup v2 (memory.max) and v1 (the memory controller's
// memory.limit_in_bytes) alike, where both are mounted. It finds them
// from /proc/self/cgroup (the process's path in each hierarchy) and
// /proc/self/mountinfo (where each is mounted, and from which of its
// folders), read through `read`; a file that is missing or that it cannot
// make out counts as no limit.
int64_t cgroupMemoryLimit(const ReadTextFile& read);

// One limit file's text: v2's "max", or v1's "no limit" (the largest page
// multiple, about 2^63), is 0; a count of bytes is itself; anything else
// is nothing.
std::optional<int64_t> parseCgroupMemoryLimit(std::string_view text);

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
