// compareFiles (tablebase/compare.h): two files of the same values compare
// equal whatever their bytes, a changed value is found and named, files of
// other variants are refused. And the comparison by hand of two large files
// (gobblers before and after a change of the builder or the format):
//
//   GOBBLET_TB_COMPARE_A=OLD.gtb GOBBLET_TB_COMPARE_B=NEW.gtb
//   build/release/bin/compare_test --gtest_filter='*GivenFiles*'
//
// (the two variables set in the environment of the second line)
//
// which skips, saying why, when the two variables are not set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "tablebase/compare.h"
#include "tablebase/file.h"
#include "tablebase/retrograde.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/whole_file.h"

namespace gobblet::tb {
namespace {

using testing::ScratchDir;

// `variant` solved with `threads` threads and written to `path` (the
// solution's codes passed through `edit` first), then opened.
template <typename Edit>
std::shared_ptr<const File> writeAndOpen(const std::string& path, const Variant& variant, int threads, Edit&& edit) {
  auto solved = solve(variant, threads);
  EXPECT_TRUE(solved.ok()) << solved.status();
  if (!solved.ok()) return nullptr;
  edit(*solved);
  EXPECT_TRUE(writeFile(path, variant, *solved, threads).ok());
  auto file = File::open(path);
  EXPECT_TRUE(file.ok()) << file.status();
  return file.ok() ? *file : nullptr;
}
std::shared_ptr<const File> writeAndOpen(const std::string& path, const Variant& variant, int threads) {
  return writeAndOpen(path, variant, threads, [](Solution&) {});
}

TEST(CompareFiles, RebuildsWithOtherThreadCountsHoldTheSameValues) {
  const ScratchDir dir("gobblet_tb_compare");
  for (const char* name : {"tictactoe", "3x3:2,2,1", "3x3:3,1,1"}) {
    const Variant variant = *Variant::parse(name);
    auto a = writeAndOpen(dir.file("a.gtb"), variant, 1), b = writeAndOpen(dir.file("b.gtb"), variant, 3);
    ASSERT_TRUE(a && b);
    const absl::StatusOr<FileComparison> c = compareFiles(*a, *b, 2);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->numbers, a->header().entries) << name;
    EXPECT_EQ(c->differing, 0u) << name << ": " << describeComparison(*c);
    EXPECT_EQ(describeComparison(*c), "same values: " + std::to_string(c->numbers) + " numbers");
  }
}

// One win's distance changed (the counts stay as they are): that number,
// and only it, differs, whatever the thread count of the comparison.
TEST(CompareFiles, FindsAChangedDistance) {
  const ScratchDir dir("gobblet_tb_compare");
  const Variant variant = *Variant::parse("3x3:2,2,1");
  uint64_t changed = 0;
  auto a = writeAndOpen(dir.file("a.gtb"), variant, 2);
  auto b = writeAndOpen(dir.file("b.gtb"), variant, 2, [&](Solution& s) {
    for (uint64_t x = s.codes.size() / 2; x < s.codes.size(); ++x)
      if (s.codes[x] == winCode(3)) {
        s.codes[x] = winCode(5);
        changed = x;
        return;
      }
  });
  ASSERT_TRUE(a && b);
  ASSERT_NE(changed, 0u);
  for (int threads : {1, 3}) {
    const absl::StatusOr<FileComparison> c = compareFiles(*a, *b, threads);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->differing, 1u);
    EXPECT_EQ(c->firstDifference, changed);
    EXPECT_EQ(c->firstA, winCode(3));
    EXPECT_EQ(c->firstB, winCode(5));
    EXPECT_NE(describeComparison(*c).find("1 of "), std::string::npos) << describeComparison(*c);
  }
}

// The writer writes its frames out a batch of blocks at a time: the same
// bytes for any batch size and thread count (gobblers' 101,100 blocks make
// 7 batches of the default), and they decode to the solution.
TEST(StreamingWriter, BatchSizeDoesNotChangeTheFile) {
  const ScratchDir dir("gobblet_tb_compare");
  const Variant variant = *Variant::parse("3x3:2,2,1");
  auto solved = solve(variant, 2);
  ASSERT_TRUE(solved.ok()) << solved.status();
  ASSERT_GT(solved->codes.size(), 60u * kBlockCodes);
  std::string first;
  for (uint64_t batch : {kWriteBatchBlocks, uint64_t{1}, uint64_t{7}, uint64_t{40}}) {
    for (int threads : {1, 3}) {
      const std::string path = dir.file(absl::StrCat("b", batch, "t", threads, ".gtb"));
      ASSERT_TRUE(writeFile(path, variant, *solved, threads, batch).ok()) << batch;
      const std::string bytes = readWholeFile(path);
      if (first.empty()) {
        first = bytes;
        auto file = File::open(path);
        ASSERT_TRUE(file.ok()) << file.status();
        EXPECT_TRUE(*(*file)->decodeAll() == solved->codes);
      }
      EXPECT_EQ(bytes, first) << "batches of " << batch << " blocks, " << threads << " threads";
    }
  }
}

TEST(CompareFiles, RefusesFilesOfAnotherVariant) {
  const ScratchDir dir("gobblet_tb_compare");
  auto a = writeAndOpen(dir.file("a.gtb"), *Variant::parse("3x3:2,2,1"), 1);
  auto b = writeAndOpen(dir.file("b.gtb"), *Variant::parse("3x3:2,2,0"), 1);
  ASSERT_TRUE(a && b);
  const absl::StatusOr<FileComparison> c = compareFiles(*a, *b);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), "the headers differ in their variant");
}

// The comparison by hand (see the top of this file).
TEST(CompareFiles, GivenFilesHoldTheSameValues) {
  const char* pathA = std::getenv("GOBBLET_TB_COMPARE_A");
  const char* pathB = std::getenv("GOBBLET_TB_COMPARE_B");
  if (pathA == nullptr || pathB == nullptr)
    GTEST_SKIP() << "set GOBBLET_TB_COMPARE_A and GOBBLET_TB_COMPARE_B to compare two files";
  auto a = File::open(pathA);
  ASSERT_TRUE(a.ok()) << a.status();
  auto b = File::open(pathB);
  ASSERT_TRUE(b.ok()) << b.status();
  const absl::StatusOr<FileComparison> c = compareFiles(**a, **b, 2);
  ASSERT_TRUE(c.ok()) << c.status();
  std::printf("%s and %s: %s\n", pathA, pathB, describeComparison(*c).c_str());
  EXPECT_EQ(c->differing, 0u) << describeComparison(*c);
}

}  // namespace
}  // namespace gobblet::tb
