// Whether this test program runs under a sanitizer, and how much less a
// test that samples many inputs samples there.
//
// The sanitizer builds (tools/test.sh: ASan + UBSan, TSan) run the same
// tests as the Release build, several times slower. A test that checks one
// computation over thousands of sampled inputs (random games, every state
// of a small variant, cut points of a file) finds a memory error or an
// undefined operation on any input that reaches the code, while its full
// sample, which finds the rare wrong answer, runs in the Release build:
// there such a test takes every kSanitizerStride-th input only.
#pragma once

namespace gobblet::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif

// The step between the inputs a sampling test takes: 1 in the Release
// build, 4 under a sanitizer.
inline constexpr int kSanitizerStride = kUnderSanitizer ? 4 : 1;

}  // namespace gobblet::testing
