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
#include <filesystem>
#include <span>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/parallel_for.h"
#include "zdict.h"
#include "zstd.h"

namespace gobblet::tb {

uint64_t checksumOf(const uint8_t* data, uint64_t size, uint64_t seed) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t lane[4] = {seed ^ 0x243F6A8885A308D3ull, seed ^ 0x13198A2E03707344ull, seed ^ 0xA4093822299F31D0ull,
                      seed ^ 0x082EFA98EC4E6C89ull};
  uint64_t i = 0;
  for (; i + 32 <= size; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, data + i + 8 * k, 8);
      lane[k] = (lane[k] ^ w) * kMul;
      lane[k] ^= lane[k] >> 29;
    }
  uint64_t h = size * kMul;
  for (; i < size; ++i) h = (h ^ data[i]) * kMul;
  for (int k = 0; k < 4; ++k) h = ((h ^ lane[k]) * kMul) ^ (h >> 31);
  return h;
}

namespace {

// The checksum of a file: its header with the checksum field zero, then
// everything after the header (dictionary, block table and frames).
uint64_t fileChecksum(FileHeader header, const uint8_t* body, uint64_t size) {
  header.checksum = 0;
  const uint64_t h = checksumOf(reinterpret_cast<const uint8_t*>(&header), sizeof header);
  return checksumOf(body, size, h);
}

// A dictionary for the blocks of `codes` (empty where zstd cannot train
// one: a variant with too few blocks to learn from).
std::vector<uint8_t> trainDictionary(std::span<const uint8_t> codes, uint32_t blockCodes) {
  const uint64_t blocks = codes.size() / blockCodes;  // whole blocks only
  const uint64_t step = std::max<uint64_t>(1, (blocks + kDictionarySampleBlocks - 1) / kDictionarySampleBlocks);
  std::vector<uint8_t> samples;
  std::vector<size_t> sizes;
  for (uint64_t b = 0; b < blocks; b += step) {
    samples.insert(samples.end(), codes.begin() + static_cast<std::ptrdiff_t>(b * blockCodes),
                   codes.begin() + static_cast<std::ptrdiff_t>((b + 1) * blockCodes));
    sizes.push_back(blockCodes);
  }
  std::vector<uint8_t> dictionary(kDictionaryBytes);
  const size_t n = sizes.size() < 8 ? 0
                                    : ZDICT_trainFromBuffer(dictionary.data(), dictionary.size(), samples.data(),
                                                            sizes.data(), static_cast<unsigned>(sizes.size()));
  dictionary.resize(sizes.size() < 8 || ZDICT_isError(n) ? 0 : n);
  return dictionary;
}

// The body of a file (dictionary, block table, then frames) for `codes`, in
// blocks of `blockCodes`; an error if zstd fails. Each block is a frame of
// its own, so `threads` threads compress contiguous runs of blocks at once
// and the runs are joined in order: the body does not depend on the
// thread count.
absl::StatusOr<std::vector<uint8_t>> compressCodes(std::span<const uint8_t> codes, uint32_t blockCodes,
                                                   uint32_t* dictionaryBytes, int threads) {
  std::vector<uint8_t> body = trainDictionary(codes, blockCodes);
  *dictionaryBytes = static_cast<uint32_t>(body.size());
  body.resize((body.size() + 7) / 8 * 8);  // the block table starts 8-byte aligned
  const uint64_t blocks = (codes.size() + blockCodes - 1) / blockCodes;
  const uint64_t tableAt = body.size(), tableBytes = 8 * (blocks + 1);
  std::unique_ptr<ZSTD_CDict, size_t (*)(ZSTD_CDict*)> dictionary(
      ZSTD_createCDict(body.data(), *dictionaryBytes, kCompressionLevel), ZSTD_freeCDict);
  if (!dictionary) return absl::ResourceExhaustedError("cannot create a zstd compression context");
  struct Run {
    uint64_t firstBlock = 0, endBlock = 0;
    std::vector<uint8_t> frames;
    std::vector<uint64_t> sizes;
    std::string error;
  };
  const uint64_t runs = std::clamp<uint64_t>(static_cast<uint64_t>(threads), 1, std::max<uint64_t>(1, blocks));
  std::vector<Run> run(runs);
  auto compressRun = [&](Run& r) {
    std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> context(ZSTD_createCCtx(), ZSTD_freeCCtx);
    if (!context) {
      r.error = "cannot create a zstd compression context";
      return;
    }
    std::vector<uint8_t> frame(ZSTD_compressBound(blockCodes));
    for (uint64_t b = r.firstBlock; b < r.endBlock; ++b) {
      const uint64_t first = b * blockCodes, count = std::min<uint64_t>(blockCodes, codes.size() - first);
      const size_t n = ZSTD_compress_usingCDict(context.get(), frame.data(), frame.size(), codes.data() + first, count,
                                                dictionary.get());
      if (ZSTD_isError(n)) {
        r.error = absl::StrCat("zstd: ", ZSTD_getErrorName(n));
        return;
      }
      r.frames.insert(r.frames.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(n));
      r.sizes.push_back(n);
    }
  };
  for (uint64_t k = 0; k < runs; ++k) {
    run[k].firstBlock = blocks * k / runs;
    run[k].endBlock = blocks * (k + 1) / runs;
  }
  parallelFor(runs, static_cast<int>(runs), [&](int, uint64_t k) { compressRun(run[k]); });
  std::vector<uint64_t> table(blocks + 1, 0);
  uint64_t framesBytes = 0;
  for (const Run& r : run) {
    if (!r.error.empty()) return absl::InternalError(r.error);
    framesBytes += r.frames.size();
  }
  // The body is reserved whole and each run let go once copied: the frames
  // are held about once, not twice (3x3:3,3,x's are gigabytes).
  body.reserve(body.size() + tableBytes + framesBytes);
  body.resize(body.size() + tableBytes);
  uint64_t b = 0;
  for (Run& r : run) {
    for (uint64_t n : r.sizes) table[b + 1] = table[b] + n, ++b;
    body.insert(body.end(), r.frames.begin(), r.frames.end());
    std::vector<uint8_t>().swap(r.frames);
  }
  std::memcpy(body.data() + tableAt, table.data(), tableBytes);
  return body;
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

absl::Status writeFile(const std::string& path, const Variant& variant, const Solution& result, int threads) {
  if (absl::Status target = checkOutputPath(path); !target.ok()) return target;
  FileHeader h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kFormatVersion;
  h.headerSize = sizeof(FileHeader);
  h.n = variant.n;
  h.sizes = variant.sizes;
  h.perSize = variant.perSize;
  h.moving = variant.moving ? 1 : 0;
  h.blockCodes = kBlockCodes;
  h.entries = result.codes.size();
  h.states = result.stats.states;
  h.terminal = result.stats.terminal;
  h.wins = result.stats.wins;
  h.draws = result.stats.draws;
  h.losses = result.stats.losses;
  h.startCode = result.stats.start;
  h.maxDistance = static_cast<uint8_t>(result.stats.maxDistance);
  absl::StatusOr<std::vector<uint8_t>> body = compressCodes(
      {result.codes.data(), static_cast<size_t>(result.codes.size())}, h.blockCodes, &h.dictionaryBytes, threads);
  if (!body.ok()) return body.status();
  h.checksum = fileChecksum(h, body->data(), body->size());

  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create directory for '", path, "': ", ec.message()));
  // A temporary name of this writer alone (process id and a per-process
  // counter): two writers of one target never share a temporary file, and
  // the last rename wins with a complete file.
  static std::atomic<uint64_t> writes{0};
  const std::string tmp = absl::StrCat(path, ".part.", ::getpid(), ".", writes.fetch_add(1));
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return absl::UnavailableError(absl::StrCat("cannot write '", tmp, "': ", std::strerror(errno)));
  // Each failure's errno is kept at once: the calls after it (a stat, the
  // removal of the temporary file) may set errno again.
  const auto failed = [&](int error) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot write '", path, "': ", std::strerror(error ? error : EIO)));
  };
  errno = 0;
  const bool written =
      std::fwrite(&h, sizeof h, 1, f) == 1 && std::fwrite(body->data(), 1, body->size(), f) == body->size();
  int error = written ? 0 : errno;
  errno = 0;
  if (std::fclose(f) != 0 && error == 0) error = errno ? errno : EIO;  // the buffered rest could not be written
  if (!written || error) return failed(error);
  if (absl::Status target = checkOutputPath(path); !target.ok()) {  // made meanwhile
    std::remove(tmp.c_str());
    return target;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return failed(errno);
  return absl::OkStatus();
}

uint64_t File::filesOpened() { return openedFiles.load(std::memory_order_relaxed); }

File::~File() {
  if (map_) ::munmap(map_, mapSize_);
}

void DictionaryDeleter::operator()(void* dictionary) const { ZSTD_freeDDict(static_cast<ZSTD_DDict*>(dictionary)); }

absl::StatusOr<std::unique_ptr<Index>> checkHeader(std::string_view headerBytes, FileHeader* header,
                                                   uint64_t fileSize) {
  using absl::InvalidArgumentError;
  if (fileSize < sizeof(FileHeader) || headerBytes.size() < sizeof(FileHeader))
    return InvalidArgumentError(
        absl::StrCat("truncated: ", fileSize, " bytes, shorter than the ", sizeof(FileHeader), "-byte header"));
  std::memcpy(header, headerBytes.data(), sizeof(FileHeader));
  const FileHeader& h = *header;
  if (std::memcmp(h.magic, kMagic, 8) != 0) return InvalidArgumentError("not a gobblet tablebase (bad magic)");
  if (h.version != kFormatVersion)
    return InvalidArgumentError(absl::StrCat("format version ", h.version, ", this program reads version ",
                                             kFormatVersion, " (rebuild it with gobblet-tb build)"));
  if (h.headerSize != sizeof(FileHeader))
    return InvalidArgumentError(absl::StrCat("header size ", h.headerSize, ", expected ", sizeof(FileHeader)));
  if (h.n != 3 || h.sizes < 1 || h.sizes > 3 || h.perSize < 1 || h.perSize > 9 || h.moving > 1)
    return InvalidArgumentError("the header names no 3x3 variant");
  auto index = std::make_unique<Index>(Variant::family(h.sizes, h.perSize, h.moving == 1));
  if (h.entries != index->size())
    return InvalidArgumentError(
        absl::StrCat("header says ", h.entries, " entries, variant ", index->variant().name(), " has ", index->size()));
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

absl::Status checkBlockTable(const FileHeader& h, const uint64_t* table, uint64_t framesBytes) {
  const uint64_t blocks = blocksOf(h);
  if (table[0] != 0 || table[blocks] != framesBytes)
    return absl::DataLossError("corrupt: the block table does not span the frames");
  for (uint64_t b = 0; b < blocks; ++b)
    if (table[b + 1] < table[b] || table[b + 1] > framesBytes)
      return absl::DataLossError(absl::StrCat("corrupt: block ", b, " of the block table lies outside the frames"));
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
  absl::StatusOr<std::unique_ptr<Index>> index =
      checkHeader(std::string_view(headerBytes, headerRead ? sizeof headerBytes : 0), &tb->header_, fileSize);
  if (!index.ok()) return failWith(index.status());
  tb->index_ = *std::move(index);
  tb->variant_ = tb->index_->variant();
  const FileHeader& h = tb->header_;
  // The table's last offset gives the frames' size.
  uint64_t framesBytes = 0;
  if (!readFully(fd, reinterpret_cast<uint8_t*>(&framesBytes), 8, framesAt(h) - 8))
    return fail("the file changed (shrank) while it was being read");
  if (absl::Status s = checkFramesBytes(h, framesBytes, fileSize); !s.ok()) return failWith(s);
  if (absl::Status s = tb->load(fd, fileSize - sizeof(FileHeader)); !s.ok()) return failWith(s);
  if (fileChecksum(h, static_cast<const uint8_t*>(tb->map_), tb->mapSize_) != h.checksum)
    return fail("corrupt: checksum mismatch");
  if (absl::Status s = tb->checkBlocks(); !s.ok()) return failWith(s);
  tb->id_ = nextFileId.fetch_add(1);
  return std::shared_ptr<const File>(std::move(tb));
}

// Copies the file after its header into memory of this process: a memfd named after the
// file (so /proc/PID/maps shows which file it holds), filled, sealed against
// any change of size or content, and mapped read-only. Where memfd is
// missing, anonymous private memory.
absl::Status File::load(int fd, uint64_t size) {
  mapSize_ = std::max<uint64_t>(size, 1);
  const std::string name = path_.size() > 200 ? path_.substr(path_.size() - 200) : path_;
#ifdef __EMSCRIPTEN__
  const int mem = -1;  // (the WebAssembly engine has no memfd)
#else
  const int mem = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
#endif
  if (mem >= 0) {
    struct FdCloser {
      int fd;
      ~FdCloser() { ::close(fd); }
    } closer{mem};
    if (::ftruncate(mem, static_cast<off_t>(mapSize_)) != 0)
      return absl::ResourceExhaustedError(absl::StrCat("cannot hold ", size, " bytes: ", std::strerror(errno)));
    void* w = ::mmap(nullptr, mapSize_, PROT_READ | PROT_WRITE, MAP_SHARED, mem, 0);
    if (w == MAP_FAILED)
      return absl::ResourceExhaustedError(absl::StrCat("cannot hold ", size, " bytes: ", std::strerror(errno)));
    const bool read = readFully(fd, static_cast<uint8_t*>(w), size, sizeof(FileHeader));
    ::munmap(w, mapSize_);
    if (!read) return absl::DataLossError("the file changed (shrank) while it was being read");
    ::fcntl(mem, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    map_ = ::mmap(nullptr, mapSize_, PROT_READ, MAP_SHARED, mem, 0);
    if (map_ == MAP_FAILED) {
      map_ = nullptr;
      return absl::ResourceExhaustedError(absl::StrCat("cannot map ", size, " bytes: ", std::strerror(errno)));
    }
  } else {
    map_ = ::mmap(nullptr, mapSize_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map_ == MAP_FAILED) {
      map_ = nullptr;
      return absl::ResourceExhaustedError(absl::StrCat("cannot hold ", size, " bytes: ", std::strerror(errno)));
    }
    if (!readFully(fd, static_cast<uint8_t*>(map_), size, sizeof(FileHeader)))
      return absl::DataLossError("the file changed (shrank) while it was being read");
    ::mprotect(map_, mapSize_, PROT_READ);
  }
  dictionaryBytes_ = static_cast<const uint8_t*>(map_);
  blockTable_ = reinterpret_cast<const uint64_t*>(dictionaryBytes_ + paddedDictionaryBytes(header_));
  frames_ = dictionaryBytes_ + paddedDictionaryBytes(header_) + 8 * (blocks() + 1);
  return absl::OkStatus();
}

bool File::decodeBlock(uint64_t b, uint8_t* out, void* context) const {
  const uint64_t begin = blockTable_[b], end = blockTable_[b + 1];
  return decodeFrame(dictionary_, frames_ + begin, end - begin, out, codesInBlock(header_, b), context);
}

absl::Status File::checkBlocks() {
  absl::StatusOr<Dictionary> dictionary = makeDictionary(header_, dictionaryBytes_);
  if (!dictionary.ok()) return dictionary.status();
  dictionary_ = *std::move(dictionary);
  const uint64_t framesBytes = mapSize_ - paddedDictionaryBytes(header_) - 8 * (blocks() + 1);
  if (absl::Status s = checkBlockTable(header_, blockTable_, framesBytes); !s.ok()) return s;
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) return absl::ResourceExhaustedError("cannot create a zstd decompression context");
  std::vector<uint8_t> scratch(header_.blockCodes);
  for (uint64_t b = 0; b < blocks(); ++b)
    if (!decodeBlock(b, scratch.data(), context.get()))
      return absl::DataLossError(
          absl::StrCat("corrupt: block ", b, " does not decode to its ", codesInBlock(header_, b), " codes"));
  return absl::OkStatus();
}

absl::StatusOr<CodeArray> File::decodeAll(const std::string& codesDirectory) const {
  absl::StatusOr<CodeArray> codes = CodeArray::inMemoryOrFile(header_.entries, codesDirectory);
  if (!codes.ok()) return codes.status();
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) return absl::ResourceExhaustedError("cannot create a zstd decompression context");
  for (uint64_t b = 0; b < blocks(); ++b)
    if (!decodeBlock(b, codes->data() + b * header_.blockCodes, context.get()))
      return absl::DataLossError(absl::StrCat("block ", b, " does not decode"));  // checked at open: never
  return codes;
}

}  // namespace gobblet::tb
