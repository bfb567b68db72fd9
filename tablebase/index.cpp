#include "index.h"

#include <algorithm>
#include <cassert>

namespace gobblet::tb {

namespace {

int classOf(int ours, int theirs) { return ours * 10 + theirs; }

}  // namespace

Index::Index(const Variant& variant) : variant_(variant), radix_(variant.perSize + 1) {
  assert(variant.n == 3 && !variant.stacks);
  const Geometry& g = geometry(3);

  // 1. Layer codes: base 3 of the two masks, class members and ranks.
  for (int m = 0; m < 512; ++m) {
    int code = 0;
    for (int sq = 8; sq >= 0; --sq) code = code * 3 + ((m >> sq) & 1);
    base3_[m] = static_cast<uint16_t>(code);
  }
  codeOurs_.assign(kLayerCodes, 0);
  codeTheirs_.assign(kLayerCodes, 0);
  rank_.assign(kLayerCodes, 0);
  orbitRank_.assign(kLayerCodes, 0);
  canonSyms_.assign(kLayerCodes, 0);
  fixingSyms_.assign(kLayerCodes, 0);
  std::vector<std::vector<uint16_t>> members(100), orbits(100);  // class -> codes by rank, canonical codes by orbit
  for (int code = 0; code < kLayerCodes; ++code) {
    Mask ours = 0, theirs = 0;
    for (int sq = 0, c = code; sq < 9; ++sq, c /= 3) {
      if (c % 3 == 1) ours |= bit(sq);
      if (c % 3 == 2) theirs |= bit(sq);
    }
    codeOurs_[code] = ours;
    codeTheirs_[code] = theirs;
    auto& inClass = members[classOf(std::popcount(ours), std::popcount(theirs))];
    rank_[code] = static_cast<uint16_t>(inClass.size());
    inClass.push_back(static_cast<uint16_t>(code));
  }

  // 2. Symmetries of codes, orbits and the symmetries that canonicalise.
  for (int sym = 0; sym < 8; ++sym) {
    symCode_[sym].assign(kLayerCodes, 0);
    for (int code = 0; code < kLayerCodes; ++code)
      symCode_[sym][code] = static_cast<uint16_t>(base3_[g.transform(sym, codeOurs_[code])] +
                                                  2 * base3_[g.transform(sym, codeTheirs_[code])]);
  }
  for (int code = 0; code < kLayerCodes; ++code) {
    uint16_t canon = static_cast<uint16_t>(code);
    for (int sym = 0; sym < 8; ++sym) canon = std::min(canon, symCode_[sym][code]);
    for (int sym = 0; sym < 8; ++sym)
      if (symCode_[sym][code] == canon) canonSyms_[code] |= static_cast<uint8_t>(1u << sym);
    for (int sym = 0; sym < 8; ++sym)
      if (symCode_[sym][code] == code) fixingSyms_[code] |= static_cast<uint8_t>(1u << sym);
    if (canon == code)
      orbits[classOf(std::popcount(codeOurs_[code]), std::popcount(codeTheirs_[code]))].push_back(canon);
  }
  for (int code = 0; code < kLayerCodes; ++code) {
    const uint16_t canon = symCode_[std::countr_zero(canonSyms_[code])][code];
    const auto& inClass = orbits[classOf(std::popcount(codeOurs_[code]), std::popcount(codeTheirs_[code]))];
    orbitRank_[code] = static_cast<uint16_t>(std::lower_bound(inClass.begin(), inClass.end(), canon) - inClass.begin());
  }
  for (int c = 0; c < 100; ++c) {
    members_[c] = {static_cast<uint32_t>(byRank_.size()), static_cast<uint32_t>(members[c].size())};
    byRank_.insert(byRank_.end(), members[c].begin(), members[c].end());
    orbits_[c] = {static_cast<uint32_t>(byRank_.size()), static_cast<uint32_t>(orbits[c].size())};
    byRank_.insert(byRank_.end(), orbits[c].begin(), orbits[c].end());
  }
  symRank_.assign(8 * static_cast<size_t>(kLayerCodes), 0);
  for (int sym = 0; sym < 8; ++sym)
    for (int code = 0; code < kLayerCodes; ++code)
      symRank_[static_cast<size_t>(sym) * kLayerCodes + code] = rank_[symCode_[sym][code]];

  // 3. Slices in material-key order; the lead is the largest layer class.
  const int p = variant.perSize;
  sliceByKey_.assign(static_cast<size_t>(radix_) * radix_ * radix_ * radix_ * radix_ * radix_, -1);
  layoutByKey_.assign(sliceByKey_.size(), Layout{});
  for (int key = 0; key < static_cast<int>(sliceByKey_.size()); ++key) {
    std::array<uint8_t, 6> mat;
    bool ok = true;
    for (int i = 5, k = key; i >= 0; --i, k /= radix_) mat[i] = static_cast<uint8_t>(k % radix_);
    for (int s = 0; s < 3; ++s) {
      const int a = mat[2 * s], b = mat[2 * s + 1];
      if (a + b > 9 || a > p || b > p || (s >= variant.sizes && a + b > 0)) ok = false;
    }
    if (!ok) continue;
    Slice sl;
    sl.material = mat;
    uint64_t classSize[3];
    for (int s = 0; s < 3; ++s) classSize[s] = members_[classOf(mat[2 * s], mat[2 * s + 1])].count;
    sl.lead = 2;
    for (int s = 1; s >= 0; --s)
      if (classSize[s] > classSize[sl.lead]) sl.lead = static_cast<uint8_t>(s);
    sl.x = sl.lead == 0 ? 1 : 0;
    sl.y = sl.lead == 2 ? 1 : 2;
    sl.nx = static_cast<uint32_t>(classSize[sl.x]);
    sl.ny = static_cast<uint32_t>(classSize[sl.y]);
    sl.offset = size_;
    sl.size = uint64_t{orbits_[classOf(mat[2 * sl.lead], mat[2 * sl.lead + 1])].count} * sl.nx * sl.ny;
    sl.leadCodes = orbits_[classOf(mat[2 * sl.lead], mat[2 * sl.lead + 1])].first;
    sl.xCodes = members_[classOf(mat[2 * sl.x], mat[2 * sl.x + 1])].first;
    sl.yCodes = members_[classOf(mat[2 * sl.y], mat[2 * sl.y + 1])].first;
    assert(sl.size < (uint64_t{1} << 32) && "decode divides in 32 bits");
    size_ += sl.size;
    sl.key = key;
    sliceByKey_[key] = static_cast<int32_t>(slices_.size());
    layoutByKey_[key] = Layout{sl.offset, sl.nx * sl.ny, sl.ny, sl.lead, sl.x, sl.y};
    slices_.push_back(sl);
  }
}

uint64_t Index::statesIn(int slice) const {
  const Slice& sl = slices_[slice];
  uint64_t fixedTotal = 0;
  for (int sym = 0; sym < 8; ++sym) {
    uint64_t fixed = 1;
    for (int s = 0; s < 3; ++s) {
      uint64_t inClass = 0;
      const Span members = members_[classOf(sl.material[2 * s], sl.material[2 * s + 1])];
      for (uint32_t k = members.first; k < members.first + members.count; ++k)
        inClass += symCode_[sym][byRank_[k]] == byRank_[k];
      fixed *= inClass;
    }
    fixedTotal += fixed;
  }
  return fixedTotal / 8;
}

uint64_t Index::states() const {
  uint64_t n = 0;
  for (int s = 0; s < static_cast<int>(slices_.size()); ++s) n += statesIn(s);
  return n;
}

int Index::sliceOf(const std::array<uint8_t, 6>& material) const {
  int key = 0;
  for (uint8_t m : material) {
    if (m >= radix_) return -1;
    key = key * radix_ + m;
  }
  return sliceByKey_[key];
}

int Index::sliceOfIndex(uint64_t index) const {
  auto it =
      std::upper_bound(slices_.begin(), slices_.end(), index, [](uint64_t i, const Slice& s) { return i < s.offset; });
  return static_cast<int>(it - slices_.begin()) - 1;
}

bool Index::toState(const Board& board, State* st) const {
  if (!(board.variant() == variant_)) return false;
  const int us = board.sideToMove();
  *st = State{};
  for (int s = 0; s < variant_.sizes; ++s) {
    st->ours[s] = board.pieces(us, s);
    st->theirs[s] = board.pieces(us ^ 1, s);
    if ((st->ours[s] & st->theirs[s]) || (st->ours[s] | st->theirs[s]) >= 512 ||
        std::popcount(st->ours[s]) > variant_.perSize || std::popcount(st->theirs[s]) > variant_.perSize)
      return false;
  }
  return true;
}

}  // namespace gobblet::tb
