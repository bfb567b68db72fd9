#include "server/process_memory.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gobblet {

// Called once per dropped client whose queue held over 1 MiB (8 MiB of
// unread output gets a client dropped), and by the session reaper once no
// session waits: trimming walks every arena, a few milliseconds at most for
// this server's heap.
void returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void mapLargeBlocksApart() {
#if defined(__GLIBC__)
  // Fixed bounds (glibc no longer moves them), the trimming one back at its
  // default in case a block freed before had raised it.
  mallopt(M_MMAP_THRESHOLD, 64 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}

}  // namespace gobblet
