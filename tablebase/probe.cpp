// The probe: a position's value read from a tablebase file (see
// tablebase/tablebase.h). The board is numbered (index.h), the number's
// block decoded into a buffer of the calling thread, which keeps the last
// block it decoded, and the code read from it (code.h; a version-3 file's
// kRuledSymbol resolved by the state's outcome).
#include <cstdint>
#include <memory>
#include <vector>

#include "file.h"
#include "zstd.h"

namespace gobblet::tb {

namespace {

// A zstd decompression context per thread, and the last block it decoded.
struct BlockCache {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context{ZSTD_createDCtx(), ZSTD_freeDCtx};
  uint64_t file = 0, block = 0;  // file 0: nothing cached
  std::vector<uint8_t> codes;
};

}  // namespace

Probe File::probe(const Board& board) const {
  const uint64_t x = numbering_.numberOf(board);
  return x == Numbering::kNotAState ? Probe{} : probeOfCode(codeAt(x));
}

uint8_t File::codeAt(uint64_t index) const {
  thread_local BlockCache cache;
  const uint64_t b = index / header_.blockCodes;
  if (cache.file != id_ || cache.block != b) {
    if (cache.codes.size() < header_.blockCodes) cache.codes.resize(header_.blockCodes);
    // Every block decoded when the file was opened, and the copy is sealed:
    // a failure here would be a fault of this program, not of the file.
    if (!cache.context || !decodeBlock(b, cache.codes.data(), cache.context.get())) {
      cache.file = 0;
      return kNoState;
    }
    cache.file = id_;
    cache.block = b;
  }
  return codeOfStored(header_, numbering_, cache.codes[index - b * header_.blockCodes], index);
}

}  // namespace gobblet::tb
