#include "search/tablebase_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace gobblet {

uint64_t tbChecksum(const uint8_t* data, uint64_t size, uint64_t seed) {
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

uint64_t fileChecksum(TbHeader header, const uint8_t* codes, uint64_t entries) {
  header.checksum = 0;
  const uint64_t h = tbChecksum(reinterpret_cast<const uint8_t*>(&header), sizeof header);
  return tbChecksum(codes, entries, h);
}

}  // namespace

absl::Status writeTablebaseFile(const std::string& path, const Variant& variant, const RetrogradeResult& result) {
  TbHeader h{};
  std::memcpy(h.magic, kTbMagic, 8);
  h.version = kTbFormatVersion;
  h.headerSize = sizeof(TbHeader);
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

TablebaseFile::~TablebaseFile() {
  if (map_) ::munmap(map_, mapSize_);
}

absl::StatusOr<std::shared_ptr<const TablebaseFile>> TablebaseFile::open(const std::string& path) {
  auto fail = [&path](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("tablebase file '", path, "': ", why));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return absl::NotFoundError(absl::StrCat("tablebase file '", path, "' does not exist"));
    return absl::UnavailableError(absl::StrCat("tablebase file '", path, "': ", std::strerror(errno)));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail("not a regular file");
  }
  const uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  std::shared_ptr<TablebaseFile> tb(new TablebaseFile());
  tb->path_ = path;
  if (fileSize < sizeof(TbHeader) || ::pread(fd, &tb->header_, sizeof(TbHeader), 0) != sizeof(TbHeader)) {
    ::close(fd);
    return fail(absl::StrCat("truncated: ", fileSize, " bytes, shorter than the ", sizeof(TbHeader), "-byte header"));
  }
  const TbHeader& h = tb->header_;
  if (std::memcmp(h.magic, kTbMagic, 8) != 0) {
    ::close(fd);
    return fail("not a gobblet tablebase (bad magic)");
  }
  if (h.version != kTbFormatVersion) {
    ::close(fd);
    return fail(absl::StrCat("format version ", h.version, ", this program reads version ", kTbFormatVersion));
  }
  if (h.headerSize != sizeof(TbHeader)) {
    ::close(fd);
    return fail(absl::StrCat("header size ", h.headerSize, ", expected ", sizeof(TbHeader)));
  }
  if (h.n != 3 || h.sizes < 1 || h.sizes > 3 || h.perSize < 1 || h.perSize > 9 || h.moving > 1) {
    ::close(fd);
    return fail("the header names no 3x3 variant");
  }
  tb->variant_ = Variant::family(h.sizes, h.perSize, h.moving == 1);
  tb->index_ = std::make_unique<TablebaseIndex>(tb->variant_);
  if (h.entries != tb->index_->size()) {
    ::close(fd);
    return fail(absl::StrCat("header says ", h.entries, " entries, variant ", tb->variant_.name(), " has ",
                             tb->index_->size()));
  }
  if (fileSize != sizeof(TbHeader) + h.entries) {
    ::close(fd);
    return fail(absl::StrCat(fileSize < sizeof(TbHeader) + h.entries ? "truncated" : "too long", ": ", fileSize,
                             " bytes, expected ", sizeof(TbHeader) + h.entries));
  }
  tb->mapSize_ = fileSize;
  tb->map_ = ::mmap(nullptr, fileSize, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (tb->map_ == MAP_FAILED) {
    tb->map_ = nullptr;
    return absl::UnavailableError(absl::StrCat("tablebase file '", path, "': mmap failed: ", std::strerror(errno)));
  }
  tb->codes_ = static_cast<const uint8_t*>(tb->map_) + sizeof(TbHeader);
  if (fileChecksum(h, tb->codes_, h.entries) != h.checksum) return fail("corrupt: checksum mismatch");
  return std::shared_ptr<const TablebaseFile>(std::move(tb));
}

TbProbe probeFromCode(uint8_t code) {
  if (code == tbcode::kNone) return TbProbe{};
  if (code == tbcode::kDraw) return TbProbe{TbValue::kDraw, 0};
  return TbProbe{tbcode::isWin(code) ? TbValue::kWin : TbValue::kLoss, tbcode::distance(code)};
}

TbProbe TablebaseFile::probe(const Board& board) const {
  TbState st;
  if (!index_->toState(board, &st)) return TbProbe{};
  return probeFromCode(codeOf(st));
}

}  // namespace gobblet
