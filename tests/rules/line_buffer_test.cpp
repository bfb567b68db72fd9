// LineBuffer (engine/line_buffer.h): bytes fed in pieces become lines, a
// line beyond the cap is dropped and reported once, the callback can stop
// the feed.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/line_buffer.h"

namespace gobblet {
namespace {

TEST(LineBuffer, SplitsAcrossFeedsAndCapsLongLines) {
  LineBuffer buffer(8);
  std::vector<std::string> lines;
  const LineBuffer::OnLine collect = [&](std::string_view line, bool overlong) {
    lines.push_back(overlong ? "<overlong>" : std::string(line));
    return true;
  };
  buffer.feed("ab", collect);
  buffer.feed("c\nde", collect);
  buffer.feed("f\n\n", collect);
  EXPECT_EQ(lines, (std::vector<std::string>{"abc", "def", ""}));
  lines.clear();
  // 8 bytes fit; 9 do not; the rest of a long line is skipped wherever it ends.
  buffer.feed("12345678\n123456789", collect);
  buffer.feed("0123456789", collect);
  buffer.feed("xyz\nok\r\n", collect);
  EXPECT_EQ(lines, (std::vector<std::string>{"12345678", "<overlong>", "ok\r"}));
  lines.clear();
  buffer.feed("tail", collect);
  EXPECT_TRUE(lines.empty());
  buffer.finish(collect);
  EXPECT_EQ(lines, std::vector<std::string>{"tail"});
}

TEST(LineBuffer, CallbackCanStopTheFeed) {
  LineBuffer buffer;
  std::vector<std::string> lines;
  const bool finished = buffer.feed("a\nquit\nb\n", [&](std::string_view line, bool) {
    lines.emplace_back(line);
    return line != "quit";
  });
  EXPECT_FALSE(finished);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "quit"}));
}

}  // namespace
}  // namespace gobblet
