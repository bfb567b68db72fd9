// The 3x3 builder's codes, packed: gobblers' 414 M numbers in 144 MB where a
// byte a number took 414 MB. Of its 341 M states, 309 M hold a code their
// state's outcome tells (code.h: won or lost games, wins in 1); only the
// other 32 M ("open" states: draws and longer distances) need a byte.
//
//   symbols   2 bits a number, 32 numbers to a word, number x in bits
//             2(x % 32) and 2(x % 32) + 1 of word x / 32:
//               00  no state (a hole of the numbering, or not reached)
//               01  ruled: its code is 2, 3 or 4, told by its state's
//                   outcome (kRuledSymbol of a version-3 file)
//               11  open: its code is in the open bytes
//   directory after the symbols are final (indexOpen): per 256 numbers (a
//             cache line of symbols), the open numbers before them
//   open      a byte per open number, in number order: kNoState until the
//             builder settles it, then kDrawCode or a distance code
//
// Symbols only gain bits (00 -> 01 -> 11), so ranks that each set the
// symbols of their own numbers join theirs by OR. Symbols, directory and
// open bytes are held in memory (pages taken as they are first written), or
// the symbols and open bytes in unnamed files of a directory (CodeArray).
//
// Over ranks (retrograde.h) a rank holds the slices it solves and, for a
// while, those of other ranks that its groups need: the arrays span every
// number, but only the pages of held slices are ever written, and the
// pages of a slice let go (release) read as zeros again. A rank's
// directory lines are those of its held slices (indexSlice) and of the
// lines that two slices share, whose symbols every rank holds.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "code.h"
#include "code_array.h"

namespace gobblet::tb {

class PackedCodes {
 public:
  static constexpr uint8_t kNone = 0, kRuled = 1, kOpen = 3;  // symbols
  static constexpr uint64_t kPerWord = 32, kPerLine = 256;

  PackedCodes() = default;
  // `size` numbers, every one kNone; in memory if `directory` is empty,
  // else in unnamed files there.
  static absl::StatusOr<PackedCodes> create(uint64_t size, const std::string& directory);

  uint64_t size() const { return size_; }
  uint8_t symbol(uint64_t x) const { return static_cast<uint8_t>(word(x / kPerWord) >> shift(x) & 3); }
  bool isOpen(uint64_t x) const { return symbol(x) == kOpen; }
  // Sets number x's symbol (kRuled or kOpen) where it was kNone; false if
  // it was set already. Safe from several threads at once.
  bool mark(uint64_t x, uint8_t symbol) {
    const uint64_t bits = uint64_t{symbol} << shift(x);
    if (word(x / kPerWord) & (uint64_t{3} << shift(x))) return false;
    return !(__atomic_fetch_or(&words()[x / kPerWord], bits, __ATOMIC_RELAXED) & (uint64_t{3} << shift(x)));
  }
  // Marks numbers first..first+count-1 (count <= 64), all kNone until now:
  // bit k of `reached` marks number first + k, kOpen if bit k of `open` is
  // set too, else kRuled (open is within reached). One atomic OR per word
  // of symbols touched: safe beside threads marking other numbers.
  void markIn(uint64_t first, uint64_t count, uint64_t reached, uint64_t open);
  // Bit k set if number first + k holds a state (count <= 64).
  uint64_t statesIn(uint64_t first, uint64_t count) const { return bitsIn(first, count, 0); }
  // Bit k set if number first + k is open (count <= 64).
  uint64_t openIn(uint64_t first, uint64_t count) const { return bitsIn(first, count, 1); }
  void prefetch(uint64_t x) const { __builtin_prefetch(&symbolWords_.data()[x / kPerWord * 8]); }
  // Makes the memory pages of the symbols of numbers first..first+count-1
  // (or, after indexOpen, of open bytes first..first+count-1) writable
  // before the numbers are marked (settled), from several threads at once
  // beside others marking: a page read first maps the kernel's zero page,
  // and the write after it costs a fault that flushes the other cores' TLBs
  // (gobblers' builder read each page of its symbols and open bytes before
  // marking it: 0.3 s of faults and interrupts on two threads).
  void prepareSymbols(uint64_t first, uint64_t count);
  void prepareOpen(uint64_t first, uint64_t count);

  // The symbol words, for exchanging them between processes while no
  // thread writes them (BuildShare::orWords).
  uint64_t* words() { return reinterpret_cast<uint64_t*>(symbolWords_.data()); }
  uint64_t wordCount() const { return (size_ + kPerWord - 1) / kPerWord; }

  // Once no symbol changes any more: counts the open numbers and makes
  // their bytes, all kNoState.
  absl::Status indexOpen(const std::string& directory);
  uint64_t openCount() const { return openCount_; }
  // The place of open number x among the open numbers (its open byte);
  // for any x, the open numbers below x.
  uint64_t openRank(uint64_t x) const {
    const uint64_t line = x / kPerLine, w = line * (kPerLine / kPerWord);
    uint64_t r = before()[line];
    for (uint64_t k = w; k < x / kPerWord; ++k) r += std::popcount(word(k) & kHighBits);
    const uint64_t below = (uint64_t{1} << shift(x)) - 1;
    return r + std::popcount(word(x / kPerWord) & kHighBits & below);
  }
  uint8_t* openBytes() { return open_.data(); }
  const uint8_t* openBytes() const { return open_.data(); }
  void prefetchOpen(uint64_t x) const { __builtin_prefetch(&before()[x / kPerLine]); }

  // ---- A rank's part (the builder over ranks) ----
  // Once no symbol changes any more: the open bytes of `openCount` open
  // numbers in all (every rank's), all kNoState, and a directory without
  // lines: indexSlice makes those of the slices this rank holds.
  absl::Status makeOpen(uint64_t openCount, const std::string& directory);
  // The directory lines of numbers first..first+count-1 (a whole slice,
  // count > 0, whose symbols this process holds, as it does those of any
  // line the slice shares with another), given the open numbers before
  // `first` (every rank's): after it openRank answers for those numbers.
  void indexSlice(uint64_t first, uint64_t count, uint64_t openBefore);
  // The open numbers among first..first+count-1.
  uint64_t openCountIn(uint64_t first, uint64_t count) const;
  // Lets go of the memory (or the file's blocks) of the symbols, directory
  // lines and open bytes (openFirst..openFirst+openCount-1) of numbers
  // first..first+count-1 (a whole slice): the pages that hold nothing
  // else, which read as zeros again. What is kept is still right.
  void release(uint64_t first, uint64_t count, uint64_t openFirst, uint64_t openCount);

  // What a version-3 file stores for number x (code.h: storedSymbol):
  // kNoState, kRuledSymbol, or its open byte.
  uint8_t storedSymbol(uint64_t x) const {
    uint8_t s;
    storedSymbols(x, 1, &s);
    return s;
  }
  // The stored symbols of numbers first..first+count-1, into out.
  void storedSymbols(uint64_t first, uint64_t count, uint8_t* out) const;

 private:
  static constexpr uint64_t kHighBits = 0xAAAAAAAAAAAAAAAAull;
  static unsigned shift(uint64_t x) { return static_cast<unsigned>(2 * (x % kPerWord)); }
  // Bit `bit` (0: low, 1: high) of the symbols of numbers first..first+count-1
  // (count <= 64), bit k for number first + k. Every symbol but kNone has its
  // low bit set, only kOpen its high bit.
  uint64_t bitsIn(uint64_t first, uint64_t count, unsigned bit) const;
  uint64_t word(uint64_t w) const { return __atomic_load_n(&words()[w], __ATOMIC_RELAXED); }
  const uint64_t* words() const { return reinterpret_cast<const uint64_t*>(symbolWords_.data()); }

  uint64_t size_ = 0;
  CodeArray symbolWords_;  // 8 bytes per 32 numbers, whole lines
  uint64_t* before() { return reinterpret_cast<uint64_t*>(directory_.data()); }
  const uint64_t* before() const { return reinterpret_cast<const uint64_t*>(directory_.data()); }

  CodeArray directory_;  // a word per line of 256 numbers, and one past the last: the open numbers before it
  CodeArray open_;
  uint64_t openCount_ = 0;
};

}  // namespace gobblet::tb
