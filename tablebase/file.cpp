#include "file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <functional>
#include <filesystem>
#include <iterator>
#include <span>
#include <unordered_map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/parallel_for.h"
#define ZDICT_STATIC_LINKING_ONLY  // ZDICT_optimizeTrainFromBuffer_fastCover
#include "zdict.h"
#include "zstd.h"

namespace gobblet::tb {

namespace {
constexpr uint64_t kChecksumMul = 0x9E3779B97F4A7C15ull;
}  // namespace

Checksum::Checksum(uint64_t seed)
    : lane_{seed ^ 0x243F6A8885A308D3ull, seed ^ 0x13198A2E03707344ull, seed ^ 0xA4093822299F31D0ull,
            seed ^ 0x082EFA98EC4E6C89ull} {}

namespace {
// Mixes one 32-byte word into the four lanes.
inline void mixWord(uint64_t* lane, const uint8_t* word) {
  for (int k = 0; k < 4; ++k) {
    uint64_t w;
    std::memcpy(&w, word + 8 * k, 8);
    lane[k] = (lane[k] ^ w) * kChecksumMul;
    lane[k] ^= lane[k] >> 29;
  }
}
}  // namespace

void Checksum::add(const uint8_t* data, uint64_t size) {
  size_ += size;
  if (pendingBytes_ > 0) {
    const uint64_t take = std::min<uint64_t>(size, sizeof pending_ - pendingBytes_);
    std::memcpy(pending_ + pendingBytes_, data, take);
    pendingBytes_ += static_cast<uint32_t>(take), data += take, size -= take;
    if (pendingBytes_ < sizeof pending_) return;
    mixWord(lane_, pending_);
    pendingBytes_ = 0;
  }
  uint64_t lane[4];  // a local copy, which the bytes cannot alias
  std::memcpy(lane, lane_, sizeof lane);
  for (; size >= 32; data += 32, size -= 32) mixWord(lane, data);
  std::memcpy(lane_, lane, sizeof lane);
  std::memcpy(pending_, data, size);
  pendingBytes_ = static_cast<uint32_t>(size);
}

uint64_t Checksum::value() const {
  uint64_t h = size_ * kChecksumMul;
  for (uint32_t i = 0; i < pendingBytes_; ++i) h = (h ^ pending_[i]) * kChecksumMul;
  for (int k = 0; k < 4; ++k) h = ((h ^ lane_[k]) * kChecksumMul) ^ (h >> 31);
  return h;
}

uint64_t checksumOf(const uint8_t* data, uint64_t size, uint64_t seed) {
  Checksum sum(seed);
  sum.add(data, size);
  return sum.value();
}

namespace {

// The checksum of a file: its header with the checksum field zero, then
// everything after the header (dictionary, block table and frames). The
// seed of the body's checksum is that of the header (see checksumWritten).
uint64_t headerChecksum(FileHeader header) {
  header.checksum = 0;
  return checksumOf(reinterpret_cast<const uint8_t*>(&header), sizeof header);
}

// The dictionary's sample: every step-th of a file's `wholeBlocks` blocks
// (those of blockCodes codes), from block 0, at most kDictionarySampleCodes
// codes.
uint64_t sampleStep(uint64_t wholeBlocks, uint32_t blockCodes) {
  const uint64_t most = std::max<uint64_t>(1, kDictionarySampleCodes / blockCodes);
  return std::max<uint64_t>(1, (wholeBlocks + most - 1) / most);
}

// A dictionary trained on `samples`, whole blocks of `blockCodes` codes
// back to back (empty where zstd cannot train one: a variant with too few
// blocks to learn from).
//
// zstd's fastCover trainer as ZDICT_trainFromBuffer calls it (segments of
// d = 8 bytes, compression level 3), but with its segment size k fixed at
// 50: ZDICT_trainFromBuffer trains with k from 50 to 2000 and keeps the
// dictionary that compresses a held-out quarter of the samples best, and
// that was k = 50 for gobblers, 3x3:2,3,1, 3x3:3,1,1 and tictactoe (the same
// dictionary, so the same file); trying it alone takes 0.16 s of
// gobblers' build instead of 0.54.
std::vector<uint8_t> trainOn(const std::vector<uint8_t>& samples, uint32_t blockCodes) {
  const std::vector<size_t> sizes(samples.size() / blockCodes, blockCodes);
  std::vector<uint8_t> dictionary(kDictionaryBytes);
  ZDICT_fastCover_params_t params{};
  params.k = 50;
  params.d = 8;
  params.steps = 4;
  params.zParams.compressionLevel = ZSTD_CLEVEL_DEFAULT;
  const size_t n = sizes.size() < 8 ? 0
                                    : ZDICT_optimizeTrainFromBuffer_fastCover(
                                          dictionary.data(), dictionary.size(), samples.data(), sizes.data(),
                                          static_cast<unsigned>(sizes.size()), &params);
  dictionary.resize(sizes.size() < 8 || ZDICT_isError(n) ? 0 : n);
  return dictionary;
}

// The sample blocks (sampleStep) of a file of `wholeBlocks` whole blocks
// among the whole blocks of `codes` codes from block firstBlock on.
std::vector<uint64_t> sampleBlocks(uint64_t firstBlock, uint64_t codes, uint64_t wholeBlocks, uint32_t blockCodes) {
  const uint64_t step = sampleStep(wholeBlocks, blockCodes),
                 end = std::min(wholeBlocks, firstBlock + codes / blockCodes);
  std::vector<uint64_t> blocks;
  for (uint64_t b = (firstBlock + step - 1) / step * step; b < end; b += step) blocks.push_back(b);
  return blocks;
}

// What a writer compresses: `size` numbers' stored symbols (code.h,
// storedSymbol), read(first, count, out) putting those of numbers
// first..first+count-1 (counted from the source's first) in out.
struct SymbolSource {
  uint64_t size = 0;
  std::function<void(uint64_t, uint64_t, uint8_t*)> read;
};

SymbolSource symbolsOf(std::span<const uint8_t> codes) {
  return {codes.size(), [codes](uint64_t first, uint64_t count, uint8_t* out) {
            std::transform(codes.begin() + static_cast<std::ptrdiff_t>(first),
                           codes.begin() + static_cast<std::ptrdiff_t>(first + count), out, storedSymbol);
          }};
}

// The stored symbols of those sample blocks of `source` (block firstBlock
// on), back to back.
std::vector<uint8_t> samplesOf(const SymbolSource& source, uint64_t firstBlock, uint64_t wholeBlocks,
                               uint32_t blockCodes) {
  std::vector<uint8_t> samples;
  for (uint64_t b : sampleBlocks(firstBlock, source.size, wholeBlocks, blockCodes)) {
    samples.resize(samples.size() + blockCodes);
    source.read((b - firstBlock) * blockCodes, blockCodes, samples.data() + samples.size() - blockCodes);
  }
  return samples;
}

// Blocks of codes compressed in order, a batch at a time, each block (its
// stored symbols) one zstd frame with the file's dictionary: the frames of a batch are handed
// to the caller and let go, so a writer holds one batch's frames, not the
// file's (gobblers: 80 MB; 3x3:3,3,x: gigabytes).
class FrameCompressor {
 public:
  // Blocks of `blockCodes` codes of `codes`, compressed at kCompressionLevel
  // with `dictionary` (its bytes; none if empty) by `threads` threads,
  // `batchBlocks` (at least 1) at a time.
  FrameCompressor(const SymbolSource& codes, uint32_t blockCodes, std::span<const uint8_t> dictionary, int threads,
                  uint64_t batchBlocks)
      : codes_(codes),
        batchBlocks_(std::max<uint64_t>(1, batchBlocks)),
        blockCodes_(blockCodes),
        blocks_((codes.size + blockCodes - 1) / blockCodes),
        dictionary_(ZSTD_createCDict(dictionary.data(), dictionary.size(), kCompressionLevel), ZSTD_freeCDict),
        runs_(static_cast<size_t>(std::max(1, threads))) {}

  uint64_t blocks() const { return blocks_; }

  // Compresses every block, batch by batch in order, and calls
  // write(frames, sizes) for each run of blocks in order: `frames` holds
  // the run's frames back to back, `sizes` each frame's size. An error if
  // zstd fails or `write` returns one (then no further call is made). The
  // frames do not depend on the thread count: each block is a frame of its
  // own, and the runs of a batch are handed over in order.
  template <typename Write>
  absl::Status compressAll(Write&& write) {
    if (!dictionary_) return absl::ResourceExhaustedError("cannot create a zstd compression context");
    for (uint64_t first = 0; first < blocks_; first += batchBlocks_) {
      const uint64_t end = std::min(blocks_, first + batchBlocks_);
      const uint64_t runs = std::min<uint64_t>(runs_.size(), end - first);
      for (uint64_t k = 0; k < runs; ++k) {
        runs_[k].firstBlock = first + (end - first) * k / runs;
        runs_[k].endBlock = first + (end - first) * (k + 1) / runs;
      }
      parallelFor(runs, static_cast<int>(runs), [&](int, uint64_t k) { compressRun(runs_[k]); });
      for (uint64_t k = 0; k < runs; ++k) {
        Run& r = runs_[k];
        if (!r.error.empty()) return absl::InternalError(r.error);
        if (absl::Status s = write(std::span<const uint8_t>(r.frames), std::span<const uint64_t>(r.sizes)); !s.ok())
          return s;
      }
    }
    return absl::OkStatus();
  }

 private:
  struct Run {
    uint64_t firstBlock = 0, endBlock = 0;
    std::vector<uint8_t> frames;  // kept between batches (their capacity)
    std::vector<uint64_t> sizes;
    std::string error;
  };

  // Compresses the run's blocks into its frames; on a zstd failure, says
  // why in r.error.
  void compressRun(Run& r) const {
    r.frames.clear();
    r.sizes.clear();
    std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> context(ZSTD_createCCtx(), ZSTD_freeCCtx);
    if (!context) {
      r.error = "cannot create a zstd compression context";
      return;
    }
    std::vector<uint8_t> frame(ZSTD_compressBound(blockCodes_)), symbols(blockCodes_);
    for (uint64_t b = r.firstBlock; b < r.endBlock; ++b) {
      const uint64_t first = b * blockCodes_, count = std::min<uint64_t>(blockCodes_, codes_.size - first);
      codes_.read(first, count, symbols.data());
      const size_t n =
          ZSTD_compress_usingCDict(context.get(), frame.data(), frame.size(), symbols.data(), count, dictionary_.get());
      if (ZSTD_isError(n)) {
        r.error = absl::StrCat("zstd: ", ZSTD_getErrorName(n));
        return;
      }
      r.frames.insert(r.frames.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(n));
      r.sizes.push_back(n);
    }
  }

  const SymbolSource& codes_;
  uint64_t batchBlocks_;
  uint32_t blockCodes_;
  uint64_t blocks_;
  std::unique_ptr<ZSTD_CDict, size_t (*)(ZSTD_CDict*)> dictionary_;
  std::vector<Run> runs_;
};

// The file's checksum (headerChecksum's seed, then the body) of the
// `bodyBytes` bytes after the header of the file `f`, read back from it in
// pieces of 16 MiB (the frames were written before the block table that
// precedes them was known). `h` must be final but for its checksum.
absl::StatusOr<uint64_t> checksumWritten(FILE* f, const FileHeader& h, uint64_t bodyBytes) {
  if (std::fflush(f) != 0 || std::fseek(f, sizeof(FileHeader), SEEK_SET) != 0)
    return absl::UnavailableError(std::strerror(errno ? errno : EIO));
  Checksum sum(headerChecksum(h));
  std::vector<uint8_t> piece(std::min<uint64_t>(bodyBytes, uint64_t{16} << 20));
  for (uint64_t done = 0; done < bodyBytes;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(piece.size(), bodyBytes - done));
    if (std::fread(piece.data(), 1, want, f) != want)
      return absl::UnavailableError(std::ferror(f) && errno ? std::strerror(errno) : "short read of the written file");
    sum.add(piece.data(), want);
    done += want;
  }
  return sum.value();
}

// Writes the file's header and body (dictionary, block table, frames) of
// `blocks` blocks to the open file `f` (opened for update, empty),
// completing `h` with the dictionary's size and the checksum. The frames
// come from frames(write), which calls write(frames, sizes) for each run of
// blocks in order (FrameCompressor::compressAll); they go out a run at a
// time behind a block table of zeros, which is written once they are all
// out; the checksum is then summed over the body read back (from the page
// cache). The bytes are those of the body made whole in memory.
template <typename Frames>
absl::Status writeBody(FILE* f, FileHeader& h, std::vector<uint8_t> dictionary, uint64_t blocks, Frames&& frames) {
  const auto ioError = [](const char* what) {
    return absl::UnavailableError(absl::StrCat(what, ": ", std::strerror(errno ? errno : EIO)));
  };
  h.dictionaryBytes = static_cast<uint32_t>(dictionary.size());
  dictionary.resize(paddedDictionaryBytes(h));  // the block table starts 8-byte aligned
  std::vector<uint64_t> table(blocks + 1, 0);
  errno = 0;
  // (No dictionary: a vector copied empty has no data() to give fwrite.)
  if (std::fwrite(&h, sizeof h, 1, f) != 1 ||
      (!dictionary.empty() && std::fwrite(dictionary.data(), 1, dictionary.size(), f) != dictionary.size()) ||
      std::fwrite(table.data(), 8, table.size(), f) != table.size())
    return ioError("write");
  uint64_t b = 0;
  absl::Status written = frames([&](std::span<const uint8_t> bytes, std::span<const uint64_t> sizes) {
    if (sizes.size() > blocks - b) return absl::InternalError("more frames than blocks");
    for (uint64_t n : sizes) table[b + 1] = table[b] + n, ++b;
    return bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() ? absl::OkStatus()
                                                                                          : ioError("write");
  });
  if (!written.ok()) return written;
  if (b != blocks) return absl::InternalError(absl::StrCat(b, " frames for ", blocks, " blocks"));
  if (std::fseek(f, static_cast<long>(blockTableAt(h)), SEEK_SET) != 0 ||
      std::fwrite(table.data(), 8, table.size(), f) != table.size())
    return ioError("write");
  const absl::StatusOr<uint64_t> checksum = checksumWritten(f, h, framesAt(h) - sizeof h + table.back());
  if (!checksum.ok()) return checksum.status();
  h.checksum = *checksum;
  if (std::fseek(f, 0, SEEK_SET) != 0 || std::fwrite(&h, sizeof h, 1, f) != 1) return ioError("write");
  return absl::OkStatus();
}

// The header of a file of `entries` codes of `variant` with counts
// `stats`; the dictionary's size and the checksum are writeBody's.
FileHeader headerOf(const Variant& variant, uint64_t entries, const SolveStats& stats) {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kFormatVersion;
  h.headerSize = sizeof(FileHeader);
  h.n = variant.n;
  h.sizes = variant.sizes;
  h.perSize = variant.perSize;
  h.moving = variant.moving ? 1 : 0;
  h.blockCodes = kBlockCodes;
  h.entries = entries;
  h.states = stats.states;
  h.terminal = stats.terminal;
  h.wins = stats.wins;
  h.draws = stats.draws;
  h.losses = stats.losses;
  h.startCode = stats.start;
  h.maxDistance = static_cast<uint8_t>(stats.maxDistance);
  return h;
}

// Writes `path` complete or not at all: body(f) writes it to a new file
// under a name of this call's, which is renamed to `path` if body
// succeeds and removed if not. Missing directories are made.
template <typename Body>
absl::Status writeAtomically(const std::string& path, Body&& body) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create directory for '", path, "': ", ec.message()));
  // A temporary name of this writer alone (process id and a per-process
  // counter): two writers of one target never share a temporary file, and
  // the last rename wins with a complete file.
  static std::atomic<uint64_t> writes{0};
  const std::string tmp = absl::StrCat(path, ".part.", ::getpid(), ".", writes.fetch_add(1));
  FILE* f = std::fopen(tmp.c_str(), "w+b");
  if (!f) return absl::UnavailableError(absl::StrCat("cannot write '", tmp, "': ", std::strerror(errno)));
  // Each failure's errno is kept at once: the calls after it (a stat, the
  // removal of the temporary file) may set errno again.
  const auto failed = [&](int error) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot write '", path, "': ", std::strerror(error ? error : EIO)));
  };
  errno = 0;
  const absl::Status written = body(f);
  int error = written.ok() ? 0 : errno;
  errno = 0;
  if (std::fclose(f) != 0 && error == 0) error = errno ? errno : EIO;  // the buffered rest could not be written
  if (!written.ok() && !absl::IsUnavailable(written)) {                // zstd or a rank failed, not the disk
    std::remove(tmp.c_str());
    return written;
  }
  if (!written.ok() || error) return failed(error);
  if (absl::Status target = checkOutputPath(path); !target.ok()) {  // made meanwhile
    std::remove(tmp.c_str());
    return target;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return failed(errno);
  return absl::OkStatus();
}

std::atomic<uint64_t> nextFileId{1};
std::atomic<uint64_t> openedFiles{0};  // File::filesOpened()

}  // namespace

absl::Status checkOutputPath(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return absl::UnavailableError(absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
  if (S_ISREG(st.st_mode)) return absl::OkStatus();
  const char* what = S_ISDIR(st.st_mode)                          ? "a directory"
                     : S_ISLNK(st.st_mode)                        ? "a symbolic link (give the file's own path)"
                     : S_ISFIFO(st.st_mode)                       ? "a FIFO"
                     : S_ISSOCK(st.st_mode)                       ? "a socket"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                  : "not a regular file";
  return absl::FailedPreconditionError(
      absl::StrCat("will not write '", path, "': it is ", what, ", and writing the file would replace it"));
}

namespace {
absl::Status writeSymbols(const std::string& path, const Variant& variant, const SymbolSource& codes,
                          const SolveStats& stats, int threads, uint64_t batchBlocks) {
  if (absl::Status target = checkOutputPath(path); !target.ok()) return target;
  FileHeader h = headerOf(variant, codes.size, stats);
  return writeAtomically(path, [&](FILE* f) {
    std::vector<uint8_t> dictionary =
        trainOn(samplesOf(codes, 0, codes.size / h.blockCodes, h.blockCodes), h.blockCodes);
    FrameCompressor compressor(codes, h.blockCodes, dictionary, threads, batchBlocks);
    return writeBody(f, h, std::move(dictionary), compressor.blocks(),
                     [&](auto&& write) { return compressor.compressAll(write); });
  });
}
}  // namespace

absl::Status writeFile(const std::string& path, const Variant& variant, const Solution& result, int threads,
                       uint64_t batchBlocks) {
  return writeSymbols(
      path, variant, symbolsOf(std::span<const uint8_t>(result.codes.data(), static_cast<size_t>(result.codes.size()))),
      result.stats, threads, batchBlocks);
}

absl::Status writeFile(const std::string& path, const Variant& variant, const PackedSolution& result, int threads,
                       uint64_t batchBlocks) {
  const PackedCodes& packed = result.codes;
  const SymbolSource codes{packed.size(), [&packed](uint64_t first, uint64_t count, uint8_t* out) {
                             packed.storedSymbols(first, count, out);
                           }};
  return writeSymbols(path, variant, codes, result.stats, threads, batchBlocks);
}

static_assert(RankRanges::kUnit == kBlockCodes, "a rank's range is a whole number of blocks");

namespace {
// A rank's frames to rank 0, run by run (writeFileOfRanks): a message of
// two words, the run's blocks and its frames' bytes, then the frames'
// sizes and the frames; {0, 0} ends the rank's frames, {kFailed, 0} ends
// them after a failure of the rank's.
constexpr uint64_t kFailed = ~uint64_t{0};

// Takes rank `from`'s frames, run by run, to its end message, passing each
// run to write(frames, sizes) until one fails; an error if the rank failed,
// sent more blocks than `blocks`, or write failed.
template <typename Write>
absl::Status receiveFrames(BuildShare& share, int from, uint64_t blocks, Write&& write) {
  absl::Status status;
  std::vector<uint64_t> sizes;
  std::vector<uint8_t> frames;
  for (uint64_t got = 0;;) {
    uint64_t head[2];
    if (absl::Status s = share.receiveBytes(from, reinterpret_cast<uint8_t*>(head), sizeof head); !s.ok()) return s;
    if (head[0] == 0) break;
    if (head[0] == kFailed) return absl::AbortedError(absl::StrCat("rank ", from, " could not compress its blocks"));
    sizes.resize(head[0]);
    frames.resize(head[1]);
    if (absl::Status s = share.receiveBytes(from, reinterpret_cast<uint8_t*>(sizes.data()), 8 * head[0]); !s.ok())
      return s;
    if (absl::Status s = share.receiveBytes(from, frames.data(), head[1]); !s.ok()) return s;
    got += head[0];
    if (got > blocks && status.ok())
      status = absl::InternalError(absl::StrCat("rank ", from, " sent ", got, " blocks, it has ", blocks));
    if (status.ok()) status = write(std::span<const uint8_t>(frames), std::span<const uint64_t>(sizes));
  }
  return status;
}
}  // namespace

namespace {
// A run of blocks [first, end) that one rank compresses.
struct BlockRun {
  uint64_t first = 0, end = 0;
  int owner = 0;
};

// The file of `entries` codes written by the ranks together: `runs` (in
// order, covering every block) say which rank compresses which blocks,
// read(first, count, out) gives the stored symbols of a whole block of
// this rank's runs. Rank 0 trains the dictionary on the sample blocks the
// ranks send it run by run (in block order: those one process samples), each rank
// compresses its runs with it, and rank 0 writes the frames run by run, in
// order, taking each other rank's as they come. Every rank's frames are
// taken to the end even after a failure, so that no rank waits forever on
// a send.
absl::Status writeOfRuns(const std::string& path, const Variant& variant, uint64_t entries, const SolveStats& stats,
                         const std::vector<BlockRun>& runs,
                         const std::function<void(uint64_t, uint64_t, uint8_t*)>& read, int threads, BuildShare& share,
                         uint64_t batchBlocks) {
  const uint32_t blockCodes = kBlockCodes;
  const uint64_t wholeBlocks = entries / blockCodes;
  const int me = share.rank();
  const bool writer = me == 0;
  const auto sourceOf = [&](const BlockRun& run) {
    const uint64_t first = run.first * blockCodes, end = std::min(entries, run.end * blockCodes);
    return SymbolSource{end - first,
                        [&read, first](uint64_t f, uint64_t count, uint8_t* out) { read(first + f, count, out); }};
  };
  const auto samplesIn = [&](const BlockRun& run) {
    return sampleBlocks(run.first, (run.end - run.first) * blockCodes, wholeBlocks, blockCodes).size();
  };
  // 1. The dictionary: the sample blocks of each run come to rank 0 run by
  //    run, in order, straight into their place.
  std::vector<uint8_t> samples;
  if (writer) {
    uint64_t blocks = 0;
    for (const BlockRun& run : runs) blocks += samplesIn(run);
    samples.resize(blocks * blockCodes);
  }
  uint64_t at = 0;
  for (const BlockRun& run : runs) {
    const uint64_t bytes = samplesIn(run) * blockCodes;
    if (bytes == 0 || (!writer && run.owner != me)) continue;
    if (run.owner == me) {
      const std::vector<uint8_t> some = samplesOf(sourceOf(run), run.first, wholeBlocks, blockCodes);
      if (writer)
        std::copy(some.begin(), some.end(), samples.begin() + static_cast<std::ptrdiff_t>(at));
      else if (absl::Status s = share.sendBytes(0, some.data(), some.size()); !s.ok())
        return s;
    } else if (absl::Status s = share.receiveBytes(run.owner, samples.data() + at, bytes); !s.ok()) {
      return s;
    }
    at += bytes;
  }
  std::vector<uint8_t> dictionary = writer ? trainOn(samples, blockCodes) : std::vector<uint8_t>();
  samples = {};
  uint64_t dictionaryBytes = dictionary.size();
  if (absl::Status s = share.reduceWords(&dictionaryBytes, 1, BuildShare::Reduce::kSum); !s.ok()) return s;
  dictionary.resize(dictionaryBytes);
  if (absl::Status s = share.shareBytes(dictionary.data(), {{0, dictionaryBytes, 0}}); !s.ok()) return s;
  // 2. The frames, run by run.
  if (!writer) {
    absl::Status compressed;
    for (const BlockRun& run : runs) {
      if (run.owner != me) continue;
      if (compressed.ok()) {
        const SymbolSource codes = sourceOf(run);
        FrameCompressor compressor(codes, blockCodes, dictionary, threads, batchBlocks);
        compressed = compressor.compressAll([&](std::span<const uint8_t> frames, std::span<const uint64_t> sizes) {
          const uint64_t head[2] = {sizes.size(), frames.size()};
          if (absl::Status s = share.sendBytes(0, reinterpret_cast<const uint8_t*>(head), sizeof head); !s.ok())
            return s;
          if (absl::Status s = share.sendBytes(0, reinterpret_cast<const uint8_t*>(sizes.data()), 8 * sizes.size());
              !s.ok())
            return s;
          return share.sendBytes(0, frames.data(), frames.size());
        });
      }
      const uint64_t end[2] = {compressed.ok() ? 0 : kFailed, 0};
      if (absl::Status s = share.sendBytes(0, reinterpret_cast<const uint8_t*>(end), sizeof end); !s.ok()) return s;
    }
    return compressed;
  }
  size_t next = 0;  // the runs rank 0 has taken
  absl::Status written = checkOutputPath(path);
  if (written.ok()) {
    FileHeader h = headerOf(variant, entries, stats);
    written = writeAtomically(path, [&](FILE* f) {
      return writeBody(f, h, dictionary, (entries + blockCodes - 1) / blockCodes, [&](auto&& write) {
        while (next < runs.size()) {
          const BlockRun& run = runs[next++];
          absl::Status s;
          if (run.owner == 0) {
            const SymbolSource codes = sourceOf(run);
            s = FrameCompressor(codes, blockCodes, dictionary, threads, batchBlocks).compressAll(write);
          } else {
            s = receiveFrames(share, run.owner, run.end - run.first, write);
          }
          if (!s.ok()) return s;
        }
        return absl::OkStatus();
      });
    });
  }
  for (; next < runs.size(); ++next)
    if (runs[next].owner != 0)
      receiveFrames(share, runs[next].owner, 0, [](auto&&, auto&&) { return absl::OkStatus(); }).IgnoreError();
  return written;
}
}  // namespace

absl::Status writeFileOfRanks(const std::string& path, const Variant& variant, const SolvedPart& part, int threads,
                              BuildShare& share, uint64_t batchBlocks) {
  const RankRanges ranges(part.entries, share.ranks());
  std::vector<BlockRun> runs;
  for (int r = 0; r < share.ranks(); ++r)
    if (ranges.first(r + 1) > ranges.first(r))
      runs.push_back({ranges.first(r) / kBlockCodes, (ranges.first(r + 1) + kBlockCodes - 1) / kBlockCodes, r});
  const auto read = [&part](uint64_t first, uint64_t count, uint8_t* out) {
    const uint8_t* codes = part.codes.data() + (first - part.first);
    std::transform(codes, codes + count, out, storedSymbol);
  };
  return writeOfRuns(path, variant, part.entries, part.stats, runs, read, threads, share, batchBlocks);
}

absl::Status writeFileOfSlices(const std::string& path, const Variant& variant, const PackedSolution& part, int threads,
                               BuildShare& share, uint64_t batchBlocks) {
  const Index index(variant);
  const std::vector<Index::Slice>& slices = index.slices();
  const uint64_t entries = index.size();
  const int me = share.rank(), ranks = share.ranks();
  if (part.owners.size() != slices.size())
    return absl::InternalError(
        absl::StrCat("rank ", me, ": ", part.owners.size(), " slice owners for ", slices.size(), " slices"));
  // A block is compressed by the holder of its first number's slice.
  std::vector<BlockRun> runs;
  for (size_t s = 0; s < slices.size(); ++s) {
    const uint64_t first = (slices[s].offset + kBlockCodes - 1) / kBlockCodes,
                   end = (slices[s].offset + slices[s].size + kBlockCodes - 1) / kBlockCodes;
    if (end <= first) continue;
    if (!runs.empty() && runs.back().owner == part.owners[s] && runs.back().end == first)
      runs.back().end = end;
    else
      runs.push_back({first, end, part.owners[s]});
  }
  // The blocks that hold numbers of other ranks' slices than their
  // compressor's ("mixed"): each rank sends the stored symbols of its
  // numbers there to the compressor, which keeps the whole block.
  struct Piece {
    uint64_t block, first, count;  // numbers first..first+count-1 of block
    int from, to;
  };
  std::vector<Piece> pieces;
  size_t run = 0;
  for (size_t s = 0; s < slices.size(); ++s) {
    const uint64_t begin = slices[s].offset, end = begin + slices[s].size;
    if (begin == end) continue;
    // Only its first block can begin in another slice.
    for (uint64_t b = begin / kBlockCodes; b * kBlockCodes < end; b = std::max(b + 1, end / kBlockCodes)) {
      while (runs[run].end <= b) ++run;
      const int to = runs[run].owner;
      if (to == part.owners[s]) continue;
      const uint64_t first = std::max(begin, b * kBlockCodes), last = std::min(end, (b + 1) * kBlockCodes);
      pieces.push_back({b, first, last - first, part.owners[s], to});
    }
  }
  std::vector<std::vector<uint64_t>> toEach(ranks);
  for (const Piece& p : pieces)
    if (p.from == me) {
      std::vector<uint8_t> bytes((p.count + 7) / 8 * 8, 0);
      part.codes.storedSymbols(p.first, p.count, bytes.data());
      const size_t at = toEach[p.to].size();
      toEach[p.to].resize(at + bytes.size() / 8);
      std::memcpy(toEach[p.to].data() + at, bytes.data(), bytes.size());
    }
  std::vector<uint64_t> received;
  if (absl::Status s = share.exchangeWords(toEach, &received); !s.ok()) return s;
  toEach = {};
  std::unordered_map<uint64_t, std::vector<uint8_t>> mixed;  // block -> its stored symbols
  std::vector<std::vector<const Piece*>> fromRank(ranks);
  for (const Piece& p : pieces)
    if (p.to == me) {
      mixed[p.block];
      fromRank[p.from].push_back(&p);
    }
  uint64_t expected = 0;
  for (int r = 0; r < ranks; ++r)
    for (const Piece* p : fromRank[r]) expected += (p->count + 7) / 8;
  const absl::Status size =
      received.size() == expected
          ? absl::OkStatus()
          : absl::DataLossError(absl::StrCat("rank ", me, " received ", received.size(),
                                             " words of the blocks it compresses, ", expected, " expected"));
  if (absl::Status s = share.agree(size); !s.ok()) return s;
  for (auto& [b, bytes] : mixed) {
    const uint64_t first = b * kBlockCodes, count = std::min<uint64_t>(kBlockCodes, entries - first);
    bytes.assign(count, kNoState);
    // Its numbers in this rank's slices.
    for (size_t s = static_cast<size_t>(index.sliceOfIndex(first));
         s < slices.size() && slices[s].offset < first + count; ++s) {
      if (part.owners[s] != me) continue;
      const uint64_t from = std::max(first, slices[s].offset),
                     to = std::min(first + count, slices[s].offset + slices[s].size);
      if (to > from) part.codes.storedSymbols(from, to - from, bytes.data() + (from - first));
    }
  }
  const uint8_t* at = reinterpret_cast<const uint8_t*>(received.data());
  for (int r = 0; r < ranks; ++r)
    for (const Piece* p : fromRank[r]) {
      std::memcpy(mixed[p->block].data() + (p->first - p->block * kBlockCodes), at, p->count);
      at += (p->count + 7) / 8 * 8;
    }
  const auto read = [&](uint64_t first, uint64_t count, uint8_t* out) {
    if (const auto it = mixed.find(first / kBlockCodes); it != mixed.end())
      std::memcpy(out, it->second.data(), count);
    else
      part.codes.storedSymbols(first, count, out);
  };
  return writeOfRuns(path, variant, entries, part.stats, runs, read, threads, share, batchBlocks);
}

uint64_t File::filesOpened() { return openedFiles.load(std::memory_order_relaxed); }

File::~File() {
  if (map_) ::munmap(map_, mapSize_);
}

void DictionaryDeleter::operator()(void* dictionary) const { ZSTD_freeDDict(static_cast<ZSTD_DDict*>(dictionary)); }

absl::StatusOr<Numbering> checkHeader(std::string_view headerBytes, FileHeader* header, uint64_t fileSize) {
  using absl::InvalidArgumentError;
  if (fileSize < sizeof(FileHeader) || headerBytes.size() < sizeof(FileHeader))
    return InvalidArgumentError(
        absl::StrCat("truncated: ", fileSize, " bytes, shorter than the ", sizeof(FileHeader), "-byte header"));
  std::memcpy(header, headerBytes.data(), sizeof(FileHeader));
  const FileHeader& h = *header;
  if (std::memcmp(h.magic, kMagic, 8) != 0) return InvalidArgumentError("not a gobblet tablebase (bad magic)");
  if (h.version < kOldestFormatVersion || h.version > kFormatVersion)
    return InvalidArgumentError(absl::StrCat("format version ", h.version, ", this program reads versions ",
                                             kOldestFormatVersion, " to ", kFormatVersion,
                                             " (rebuild it with gobblet-tb build)"));
  if (h.headerSize != sizeof(FileHeader))
    return InvalidArgumentError(absl::StrCat("header size ", h.headerSize, ", expected ", sizeof(FileHeader)));
  const bool of3x3 = h.n == 3 && h.sizes >= 1 && h.sizes <= 3 && h.perSize >= 1 && h.perSize <= 9 && h.moving <= 1;
  const bool of4x4 = h.n == 4 && h.sizes >= 1 && h.sizes <= 4 && h.perSize >= 1 && h.perSize <= 3 && h.moving == 1;
  if (!of3x3 && !of4x4) return InvalidArgumentError("the header names no variant of the 3x3 or 4x4 family");
  Numbering index = Numbering::of(of3x3 ? Variant::family(h.sizes, h.perSize, h.moving == 1)
                                        : Variant::family4x4(h.sizes, h.perSize));
  if (index.index4 && !index.index4->fits())
    return InvalidArgumentError(absl::StrCat("variant ", index.variant().name(), " has no tablebase: too large"));
  if (h.entries != index.size())
    return InvalidArgumentError(
        absl::StrCat("header says ", h.entries, " entries, variant ", index.variant().name(), " has ", index.size()));
  if (h.blockCodes < kMinBlockCodes || h.blockCodes > kMaxBlockCodes)
    return InvalidArgumentError(absl::StrCat("header says ", h.blockCodes, " codes per block, ", kMinBlockCodes, " to ",
                                             kMaxBlockCodes, " are read"));
  if (h.dictionaryBytes > kDictionaryBytes)
    return InvalidArgumentError(absl::StrCat("header says a dictionary of ", h.dictionaryBytes, " bytes, at most ",
                                             kDictionaryBytes, " are read"));
  // The dictionary and the block table must be there.
  if (fileSize < framesAt(h))
    return InvalidArgumentError(absl::StrCat("truncated: ", fileSize,
                                             " bytes, shorter than the header, the dictionary and the ",
                                             8 * (blocksOf(h) + 1), "-byte block table"));
  return index;
}

absl::Status checkFramesBytes(const FileHeader& h, uint64_t framesBytes, uint64_t fileSize) {
  // No frame is larger than zstd's bound for its block: a table that
  // claims more (and a file padded to match) is refused before a reader
  // copies or fetches it.
  const uint64_t framesBound = blocksOf(h) * ZSTD_compressBound(h.blockCodes);
  if (framesBytes > framesBound)
    return absl::InvalidArgumentError(absl::StrCat("corrupt: the block table claims ", framesBytes,
                                                   " bytes of frames, ", blocksOf(h), " blocks compress to at most ",
                                                   framesBound));
  const uint64_t expected = framesAt(h) + framesBytes;
  if (fileSize != expected)
    return absl::InvalidArgumentError(absl::StrCat(fileSize < expected ? "truncated" : "too long", ": ", fileSize,
                                                   " bytes, the block table says ", expected));
  return absl::OkStatus();
}

absl::Status checkBlockEntry(const FileHeader& h, const uint64_t* table, uint64_t b, uint64_t framesBytes) {
  if ((b == 0 && table[0] != 0) || (b + 1 == blocksOf(h) && table[b + 1] != framesBytes))
    return absl::DataLossError("corrupt: the block table does not span the frames");
  if (table[b + 1] <= table[b] || table[b + 1] > framesBytes)
    return absl::DataLossError(absl::StrCat("corrupt: block ", b, " of the block table lies outside the frames",
                                            table[b + 1] == table[b] ? " (it is empty)" : ""));
  if (const uint64_t bound = ZSTD_compressBound(codesInBlock(h, b)); table[b + 1] - table[b] > bound)
    return absl::DataLossError(absl::StrCat("corrupt: block ", b, "'s frame is ", table[b + 1] - table[b],
                                            " bytes, zstd makes at most ", bound, " of its codes"));
  return absl::OkStatus();
}

absl::Status checkBlockTable(const FileHeader& h, const uint64_t* table, uint64_t framesBytes) {
  for (uint64_t b = 0; b < blocksOf(h); ++b)
    if (absl::Status s = checkBlockEntry(h, table, b, framesBytes); !s.ok()) return s;
  return absl::OkStatus();
}

absl::StatusOr<Dictionary> makeDictionary(const FileHeader& h, const uint8_t* bytes) {
  if (h.dictionaryBytes == 0) return Dictionary();
  Dictionary dictionary(ZSTD_createDDict(bytes, h.dictionaryBytes));
  if (!dictionary) return absl::DataLossError("corrupt: the dictionary is not a zstd dictionary");
  return dictionary;
}

bool decodeFrame(const Dictionary& dictionary, const uint8_t* frame, uint64_t frameBytes, uint8_t* out, uint64_t codes,
                 void* context) {
  auto* dctx = static_cast<ZSTD_DCtx*>(context);
  const size_t n = dictionary ? ZSTD_decompress_usingDDict(dctx, out, codes, frame, frameBytes,
                                                           static_cast<const ZSTD_DDict*>(dictionary.get()))
                              : ZSTD_decompressDCtx(dctx, out, codes, frame, frameBytes);
  return !ZSTD_isError(n) && n == codes;
}

namespace {

// Reads `size` bytes at `offset` of fd into `out`; false if the file ended
// first (it shrank since fstat) or a read failed.
bool readFully(int fd, uint8_t* out, uint64_t size, uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pread(fd, out, std::min<uint64_t>(size, 1u << 24), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n, offset += static_cast<uint64_t>(n), size -= static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const File>> File::open(const std::string& path) {
  auto fail = [&path](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("tablebase file '", path, "': ", why));
  };
  // An error of loading or decoding, its code kept (DataLoss: the bytes;
  // ResourceExhausted: the process), its text after the path.
  auto failWith = [&path](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat("tablebase file '", path, "': ", s.message()));
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then
  // refuses it (and any other file that is not a regular one).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return absl::NotFoundError(absl::StrCat("tablebase file '", path, "' does not exist"));
    return absl::UnavailableError(absl::StrCat("tablebase file '", path, "': ", std::strerror(errno)));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  openedFiles.fetch_add(1, std::memory_order_relaxed);
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return absl::UnavailableError(absl::StrCat("tablebase file '", path, "': ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) return fail("not a regular file");
  const uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  std::shared_ptr<File> tb(new File());
  tb->path_ = path;
  char headerBytes[sizeof(FileHeader)];
  const bool headerRead =
      fileSize >= sizeof headerBytes && readFully(fd, reinterpret_cast<uint8_t*>(headerBytes), sizeof headerBytes, 0);
  absl::StatusOr<Numbering> index =
      checkHeader(std::string_view(headerBytes, headerRead ? sizeof headerBytes : 0), &tb->header_, fileSize);
  if (!index.ok()) return failWith(index.status());
  tb->numbering_ = *std::move(index);
  tb->variant_ = tb->numbering_.variant();
  const FileHeader& h = tb->header_;
  // The table's last offset gives the frames' size.
  uint64_t framesBytes = 0;
  if (!readFully(fd, reinterpret_cast<uint8_t*>(&framesBytes), 8, framesAt(h) - 8))
    return fail("the file changed (shrank) while it was being read");
  if (absl::Status s = checkFramesBytes(h, framesBytes, fileSize); !s.ok()) return failWith(s);
  if (absl::Status s = tb->loadChecked(fd, fileSize - sizeof(FileHeader)); !s.ok()) return failWith(s);
  tb->id_ = nextFileId.fetch_add(1);
  return std::shared_ptr<const File>(std::move(tb));
}

// The memory that holds a file's body: a memfd named after the file (so
// /proc/PID/maps shows which file it holds), to be sealed against any change
// of size or content, or anonymous private memory where memfd is missing.
// Sized at once (its pages are taken only as they are written) and mapped
// for writing while it is filled and checked.
struct File::Holder {
  int memfd = -1;
  uint8_t* bytes = nullptr;
  uint64_t size = 0;
  ~Holder() {
    if (bytes) ::munmap(bytes, size);
    if (memfd >= 0) ::close(memfd);
  }
};

// Copies the file after its header into memory of this process piece by
// piece, checking as it goes: the dictionary and the block table first,
// then the frames, each block decoded as soon as its frame is in, and the
// checksum summed over the same bytes. A file refused for its content is
// read on to its end through a small buffer, so that a file damaged
// anywhere is refused for its checksum first. A refused file has made the
// process hold only the bytes up to the piece (16 MiB) of its first wrong
// one; one that passes is held whole, then sealed and mapped read-only.
absl::Status File::loadChecked(int fd, uint64_t size) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0 && size > static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize))
    return absl::ResourceExhaustedError(absl::StrCat("holding it takes ", size, " bytes, more than this machine's ",
                                                     static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize),
                                                     " bytes of memory"));
  Holder holder;
  holder.size = std::max<uint64_t>(size, 1);
  const auto cannotHold = [size] {
    return absl::ResourceExhaustedError(absl::StrCat("cannot hold ", size, " bytes: ", std::strerror(errno)));
  };
#ifndef __EMSCRIPTEN__  // (the WebAssembly engine has no memfd)
  const std::string name = path_.size() > 200 ? path_.substr(path_.size() - 200) : path_;
  holder.memfd = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
#endif
  void* w = MAP_FAILED;
  if (holder.memfd >= 0) {
    if (::ftruncate(holder.memfd, static_cast<off_t>(holder.size)) != 0) return cannotHold();
    w = ::mmap(nullptr, holder.size, PROT_READ | PROT_WRITE, MAP_SHARED, holder.memfd, 0);
  } else {
    w = ::mmap(nullptr, holder.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }
  if (w == MAP_FAILED) return cannotHold();
  holder.bytes = static_cast<uint8_t*>(w);

  const absl::Status shrank = absl::DataLossError("the file changed (shrank) while it was being read");
  Checksum checksum(headerChecksum(header_));
  uint64_t copied = 0;                    // bytes of the body in the holder, and summed
  const auto copyTo = [&](uint64_t to) {  // the body's bytes [copied, to) into the holder
    if (!readFully(fd, holder.bytes + copied, to - copied, sizeof(FileHeader) + copied)) return false;
    checksum.add(holder.bytes + copied, to - copied);
    copied = to;
    return true;
  };
  // A content error `why`, or the checksum's if the file does not match it.
  const auto refuse = [&](absl::Status why) {
    std::vector<uint8_t> buffer(std::min<uint64_t>(size - copied, uint64_t{1} << 20));
    for (uint64_t at = copied; at < size;) {
      const uint64_t n = std::min<uint64_t>(buffer.size(), size - at);
      if (!readFully(fd, buffer.data(), n, sizeof(FileHeader) + at)) return shrank;
      checksum.add(buffer.data(), n);
      at += n;
    }
    return checksum.value() != header_.checksum ? absl::DataLossError("corrupt: checksum mismatch") : why;
  };

  // The dictionary; then pieces of the rest, each followed by the checks of
  // the block table's entries and the decoding of the frames it completed.
  const uint64_t tableAt = paddedDictionaryBytes(header_), framesStart = tableAt + 8 * (blocks() + 1);
  if (!copyTo(tableAt)) return shrank;
  absl::StatusOr<Dictionary> dictionary = makeDictionary(header_, holder.bytes);
  if (!dictionary.ok()) return refuse(dictionary.status());
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) return absl::ResourceExhaustedError("cannot create a zstd decompression context");
  std::vector<uint8_t> scratch(header_.blockCodes);
  const auto* table = reinterpret_cast<const uint64_t*>(holder.bytes + tableAt);
  constexpr uint64_t kPiece = uint64_t{1} << 24;
  uint64_t checked = 0, decoded = 0;  // blocks whose table entries were checked, whose frames were decoded
  while (copied < size) {
    if (!copyTo(std::min(size, copied + kPiece))) return shrank;
    for (; checked < blocks() && tableAt + 8 * (checked + 2) <= copied; ++checked)
      if (absl::Status s = checkBlockEntry(header_, table, checked, size - framesStart); !s.ok()) return refuse(s);
    for (; decoded < checked && framesStart + table[decoded + 1] <= copied; ++decoded)
      if (!decodeFrame(*dictionary, holder.bytes + framesStart + table[decoded], table[decoded + 1] - table[decoded],
                       scratch.data(), codesInBlock(header_, decoded), context.get()))
        return refuse(absl::DataLossError(absl::StrCat("corrupt: block ", decoded, " does not decode to its ",
                                                       codesInBlock(header_, decoded), " codes")));
  }
  if (checksum.value() != header_.checksum) return absl::DataLossError("corrupt: checksum mismatch");

  if (holder.memfd >= 0) {
    ::munmap(holder.bytes, holder.size);
    holder.bytes = nullptr;
    ::fcntl(holder.memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    w = ::mmap(nullptr, holder.size, PROT_READ, MAP_SHARED, holder.memfd, 0);
    if (w == MAP_FAILED) return cannotHold();
    map_ = w;
  } else {
    ::mprotect(holder.bytes, holder.size, PROT_READ);
    map_ = std::exchange(holder.bytes, nullptr);
  }
  mapSize_ = holder.size;
  dictionaryBytes_ = static_cast<const uint8_t*>(map_);
  blockTable_ = reinterpret_cast<const uint64_t*>(dictionaryBytes_ + tableAt);
  frames_ = dictionaryBytes_ + framesStart;
  dictionary_ = *std::move(dictionary);  // zstd keeps its own copy of the dictionary's bytes
  return absl::OkStatus();
}

bool File::decodeBlock(uint64_t b, uint8_t* out, void* context) const {
  const uint64_t begin = blockTable_[b], end = blockTable_[b + 1];
  return decodeFrame(dictionary_, frames_ + begin, end - begin, out, codesInBlock(header_, b), context);
}

absl::StatusOr<CodeArray> File::decodeAll(const std::string& codesDirectory, int threads) const {
  absl::StatusOr<CodeArray> codes = CodeArray::inMemoryOrFile(header_.entries, codesDirectory);
  if (!codes.ok()) return codes.status();
  threads = std::max(1, threads);
  std::vector<std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)>> contexts;
  for (int t = 0; t < threads; ++t) {
    contexts.emplace_back(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!contexts.back()) return absl::ResourceExhaustedError("cannot create a zstd decompression context");
  }
  std::atomic<bool> failed{false};
  parallelFor(blocks(), threads, 64, [&](int worker, uint64_t b) {
    uint8_t* out = codes->data() + b * header_.blockCodes;
    if (!decodeBlock(b, out, contexts[worker].get())) {
      failed = true;
      return;
    }
    if (header_.version < 3) return;
    if (numbering_.index4)
      Numbering::resolveRuled(*numbering_.index4, out, b * header_.blockCodes, codesInBlock(header_, b));
    else
      Numbering::resolveRuled(*numbering_.index3, out, b * header_.blockCodes, codesInBlock(header_, b));
  });
  if (failed) return absl::DataLossError("a block does not decode");  // checked at open: never
  return codes;
}

}  // namespace gobblet::tb
