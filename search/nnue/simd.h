// The vector layer of the net's kernels (kernels.cpp): one register type,
// Vec, and the few operations the kernels need, each written here once per
// instruction set, so that every kernel is written once over them.
//
//   build                          Vec          kVecBytes
//   AVX2 (x86-64-v3, x86-64-v4)    __m256i      32
//   SSSE3 (x86-64-v2)              __m128i      16
//   SSE2 (x86-64)                  __m128i      16   (vec_dot4_add by widening)
//   WebAssembly SIMD128            v128_t       16
//   anything else, or              16 bytes     16   (plain loops over the lanes)
//   GOBBLET_NNUE_PLAIN defined
//
// A Vec holds bytes, int16 or int32 lanes, as the operation says; lanes are
// in memory order (lane 0 at the lowest address), whatever the instruction
// set, so that a kernel gives the same integers on each (the net's tests,
// built for several of them).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

// Which layer this build uses; GOBBLET_NNUE_PLAIN asks for the plain loops
// whatever the instruction set (the tests build every layer).
#if defined(GOBBLET_NNUE_PLAIN)
#define GOBBLET_VEC_ISA 0
#elif defined(__AVX2__)
#define GOBBLET_VEC_ISA 1
#elif defined(__SSSE3__)
#define GOBBLET_VEC_ISA 2
#elif defined(__SSE2__)
#define GOBBLET_VEC_ISA 3
#elif defined(__wasm_simd128__)
#define GOBBLET_VEC_ISA 4
#else
#define GOBBLET_VEC_ISA 0
#endif
#define GOBBLET_VEC_PLAIN (GOBBLET_VEC_ISA == 0)
#define GOBBLET_VEC_AVX2 (GOBBLET_VEC_ISA == 1)
#define GOBBLET_VEC_SSSE3 (GOBBLET_VEC_ISA == 2)
#define GOBBLET_VEC_SSE2 (GOBBLET_VEC_ISA == 3)
#define GOBBLET_VEC_WASM (GOBBLET_VEC_ISA == 4)
#if GOBBLET_VEC_AVX2 || GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
#include <immintrin.h>
#elif GOBBLET_VEC_WASM
#include <wasm_simd128.h>
#endif

namespace gobblet::nnue {

#if GOBBLET_VEC_AVX2
using Vec = __m256i;
inline constexpr int kVecBytes = 32;
inline constexpr const char* kVecLayer = "AVX2";
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
using Vec = __m128i;
inline constexpr int kVecBytes = 16;
inline constexpr const char* kVecLayer = GOBBLET_VEC_SSSE3 ? "SSSE3" : "SSE2";
#elif GOBBLET_VEC_WASM
using Vec = v128_t;
inline constexpr int kVecBytes = 16;
inline constexpr const char* kVecLayer = "WebAssembly SIMD128";
#else
struct Vec {
  unsigned char bytes[16];
};
inline constexpr int kVecBytes = 16;
inline constexpr const char* kVecLayer = "plain";
#endif
inline constexpr int kVecInt16s = kVecBytes / 2, kVecInt32s = kVecBytes / 4;

#if GOBBLET_VEC_PLAIN
// The plain form: a Vec's lanes as an array of T, and back.
template <typename T>
struct Lanes {
  T v[kVecBytes / sizeof(T)];
  explicit Lanes(const Vec& x) { std::memcpy(v, x.bytes, kVecBytes); }
  Vec vec() const {
    Vec x;
    std::memcpy(x.bytes, v, kVecBytes);
    return x;
  }
};
#endif

// kVecBytes bytes from `p` (no alignment needed).
inline Vec vec_load(const void* p) {
#if GOBBLET_VEC_AVX2
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
#elif GOBBLET_VEC_WASM
  return wasm_v128_load(p);
#else
  Vec x;
  std::memcpy(x.bytes, p, kVecBytes);
  return x;
#endif
}

// kVecBytes bytes from `p`, which is aligned to kVecBytes (the compiler
// may then read them as an instruction's operand).
inline Vec vec_load_aligned(const void* p) {
#if GOBBLET_VEC_AVX2
  return _mm256_load_si256(static_cast<const __m256i*>(p));
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return _mm_load_si128(static_cast<const __m128i*>(p));
#else
  return vec_load(p);
#endif
}

inline void vec_store(void* p, Vec x) {
#if GOBBLET_VEC_AVX2
  _mm256_storeu_si256(static_cast<__m256i*>(p), x);
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  _mm_storeu_si128(static_cast<__m128i*>(p), x);
#elif GOBBLET_VEC_WASM
  wasm_v128_store(p, x);
#else
  std::memcpy(p, x.bytes, kVecBytes);
#endif
}

inline Vec vec_zero() {
#if GOBBLET_VEC_AVX2
  return _mm256_setzero_si256();
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return _mm_setzero_si128();
#elif GOBBLET_VEC_WASM
  return wasm_i32x4_splat(0);
#else
  return Vec{};
#endif
}

// Every int32 lane `value`.
inline Vec vec_set1_32(int32_t value) {
#if GOBBLET_VEC_AVX2
  return _mm256_set1_epi32(value);
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return _mm_set1_epi32(value);
#elif GOBBLET_VEC_WASM
  return wasm_i32x4_splat(value);
#else
  Lanes<int32_t> r(Vec{});
  std::fill(std::begin(r.v), std::end(r.v), value);
  return r.vec();
#endif
}

// int16 lanes: a + b and a - b (wrapping).
inline Vec vec_add_16(Vec a, Vec b) {
#if GOBBLET_VEC_AVX2
  return _mm256_add_epi16(a, b);
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return _mm_add_epi16(a, b);
#elif GOBBLET_VEC_WASM
  return wasm_i16x8_add(a, b);
#else
  Lanes<int16_t> x(a), y(b);
  for (int i = 0; i < kVecInt16s; ++i) x.v[i] = static_cast<int16_t>(x.v[i] + y.v[i]);
  return x.vec();
#endif
}

inline Vec vec_sub_16(Vec a, Vec b) {
#if GOBBLET_VEC_AVX2
  return _mm256_sub_epi16(a, b);
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return _mm_sub_epi16(a, b);
#elif GOBBLET_VEC_WASM
  return wasm_i16x8_sub(a, b);
#else
  Lanes<int16_t> x(a), y(b);
  for (int i = 0; i < kVecInt16s; ++i) x.v[i] = static_cast<int16_t>(x.v[i] - y.v[i]);
  return x.vec();
#endif
}

// The int16 lanes of a, then of b, each clamped to 0..`high` (high <= 255),
// as bytes in that order.
inline Vec vec_clamp_pack_16(Vec a, Vec b, int16_t high) {
#if GOBBLET_VEC_AVX2
  const __m256i h = _mm256_set1_epi16(high);
  // packus saturates the negatives to 0, and packs within 128-bit halves:
  // the permute puts a's bytes before b's.
  const __m256i packed = _mm256_packus_epi16(_mm256_min_epi16(a, h), _mm256_min_epi16(b, h));
  return _mm256_permute4x64_epi64(packed, 0xD8);
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  const __m128i h = _mm_set1_epi16(high);
  return _mm_packus_epi16(_mm_min_epi16(a, h), _mm_min_epi16(b, h));
#elif GOBBLET_VEC_WASM
  const v128_t h = wasm_i16x8_splat(high);
  return wasm_u8x16_narrow_i16x8(wasm_i16x8_min(a, h), wasm_i16x8_min(b, h));
#else
  Lanes<int16_t> x(a), y(b);
  Vec r;
  for (int i = 0; i < kVecInt16s; ++i) {
    r.bytes[i] = static_cast<unsigned char>(std::clamp<int>(x.v[i], 0, high));
    r.bytes[kVecInt16s + i] = static_cast<unsigned char>(std::clamp<int>(y.v[i], 0, high));
  }
  return r;
#endif
}

// Bit k set where int32 lane k of x is not 0 (bits above the lanes 0).
inline unsigned vec_nonzero_mask_32(Vec x) {
#if GOBBLET_VEC_AVX2
  return ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, vec_zero())))) & 0xFFu;
#elif GOBBLET_VEC_SSSE3 || GOBBLET_VEC_SSE2
  return ~static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, vec_zero())))) & 0xFu;
#elif GOBBLET_VEC_WASM
  return wasm_i32x4_bitmask(wasm_i32x4_ne(x, vec_zero()));
#else
  Lanes<int32_t> lanes(x);
  unsigned mask = 0;
  for (int k = 0; k < kVecInt32s; ++k) mask |= static_cast<unsigned>(lanes.v[k] != 0) << k;
  return mask;
#endif
}

// int32 lane k of acc plus the sum over t < 4 of x's byte 4k+t (unsigned,
// at most 127) times w's byte 4k+t (signed): exact (each pair of products
// is at most 2 * 127 * 128 in magnitude, inside int16).
inline Vec vec_dot4_add(Vec acc, Vec x, Vec w) {
#if GOBBLET_VEC_AVX2
  return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
#elif GOBBLET_VEC_SSSE3
  return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(x, w), _mm_set1_epi16(1)));
#elif GOBBLET_VEC_SSE2
  // Widened to int16 (x by zeros, w by its sign), pairs summed into int32
  // (madd), then the two pairs of each group of four added.
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), _mm_srai_epi16(_mm_unpacklo_epi8(w, w), 8));
  const __m128i hi = _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), _mm_srai_epi16(_mm_unpackhi_epi8(w, w), 8));
  const __m128 l = _mm_castsi128_ps(lo), h = _mm_castsi128_ps(hi);
  const __m128i even = _mm_castps_si128(_mm_shuffle_ps(l, h, _MM_SHUFFLE(2, 0, 2, 0)));
  const __m128i odd = _mm_castps_si128(_mm_shuffle_ps(l, h, _MM_SHUFFLE(3, 1, 3, 1)));
  return _mm_add_epi32(acc, _mm_add_epi32(even, odd));
#elif GOBBLET_VEC_WASM
  // As SSE2: widened, pairs summed (dot), then each group's two pairs.
  const v128_t lo = wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(x), wasm_i16x8_extend_low_i8x16(w));
  const v128_t hi = wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(x), wasm_i16x8_extend_high_i8x16(w));
  return wasm_i32x4_add(acc,
                        wasm_i32x4_add(wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6), wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7)));
#else
  Lanes<int32_t> r(acc);
  for (int k = 0; k < kVecInt32s; ++k)
    for (int t = 0; t < 4; ++t)
      r.v[k] += static_cast<int32_t>(x.bytes[4 * k + t]) * static_cast<int8_t>(w.bytes[4 * k + t]);
  return r.vec();
#endif
}

}  // namespace gobblet::nnue
