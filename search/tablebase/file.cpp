#include "search/tablebase/file.h"

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

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

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

uint64_t fileChecksum(FileHeader header, const uint8_t* codes, uint64_t entries) {
  header.checksum = 0;
  const uint64_t h = checksumOf(reinterpret_cast<const uint8_t*>(&header), sizeof header);
  return checksumOf(codes, entries, h);
}

}  // namespace

absl::Status writeFile(const std::string& path, const Variant& variant, const Solution& result) {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kFormatVersion;
  h.headerSize = sizeof(FileHeader);
  h.n = variant.n;
  h.sizes = variant.sizes;
  h.perSize = variant.perSize;
  h.moving = variant.moving ? 1 : 0;
  h.entries = result.codes.size();
  h.states = result.stats.states;
  h.terminal = result.stats.terminal;
  h.wins = result.stats.wins;
  h.draws = result.stats.draws;
  h.losses = result.stats.losses;
  h.startCode = result.stats.start;
  h.maxDistance = static_cast<uint8_t>(result.stats.maxDistance);
  h.checksum = fileChecksum(h, result.codes.data(), h.entries);

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
  bool ok = std::fwrite(&h, sizeof h, 1, f) == 1 &&
            std::fwrite(result.codes.data(), 1, result.codes.size(), f) == result.codes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

File::~File() {
  if (map_) ::munmap(map_, mapSize_);
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
  struct stat st;
  if (::fstat(fd, &st) != 0) return fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail("not a regular file");
  const uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  std::shared_ptr<File> tb(new File());
  tb->path_ = path;
  if (fileSize < sizeof(FileHeader) ||
      !readFully(fd, reinterpret_cast<uint8_t*>(&tb->header_), sizeof(FileHeader), 0))
    return fail(absl::StrCat("truncated: ", fileSize, " bytes, shorter than the ", sizeof(FileHeader), "-byte header"));
  const FileHeader& h = tb->header_;
  if (std::memcmp(h.magic, kMagic, 8) != 0) return fail("not a gobblet tablebase (bad magic)");
  if (h.version != kFormatVersion)
    return fail(absl::StrCat("format version ", h.version, ", this program reads version ", kFormatVersion,
                             " (rebuild it with gobblet-tb build)"));
  if (h.headerSize != sizeof(FileHeader))
    return fail(absl::StrCat("header size ", h.headerSize, ", expected ", sizeof(FileHeader)));
  if (h.n != 3 || h.sizes < 1 || h.sizes > 3 || h.perSize < 1 || h.perSize > 9 || h.moving > 1)
    return fail("the header names no 3x3 variant");
  tb->variant_ = Variant::family(h.sizes, h.perSize, h.moving == 1);
  tb->index_ = std::make_unique<Index>(tb->variant_);
  if (h.entries != tb->index_->size())
    return fail(absl::StrCat("header says ", h.entries, " entries, variant ", tb->variant_.name(), " has ",
                             tb->index_->size()));
  if (fileSize != sizeof(FileHeader) + h.entries)
    return fail(absl::StrCat(fileSize < sizeof(FileHeader) + h.entries ? "truncated" : "too long", ": ", fileSize,
                             " bytes, expected ", sizeof(FileHeader) + h.entries));
  if (absl::Status s = tb->load(fd); !s.ok()) return fail(std::string(s.message()));
  if (fileChecksum(h, tb->codes_, h.entries) != h.checksum) return fail("corrupt: checksum mismatch");
  return std::shared_ptr<const File>(std::move(tb));
}

// Copies the codes into memory of this process: a memfd named after the
// file (so /proc/PID/maps shows which file it holds), filled, sealed against
// any change of size or content, and mapped read-only. Where memfd is
// missing, anonymous private memory.
absl::Status File::load(int fd) {
  const uint64_t size = header_.entries;
  mapSize_ = std::max<uint64_t>(size, 1);
  const std::string name = path_.size() > 200 ? path_.substr(path_.size() - 200) : path_;
  const int mem = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
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
  codes_ = static_cast<const uint8_t*>(map_);
  return absl::OkStatus();
}

Probe File::probe(const Board& board) const {
  State st;
  if (!index_->toState(board, &st)) return Probe{};
  return probeOfCode(codeOf(st));
}

}  // namespace gobblet::tb
