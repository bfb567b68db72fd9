// Index: the dense, symmetry-reduced numbering of the 3x3 family's
// states, shared by the builder, the file reader and the verifier.
//
// A state is seen from the side to move: ours[s] / theirs[s] are the 9-bit
// masks of the squares holding a piece of size s of the side to move / of
// the other side (sizes the variant lacks are empty).
//
// Layer: the pair (ours[s], theirs[s]) of one size is a "layer", coded in
// base 3 (digit per square: 0 empty, 1 ours, 2 theirs), 0 .. 3^9-1. Layers
// fall into classes (a, b) = (pieces of ours, pieces of theirs); within a
// class a layer has a dense rank, and the 8 symmetries split it into
// orbits, each with a canonical member (its smallest code).
//
// Slice: the states with the same placed material (a0,b0,a1,b1,a2,b2).
// Pieces never leave the board, so a placement moves a state to a fuller
// slice and a board move keeps the material (with ours/theirs exchanged):
// slices are the unit of the backward solution. One layer of the slice,
// the one with the most members, is its "lead": a state is numbered
//
//     offset(slice) + orbit(lead) * nx * ny + rank(σ x) * ny + rank(σ y)
//
// where σ maps the lead layer to its orbit's canonical member and x, y are
// the other two layers. When several σ do (a symmetric lead), the smallest
// number wins, so each state up to symmetry has exactly one number; the
// other numbers of such slices are holes that no state uses.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

#include "engine/board.h"
#include "engine/geometry.h"
#include "engine/variant.h"
#include "layer_board.h"

namespace gobblet::tb {

// A state of the 3x3 family seen from the side to move.
struct State {
  std::array<Mask, 3> ours{}, theirs{};
  friend bool operator==(const State&, const State&) = default;
};

class Index {
 public:
  static constexpr int kLayerCodes = 19683;  // 3^9

  struct Slice {
    uint64_t offset = 0;                // first number of the slice
    uint64_t size = 0;                  // numbers in the slice (orbits(lead) * nx * ny)
    std::array<uint8_t, 6> material{};  // a0,b0,a1,b1,a2,b2
    uint8_t lead = 0, x = 1, y = 2;     // layer roles
    uint32_t nx = 1, ny = 1;            // class sizes of layers x and y
    // Where the lead's canonical codes (by orbit) and the x and y layers'
    // codes (by rank) start in byRank_.
    uint32_t leadCodes = 0, xCodes = 0, yCodes = 0;
    int key = 0;  // material key (see keyOf())
    int level() const {
      int l = 0;
      for (uint8_t m : material) l += m;
      return l;
    }
  };

  // The variant must be a 3x3 variant (n == 3, no stacks).
  explicit Index(const Variant& variant);

  const Variant& variant() const { return variant_; }
  uint64_t size() const { return size_; }  // numbers in all slices
  const std::vector<Slice>& slices() const { return slices_; }

  // The numbers of `slice` that are states, not holes: the orbits of its
  // (lead, x, y) layer triples under the 8 symmetries, counted exactly by
  // Burnside's lemma (the mean over the symmetries of the triples each
  // one fixes), without decoding a number.
  uint64_t statesIn(int slice) const;
  // The same over all slices.
  uint64_t states() const;

  // The slice of a material vector, or -1 if it is not one of this variant.
  int sliceOf(const std::array<uint8_t, 6>& material) const;
  // The slice holding number `index` (binary search).
  int sliceOfIndex(uint64_t index) const;

  // What numbering a state of one slice takes, kept per material key so that
  // indexOf goes from a state's piece counts to its slice's layout in one
  // load (through the slice number it took two dependent loads: 13% of
  // indexOf's time in a micro-benchmark).
  struct Layout {
    uint64_t offset = 0;         // the slice's first number
    uint32_t plane = 0, ny = 0;  // nx * ny, and ny
    uint8_t lead = 0, x = 1, y = 2;
  };
  const Layout& layout(int slice) const { return layoutByKey_[slices_[slice].key]; }

  // The number of a state (any of its 8 images gives the same). The state
  // must respect the variant's piece counts and nesting.
  uint64_t indexOf(const State& st) const { return indexOfCodes(keyOf(st), layerCodes(st)); }
  // The material key of a state: its six piece counts in base perSize + 1.
  // A walk over a state's children finds theirs from the state's with its
  // sides swapped: each piece more of size s on "their" side (the mover's,
  // in the child) adds theirsPieceKey(s).
  int keyOf(const State& st) const {
    int key = 0;
    for (int s = 0; s < 3; ++s)
      key = key * radix_ * radix_ + std::popcount(st.ours[s]) * radix_ + std::popcount(st.theirs[s]);
    return key;
  }
  int theirsPieceKey(int size) const {
    int step = 1;
    for (int s = size; s < 2; ++s) step *= radix_ * radix_;
    return step;
  }

  // The number of a state known to be in the slice laid out as `lay`
  // (indexOf without the material-key lookup: the builder numbers all the
  // parents of a state by board move, which share one slice).
  uint64_t indexIn(const Layout& lay, const State& st) const {
    const std::array<uint16_t, 3> code = layerCodes(st);
    return indexIn(lay, code);
  }
  // The number of the state whose layers have base-3 codes `code` (see
  // layerCode) and whose material key is `key`: a walk over a state's
  // children, which share two of their three layers, codes those once.
  uint64_t indexOfCodes(int key, const std::array<uint16_t, 3>& code) const {
    assert(sliceByKey_[key] >= 0 && "a state of the variant's piece counts");
    return indexIn(layoutByKey_[key], code);
  }
  // The base-3 code of a layer (a digit per square: 0 empty, 1 ours, 2 theirs).
  uint16_t layerCode(Mask ours, Mask theirs) const { return static_cast<uint16_t>(base3_[ours] + 2 * base3_[theirs]); }
  std::array<uint16_t, 3> layerCodes(const State& st) const {
    return {layerCode(st.ours[0], st.theirs[0]), layerCode(st.ours[1], st.theirs[1]),
            layerCode(st.ours[2], st.theirs[2])};
  }
  uint64_t indexIn(const Layout& lay, const std::array<uint16_t, 3>& code) const {
    const uint16_t lead = code[lay.lead], cx = code[lay.x], cy = code[lay.y];
    unsigned syms = canonSyms_[lead];
    uint64_t best = ~uint64_t{0};
    for (; syms; syms &= syms - 1) {
      const int sym = std::countr_zero(syms);
      const uint16_t* symRank = &symRank_[static_cast<size_t>(sym) * kLayerCodes];
      const uint64_t r = uint64_t{symRank[cx]} * lay.ny + symRank[cy];
      best = r < best ? r : best;
    }
    return lay.offset + uint64_t{orbitRank_[lead]} * lay.plane + best;
  }

  // The number of distinct images of a state under the 8 symmetries (1, 2,
  // 4 or 8): 8 over the number of symmetries that leave all its layers as
  // they are.
  int orbitSize(const State& st) const {
    uint8_t fixing = 0xff;
    for (int s = 0; s < 3; ++s) fixing &= fixingSyms_[base3_[st.ours[s]] + 2 * base3_[st.theirs[s]]];
    return 8 / std::popcount(fixing);
  }

  // The canonical state numbered `index` in `slice`; false for a hole.
  bool stateAt(int slice, uint64_t index, State* st) const {
    decode(slice, index, st);
    return isCanonical(slice, *st, slices_[slice].offset + index);
  }
  // Whether `st`, decoded from number x of `slice`, is the state numbered x
  // (not a hole). Only a lead left alone by a symmetry other than the
  // identity can make a hole: other numbers need no indexOf.
  bool isCanonical(int slice, const State& st, uint64_t x) const {
    const Slice& sl = slices_[slice];
    const uint16_t lead = static_cast<uint16_t>(base3_[st.ours[sl.lead]] + 2 * base3_[st.theirs[sl.lead]]);
    return canonSyms_[lead] == 1 || indexOf(st) == x;
  }
  // The state numbered `index` in `slice`, without checking that it is
  // canonical (for numbers known to be states). A slice holds fewer than
  // 2^32 numbers (at most 1680 members per layer class: the largest slice
  // of any variant is 228 orbits x 1680 x 1680 = 643,507,200; asserted when
  // the slices are made), so 32-bit division serves.
  void decode(int slice, uint64_t index, State* st) const {
    const Slice& sl = slices_[slice];
    const uint32_t i = static_cast<uint32_t>(index), plane = sl.nx * sl.ny;
    const uint32_t orbit = i / plane, rest = i % plane;
    uint16_t code[3];
    code[sl.lead] = byRank_[sl.leadCodes + orbit];
    code[sl.x] = byRank_[sl.xCodes + rest / sl.ny];
    code[sl.y] = byRank_[sl.yCodes + rest % sl.ny];
    for (int s = 0; s < 3; ++s) {
      st->ours[s] = codeOurs_[code[s]];
      st->theirs[s] = codeTheirs_[code[s]];
    }
  }

  // decode for a caller going through a slice's numbers in order. A row is
  // the ny consecutive numbers that share their lead orbit and x layer (the
  // y layer runs through its class by rank): `row` keeps the last row's two
  // layers, decoded once, and tells its holes (isHoleInRow) without indexOf.
  //
  // A number of a row is a hole when a symmetry σ other than the identity
  // that leaves the (canonical) lead alone numbers it lower:
  // (rank σx, rank σy) < (rank x, rank y). Per row, σ with rank σx < rank x
  // makes every number of it a hole, σ with rank σx > rank x none; only
  // those that leave x alone (rank σx = rank x) leave it to y. A lead that
  // no σ leaves alone makes no holes.
  struct Row {
    int slice = -1;
    uint32_t row = ~0u;
    uint32_t first = 0;     // the row's first number in the slice (row * ny)
    State layers;           // the lead and x layers of the row (y empty)
    bool allHoles = false;  // every number of the row is a hole
    uint8_t ySyms = 0;      // the σ (above) left to the y layer to decide
    uint16_t y = 0;         // the last number's y layer code,
    uint16_t yRank = 0;     // and its rank
  };
  void decodeInRow(int slice, uint64_t index, Row* row, State* st) const {
    const Slice& sl = slices_[slice];
    const uint32_t i = static_cast<uint32_t>(index);
    if (row->slice == slice && i - row->first < sl.ny) {  // the same row as the last number
      row->yRank = static_cast<uint16_t>(i - row->first);
    } else {
      const uint32_t r = i / sl.ny;
      const uint16_t lead = byRank_[sl.leadCodes + r / sl.nx], x = byRank_[sl.xCodes + r % sl.nx];
      row->slice = slice;
      row->row = r;
      row->layers = State{};
      row->layers.ours[sl.lead] = codeOurs_[lead];
      row->layers.theirs[sl.lead] = codeTheirs_[lead];
      row->layers.ours[sl.x] = codeOurs_[x];
      row->layers.theirs[sl.x] = codeTheirs_[x];
      row->allHoles = false;
      row->ySyms = 0;
      const uint16_t xRank = rank_[x];
      for (unsigned syms = canonSyms_[lead] & ~1u; syms; syms &= syms - 1) {  // bit 0: the identity
        const int sym = std::countr_zero(syms);
        const uint16_t image = symRank_[static_cast<size_t>(sym) * kLayerCodes + x];
        row->allHoles |= image < xRank;
        if (image == xRank) row->ySyms |= static_cast<uint8_t>(1u << sym);
      }
      row->first = r * sl.ny;
      row->yRank = static_cast<uint16_t>(i - row->first);
    }
    row->y = byRank_[sl.yCodes + row->yRank];
    *st = row->layers;
    st->ours[sl.y] = codeOurs_[row->y];
    st->theirs[sl.y] = codeTheirs_[row->y];
  }
  // Whether the number decodeInRow decoded last is a hole (see Row).
  bool isHoleInRow(const Row& row) const {
    if (row.allHoles) return true;
    for (unsigned syms = row.ySyms; syms; syms &= syms - 1)
      if (symRank_[static_cast<size_t>(std::countr_zero(syms)) * kLayerCodes + row.y] < row.yRank) return true;
    return false;
  }

  // Board <-> state. toState fails (returns false) if the board is not of
  // this variant or breaks its piece counts.
  bool toState(const Board& board, State* st) const;
  Board toBoard(const State& st) const { return boardOfLayers(variant_, st); }  // side to move = player 1

 private:
  Variant variant_;
  int radix_ = 0;  // perSize + 1
  uint64_t size_ = 0;
  std::vector<Slice> slices_;
  std::vector<int32_t> sliceByKey_;  // material key -> slice or -1
  std::vector<Layout> layoutByKey_;  // material key -> its slice's layout
  std::array<uint16_t, 512> base3_{};
  std::vector<uint16_t> rank_, orbitRank_;
  std::vector<uint8_t> canonSyms_;
  std::vector<uint8_t> fixingSyms_;  // code -> the symmetries that map it to itself
  std::array<std::vector<uint16_t>, 8> symCode_;
  // symRank_[sym * kLayerCodes + code] = rank_[symCode_[sym][code]]: the
  // rank of a layer's image, one load instead of two in indexOf.
  std::vector<uint16_t> symRank_;
  // Layer class (ours * 10 + theirs) -> its codes by rank, and its
  // canonical codes by orbit, each a span of byRank_.
  struct Span {
    uint32_t first = 0, count = 0;
  };
  std::array<Span, 100> members_{}, orbits_{};
  std::vector<uint16_t> byRank_;
  std::vector<Mask> codeOurs_, codeTheirs_;
};

}  // namespace gobblet::tb
