// parseOrFail: a position from text for tests; a parse error fails the
// current test (and the start position is returned so the test can go on).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "engine/board.h"
#include "engine/notation.h"

namespace gobblet::testing {

inline Board parseOrFail(const Variant& v, const std::string& text) {
  auto b = parsePosition(v, text);
  EXPECT_TRUE(b.ok()) << text << ": " << b.status();
  return b.ok() ? *b : Board(v);
}

}  // namespace gobblet::testing
