// The builder split over ranks (tablebase.h: BuildShare) without MPI: the
// ranks are threads of this test, exchanging through shared memory, so the
// split itself (the deal of each level's groups, the ranges exchanged
// after each level, the agreement on failures) is tested wherever the
// tests run; mpi_build_test runs the real thing under mpirun.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tablebase/file.h"
#include "tablebase/retrograde.h"
#include "tablebase/retrograde4.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/thread_share.h"
#include "tablebase/tablebase.h"

namespace gobblet::tb {
namespace {

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

// Every rank ends with the one-process counts and the one-process codes of
// the slices it holds, and holds only those (the others' codes are
// kNoState; each slice, and so each state, is held by one rank, and no
// rank holds every state); with one group per thread and with every group
// on the shared path.
TEST_P(BuildShareTest, EachRankHoldsItsSlicesWithTheOneProcessCodes) {
  const Variant v = *Variant::parse(GetParam());
  auto one = solve(v, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  const Index index(v);
  for (int ranks : {2, 3})
    for (auto [threads, shared] : {std::pair<int, uint64_t>{1, kSharedGroupSize}, {2, 1}}) {
      auto results = solveOnRanks(v, ranks, threads, shared);
      std::vector<int> held(index.slices().size(), 0);
      uint64_t allOwnStates = 0;
      for (int r = 0; r < ranks; ++r) {
        SCOPED_TRACE(absl::StrCat(ranks, " ranks of ", threads, " threads, rank ", r));
        ASSERT_TRUE(results[r].ok()) << results[r].status();
        const Solution& mine = *results[r];
        ASSERT_EQ(mine.owners.size(), index.slices().size());
        EXPECT_EQ(mine.owners, results[0]->owners);
        uint64_t wrong = 0, ownStates = 0;
        for (size_t s = 0; s < index.slices().size(); ++s) {
          const Index::Slice& sl = index.slices()[s];
          const bool own = mine.owners[s] == r;
          held[s] += own;
          for (uint64_t x = sl.offset; x < sl.offset + sl.size; ++x) {
            wrong += mine.codes[x] != (own ? one->codes[x] : kNoState);
            ownStates += own && one->codes[x] != kNoState;
          }
        }
        EXPECT_EQ(wrong, 0u);
        EXPECT_LT(ownStates, one->stats.states);
        allOwnStates += ownStates;
        EXPECT_EQ(mine.stats.states, one->stats.states);
        EXPECT_EQ(mine.stats.wins, one->stats.wins);
        EXPECT_EQ(mine.stats.draws, one->stats.draws);
        EXPECT_EQ(mine.stats.terminal, one->stats.terminal);
        EXPECT_EQ(mine.stats.start, one->stats.start);
        EXPECT_EQ(mine.stats.maxDistance, one->stats.maxDistance);
      }
      EXPECT_TRUE(std::all_of(held.begin(), held.end(), [](int n) { return n == 1; })) << "a slice held twice or never";
      EXPECT_EQ(allOwnStates, one->stats.states);
    }
}

// The ranks write the file together (writeFileOfSlices, in batches of
// three blocks: blocks that hold several ranks' slices, runs of blocks
// of each rank): byte for byte the one-process file.
TEST_P(BuildShareTest, TheRanksWriteTheOneProcessFile) {
  const Variant v = *Variant::parse(GetParam());
  const ::gobblet::testing::ScratchDir dir("gobblet_share3");
  auto one = solvePacked(v, 2);
  ASSERT_TRUE(one.ok()) << one.status();
  const std::string oneFile = dir.file("one.gtb");
  ASSERT_TRUE(writeFile(oneFile, v, *one, 2, 3).ok());
  for (int ranks : {2, 3, 5}) {
    SCOPED_TRACE(absl::StrCat(ranks, " ranks"));
    const std::string file = dir.file(absl::StrCat(ranks, ".gtb"));
    const auto written = onRanks<absl::Status>(ranks, [&](ThreadShare& share) {
      absl::StatusOr<PackedSolution> part = solvePacked(v, 1, {}, kSharedGroupSize, {}, &share);
      return part.ok() ? writeFileOfSlices(file, v, *part, 2, share, 3) : part.status();
    });
    for (int r = 0; r < ranks; ++r) EXPECT_TRUE(written[r].ok()) << "rank " << r << ": " << written[r];
    EXPECT_EQ(::gobblet::testing::runCommand("cmp " + oneFile + " " + file).exitCode, 0) << "files differ";
  }
}

// A bad message: a rank receives a word fewer of the slices it needs than
// it was sent (in the forward pass, then in the backward pass). Every
// rank returns an error, that rank saying what it received, and none
// waits for another.
TEST(BuildShare, AShortMessageStopsEveryRank) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  for (int at : {1, 12}) {
    SCOPED_TRACE(absl::StrCat("exchange ", at));
    const auto results = onRanks<absl::Status>(
        3, [&](ThreadShare& share) { return solvePacked(v, 1, {}, kSharedGroupSize, {}, &share).status(); }, at);
    EXPECT_TRUE(absl::IsDataLoss(results[1])) << results[1];
    EXPECT_NE(results[1].message().find("rank 1 received"), std::string::npos) << results[1];
    for (int r : {0, 2}) EXPECT_TRUE(absl::IsAborted(results[r])) << "rank " << r << ": " << results[r];
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
// of build() there is none here, so the exchange before the second level
// of the forward pass): every rank returns an error, rank 1 its own, and
// none hangs.
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

// The 4x4 builder over ranks (solve4Part): each rank ends with the
// one-process codes of its range and the whole table's counts, and the
// file the ranks write together (writeFileOfRanks: rank 0 writes, in
// batches of three blocks) is byte for byte the one-process file; in
// rounds of the default size and of a chunk a thread. (The members small
// enough here have no lines; family4x4_slowtest does the same for 4x4:2,2,
// which has wins and losses.)
TEST(BuildShare4x4, EachRankHasItsRangeAndTheRanksWriteTheSameFile) {
  const ::gobblet::testing::ScratchDir dir("gobblet_share4");
  for (const char* name : {"4x4:2,1", "4x4:1,3"}) {
    const Variant v = *Variant::parse(name);
    auto one = solve4(v, 2);
    ASSERT_TRUE(one.ok()) << one.status();
    const std::string oneFile = dir.file("one.gtb");
    ASSERT_TRUE(writeFile(oneFile, v, *one, 2, 3).ok());
    for (auto [ranks, roundWords] : {std::pair<int, uint64_t>{2, kRoundWords}, {3, 1}, {5, kRoundWords}}) {
      SCOPED_TRACE(absl::StrCat(name, " over ", ranks, " ranks, rounds of ", roundWords, " words"));
      const std::string file = dir.file(absl::StrCat(ranks, ".gtb"));
      const auto parts = build4OnRanks(v, ranks, file, roundWords, 3);
      const RankRanges ranges(one->codes.size(), ranks);
      for (int r = 0; r < ranks; ++r) {
        ASSERT_TRUE(parts[r].ok()) << parts[r].status();
        const SolvedPart& p = *parts[r];
        EXPECT_EQ(p.first, ranges.first(r));
        ASSERT_EQ(p.codes.size(), ranges.first(r + 1) - ranges.first(r));
        EXPECT_TRUE(std::equal(p.codes.begin(), p.codes.end(), one->codes.begin() + p.first)) << "rank " << r;
        EXPECT_EQ(p.entries, one->codes.size());
        EXPECT_EQ(p.stats.states, one->stats.states);
        EXPECT_EQ(p.stats.draws, one->stats.draws);
        EXPECT_EQ(p.stats.start, one->stats.start);
      }
      EXPECT_EQ(::gobblet::testing::runCommand("cmp " + oneFile + " " + file).exitCode, 0) << "files differ";
    }
  }
}

// Rank 0 cannot write the file (its path is a directory): rank 0 says so,
// the other ranks' frames are still taken (none waits forever), and no
// file is left.
TEST(BuildShare4x4, AnUnwritablePathFailsOnRankZeroAndNoRankWaits) {
  const ::gobblet::testing::ScratchDir dir("gobblet_share4_fail");
  const Variant v = *Variant::parse("4x4:2,1");
  const std::string path = dir.file("taken");
  std::filesystem::create_directory(path);
  const auto written = onRanks<absl::Status>(3, [&](ThreadShare& share) {
    absl::StatusOr<SolvedPart> part = solve4Part(v, 1, share);
    return part.ok() ? writeFileOfRanks(path, v, *part, 1, share, 1) : part.status();
  });
  EXPECT_FALSE(written[0].ok());
  EXPECT_NE(written[0].message().find("it is a directory"), std::string::npos) << written[0];
  EXPECT_TRUE(written[1].ok()) << written[1];
  EXPECT_TRUE(written[2].ok()) << written[2];
  EXPECT_TRUE(std::filesystem::is_directory(path));
}

// The cluster estimate: one rank does all the work and exchanges nothing;
// over more, the slowest rank's share is between 1/ranks and 1, a rank
// takes slices from the others, and (gobblers, large enough that the
// slices outweigh the message pieces) a rank needs less memory than one
// process, the less the more ranks.
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
    EXPECT_GT(c.codeBytesOut, 0u);
    EXPECT_GT(c.bitBytes, 0u);
  }
  const Variant gobblers = *Variant::parse("gobblers");
  uint64_t before = estimateSolve(gobblers, 1).bytes;
  for (int ranks : {2, 3, 8}) {
    const uint64_t bytes = estimateCluster(gobblers, 1, ranks).perRank.bytes;
    EXPECT_LT(bytes, before) << ranks << " ranks";
    before = bytes;
  }
}

}  // namespace
}  // namespace gobblet::tb
