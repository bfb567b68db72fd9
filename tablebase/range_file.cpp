// RangeFile (see range_file.h) and openRanges, rangeStats (tablebase.h).
#include "range_file.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "code.h"
#include "zstd.h"

namespace gobblet::tb {

absl::StatusOr<std::shared_ptr<const RangeFile>> RangeFile::open(std::string name, uint64_t fileSize, RangeReader read,
                                                                 size_t cacheBlocks) {
  std::shared_ptr<RangeFile> tb(new RangeFile());
  tb->name_ = std::move(name);
  // An error of the file or of the reader, its code kept, its text after the name.
  auto failWith = [&tb](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat("tablebase file '", tb->name_, "': ", s.message()));
  };
  if (!read) return failWith(absl::InvalidArgumentError("no reader to read it with"));
  tb->read_ = std::move(read);
  tb->cacheBlocks_ = cacheBlocks;
  std::string headerBytes;  // none if the file is shorter than a header: checkHeader says so
  if (fileSize >= sizeof(FileHeader)) {
    absl::StatusOr<std::string> bytes = tb->readRange(0, sizeof(FileHeader));
    if (!bytes.ok()) return failWith(bytes.status());
    headerBytes = *std::move(bytes);
  }
  absl::StatusOr<Numbering> index = checkHeader(headerBytes, &tb->header_, fileSize);
  if (!index.ok()) return failWith(index.status());
  tb->numbering_ = *std::move(index);
  const FileHeader& h = tb->header_;
  // The dictionary, its padding and the block table, in one read: checkHeader
  // made sure that the file holds them.
  absl::StatusOr<std::string> body = tb->readRange(sizeof(FileHeader), framesAt(h) - sizeof(FileHeader));
  if (!body.ok()) return failWith(body.status());
  const uint64_t blocks = blocksOf(h);
  tb->blockTable_.resize(blocks + 1);
  std::memcpy(tb->blockTable_.data(), body->data() + paddedDictionaryBytes(h), 8 * (blocks + 1));
  const uint64_t framesBytes = tb->blockTable_[blocks];
  if (absl::Status s = checkFramesBytes(h, framesBytes, fileSize); !s.ok()) return failWith(s);
  if (absl::Status s = checkBlockTable(h, tb->blockTable_.data(), framesBytes); !s.ok()) return failWith(s);
  absl::StatusOr<Dictionary> dictionary = makeDictionary(h, reinterpret_cast<const uint8_t*>(body->data()));
  if (!dictionary.ok()) return failWith(dictionary.status());
  tb->dictionary_ = *std::move(dictionary);
  return std::shared_ptr<const RangeFile>(std::move(tb));
}

absl::StatusOr<std::string> RangeFile::readRange(uint64_t offset, uint64_t size) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.reads;
    stats_.bytes += size;
  }
  absl::StatusOr<std::string> bytes = read_(offset, size);
  if (!bytes.ok())
    return absl::Status(bytes.status().code(),
                        absl::StrCat("reading ", size, " bytes at ", offset, ": ", bytes.status().message()));
  if (bytes->size() != size)
    return absl::DataLossError(
        absl::StrCat("reading ", size, " bytes at ", offset, ": the reader gave ", bytes->size(), " bytes"));
  return bytes;
}

std::vector<uint8_t> RangeFile::fetchBlock(uint64_t b) const {
  const uint64_t begin = blockTable_[b], end = blockTable_[b + 1];
  absl::StatusOr<std::string> frame = readRange(framesAt(header_) + begin, end - begin);
  if (!frame.ok()) return {};
  // A zstd decompression context per thread, made on its first block.
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) return {};
  std::vector<uint8_t> codes(codesInBlock(header_, b));  // never empty
  if (!decodeFrame(dictionary_, reinterpret_cast<const uint8_t*>(frame->data()), frame->size(), codes.data(),
                   codes.size(), context.get()))
    return {};
  return codes;
}

uint8_t RangeFile::codeAt(uint64_t index) const {
  // The stored symbol, under the lock; the code it stands for (a state
  // decoded for kRuledSymbol) outside it.
  return codeOfStored(header_, numbering_, symbolAt(index), index);
}

uint8_t RangeFile::symbolAt(uint64_t index) const {
  const uint64_t b = index / header_.blockCodes, at = index - b * header_.blockCodes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = cached_.find(b); it != cached_.end()) {
      recent_.splice(recent_.begin(), recent_, it->second);
      return it->second->codes[at];
    }
  }
  // Read and decoded without the lock: other threads' probes go on meanwhile.
  std::vector<uint8_t> codes = fetchBlock(b);
  std::lock_guard<std::mutex> lock(mutex_);
  if (codes.empty()) {
    ++stats_.failures;  // not cached: the next probe of the block reads it again
    return kNoState;
  }
  const uint8_t symbol = codes[at];
  if (cacheBlocks_ == 0 || cached_.contains(b)) return symbol;  // (another thread cached it meanwhile)
  recent_.push_front(Cached{b, std::move(codes)});
  cached_[b] = recent_.begin();
  if (recent_.size() > cacheBlocks_) {
    cached_.erase(recent_.back().block);
    recent_.pop_back();
  }
  return symbol;
}

Probe RangeFile::probe(const Board& board) const {
  const uint64_t x = numbering_.numberOf(board);
  return x == Numbering::kNotAState ? Probe{} : probeOfCode(codeAt(x));
}

RangeStats RangeFile::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

absl::StatusOr<std::shared_ptr<const Tablebase>> openRanges(std::string name, uint64_t fileSize, RangeReader read,
                                                            size_t cacheBlocks) {
  absl::StatusOr<std::shared_ptr<const RangeFile>> file =
      RangeFile::open(std::move(name), fileSize, std::move(read), cacheBlocks);
  if (!file.ok()) return file.status();
  return std::shared_ptr<const Tablebase>(*std::move(file));
}

RangeStats rangeStats(const Tablebase& tablebase) {
  const auto* file = dynamic_cast<const RangeFile*>(&tablebase);
  return file ? file->stats() : RangeStats{};
}

}  // namespace gobblet::tb
