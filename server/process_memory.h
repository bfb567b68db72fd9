// The server process's heap: what sessions free goes back to the system.
// A server lives for weeks while sessions come and go; glibc's malloc keeps
// freed blocks in its arenas unless told otherwise. Both calls do nothing
// where the C library is not glibc.
#pragma once

namespace gobblet {

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
