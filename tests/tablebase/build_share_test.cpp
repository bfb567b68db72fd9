// The builder split over ranks (tablebase.h: BuildShare) without MPI: the
// ranks are threads of this test, exchanging through shared memory, so the
// split itself (the deal of each level's groups, the ranges exchanged
// after each level, the agreement on failures) is tested wherever the
// tests run; mpi_build_test runs the real thing under mpirun.
#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tablebase/retrograde.h"
#include "tablebase/tablebase.h"

namespace gobblet::tb {
namespace {

// What the ranks of one solve share: a barrier, and each rank's arrays
// while an exchange runs.
struct World {
  explicit World(int n) : ranks(n), sync(n), words(n), bytes(n), failing(n) {}
  int ranks;
  std::barrier<> sync;
  std::vector<uint64_t*> words;
  std::vector<uint8_t*> bytes;
  std::vector<int> failing;
  uint64_t wordsOred = 0, bytesShared = 0;  // by rank 0, for the test
};

// A rank of a World. `failAt`: the call of agree() at which this rank
// reports a failure of its own (0: never).
class ThreadShare : public BuildShare {
 public:
  ThreadShare(World& world, int rank, int failAt = 0) : world_(world), rank_(rank), failAt_(failAt) {}
  int rank() const override { return rank_; }
  int ranks() const override { return world_.ranks; }
  absl::Status orWords(uint64_t* words, const std::vector<Range>& ranges) override {
    world_.words[rank_] = words;
    world_.sync.arrive_and_wait();
    if (rank_ == 0)
      for (const Range& r : ranges)
        for (uint64_t w = r.offset; w < r.offset + r.size; ++w) {
          uint64_t v = 0;
          for (uint64_t* other : world_.words) v |= other[w];
          for (uint64_t* other : world_.words) other[w] = v;
          ++world_.wordsOred;
        }
    world_.sync.arrive_and_wait();
    return absl::OkStatus();
  }
  absl::Status shareBytes(uint8_t* bytes, const std::vector<Range>& ranges) override {
    world_.bytes[rank_] = bytes;
    world_.sync.arrive_and_wait();  // every owner's bytes are final and in place
    for (const Range& r : ranges) {
      if (r.owner != rank_) std::copy_n(world_.bytes[r.owner] + r.offset, r.size, bytes + r.offset);
      if (rank_ == 0) world_.bytesShared += r.size;
    }
    world_.sync.arrive_and_wait();
    return absl::OkStatus();
  }
  absl::Status agree(const absl::Status& given) override {
    absl::Status mine = given;
    if (++calls_ == failAt_) mine = absl::InternalError(absl::StrCat("rank ", rank_, " fails"));
    world_.failing[rank_] = mine.ok() ? world_.ranks : rank_;
    world_.sync.arrive_and_wait();
    const int lowest = *std::min_element(world_.failing.begin(), world_.failing.end());
    world_.sync.arrive_and_wait();
    if (!mine.ok()) return mine;
    if (lowest < world_.ranks) return absl::AbortedError(absl::StrCat("rank ", lowest, " failed"));
    return absl::OkStatus();
  }

 private:
  World& world_;
  int rank_, failAt_, calls_ = 0;
};

// Solves `v` on `ranks` ranks of `threads` threads each (every group on
// the shared path if `sharedGroupSize` is 1); every rank's answer.
std::vector<absl::StatusOr<Solution>> solveOnRanks(const Variant& v, int ranks, int threads, uint64_t sharedGroupSize,
                                                   int failingRank = -1, int failAt = 0, World* seen = nullptr) {
  World world(ranks);
  std::vector<absl::StatusOr<Solution>> results;
  for (int r = 0; r < ranks; ++r) results.emplace_back(absl::UnknownError("not run"));
  std::vector<std::thread> pool;
  for (int r = 0; r < ranks; ++r)
    pool.emplace_back([&, r] {
      ThreadShare share(world, r, r == failingRank ? failAt : 0);
      results[r] = solve(v, threads, {}, sharedGroupSize, {}, &share);
    });
  for (auto& t : pool) t.join();
  if (seen) {
    seen->wordsOred = world.wordsOred;
    seen->bytesShared = world.bytesShared;
  }
  return results;
}

class BuildShareTest : public ::testing::TestWithParam<const char*> {};

// Every rank ends with the one-process answer: every code, every count;
// with one group per thread and with every group on the shared path.
TEST_P(BuildShareTest, EveryRankHasTheOneProcessAnswer) {
  const Variant v = *Variant::parse(GetParam());
  auto one = solve(v, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  for (int ranks : {2, 3})
    for (auto [threads, shared] : {std::pair<int, uint64_t>{1, kSharedGroupSize}, {2, 1}}) {
      World seen(1);
      auto results = solveOnRanks(v, ranks, threads, shared, -1, 0, &seen);
      for (int r = 0; r < ranks; ++r) {
        SCOPED_TRACE(absl::StrCat(ranks, " ranks of ", threads, " threads, rank ", r));
        ASSERT_TRUE(results[r].ok()) << results[r].status();
        EXPECT_TRUE(results[r]->codes == one->codes);
        EXPECT_EQ(results[r]->stats.states, one->stats.states);
        EXPECT_EQ(results[r]->stats.wins, one->stats.wins);
        EXPECT_EQ(results[r]->stats.start, one->stats.start);
        EXPECT_EQ(results[r]->stats.maxDistance, one->stats.maxDistance);
      }
      // Every slot's code went through the exchange once (the ranges
      // cover each level's groups, which cover the index), every reached
      // bit at least once.
      EXPECT_EQ(seen.bytesShared, one->codes.size());
      EXPECT_GE(seen.wordsOred * 64, one->codes.size());
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, BuildShareTest, ::testing::Values("tictactoe", "3x3:2,2,0", "3x3:2,2,1"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// Rank 1 fails while solving (its third agreement: after the path check
// of build() there is none here, so the second level of the backward
// pass): every rank returns an error, rank 1 its own, and none hangs.
TEST(BuildShare, AFailingRankStopsEveryRank) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  auto results = solveOnRanks(v, 3, 1, kSharedGroupSize, 1, 3);
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].status().message(), "rank 1 fails");
  for (int r : {0, 2}) {
    ASSERT_FALSE(results[r].ok()) << "rank " << r;
    EXPECT_TRUE(absl::IsAborted(results[r].status())) << results[r].status();
    EXPECT_EQ(results[r].status().message(), "rank 1 failed");
  }
}

// The cluster estimate: one rank does all the work and exchanges nothing;
// over more, the slowest rank's share is between 1/ranks and 1, and the
// codes a rank receives and sends add up to at most every slot.
TEST(BuildShare, ClusterEstimate) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  const ClusterEstimate one = estimateCluster(v, 2, 1);
  EXPECT_DOUBLE_EQ(one.criticalShare, 1.0);
  EXPECT_EQ(one.codeBytesIn + one.codeBytesOut + one.bitBytes, 0u);
  EXPECT_EQ(one.perRank.bytes, estimateSolve(v, 2).bytes);
  for (int ranks : {2, 3, 8}) {
    const ClusterEstimate c = estimateCluster(v, 2, ranks);
    EXPECT_GE(c.criticalShare, 1.0 / ranks - 1e-9) << ranks;
    EXPECT_LE(c.criticalShare, 1.0) << ranks;
    EXPECT_GT(c.codeBytesIn, 0u);
    EXPECT_LE(c.codeBytesIn, c.perRank.slots);
    EXPECT_GE(c.codeBytesOut, c.perRank.slots / ranks);
    EXPECT_GE(c.bitBytes * 8, c.perRank.slots);
  }
}

}  // namespace
}  // namespace gobblet::tb
