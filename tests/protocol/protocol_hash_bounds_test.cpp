// The Hash option's bounds are declared once (search/search.h) and are the
// same wherever a Hash is checked: the option table and `setoption`, the
// search's setOptions(), and a server's --max-hash.
#include <gtest/gtest.h>

#include <string>

#include "protocol/engine_options.h"
#include "search/search.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

TEST(HashBounds, TheOptionTableDeclaresTheSearchsBounds) {
  const OptionDeclaration& hash = declarationOf(OptionId::kHash);
  EXPECT_EQ(hash.min, kMinHashMiB);
  EXPECT_EQ(hash.defaultValue, kDefaultHashMiB);
  EXPECT_EQ(hash.max, kMaxHashMiB);
  EXPECT_EQ(EngineOptions{}.hashMiB, kDefaultHashMiB);
  EXPECT_EQ(SearchOptions{}.hashMiB, kDefaultHashMiB);
  EXPECT_EQ(OptionCaps{}.maxHashMiB, kMaxHashMiB);
}

TEST(HashBounds, SetOptionTakesExactlyTheBounds) {
  const auto accepted = [](int64_t mib) {
    EngineOptions options;
    return setOption(options, OptionCaps{}, "Hash", std::to_string(mib), true).ok() && options.hashMiB == mib;
  };
  EXPECT_TRUE(accepted(kMinHashMiB));
  EXPECT_TRUE(accepted(kMaxHashMiB));
  EXPECT_FALSE(accepted(kMinHashMiB - 1));
  EXPECT_FALSE(accepted(int64_t{kMaxHashMiB} + 1));
}

// Below the least the search takes the least; above the greatest, the
// greatest (set while a search runs, so that no table of that size is made).
TEST(HashBounds, TheSearchClampsToTheSameBounds) {
  Search search;
  SearchOptions options;
  options.hashMiB = kMinHashMiB - 1;
  ASSERT_TRUE(search.setOptions(options).ok());
  EXPECT_EQ(search.options().hashMiB, kMinHashMiB);

  SearchLimits infinite;
  infinite.infinite = true;
  search.go(Game(Board(Variant::gobblet())), infinite, SearchCallbacks{});
  ASSERT_TRUE(search.searching());
  options.hashMiB = kMaxHashMiB + 1;
  EXPECT_TRUE(search.setOptions(options).ok());
  EXPECT_EQ(search.options().hashMiB, kMaxHashMiB);
  options.hashMiB = kDefaultHashMiB;  // (what the table becomes once the search has ended)
  EXPECT_TRUE(search.setOptions(options).ok());
  search.stop();
  search.wait();
}

// gobblet's --max-hash (the cap of a server's sessions) takes the same
// range: the least and the greatest pass the range check (and then want
// --listen), one below the least and one above the greatest are out of it.
TEST(HashBounds, TheServersMaxHashTakesTheSameBounds) {
  const auto run = [](int64_t mib) {
    return testing::runCommand(gobblet::testing::binDir() + "/gobblet --max-hash " + std::to_string(mib) +
                               " </dev/null 2>&1");
  };
  if (testing::runCommand(gobblet::testing::binDir() + "/gobblet --help").output.find("--max-hash") ==
      std::string::npos)
    GTEST_SKIP() << "this gobblet has no server (a build without Boost)";
  const std::string range = "out of range [" + std::to_string(kMinHashMiB) + ", " + std::to_string(kMaxHashMiB) + "]";
  for (const int64_t mib : {int64_t{kMinHashMiB}, int64_t{kMaxHashMiB}}) {
    const testing::CommandResult inRange = run(mib);
    EXPECT_EQ(inRange.exitCode, 2) << inRange.output;
    EXPECT_NE(inRange.output.find("need --listen"), std::string::npos) << inRange.output;
  }
  for (const int64_t mib : {int64_t{kMinHashMiB} - 1, int64_t{kMaxHashMiB} + 1}) {
    const testing::CommandResult outOfRange = run(mib);
    EXPECT_EQ(outOfRange.exitCode, 2) << outOfRange.output;
    EXPECT_NE(outOfRange.output.find(range), std::string::npos) << outOfRange.output;
  }
}

}  // namespace
}  // namespace gobblet
