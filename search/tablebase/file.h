// The tablebase file: a fixed header followed by one code byte per number
// of Index (see search/tablebase/code.h).
//
//   offset  size  field
//        0     8  magic "GOBBLTB\n"
//        8     4  format version (kFormatVersion)
//       12     4  header size (128)
//       16     4  variant: n, sizes, per_size, moving (one byte each)
//       20     4  zero
//       24     8  entries: numbers in the index (bytes after the header)
//       32    40  states, terminal, wins, draws, losses
//       72     1  code of the start position
//       73     1  longest distance
//       74     6  zero
//       80     8  checksum of the header (this field zero) and the codes
//       88    40  zero
//
// All integers little-endian. A reader refuses a file whose magic, version,
// variant, size or checksum does not match, saying which, and anything that
// is not a regular file (without blocking on a FIFO). The codes are copied
// into sealed memory of the process before the checksum is checked: a file
// truncated or rewritten on disk afterwards changes nothing that was checked
// (a mapping of the file itself would die of SIGBUS, or answer wrong values).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "search/tablebase/code.h"
#include "search/tablebase/index.h"
#include "search/tablebase/retrograde.h"
#include "search/tablebase/tablebase.h"

namespace gobblet::tb {

inline constexpr uint32_t kFormatVersion = 1;
inline constexpr char kMagic[8] = {'G', 'O', 'B', 'B', 'L', 'T', 'B', '\n'};

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t headerSize;
  uint8_t n, sizes, perSize, moving;
  uint32_t zero0;
  uint64_t entries;
  uint64_t states, terminal, wins, draws, losses;
  uint8_t startCode, maxDistance;
  uint8_t zero1[6];
  uint64_t checksum;
  uint8_t zero2[40];
};
static_assert(sizeof(FileHeader) == 128);

// 64-bit checksum of a byte range (four multiply-xor lanes; fast enough to
// check a 400 MB file on every open).
uint64_t checksumOf(const uint8_t* data, uint64_t size, uint64_t seed = 0);

// Writes a solved variant; the file appears complete or not at all (it is
// written next to `path` under a name unique to this call, `path.part.PID.N`,
// and renamed), also when several writers target the same path at once.
// Creates missing directories.
absl::Status writeFile(const std::string& path, const Variant& variant, const Solution& result);

// A tablebase file, its codes held in a sealed in-memory copy (a memfd named
// after the file, mapped read-only; anonymous memory where memfd is missing).
class File : public Tablebase {
 public:
  ~File() override;
  static absl::StatusOr<std::shared_ptr<const File>> open(const std::string& path);

  const Variant& variant() const override { return variant_; }
  Probe probe(const Board& board) const override;

  const FileHeader& header() const { return header_; }
  const Index& index() const { return *index_; }
  const uint8_t* codes() const { return codes_; }
  // The code of a state (kNoState if it is not a reachable state).
  uint8_t codeOf(const State& st) const { return codes_[index_->indexOf(st)]; }
  const std::string& path() const { return path_; }

 private:
  File() = default;
  // Copies the codes (header_.entries bytes after the header) of the open
  // file fd into sealed memory of this process.
  absl::Status load(int fd);

  std::string path_;
  Variant variant_;
  FileHeader header_{};
  std::unique_ptr<Index> index_;
  void* map_ = nullptr;
  uint64_t mapSize_ = 0;
  const uint8_t* codes_ = nullptr;
};

}  // namespace gobblet::tb
