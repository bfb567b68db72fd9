#include "packed_codes.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace gobblet::tb {

namespace {
// The low bits of a word's 32 symbols, as 32 bits (bit k: symbol k's low bit).
uint64_t lowBits(uint64_t w) {
  w &= 0x5555555555555555ull;
  w = (w | w >> 1) & 0x3333333333333333ull;
  w = (w | w >> 2) & 0x0F0F0F0F0F0F0F0Full;
  w = (w | w >> 4) & 0x00FF00FF00FF00FFull;
  w = (w | w >> 8) & 0x0000FFFF0000FFFFull;
  return (w | w >> 16) & 0xFFFFFFFFull;
}
// The inverse: 32 bits spread to the low bits of 32 symbols.
uint64_t spread(uint64_t b) {
  b &= 0xFFFFFFFFull;
  b = (b | b << 16) & 0x0000FFFF0000FFFFull;
  b = (b | b << 8) & 0x00FF00FF00FF00FFull;
  b = (b | b << 4) & 0x0F0F0F0F0F0F0F0Full;
  b = (b | b << 2) & 0x3333333333333333ull;
  return (b | b << 1) & 0x5555555555555555ull;
}

// The stored symbols of four numbers by the byte of their symbols, number
// k in bits 2k and 2k + 1: kNoState or kRuledSymbol (an open number's
// byte is filled in from its open byte).
constexpr std::array<std::array<uint8_t, 4>, 256> kStoredOfByte = [] {
  std::array<std::array<uint8_t, 4>, 256> t{};
  for (unsigned byte = 0; byte < 256; ++byte)
    for (unsigned k = 0; k < 4; ++k) t[byte][k] = (byte >> 2 * k & 3) == PackedCodes::kRuled ? kRuledSymbol : kNoState;
  return t;
}();

// Writes nothing, but as a write, to a byte of each memory page of
// begin..end-1 (an atomic OR of 0: a thread marking the same byte loses nothing).
void touchForWriting(uint8_t* begin, uint8_t* end) {
  constexpr uintptr_t kPage = 4096;
  for (uintptr_t a = reinterpret_cast<uintptr_t>(begin); a < reinterpret_cast<uintptr_t>(end);
       a = (a | (kPage - 1)) + 1)
    __atomic_fetch_or(reinterpret_cast<uint8_t*>(a), uint8_t{0}, __ATOMIC_RELAXED);
}
}  // namespace

void PackedCodes::prepareSymbols(uint64_t first, uint64_t count) {
  if (count == 0) return;
  uint8_t* words = symbolWords_.data();
  touchForWriting(words + first / kPerWord * 8, words + (first + count + kPerWord - 1) / kPerWord * 8);
}

void PackedCodes::prepareOpen(uint64_t first, uint64_t count) {
  touchForWriting(open_.data() + first, open_.data() + first + count);
}

absl::StatusOr<PackedCodes> PackedCodes::create(uint64_t size, const std::string& directory) {
  PackedCodes p;
  p.size_ = size;
  // A line more than the numbers fill: openRank(size) reads one past them.
  const uint64_t lines = (size + kPerLine - 1) / kPerLine + 1;
  absl::StatusOr<CodeArray> words = CodeArray::inMemoryOrFile(lines * kPerLine / 4, directory);
  if (!words.ok()) return words.status();
  p.symbolWords_ = std::move(*words);
  return p;
}

uint64_t PackedCodes::bitsIn(uint64_t first, uint64_t count, unsigned bit) const {
  const uint64_t w = first / kPerWord, s = first % kPerWord, last = (first + count - 1) / kPerWord;
  uint64_t bits = lowBits(word(w) >> bit) >> s;
  for (uint64_t k = w + 1, at = kPerWord - s; k <= last; ++k, at += kPerWord) bits |= lowBits(word(k) >> bit) << at;
  return count == 64 ? bits : bits & ((uint64_t{1} << count) - 1);
}

void PackedCodes::markIn(uint64_t first, uint64_t count, uint64_t reached, uint64_t open) {
  if (count < 64) {
    reached &= (uint64_t{1} << count) - 1;
    open &= reached;
  }
  for (uint64_t w = first / kPerWord; w * kPerWord < first + count; ++w) {
    // The numbers of word w, as bits of `reached` from the word's first
    // number on (which may lie before `first`).
    const int64_t at = static_cast<int64_t>(w * kPerWord) - static_cast<int64_t>(first);
    auto part = [at](uint64_t bits) { return at >= 0 ? bits >> at : bits << -at; };
    if (const uint64_t bits = spread(part(reached)) | spread(part(open)) << 1)
      __atomic_fetch_or(&words()[w], bits, __ATOMIC_RELAXED);
  }
}

absl::Status PackedCodes::indexOpen(const std::string& directory) {
  const uint64_t lines = (size_ + kPerLine - 1) / kPerLine;
  absl::StatusOr<CodeArray> lineWords = CodeArray::inMemory((lines + 1) * 8);
  if (!lineWords.ok()) return lineWords.status();
  directory_ = std::move(*lineWords);
  uint64_t open = 0;
  for (uint64_t line = 0; line < lines; ++line) {
    before()[line] = open;
    for (uint64_t k = line * (kPerLine / kPerWord); k < (line + 1) * (kPerLine / kPerWord); ++k)
      open += std::popcount(word(k) & kHighBits);
  }
  before()[lines] = open;
  absl::StatusOr<CodeArray> bytes = CodeArray::inMemoryOrFile(std::max<uint64_t>(1, open), directory);
  if (!bytes.ok()) return bytes.status();
  open_ = std::move(*bytes);
  openCount_ = open;
  return absl::OkStatus();
}

absl::Status PackedCodes::makeOpen(uint64_t openCount, const std::string& directory) {
  const uint64_t lines = (size_ + kPerLine - 1) / kPerLine;
  absl::StatusOr<CodeArray> lineWords = CodeArray::inMemory((lines + 1) * 8);
  if (!lineWords.ok()) return lineWords.status();
  directory_ = std::move(*lineWords);
  absl::StatusOr<CodeArray> bytes = CodeArray::inMemoryOrFile(std::max<uint64_t>(1, openCount), directory);
  if (!bytes.ok()) return bytes.status();
  open_ = std::move(*bytes);
  openCount_ = openCount;
  return absl::OkStatus();
}

uint64_t PackedCodes::openCountIn(uint64_t first, uint64_t count) const {
  uint64_t open = 0;
  for (uint64_t at = 0; at < count; at += 64)
    open += std::popcount(openIn(first + at, std::min<uint64_t>(64, count - at)));
  return open;
}

void PackedCodes::indexSlice(uint64_t first, uint64_t count, uint64_t openBefore) {
  const uint64_t end = first + count;
  // The line the slice starts inside of: its numbers before the slice are
  // another slice's, on a line every rank holds.
  if (first % kPerLine != 0) {
    const uint64_t start = first / kPerLine * kPerLine;
    before()[first / kPerLine] = openBefore - openCountIn(start, first - start);
  }
  uint64_t open = openBefore, at = first;
  for (uint64_t line = (first + kPerLine - 1) / kPerLine; line * kPerLine < end; ++line) {
    open += openCountIn(at, line * kPerLine - at);
    at = line * kPerLine;
    before()[line] = open;
  }
  // The line that starts where the slice ends (openRank of its end).
  if (end % kPerLine == 0) before()[end / kPerLine] = open + openCountIn(at, end - at);
}

void PackedCodes::release(uint64_t first, uint64_t count, uint64_t openFirst, uint64_t openCount) {
  const uint64_t end = first + count;
  // Symbols: the words whose numbers are all the slice's, 8 bytes each.
  const uint64_t wordFirst = (first + kPerWord - 1) / kPerWord, wordEnd = end / kPerWord;
  if (wordEnd > wordFirst) symbolWords_.release(wordFirst * 8, (wordEnd - wordFirst) * 8);
  // Directory: the lines whose numbers are all the slice's, but the first
  // (where the slice before ends: openRank of its end reads it).
  const uint64_t lineFirst = (first + kPerLine - 1) / kPerLine, lineEnd = end / kPerLine;
  if (lineEnd > lineFirst + 1) directory_.release((lineFirst + 1) * 8, (lineEnd - lineFirst - 1) * 8);
  open_.release(openFirst, openCount);
}

void PackedCodes::storedSymbols(uint64_t first, uint64_t count, uint8_t* out) const {
  const uint64_t end = first + count;
  uint64_t x = first, rank = count ? openRank(first) : 0;
  auto one = [&](uint64_t x) {
    const uint8_t s = symbol(x);
    return s == kNone ? kNoState : s == kRuled ? kRuledSymbol : open_[rank++];
  };
  for (; x < end && x % kPerWord != 0; ++x) *out++ = one(x);
  // A word at a time (the writer reads every number: gobblers' 414 M took
  // 0.5 s a number at a time): its symbols four by four through
  // kStoredOfByte, then its open ones (high bit set) from their bytes.
  for (; x + kPerWord <= end; x += kPerWord, out += kPerWord) {
    const uint64_t w = word(x / kPerWord);
    for (unsigned b = 0; b < 8; ++b) std::memcpy(out + 4 * b, kStoredOfByte[w >> 8 * b & 0xff].data(), 4);
    for (uint64_t o = lowBits(w >> 1); o; o &= o - 1) out[std::countr_zero(o)] = open_[rank++];
  }
  for (; x < end; ++x) *out++ = one(x);
}

}  // namespace gobblet::tb
