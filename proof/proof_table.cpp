#include "proof_table.h"

#include <algorithm>
#include <bit>
#include <string>
#include <type_traits>
#include <utility>

namespace gobblet::proof {

absl::StatusOr<std::unique_ptr<ProofTable>> ProofTable::create(size_t mebibytes) {
  static_assert(std::is_trivially_destructible_v<Bucket> && std::is_trivially_copyable_v<Bucket>);
  constexpr size_t kMaxMiB = size_t{1} << 30;  // beyond this, (mebibytes << 20) could overflow
  if (mebibytes > kMaxMiB)
    return absl::ResourceExhaustedError("proof table of " + std::to_string(mebibytes) + " MiB: too large");
  const size_t wanted = std::max<size_t>(1, (mebibytes << 20) / sizeof(Bucket));
  const size_t count = std::bit_floor(wanted);
  auto memory = ZeroedMemory::allocate(count * sizeof(Bucket), "proof table");
  if (!memory.ok()) return memory.status();
  std::unique_ptr<ProofTable> table(new ProofTable());
  table->locks_ = std::make_unique<std::mutex[]>(kLocks);
  table->memory_ = std::move(*memory);
  table->buckets_ = static_cast<Bucket*>(table->memory_.data());
  table->bucketCount_ = count;
  return table;
}

bool ProofTable::lookup(const Board& board, int attacker, ProofValue* value) const {
  const PackedPosition p = pack(board);
  const uint8_t tag = tagOf(board, attacker);
  const size_t b = bucketOf(board);
  std::lock_guard lock(locks_[b % kLocks]);
  for (const Entry& e : buckets_[b].entries)
    if ((e.tag & ~kGhi) == tag && e.lo == p.lo && e.hi == p.hi) {
      *value = {e.pn, e.dn, e.dist, (e.tag & kGhi) != 0};
      return true;
    }
  return false;
}

void ProofTable::store(const Board& board, int attacker, const ProofValue& value, uint64_t work) {
  const PackedPosition p = pack(board);
  const uint8_t tag = tagOf(board, attacker);
  const size_t b = bucketOf(board);
  std::lock_guard lock(locks_[b % kLocks]);
  auto& entries = buckets_[b].entries;
  Entry* slot = nullptr;
  for (Entry& e : entries)
    if ((e.tag & ~kGhi) == tag && e.lo == p.lo && e.hi == p.hi) slot = &e;
  if (!slot) {
    // The victim: an empty entry, else the least worth keeping (unproved before proved, then least work).
    auto worth = [](const Entry& e) {
      if (!(e.tag & kUsed)) return uint64_t{0};
      return (e.pn == 0 ? uint64_t{1} << 40 : uint64_t{1} << 32) + e.work;
    };
    slot = &*std::min_element(entries.begin(), entries.end(),
                              [&](const Entry& a, const Entry& c) { return worth(a) < worth(c); });
  }
  slot->lo = p.lo;
  slot->hi = p.hi;
  slot->pn = value.pn;
  slot->dn = value.dn;
  slot->dist = value.dist;
  slot->work = static_cast<uint32_t>(std::min<uint64_t>(work, UINT32_MAX));
  slot->tag = static_cast<uint8_t>(tag | (value.ghi ? kGhi : 0));
}

}  // namespace gobblet::proof
