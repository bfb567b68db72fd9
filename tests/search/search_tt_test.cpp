// Transposition table: store/probe, key verification, bound and depth
// round-trip, replacement, generations, hashfull, and the ply adjustment of
// win/loss scores.
#include <gtest/gtest.h>

#include <iterator>
#include <random>

#include "search/tt.h"

namespace gobblet {
namespace {

// The WebAssembly engine's cluster index (32-bit size_t) is the 128-bit
// product's: the same table slots, so the same search, as natively.
TEST(TranspositionTable, ScaleKeyIsTheHighHalfOfTheProduct) {
  std::mt19937_64 rng(7);
  const uint32_t counts[] = {1, 2, 3, 1000, 65536, 262143, 0x7fffffffu, 0xfffffffeu, 0xffffffffu};
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = i < 16 ? ~uint64_t{0} - i : rng();
    const uint32_t count = i % 2 ? counts[i / 2 % std::size(counts)] : static_cast<uint32_t>(rng());
    const uint64_t expected = static_cast<uint64_t>((static_cast<unsigned __int128>(key) * count) >> 64);
    ASSERT_EQ(scaleKey(key, count), expected) << "key " << key << " count " << count;
  }
}

TEST(TranspositionTable, StoresAndProbesWithKeyVerification) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1).ok());
  const Move m = Move::drop(3, 5);
  tt.store(0x123456789abcdef0ull, m, -1234, 56, 7, kBoundLower);
  TTData d;
  ASSERT_TRUE(tt.probe(0x123456789abcdef0ull, d));
  EXPECT_EQ(d.move, m);
  EXPECT_EQ(d.score, -1234);
  EXPECT_EQ(d.eval, 56);
  EXPECT_EQ(d.depth, 7);
  EXPECT_EQ(d.bound, kBoundLower);
  // Same cluster index bits, different key: a miss.
  EXPECT_FALSE(tt.probe(0x123456789abcdef1ull, d));
  EXPECT_FALSE(tt.probe(0, d));
  tt.clear();
  EXPECT_FALSE(tt.probe(0x123456789abcdef0ull, d));
}

TEST(TranspositionTable, KeepsMoveWhenOverwrittenWithoutOne) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1).ok());
  const uint64_t key = 0xfeedfacecafebeefull;
  tt.store(key, Move::boardMove(2, 1, 9), 10, 0, 3, kBoundExact);
  tt.store(key, Move::none(), 20, 0, 4, kBoundUpper);
  TTData d;
  ASSERT_TRUE(tt.probe(key, d));
  EXPECT_EQ(d.move, Move::boardMove(2, 1, 9));
  EXPECT_EQ(d.score, 20);
  EXPECT_EQ(d.bound, kBoundUpper);
}

// An entry of the same key takes the new result unless it is not exact,
// more than 2 plies shallower and the entry is of this search (tt.h).
TEST(TranspositionTable, ASameKeyKeepsAMuchDeeperResultOfThisSearchOnly) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1).ok());
  const uint64_t key = 0x0123456789abcdefull;
  TTData d;
  const auto scoreStored = [&] { return tt.probe(key, d) ? d.score : -1; };
  tt.store(key, Move::none(), 1, 0, 10, kBoundExact);
  tt.store(key, Move::none(), 2, 0, 7, kBoundLower);  // 3 plies shallower, not exact: dropped
  EXPECT_EQ(scoreStored(), 1);
  tt.store(key, Move::none(), 3, 0, 7, kBoundUpper);  // (either bound)
  EXPECT_EQ(scoreStored(), 1);
  tt.store(key, Move::none(), 4, 0, 8, kBoundLower);  // 2 plies shallower: stored
  EXPECT_EQ(scoreStored(), 4);
  tt.store(key, Move::none(), 5, 0, 1, kBoundExact);  // exact: stored, however shallow
  EXPECT_EQ(scoreStored(), 5);
  tt.store(key, Move::none(), 6, 0, 12, kBoundLower);
  tt.newSearch();
  tt.store(key, Move::none(), 7, 0, 1, kBoundUpper);  // the deep entry is of an earlier search: stored
  EXPECT_EQ(scoreStored(), 7);
  EXPECT_EQ(d.depth, 1);
}

TEST(TranspositionTable, ReplacesShallowOrOldEntriesInAFullCluster) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1).ok());
  // Keys that all map to cluster 0: the top bits decide the index.
  auto key = [](uint64_t i) { return i * 0x10001ull + 1; };  // tiny: index (key * count) >> 64 == 0
  for (uint64_t i = 0; i < 4; ++i) tt.store(key(i), Move::none(), 0, 0, 10 + static_cast<int>(i), kBoundExact);
  tt.store(key(4), Move::none(), 0, 0, 1, kBoundExact);  // evicts the shallowest (depth 10)
  TTData d;
  EXPECT_FALSE(tt.probe(key(0), d));
  EXPECT_TRUE(tt.probe(key(4), d));
  for (uint64_t i = 1; i < 4; ++i) EXPECT_TRUE(tt.probe(key(i), d));
  // After many searches the deep entries are old and lose to new ones.
  for (int g = 0; g < 5; ++g) tt.newSearch();
  tt.store(key(5), Move::none(), 0, 0, 2, kBoundExact);
  EXPECT_TRUE(tt.probe(key(5), d));
  EXPECT_TRUE(tt.probe(key(4), d) + tt.probe(key(1), d) + tt.probe(key(2), d) + tt.probe(key(3), d) == 3);
}

TEST(TranspositionTable, HashfullCountsCurrentGeneration) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1).ok());
  EXPECT_EQ(tt.hashfull(), 0);
  // Fill by storing many random keys.
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    tt.store(x, Move::none(), 0, 0, 1, kBoundExact);
  }
  EXPECT_GT(tt.hashfull(), 900);
  tt.newSearch();
  EXPECT_EQ(tt.hashfull(), 0);
}

TEST(TranspositionTable, WinScoresAreStoredRelativeToTheNode) {
  // A win 5 plies from the root found at ply 3 is a win in 2 from the node.
  const int rootRelative = kMate - 5;
  const int stored = scoreToTT(rootRelative, 3);
  EXPECT_EQ(stored, kMate - 2);
  // Reached again at ply 7 (another path), it is a win 9 plies from the root.
  EXPECT_EQ(scoreFromTT(stored, 7), kMate - 9);
  // Losses likewise, and ordinary scores are unchanged.
  EXPECT_EQ(scoreToTT(-(kMate - 6), 4), -(kMate - 2));
  EXPECT_EQ(scoreFromTT(-(kMate - 2), 1), -(kMate - 3));
  EXPECT_EQ(scoreToTT(123, 9), 123);
  EXPECT_EQ(scoreFromTT(-77, 9), -77);
  // Through the table itself.
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1).ok());
  tt.store(42, Move::none(), scoreToTT(kMate - 5, 3), 0, 4, kBoundExact);
  TTData d;
  ASSERT_TRUE(tt.probe(42, d));
  EXPECT_EQ(scoreFromTT(d.score, 1), kMate - 3);
}

// A size that cannot be allocated is an error that leaves the table as it
// was: same size, same entries, still usable.
TEST(TranspositionTable, FailedResizeKeepsTheOldTable) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(2).ok());
  const size_t clusters = tt.clusterCount();
  tt.store(77, Move::drop(1, 4), 5, 0, 3, kBoundExact);
  // 2^28 MiB (256 TiB) is beyond the user address space, whatever the
  // overcommit policy; 2^40 MiB and more would overflow a byte count.
  for (size_t absurd : {size_t{1} << 28, size_t{1} << 40, size_t{1} << 60, ~size_t{0}}) {
    const absl::Status status = tt.resize(absurd);
    EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << absurd;
    EXPECT_EQ(tt.clusterCount(), clusters);
    EXPECT_EQ(tt.sizeMiB(), 2u);
    TTData d;
    ASSERT_TRUE(tt.probe(77, d));
    EXPECT_EQ(d.move, Move::drop(1, 4));
  }
  tt.clear();
  TTData d;
  EXPECT_FALSE(tt.probe(77, d));
  tt.store(78, Move::none(), 1, 0, 1, kBoundUpper);
  EXPECT_TRUE(tt.probe(78, d));
  EXPECT_GE(tt.hashfull(), 0);
}

}  // namespace
}  // namespace gobblet
