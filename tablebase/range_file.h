// RangeFile: a tablebase file read piecewise through a caller's RangeReader
// (openRanges in tablebase/tablebase.h), for a file hosted on a web server
// that the WebAssembly build fetches by HTTP range requests. The library
// holds no network code: the reader fetches the bytes.
//
// At open it reads the header (one read) and the dictionary with the block
// table (one read, they are contiguous) and checks them with File::open's
// checks (file.h). A probe numbers its board (index.h), reads its block's
// frame if the block is not in the cache, decodes it with the dictionary
// and keeps the decoded codes in a cache of at most `cacheBlocks` blocks,
// the least recently used dropped. Without the frames the file's checksum
// cannot be checked: a frame is trusted once it decodes to exactly its
// block's codes.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "file.h"
#include "index.h"
#include "numbering.h"
#include "tablebase/tablebase.h"

namespace gobblet::tb {

class RangeFile : public Tablebase {
 public:
  // The file `name` of `fileSize` bytes read through `read` (see openRanges).
  static absl::StatusOr<std::shared_ptr<const RangeFile>> open(std::string name, uint64_t fileSize, RangeReader read,
                                                               size_t cacheBlocks);

  const Variant& variant() const override { return numbering_.variant(); }
  Probe probe(const Board& board) const override;

  const FileHeader& header() const { return header_; }
  const Numbering& numbering() const { return numbering_; }
  const Index& index() const { return *numbering_.index3; }
  // The code of number `index` (< entries); kNoState for a hole, a
  // position not reachable from the start, or a block that cannot be read
  // or does not decode (then counted in stats().failures).
  uint8_t codeAt(uint64_t index) const;
  RangeStats stats() const;

 private:
  RangeFile() = default;
  // read_(offset, size), counted; an error if the reader fails or gives
  // more or fewer bytes than asked.
  absl::StatusOr<std::string> readRange(uint64_t offset, uint64_t size) const;
  // Reads block b's frame and decodes it; empty if it cannot be read or
  // does not decode.
  std::vector<uint8_t> fetchBlock(uint64_t b) const;
  // The stored symbol of number `index` (file.h), from the cache or its
  // block fetched; kNoState if the block cannot be had.
  uint8_t symbolAt(uint64_t index) const;

  std::string name_;
  RangeReader read_;
  size_t cacheBlocks_ = 0;
  FileHeader header_{};
  Numbering numbering_;
  Dictionary dictionary_;
  std::vector<uint64_t> blockTable_;  // blocks + 1 offsets into the frames

  // The decoded blocks, most recently used first, and where each is in
  // that list; the counts of RangeStats. All under mutex_.
  struct Cached {
    uint64_t block;
    std::vector<uint8_t> codes;
  };
  mutable std::mutex mutex_;
  mutable std::list<Cached> recent_;
  mutable std::unordered_map<uint64_t, std::list<Cached>::iterator> cached_;
  mutable RangeStats stats_;
};

}  // namespace gobblet::tb
