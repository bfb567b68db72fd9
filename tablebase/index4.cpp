#include "index4.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>

namespace gobblet::tb {

Index4::Index4(const Variant& variant) : variant_(variant), geometry_(&geometry(4)) {
  assert(variant.n == 4 && variant.stacks);
  const int k = variant.stackCount();
  for (int n = 0; n <= 16; ++n) {
    binomial_[n][0] = 1;
    for (int r = 1; r <= n; ++r) binomial_[n][r] = binomial_[n - 1][r - 1] + (r <= n - 1 ? binomial_[n - 1][r] : 0);
  }
  // 1. Colex ranks of the masks among those of their popcount.
  colex_.assign(65536, 0);
  for (int m = 0; m < 65536; ++m) {
    uint32_t r = 0;
    int j = 0;
    for (int sq = 0; sq < 16; ++sq)
      if (m >> sq & 1) r += binomial_[sq][++j];
    colex_[m] = static_cast<uint16_t>(r);
  }
  // 2. The layer classes: members by rank, orbits, symmetries.
  for (int a = 0; a <= k; ++a)
    for (int b = 0; b <= k; ++b) {
      Class& c = classes_[classOf(a, b)];
      c.theirsRadix = binomial_[16 - a][b];
      c.count = binomial_[16][a] * c.theirsRadix;
      c.masks.assign(c.count, 0);
    }
  std::vector<int> few;  // the masks of at most k squares
  for (int m = 0; m < 65536; ++m)
    if (std::popcount(static_cast<unsigned>(m)) <= k) few.push_back(m);
  for (int o : few) {
    for (int t : few) {
      if (o & t) continue;
      Class& c = classes_[classOf(std::popcount(static_cast<unsigned>(o)), std::popcount(static_cast<unsigned>(t)))];
      c.masks[rankOf(static_cast<Mask>(o), static_cast<Mask>(t))] = static_cast<uint32_t>(o | t << 16);
    }
  }
  for (int a = 0; a <= k; ++a)
    for (int b = 0; b <= k; ++b) {
      Class& c = classes_[classOf(a, b)];
      c.canonSyms.assign(c.count, 0);
      c.fixingSyms.assign(c.count, 0);
      c.orbitRank.assign(c.count, 0);
      c.symRank.assign(8 * size_t{c.count}, 0);
      std::vector<uint32_t> canonOf(c.count);
      for (uint32_t r = 0; r < c.count; ++r) {
        const Mask o = static_cast<Mask>(c.masks[r] & 0xffff), t = static_cast<Mask>(c.masks[r] >> 16);
        uint32_t image[8], canon = r;
        for (int sym = 0; sym < 8; ++sym) {
          image[sym] = rankOf(geometry_->transform(sym, o), geometry_->transform(sym, t));
          c.symRank[sym * size_t{c.count} + r] = image[sym];
          canon = std::min(canon, image[sym]);
        }
        for (int sym = 0; sym < 8; ++sym) {
          if (image[sym] == canon) c.canonSyms[r] |= static_cast<uint8_t>(1u << sym);
          if (image[sym] == r) c.fixingSyms[r] |= static_cast<uint8_t>(1u << sym), ++c.fixed[sym];
        }
        canonOf[r] = canon;
        if (canon == r) c.orbits.push_back(r);
      }
      for (uint32_t r = 0; r < c.count; ++r)
        c.orbitRank[r] =
            static_cast<uint32_t>(std::lower_bound(c.orbits.begin(), c.orbits.end(), canonOf[r]) - c.orbits.begin());
    }
  // 3. Slices in material-key order; the lead is the largest layer class.
  const int sizes = variant.sizes;
  sliceByKey_.assign(65536, -1);
  long double wide = 0;
  for (int key = 0; key < 65536; ++key) {
    std::array<uint8_t, 8> mat;
    for (int i = 7, x = key; i >= 0; --i, x /= 4) mat[i] = static_cast<uint8_t>(x % 4);
    bool ok = true;
    for (int s = 0; s < 4; ++s) {
      const int a = mat[2 * s], b = mat[2 * s + 1];
      if (s >= sizes ? a + b > 0 : a > k || b > k) ok = false;
      // A player's counts never fall with size (Board::countsValid).
      if (s > 0 && s < sizes && (a < mat[2 * s - 2] || b < mat[2 * s - 1])) ok = false;
    }
    if (!ok) continue;
    Slice sl;
    sl.material = mat;
    sl.lead = static_cast<uint8_t>(sizes - 1);
    for (int s = sizes - 2; s >= 0; --s)
      if (classes_[classOf(mat[2 * s], mat[2 * s + 1])].count >
          classes_[classOf(mat[2 * sl.lead], mat[2 * sl.lead + 1])].count)
        sl.lead = static_cast<uint8_t>(s);
    long double wideSlice = classes_[classOf(mat[2 * sl.lead], mat[2 * sl.lead + 1])].orbits.size();
    for (int s = 0; s < sizes; ++s) {
      if (s == sl.lead) continue;
      sl.other[sl.others] = static_cast<uint8_t>(s);
      sl.radix[sl.others] = classes_[classOf(mat[2 * s], mat[2 * s + 1])].count;
      wideSlice *= sl.radix[sl.others];
      sl.plane *= sl.radix[sl.others];
      ++sl.others;
    }
    sl.wideSize = wideSlice;
    wide += wideSlice;
    if (wide >= 1.8e19L) fits_ = false;
    sl.size = fits_ ? static_cast<uint64_t>(classes_[classOf(mat[2 * sl.lead], mat[2 * sl.lead + 1])].orbits.size()) *
                          sl.plane
                    : 0;
    sl.offset = size_;
    size_ += sl.size;
    sliceByKey_[key] = static_cast<int32_t>(slices_.size());
    slices_.push_back(sl);
  }
  wideSize_ = wide;
  if (!fits_) size_ = 0;
}

uint32_t Index4::rankOf(Mask ours, Mask theirs) const {
  const int a = std::popcount(ours);
  uint32_t r = 0;
  int j = 0;
  for (Mask t = theirs; t; t &= t - 1) {
    const int sq = std::countr_zero(t);
    r += binomial_[std::popcount(static_cast<unsigned>(~ours & ((1u << sq) - 1) & 0xffff))][++j];
  }
  return uint32_t{colex_[ours]} * binomial_[16 - a][j] + r;
}

uint64_t Index4::keyOf(const std::array<uint8_t, 8>& material) const {
  uint64_t key = 0;
  for (uint8_t m : material) key = key * 4 + m;
  return key;
}

long double Index4::statesEstimate() const {
  long double total = 0;
  for (const Slice& sl : slices_) {
    long double fixedTotal = 0;
    for (int sym = 0; sym < 8; ++sym) {
      long double fixed = 1;
      for (int s = 0; s < variant_.sizes; ++s)
        fixed *= classes_[classOf(sl.material[2 * s], sl.material[2 * s + 1])].fixed[sym];
      fixedTotal += fixed;
    }
    total += fixedTotal / 8;
  }
  return total;
}

uint64_t Index4::statesIn(int slice) const {
  const Slice& sl = slices_[slice];
  uint64_t fixedTotal = 0;
  for (int sym = 0; sym < 8; ++sym) {
    uint64_t fixed = 1;
    for (int s = 0; s < variant_.sizes; ++s)
      fixed *= classes_[classOf(sl.material[2 * s], sl.material[2 * s + 1])].fixed[sym];
    fixedTotal += fixed;
  }
  return fixedTotal / 8;
}

uint64_t Index4::states() const {
  uint64_t n = 0;
  for (int s = 0; s < static_cast<int>(slices_.size()); ++s) n += statesIn(s);
  return n;
}

int Index4::sliceOf(const std::array<uint8_t, 8>& material) const {
  for (uint8_t m : material)
    if (m > 3) return -1;
  return sliceByKey_[keyOf(material)];
}

int Index4::sliceOfIndex(uint64_t index) const {
  auto it =
      std::upper_bound(slices_.begin(), slices_.end(), index, [](uint64_t i, const Slice& s) { return i < s.offset; });
  return static_cast<int>(it - slices_.begin()) - 1;
}

uint64_t Index4::indexOf(const State4& st) const {
  std::array<uint8_t, 8> mat{};
  std::array<uint32_t, 4> ranks{};
  for (int s = 0; s < variant_.sizes; ++s) {
    mat[2 * s] = static_cast<uint8_t>(std::popcount(st.ours[s]));
    mat[2 * s + 1] = static_cast<uint8_t>(std::popcount(st.theirs[s]));
    ranks[s] = rankOf(st.ours[s], st.theirs[s]);
  }
  const int slice = sliceOf(mat);
  assert(slice >= 0 && "a state of the variant's counts");
  return numberOfRanks(slice, ranks);
}

uint64_t Index4::numberOfRanks(int slice, const std::array<uint32_t, 4>& ranks) const {
  const Slice& sl = slices_[slice];
  const Class& lead = classes_[classOf(sl.material[2 * sl.lead], sl.material[2 * sl.lead + 1])];
  const uint32_t leadRank = ranks[sl.lead];
  // The other layers' images' ranks from the tables.
  const uint32_t* symRank[3];
  for (int k = 0; k < sl.others; ++k) {
    const int s = sl.other[k];
    symRank[k] = classes_[classOf(sl.material[2 * s], sl.material[2 * s + 1])].symRank.data();
  }
  uint64_t best = ~uint64_t{0};
  for (unsigned syms = lead.canonSyms[leadRank]; syms; syms &= syms - 1) {
    const int sym = std::countr_zero(syms);
    uint64_t r = 0;
    for (int k = 0; k < sl.others; ++k)
      r = r * sl.radix[k] + symRank[k][sym * size_t{sl.radix[k]} + ranks[sl.other[k]]];
    best = std::min(best, r);
  }
  return sl.offset + uint64_t{lead.orbitRank[leadRank]} * sl.plane + best;
}

void Index4::decode(int slice, uint64_t index, State4* st) const {
  const Slice& sl = slices_[slice];
  *st = State4{};
  uint64_t rest = index % sl.plane;
  const Class& lead = classes_[classOf(sl.material[2 * sl.lead], sl.material[2 * sl.lead + 1])];
  const uint32_t leadMasks = lead.masks[lead.orbits[index / sl.plane]];
  st->ours[sl.lead] = static_cast<Mask>(leadMasks & 0xffff);
  st->theirs[sl.lead] = static_cast<Mask>(leadMasks >> 16);
  for (int k = sl.others - 1; k >= 0; --k) {
    const int s = sl.other[k];
    const Class& c = classes_[classOf(sl.material[2 * s], sl.material[2 * s + 1])];
    const uint32_t masks = c.masks[rest % sl.radix[k]];
    rest /= sl.radix[k];
    st->ours[s] = static_cast<Mask>(masks & 0xffff);
    st->theirs[s] = static_cast<Mask>(masks >> 16);
  }
}

int Index4::orbitSize(const State4& st) const {
  unsigned fixing = 0xff;
  for (int s = 0; s < variant_.sizes; ++s) {
    const Class& c = classes_[classOf(std::popcount(st.ours[s]), std::popcount(st.theirs[s]))];
    fixing &= c.fixingSyms[rankOf(st.ours[s], st.theirs[s])];
  }
  return 8 / std::popcount(fixing);
}

bool Index4::toState(const Board& board, State4* st) const {
  if (!(board.variant() == variant_) || !board.countsValid()) return false;
  const int us = board.sideToMove();
  *st = State4{};
  for (int s = 0; s < variant_.sizes; ++s) {
    st->ours[s] = board.pieces(us, s);
    st->theirs[s] = board.pieces(us ^ 1, s);
    if (st->ours[s] & st->theirs[s]) return false;
  }
  return true;
}

}  // namespace gobblet::tb
