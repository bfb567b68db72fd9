// The tablebase file: a fixed header, a zstd dictionary, a block table, and
// the codes (one byte per number of Index, tablebase/code.h) in
// blocks of `blockCodes` numbers, each block compressed on its own as one
// zstd frame with the dictionary, so that a probe decodes one block and not
// the file. The dictionary is trained on the file's own blocks; it carries
// the entropy tables, so a block is small and quick to decode (a block of
// 1,024 codes as they are decodes in 60% more time without it). Version 3
// stores the codes 2, 3 and 4 as one symbol that the state's outcome
// resolves (code.h, kRuledSymbol): the reader decodes the number's state
// for that symbol alone.
//
//   offset  size  field
//        0     8  magic "GOBBLTB\n"
//        8     4  format version (kFormatVersion)
//       12     4  header size (128)
//       16     4  variant: n, sizes, per_size, moving (one byte each)
//       20     4  codes per block (the last block may hold fewer)
//       24     8  entries: numbers in the index
//       32    40  states, terminal, wins, draws, losses
//       72     1  code of the start position
//       73     1  longest distance
//       74     6  zero
//       80     8  checksum of the header (this field zero) and all that follows it
//       88     4  dictionary bytes (0: the frames use none)
//       92    36  zero
//      128        the dictionary, then zero bytes to a multiple of 8
//        ...      block table: blocks + 1 offsets (8 bytes each) into the
//                 frames; block b is the bytes [offset b, offset b+1)
//        ...      the frames
//
// blocks = ceil(entries / codes per block). All integers little-endian.
// Version 2 (the codes stored as they are) is read as well; version 1 (one
// uncompressed byte per number, 395 MiB for gobblers) is refused with its
// version named. A reader refuses a file whose magic,
// version, variant, size, block table or checksum does not match, or a
// block that does not decode to its codes, saying which, and anything that
// is not a regular file (without blocking on a FIFO); the zero fields are
// not checked. Each frame's size is bounded by what zstd can make of its
// block, so a file that passes holds at most ZSTD_compressBound(blockCodes)
// bytes a block (1.07 a number), and a file larger than the machine's memory
// is refused before it is read. The dictionary, block table and frames are
// copied into sealed memory of the process piece by piece, each block
// decoded as soon as it is in: a refused file has made the reader hold only
// the bytes before its first wrong block (a forged file of zeros, sparse on
// disk: its block table). Every block is decoded once before the file is
// accepted: a file truncated or rewritten on disk afterwards changes
// nothing that was checked (a mapping of the file itself would die of
// SIGBUS, or answer wrong values).
#pragma once

#include <cstdint>
#include <memory>
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "code.h"
#include "code_array.h"
#include "index.h"
#include "numbering.h"
#include "retrograde.h"
#include "retrograde4.h"
#include "tablebase/tablebase.h"

namespace gobblet::tb {

// The version written; kOldestFormatVersion to it are read.
inline constexpr uint32_t kFormatVersion = 3, kOldestFormatVersion = 2;
// Codes per block: gobblers' file (zstd level 3 with a dictionary, the
// symbols of version 3) is 37 MB with blocks of 4,096 codes, 0.87 bits a
// state; 42.5 MB (1.00) with blocks of 2,048, 49.7 MB with 1,024, 80 MB
// with 1,024 codes as they are (version 2). A block of 4,096 decodes in a
// few microseconds.
inline constexpr uint32_t kBlockCodes = 4096;
inline constexpr int kCompressionLevel = 3;
// Blocks the writer compresses before it writes their frames out: 64 MiB
// of codes (about 6 MB of gobblers' frames).
inline constexpr uint64_t kWriteBatchBlocks = uint64_t{1} << 14;
// The dictionary: at most this many bytes, trained on whole blocks spread
// evenly over the file, at most this many codes of them (zstd's training
// takes several times their size in memory and time).
inline constexpr uint32_t kDictionaryBytes = 112640;
inline constexpr uint64_t kDictionarySampleCodes = 20000 * 1024;
// A reader's bounds on the header's block size: small blocks would make
// the block table and the decoding at open huge, large ones every probe.
inline constexpr uint32_t kMinBlockCodes = 256, kMaxBlockCodes = 1u << 16;
inline constexpr char kMagic[8] = {'G', 'O', 'B', 'B', 'L', 'T', 'B', '\n'};

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t headerSize;
  uint8_t n, sizes, perSize, moving;
  uint32_t blockCodes;
  uint64_t entries;
  uint64_t states, terminal, wins, draws, losses;
  uint8_t startCode, maxDistance;
  uint8_t zero1[6];
  uint64_t checksum;
  uint32_t dictionaryBytes;
  uint8_t zero2[36];
};
static_assert(sizeof(FileHeader) == 128);

// The dictionary's bytes in the file, with the padding that aligns the block table.
inline uint64_t paddedDictionaryBytes(const FileHeader& h) { return (uint64_t{h.dictionaryBytes} + 7) / 8 * 8; }
// The blocks of a file, where its block table and its frames start in the
// file, and the codes of block b (the last block may hold fewer).
inline uint64_t blocksOf(const FileHeader& h) { return (h.entries + h.blockCodes - 1) / h.blockCodes; }
inline uint64_t blockTableAt(const FileHeader& h) { return sizeof(FileHeader) + paddedDictionaryBytes(h); }
inline uint64_t framesAt(const FileHeader& h) { return blockTableAt(h) + 8 * (blocksOf(h) + 1); }
inline uint64_t codesInBlock(const FileHeader& h, uint64_t b) {
  return std::min<uint64_t>(h.blockCodes, h.entries - b * h.blockCodes);
}

// The code that a file's stored symbol of number x stands for: the symbol
// itself in version 2, codeOfSymbol (code.h) in version 3, which decodes x's
// state for kRuledSymbol alone.
inline uint8_t codeOfStored(const FileHeader& h, const Numbering& numbering, uint8_t symbol, uint64_t x) {
  return h.version < 3 ? symbol : codeOfSymbol(symbol, [&] { return numbering.outcomeAt(x); });
}

// ---- The checks of a file's layout, shared by the readers of a whole file
// (File::open) and of a file read piecewise (RangeFile, range_file.h). Their
// errors say what is wrong without naming the file (the reader prefixes its
// name): InvalidArgument for a header and sizes that do not match,
// DataLoss for a block table or dictionary that is corrupt. ----

// The header of a file of `fileSize` bytes, from the file's first bytes
// `headerBytes` (fewer than the header's 128 if the file is shorter):
// its magic, version, header size, variant, entries (those of the
// variant's Index), codes per block and dictionary size, and that the
// dictionary and the block table fit in `fileSize`. Gives the numbering of
// the header's variant, of either family (which the checks need and the
// reader then keeps).
absl::StatusOr<Numbering> checkHeader(std::string_view headerBytes, FileHeader* header, uint64_t fileSize);
// That the frames' size, read from the block table's last entry, is within
// what zstd can make of the blocks and makes the file exactly `fileSize`
// bytes.
absl::Status checkFramesBytes(const FileHeader& h, uint64_t framesBytes, uint64_t fileSize);
// That the block table (blocks + 1 offsets) starts at 0, ends at
// `framesBytes` and always goes forward: every block's frame lies inside
// the frames, is not empty, and is no larger than zstd's bound for its
// block. checkBlockEntry checks block b alone (entries b and b + 1).
absl::Status checkBlockTable(const FileHeader& h, const uint64_t* table, uint64_t framesBytes);
absl::Status checkBlockEntry(const FileHeader& h, const uint64_t* table, uint64_t b, uint64_t framesBytes);

// A zstd decompression dictionary (a ZSTD_DDict), or none.
struct DictionaryDeleter {
  void operator()(void* dictionary) const;
};
using Dictionary = std::unique_ptr<void, DictionaryDeleter>;
// The dictionary of a file from its `h.dictionaryBytes` bytes (zstd keeps
// a copy); null if the file has none, an error if zstd refuses it.
absl::StatusOr<Dictionary> makeDictionary(const FileHeader& h, const uint8_t* bytes);
// Decodes one frame into the `codes` codes of its block at `out` with the
// zstd decompression context `context` (a ZSTD_DCtx); false unless it
// decodes to exactly that many.
bool decodeFrame(const Dictionary& dictionary, const uint8_t* frame, uint64_t frameBytes, uint8_t* out, uint64_t codes,
                 void* context);

// 64-bit checksum of a byte stream (four multiply-xor lanes over 32-byte
// words, then the last bytes one by one; fast enough to check a 400 MB file
// on every open), fed in pieces of any size: the value depends only on the
// bytes and the seed.
class Checksum {
 public:
  explicit Checksum(uint64_t seed = 0);
  void add(const uint8_t* data, uint64_t size);
  uint64_t value() const;

 private:
  uint64_t lane_[4];
  uint64_t size_ = 0;
  uint8_t pending_[32];  // the bytes after the last whole word
  uint32_t pendingBytes_ = 0;
};
// The checksum of one byte range.
uint64_t checksumOf(const uint8_t* data, uint64_t size, uint64_t seed = 0);

// Writes a solved variant; the file appears complete or not at all (it is
// written next to `path` under a name unique to this call, `path.part.PID.N`,
// and renamed), also when several writers target the same path at once.
// Creates missing directories. An existing `path` that is not a regular
// file is refused (checkOutputPath), before anything is compressed and
// again just before the rename. The blocks are compressed by `threads`
// threads, `batchBlocks` at a time, each batch's frames written out and let
// go before the next (kWriteBatchBlocks but for the tests): the file is the
// same for any count of either.
absl::Status writeFile(const std::string& path, const Variant& variant, const Solution& result, int threads = 1,
                       uint64_t batchBlocks = kWriteBatchBlocks);
// The same file from the builder's packed codes (the same answer gives the
// same bytes).
absl::Status writeFile(const std::string& path, const Variant& variant, const PackedSolution& result, int threads = 1,
                       uint64_t batchBlocks = kWriteBatchBlocks);

// The same file written from a build over ranks (solve4Part): collective,
// each rank passing its part. Rank 0 trains the dictionary on the sample
// blocks every rank sends it, each rank compresses its own blocks with it,
// and rank 0 writes them in order (rank 0's, then rank 1's as they come,
// ...): the file byte for byte the one writeFile makes of the whole
// codes, and no rank holds more than its part and a batch of frames. Only
// rank 0 touches `path`; its error is its own (every rank hears of it
// through BuildShare::agree), and it takes every rank's frames to the end
// even after one.
absl::Status writeFileOfRanks(const std::string& path, const Variant& variant, const SolvedPart& part, int threads,
                              BuildShare& share, uint64_t batchBlocks = kWriteBatchBlocks);

// The same file written from a 3x3 build over ranks (solvePacked with a
// share): collective, each rank passing its part (PackedSolution::owners:
// the slices it holds). A block is compressed by the holder of its first
// number's slice, which takes the stored symbols of its numbers in other
// ranks' slices from them; then as writeFileOfRanks.
absl::Status writeFileOfSlices(const std::string& path, const Variant& variant, const PackedSolution& part, int threads,
                               BuildShare& share, uint64_t batchBlocks = kWriteBatchBlocks);

// OK if `path` does not exist or is a regular file (not followed if it is a
// symbolic link); else an error naming what it is.
absl::Status checkOutputPath(const std::string& path);

// A tablebase file, its dictionary, block table and frames held in a sealed in-memory
// copy (a memfd named after the file, mapped read-only; anonymous memory
// where memfd is missing). A probe decodes the block of its number into a
// buffer of the calling thread, which keeps the last block it decoded.
class File : public Tablebase {
 public:
  ~File() override;
  // The file at `path`, checked (see the top of this header). Errors:
  // NotFound (no such file), Unavailable (it cannot be opened),
  // InvalidArgument or DataLoss (not a regular file, or its bytes are
  // wrong: opening the same file again gives the same error),
  // ResourceExhausted (the process lacks memory for it, or the file is
  // larger than the machine's memory).
  static absl::StatusOr<std::shared_ptr<const File>> open(const std::string& path);

  const Variant& variant() const override { return variant_; }
  Probe probe(const Board& board) const override;

  const FileHeader& header() const { return header_; }
  // The numbering: index() for a file of the 3x3 family, index4() for one
  // of the 4x4 family.
  const Numbering& numbering() const { return numbering_; }
  const Index& index() const { return *numbering_.index3; }
  const Index4& index4() const { return *numbering_.index4; }
  // The code of number `index` (< entries); kNoState for a hole or a
  // position not reachable from the start.
  uint8_t codeAt(uint64_t index) const;

  // The code of a state (kNoState if it is not a reachable state).
  uint8_t codeOf(const State& st) const { return codeAt(index().indexOf(st)); }
  // Every code, decoded (entries bytes) by `threads` threads, for a walk
  // over the whole table: in memory, or in an unnamed file in
  // `codesDirectory` if one is given (CodeArray); an error if that cannot
  // be made or zstd cannot allocate its contexts.
  absl::StatusOr<CodeArray> decodeAll(const std::string& codesDirectory = {}, int threads = 1) const;
  // Bytes of the dictionary, block table and frames (the file without its header).
  uint64_t compressedBytes() const { return mapSize_; }
  const std::string& path() const { return path_; }
  // How many files open() has opened in this process (each then read, in
  // part or whole, unless it is not a regular file): for the tests of the
  // cache of open files (tb::open), which must spare a file these reads.
  static uint64_t filesOpened();

 private:
  File() = default;
  struct Holder;
  // Copies the `size` bytes after the header of the open file fd into
  // sealed memory of this process, checking the block table, the
  // dictionary, every block and the checksum as they come in (file.cpp).
  absl::Status loadChecked(int fd, uint64_t size);
  // Decodes block b into `out` (its codes); false if it does not decode.
  bool decodeBlock(uint64_t b, uint8_t* out, void* context) const;
  uint64_t blocks() const { return blocksOf(header_); }

  std::string path_;
  Variant variant_;
  FileHeader header_{};
  Numbering numbering_;
  Dictionary dictionary_;  // of the mapped dictionary, or none
  uint64_t id_ = 0;        // unique per File of the process: names it in the threads' block caches
  void* map_ = nullptr;
  uint64_t mapSize_ = 0;
  const uint8_t* dictionaryBytes_ = nullptr;
  const uint64_t* blockTable_ = nullptr;  // blocks() + 1 offsets into frames_
  const uint8_t* frames_ = nullptr;
};

}  // namespace gobblet::tb
