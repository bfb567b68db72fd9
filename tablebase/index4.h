// Index4: the dense, symmetry-reduced numbering of the 4x4 family's states
// (Variant::family4x4), the 4x4 counterpart of Index (index.h), shared by
// the 4x4 builder (retrograde4.cpp), the file reader and the verifier.
//
// A state is seen from the side to move: ours[s] / theirs[s] are the 16-bit
// masks of the squares holding a piece of size s of the side to move / of
// the other side (sizes the variant lacks are empty). A player's external
// stacks follow from the board (Board::stackCounts), so the masks are the
// whole state.
//
// Layer: the pair (ours[s], theirs[s]) of one size. Its class is (a, b) =
// (pieces of ours, pieces of theirs), each at most the stacks a player has
// (1..3): 16 classes at most, the largest 16!/(3! 3! 10!) = 160,160
// members. Where Index tabulates all 3^9 base-3 codes, 3^16 would be 43 M,
// so a layer is ranked combinatorially within its class instead:
//
//     rank = colex(ours) * C(16 - a, b) + colex(theirs among the squares ours leaves)
//
// and only the members of each class are tabulated (their masks by rank,
// the orbit of each under the 8 symmetries, and which symmetries map it to
// its orbit's canonical member, the one of smallest rank).
//
// Slice: the states with the same placed material (a0,b0,..,a3,b3); in the
// 4x4 family a player's counts never fall with size (a stack's pieces are
// played largest first): a0 <= a1 <= .. <= stacks. As in Index, one layer
// (the one of the largest class) is the slice's lead and a state is
// numbered
//
//     offset(slice) + orbit(lead) * prod(others) + mixed radix of rank(σ other_k)
//
// with σ mapping the lead to its orbit's canonical member (the smallest
// number when several do: the others are holes).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/board.h"
#include "engine/geometry.h"
#include "engine/variant.h"
#include "layer_board.h"

namespace gobblet::tb {

// A state of the 4x4 family seen from the side to move.
struct State4 {
  std::array<Mask, 4> ours{}, theirs{};
  friend bool operator==(const State4&, const State4&) = default;
};

class Index4 {
 public:
  static constexpr uint64_t kNotAState = ~uint64_t{0};

  struct Slice {
    uint64_t offset = 0;                // first number of the slice
    uint64_t size = 0;                  // numbers in the slice
    std::array<uint8_t, 8> material{};  // a0,b0,a1,b1,a2,b2,a3,b3
    uint8_t lead = 0;                   // the lead layer's size
    uint8_t others = 0;                 // how many other layers (sizes - 1)
    std::array<uint8_t, 3> other{};     // their sizes, in order
    std::array<uint32_t, 3> radix{};    // their class sizes
    uint64_t plane = 1;                 // the product of the radices
    long double wideSize = 0;           // size, not rounded to 64 bits
    int level() const {
      int l = 0;
      for (uint8_t m : material) l += m;
      return l;
    }
  };

  // The variant must be of the 4x4 family (n == 4, stacks).
  explicit Index4(const Variant& variant);

  const Variant& variant() const { return variant_; }
  // Numbers in all slices. Members whose numbering would not fit in 64 bits
  // (4x4:4,3) have fits() false: their size and counts are then only
  // estimates (sizeEstimate(), statesEstimate()), and nothing else works.
  uint64_t size() const { return size_; }
  bool fits() const { return fits_; }
  long double sizeEstimate() const { return wideSize_; }
  long double statesEstimate() const;
  const std::vector<Slice>& slices() const { return slices_; }

  // The numbers of `slice` that are states (Burnside's lemma), and over all slices.
  uint64_t statesIn(int slice) const;
  uint64_t states() const;

  // The slice of a material, or -1 if it is not one of this variant.
  int sliceOf(const std::array<uint8_t, 8>& material) const;
  int sliceOfIndex(uint64_t index) const;

  // The number of a state (any of its 8 images gives the same); the state
  // must respect the variant's counts (toState checks a board's).
  uint64_t indexOf(const State4& st) const;
  // indexOf in two steps, for the builder, whose children and parents of a
  // state differ from it in one layer each: a layer's rank within its class
  // (its ours and theirs masks), and the number of the state of `slice`
  // whose layer of size s has rank ranks[s] (sizes the variant lacks: 0).
  uint32_t layerRank(Mask ours, Mask theirs) const { return rankOf(ours, theirs); }
  uint64_t numberOfRanks(int slice, const std::array<uint32_t, 4>& ranks) const;
  // A state's layers as the other side sees them (each layer's two masks
  // swapped): what its children (after a move) and its parents (before an
  // un-move) share with it but for the one layer the move changes. The
  // material's entry 2s is the other side's pieces of size s, 2s + 1 the
  // side to move's.
  struct Flipped {
    std::array<uint8_t, 8> material{};
    std::array<uint32_t, 4> ranks{};  // layerRank of each size's swapped masks
    int slice = -1;                   // of `material`
    // The slice of `material` with one piece of size s more (delta +1) or
    // fewer (-1) at entry `entry` (2s or 2s + 1); -1 if that is no slice.
    int sliceWith(const Index4& index, int entry, int delta) const {
      std::array<uint8_t, 8> changed = material;
      changed[entry] = static_cast<uint8_t>(changed[entry] + delta);
      return index.sliceOf(changed);
    }
  };
  Flipped flipped(const State4& st) const {
    Flipped f;
    for (int s = 0; s < variant().sizes; ++s) {
      f.material[2 * s] = static_cast<uint8_t>(std::popcount(st.theirs[s]));
      f.material[2 * s + 1] = static_cast<uint8_t>(std::popcount(st.ours[s]));
      f.ranks[s] = layerRank(st.theirs[s], st.ours[s]);
    }
    f.slice = sliceOf(f.material);
    return f;
  }
  // The state numbered `index` in `slice`, without checking that it is
  // canonical; stateAt checks (false for a hole).
  void decode(int slice, uint64_t index, State4* st) const;
  bool stateAt(int slice, uint64_t index, State4* st) const {
    decode(slice, index, st);
    return indexOf(*st) == slices_[slice].offset + index;
  }
  // 1, 2, 4 or 8: the distinct images of a state under the symmetries.
  int orbitSize(const State4& st) const;

  // Board <-> state. toState fails if the board is not of this variant or
  // breaks its counts (Board::countsValid).
  bool toState(const Board& board, State4* st) const;
  Board toBoard(const State4& st) const { return boardOfLayers(variant_, st); }  // side to move = player 1
  // The number of a board's state, kNotAState if toState fails.
  uint64_t numberOf(const Board& board) const {
    State4 st;
    return toState(board, &st) ? indexOf(st) : kNotAState;
  }
  // The same for a board known to be of the variant and valid (a legal
  // move's child), without the checks.
  uint64_t numberOfValid(const Board& board) const {
    const int us = board.sideToMove();
    State4 st;
    for (int s = 0; s < variant_.sizes; ++s) {
      st.ours[s] = board.pieces(us, s);
      st.theirs[s] = board.pieces(us ^ 1, s);
    }
    return indexOf(st);
  }

 private:
  // A layer class (a, b): its members' masks by rank (ours | theirs << 16),
  // per member the rank of its orbit's canonical member among the class's
  // canonical members, the symmetries that map it to that member and those
  // that fix it, and the canonical members' ranks by orbit.
  struct Class {
    uint32_t count = 0, theirsRadix = 1;  // members; C(16 - a, b)
    std::vector<uint32_t> masks;
    std::vector<uint32_t> orbitRank;
    std::vector<uint8_t> canonSyms, fixingSyms;
    std::vector<uint32_t> symRank;    // [sym * count + rank]: the rank of the member's image under sym
    std::vector<uint32_t> orbits;     // canonical members' ranks, by orbit
    std::array<uint64_t, 8> fixed{};  // members each symmetry fixes
  };
  static int classOf(int ours, int theirs) { return ours * 4 + theirs; }
  uint32_t rankOf(Mask ours, Mask theirs) const;
  uint64_t keyOf(const std::array<uint8_t, 8>& material) const;

  Variant variant_;
  const Geometry* geometry_;
  uint64_t size_ = 0;
  bool fits_ = true;
  long double wideSize_ = 0;
  std::vector<Slice> slices_;
  std::vector<int32_t> sliceByKey_;  // material key (base 4 per entry) -> slice or -1
  std::array<Class, 16> classes_{};
  std::vector<uint16_t> colex_;  // mask -> its colex rank among the masks of its popcount
  uint32_t binomial_[17][17]{};
};

}  // namespace gobblet::tb
