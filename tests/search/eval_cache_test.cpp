// The search's cache of the net's evaluations (search/eval_cache.h). That
// the search's nodes are the same with it is the bench's signature
// (bench_signature).
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "engine/game.h"
#include "search/eval_cache.h"
#include "search/eval_file.h"
#include "search/search.h"

namespace gobblet {
namespace {

TEST(EvalCache, AHitIsTheSamePositionsStoredValue) {
  EvalCache cache;
  int value = 7;
  EXPECT_FALSE(cache.probe(0, value)) << "an empty entry holds no position, not even key 0";
  EXPECT_FALSE(cache.probe(12345, value));
  EXPECT_EQ(value, 7) << "a miss leaves the value alone";
  cache.store(12345, -321);
  ASSERT_TRUE(cache.probe(12345, value));
  EXPECT_EQ(value, -321);
  // Another key of the same entry (the same low bits) is a miss, and
  // takes the entry.
  const uint64_t other = 12345 + EvalCache::kEntries;
  EXPECT_FALSE(cache.probe(other, value));
  cache.store(other, 10000);
  ASSERT_TRUE(cache.probe(other, value));
  EXPECT_EQ(value, 10000);
  EXPECT_FALSE(cache.probe(12345, value));
  cache.store(0, -10000);
  ASSERT_TRUE(cache.probe(0, value));
  EXPECT_EQ(value, -10000);
}

TEST(EvalCache, ManyKeysReadBackTheirLastValue) {
  EvalCache cache;
  std::mt19937_64 rng(3);
  std::vector<std::pair<uint64_t, int>> stored;
  for (size_t i = 0; i < EvalCache::kEntries / 4; ++i) {
    const uint64_t key = rng();
    const int value = static_cast<int>(rng() % 20001) - 10000;
    cache.store(key, value);
    stored.emplace_back(key, value);
  }
  int hits = 0;
  for (const auto& [key, value] : stored) {
    int got = 0;
    if (!cache.probe(key, got)) continue;  // overwritten by a later key of its entry
    ++hits;
    EXPECT_EQ(got, value) << key;
  }
  EXPECT_GT(hits, static_cast<int>(stored.size() * 3 / 4));
}

// A search with the net finds positions it has evaluated in its cache;
// one with the hand-written evaluation has none.
TEST(EvalCache, TheSearchHitsItWithTheNetOnly) {
  for (const bool withNet : {true, false}) {
    Search search;
    SearchOptions options;
    options.threads = 1;
    if (withNet) options.net = builtInNet();
    ASSERT_TRUE(search.setOptions(options).ok());
    SearchLimits limits;
    limits.depth = 7;
    search.searchSync(Game(Board(Variant::gobblet())), limits);
    if (withNet)
      EXPECT_GT(search.lastStats().evalCacheHits, 1000u);
    else
      EXPECT_EQ(search.lastStats().evalCacheHits, 0u);
  }
}

}  // namespace
}  // namespace gobblet
