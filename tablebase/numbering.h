// Numbering: the numbering of a file's variant, whichever family it is of:
// Index (the 3x3 family) or Index4 (the 4x4 family), exactly one of them
// set. What the file readers and the probe need of either: the numbers'
// count, a board's number, and the outcome of a number's state.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include "engine/board.h"
#include "engine/variant.h"
#include "code.h"
#include "index.h"
#include "index4.h"
#include "layer_board.h"

namespace gobblet::tb {

struct Numbering {
  std::unique_ptr<Index> index3;
  std::unique_ptr<Index4> index4;

  static constexpr uint64_t kNotAState = ~uint64_t{0};
  // The numbering of a variant of either family (a 4x4 member whose
  // numbering does not fit in 64 bits has Index4::fits() false).
  static Numbering of(const Variant& variant) {
    Numbering n;
    if (variant.n == 3)
      n.index3 = std::make_unique<Index>(variant);
    else
      n.index4 = std::make_unique<Index4>(variant);
    return n;
  }
  const Variant& variant() const { return index3 ? index3->variant() : index4->variant(); }
  uint64_t size() const { return index3 ? index3->size() : index4->size(); }
  // The number of a board's state; kNotAState if the board is not of the
  // variant or breaks its counts.
  uint64_t numberOf(const Board& board) const {
    if (index4) return index4->numberOf(board);
    State st;
    return index3->toState(board, &st) ? index3->indexOf(st) : kNotAState;
  }
  // outcomeOfLayers of the state numbered x (< size(); a hole's number
  // gives its decoded layers' outcome).
  int outcomeAt(uint64_t x) const {
    if (index4) return outcomeIn(*index4, index4->sliceOfIndex(x), x);
    return outcomeIn(*index3, index3->sliceOfIndex(x), x);
  }
  // The same for number x of `slice` (the slice that holds x).
  template <typename IndexT>
  static int outcomeIn(const IndexT& index, int slice, uint64_t x) {
    std::conditional_t<std::is_same_v<IndexT, Index>, State, State4> st;
    index.decode(slice, x - index.slices()[slice].offset, &st);
    return outcomeOfLayers(index.variant(), st);
  }
  // Replaces each kRuledSymbol of codes[0, count), those of the numbers
  // from `first` on, by the code it stands for (code.h: codeOfSymbol),
  // walking the slices along.
  template <typename IndexT>
  static void resolveRuled(const IndexT& index, uint8_t* codes, uint64_t first, uint64_t count) {
    if (count == 0) return;
    const auto& slices = index.slices();
    int slice = index.sliceOfIndex(first);
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t x = first + k;
      while (x >= slices[slice].offset + slices[slice].size) ++slice;
      codes[k] = codeOfSymbol(codes[k], [&] { return outcomeIn(index, slice, x); });
    }
  }
};

}  // namespace gobblet::tb
