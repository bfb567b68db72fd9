#include "network.h"

#include "default_net.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#if defined(__SSE2__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "absl/strings/str_cat.h"
#include "engine/printable_text.h"

namespace gobblet::nnue {
namespace {

constexpr char kMagic[8] = {'G', 'O', 'B', 'N', 'N', 'U', 'E', '\0'};
constexpr size_t kHeaderBytes = 60;
constexpr size_t kPayloadBytes = 2 * kHidden + 2 * kFeatures * kHidden + 4 * kL1 + kL1 * 2 * kHidden + 4 + 2 * kL1;

template <typename T>
T get(const char* at) {
  using U = std::make_unsigned_t<T>;
  U u = 0;
  for (size_t i = 0; i < sizeof(T); ++i) u = static_cast<U>(u | static_cast<U>(static_cast<uint8_t>(at[i])) << (8 * i));
  return static_cast<T>(u);
}
template <typename T>
void put(std::string& out, T value) {
  using U = std::make_unsigned_t<T>;
  const U u = static_cast<U>(value);
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>(static_cast<uint8_t>(u >> (8 * i))));
}

uint32_t fnv1a(std::string_view bytes) {
  uint32_t h = 2166136261u;
  for (char c : bytes) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return h;
}

// Reads `count` little-endian values of T from `at` into `out`.
template <typename T, size_t N>
const char* readArray(const char* at, std::array<T, N>& out) {
  for (T& v : out) {
    v = get<T>(at);
    at += sizeof(T);
  }
  return at;
}

// The first layer's row of feature f.
const int16_t* featureRow(const Network& net, int f) { return &net.w0[static_cast<size_t>(f) * kHidden]; }

// Adds (sign > 0) or takes away the rows of `list`'s features to `row`.
void addFeatures(const Network& net, const FeatureList& list, std::array<int16_t, kHidden>& row, int sign) {
  for (int k = 0; k < list.size; ++k) {
    const int16_t* w = featureRow(net, list.index[k]);
    if (sign > 0)
      for (int i = 0; i < kHidden; ++i) row[i] = static_cast<int16_t>(row[i] + w[i]);
    else
      for (int i = 0; i < kHidden; ++i) row[i] = static_cast<int16_t>(row[i] - w[i]);
  }
}

// after = before - the rows of `removed` + the rows of `added`, in one pass:
// each stretch of the row is loaded once, changed in registers and stored
// once. int16 sums wrap alike in any order, so this is the row that
// copying and then adding the rows one by one gives (NnueAccumulator tests).
void applyChanges(const Network& net, const std::array<int16_t, kHidden>& before, const FeatureList& removed,
                  const FeatureList& added, std::array<int16_t, kHidden>& after) {
#if defined(__AVX2__)
  constexpr int kLanes = 16, kRegs = kHidden / kLanes;  // the whole row: 8 registers
  __m256i r[kRegs];
  for (int k = 0; k < kRegs; ++k) r[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&before[k * kLanes]));
  for (int n = 0; n < removed.size; ++n) {
    const int16_t* w = featureRow(net, removed.index[n]);
    for (int k = 0; k < kRegs; ++k)
      r[k] = _mm256_sub_epi16(r[k], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + k * kLanes)));
  }
  for (int n = 0; n < added.size; ++n) {
    const int16_t* w = featureRow(net, added.index[n]);
    for (int k = 0; k < kRegs; ++k)
      r[k] = _mm256_add_epi16(r[k], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + k * kLanes)));
  }
  for (int k = 0; k < kRegs; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i*>(&after[k * kLanes]), r[k]);
#elif defined(__SSE2__)
  constexpr int kLanes = 8, kRegs = 8, kTile = kLanes * kRegs;  // half the row at a time: 8 registers
  for (int t = 0; t < kHidden; t += kTile) {
    __m128i r[kRegs];
    for (int k = 0; k < kRegs; ++k) r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&before[t + k * kLanes]));
    for (int n = 0; n < removed.size; ++n) {
      const int16_t* w = featureRow(net, removed.index[n]) + t;
      for (int k = 0; k < kRegs; ++k)
        r[k] = _mm_sub_epi16(r[k], _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k * kLanes)));
    }
    for (int n = 0; n < added.size; ++n) {
      const int16_t* w = featureRow(net, added.index[n]) + t;
      for (int k = 0; k < kRegs; ++k)
        r[k] = _mm_add_epi16(r[k], _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + k * kLanes)));
    }
    for (int k = 0; k < kRegs; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(&after[t + k * kLanes]), r[k]);
  }
#elif defined(__wasm_simd128__)
  constexpr int kLanes = 8, kRegs = 8, kTile = kLanes * kRegs;  // as SSE2: half the row at a time
  for (int t = 0; t < kHidden; t += kTile) {
    v128_t r[kRegs];
    for (int k = 0; k < kRegs; ++k) r[k] = wasm_v128_load(&before[t + k * kLanes]);
    for (int n = 0; n < removed.size; ++n) {
      const int16_t* w = featureRow(net, removed.index[n]) + t;
      for (int k = 0; k < kRegs; ++k) r[k] = wasm_i16x8_sub(r[k], wasm_v128_load(w + k * kLanes));
    }
    for (int n = 0; n < added.size; ++n) {
      const int16_t* w = featureRow(net, added.index[n]) + t;
      for (int k = 0; k < kRegs; ++k) r[k] = wasm_i16x8_add(r[k], wasm_v128_load(w + k * kLanes));
    }
    for (int k = 0; k < kRegs; ++k) wasm_v128_store(&after[t + k * kLanes], r[k]);
  }
#else
  after = before;
  addFeatures(net, removed, after, -1);
  addFeatures(net, added, after, +1);
#endif
}

// The hidden layer's input: the accumulator rows clamped to 0..127, as
// bytes, the side to move's first. The SIMD forms give the same bytes as
// the plain loop (NnueEvaluation test).
void clampActivations(const Accumulator& acc, int sideToMove, uint8_t* out) {
  for (int half = 0; half < 2; ++half) {
    const std::array<int16_t, kHidden>& row = acc.values[sideToMove ^ half];
    uint8_t* to = out + half * kHidden;
#if defined(__SSE2__)
    const __m128i one = _mm_set1_epi16(kActivationOne);
    for (int i = 0; i < kHidden; i += 16) {
      const __m128i a = _mm_min_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&row[i])), one);
      const __m128i b = _mm_min_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&row[i + 8])), one);
      // packus saturates the negatives to 0.
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), _mm_packus_epi16(a, b));
    }
#elif defined(__wasm_simd128__)
    const v128_t one = wasm_i16x8_splat(kActivationOne);
    for (int i = 0; i < kHidden; i += 16) {
      const v128_t a = wasm_i16x8_min(wasm_v128_load(&row[i]), one);
      const v128_t b = wasm_i16x8_min(wasm_v128_load(&row[i + 8]), one);
      // The unsigned narrowing saturates the negatives to 0.
      wasm_v128_store(to + i, wasm_u8x16_narrow_i16x8(a, b));
    }
#else
    for (int i = 0; i < kHidden; ++i) to[i] = static_cast<uint8_t>(std::clamp<int>(row[i], 0, kActivationOne));
#endif
  }
}

#if defined(__SSSE3__)
// The hidden layer's sums for 8 rows w[j] (int8, row-major from `w`): the
// sums of input[i] * w[j][i] over the 2 * kHidden inputs (0..127), as the
// int32 lanes of out[0] (rows 0..3) and out[1] (rows 4..7). maddubs adds two
// products into an int16: at most 2 * 127 * 128 = 32512, so it never
// saturates and the sums are exact. Each input stretch is loaded once for
// the 8 rows, and the rows' partial sums are reduced together (hadd).
void dotProducts8(const uint8_t* input, const int8_t* w, __m128i out[2]) {
  constexpr size_t kRow = 2 * kHidden, kRows = 8;
#if defined(__AVX2__)
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i s[kRows];
  for (size_t j = 0; j < kRows; ++j) s[j] = _mm256_setzero_si256();
  for (size_t i = 0; i < kRow; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(input + i));
    for (size_t j = 0; j < kRows; ++j) {
      const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j * kRow + i));
      s[j] = _mm256_add_epi32(s[j], _mm256_madd_epi16(_mm256_maddubs_epi16(x, y), ones));
    }
  }
  // hadd works within 128-bit halves: twice gives [s0, s1, s2, s3] in each
  // half (of its inputs' halves); the halves are then added.
  for (size_t q = 0; q < 2; ++q) {
    const __m256i* t = &s[4 * q];
    const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(t[0], t[1]), _mm256_hadd_epi32(t[2], t[3]));
    out[q] = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  }
#else
  const __m128i ones = _mm_set1_epi16(1);
  __m128i s[kRows];
  for (size_t j = 0; j < kRows; ++j) s[j] = _mm_setzero_si128();
  for (size_t i = 0; i < kRow; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(input + i));
    for (size_t j = 0; j < kRows; ++j) {
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j * kRow + i));
      s[j] = _mm_add_epi32(s[j], _mm_madd_epi16(_mm_maddubs_epi16(x, y), ones));
    }
  }
  // hadd(a, b) = [a0+a1, a2+a3, b0+b1, b2+b3]: twice gives [s0, s1, s2, s3].
  for (size_t q = 0; q < 2; ++q) {
    const __m128i* t = &s[4 * q];
    out[q] = _mm_hadd_epi32(_mm_hadd_epi32(t[0], t[1]), _mm_hadd_epi32(t[2], t[3]));
  }
#endif
}
#endif

// The output layer's sum b2 + sum over j of hidden[j] * w2[j], where
// hidden[j] = clamp((input . w1[j] + b1[j]) >> 6, 0, 127) (int32 throughout).
int32_t hiddenAndOutput(const Network& net, const uint8_t* input) {
#if defined(__SSSE3__)
  // 8 hidden units at a time: their int32 values packed to int16 (packs
  // saturates, and the clamp to 0..127 then gives what it gives on the
  // int32), times their 8 output weights, pairwise added (madd: at most
  // 2 * 127 * 32768 in magnitude, exact).
  __m128i sum = _mm_setzero_si128();
  const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi16(kActivationOne);
  for (int j = 0; j < kL1; j += 8) {
    __m128i h[2];
    dotProducts8(input, &net.w1[static_cast<size_t>(j) * 2 * kHidden], h);
    for (int q = 0; q < 2; ++q) {
      const __m128i bias = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&net.b1[j + 4 * q]));
      h[q] = _mm_srai_epi32(_mm_add_epi32(h[q], bias), 6);
    }
    const __m128i hidden = _mm_min_epi16(_mm_max_epi16(_mm_packs_epi32(h[0], h[1]), zero), one);
    sum = _mm_add_epi32(sum, _mm_madd_epi16(hidden, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&net.w2[j]))));
  }
  sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4e));
  sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xb1));
  return net.b2 + _mm_cvtsi128_si32(sum);
#elif defined(__wasm_simd128__)
  // As the SSSE3 form, with 16-bit products: the inputs and weights widened
  // to int16 and each pair of products added into an int32 (dot: exact).
  constexpr size_t kRow = 2 * kHidden;
  v128_t sum = wasm_i32x4_splat(0);
  const v128_t zero = wasm_i16x8_splat(0), one = wasm_i16x8_splat(kActivationOne);
  for (int j = 0; j < kL1; j += 4) {
    const int8_t* w = &net.w1[static_cast<size_t>(j) * kRow];
    v128_t s[4] = {wasm_i32x4_splat(0), wasm_i32x4_splat(0), wasm_i32x4_splat(0), wasm_i32x4_splat(0)};
    for (size_t i = 0; i < kRow; i += 16) {
      const v128_t x = wasm_v128_load(input + i);
      const v128_t xl = wasm_u16x8_extend_low_u8x16(x), xh = wasm_u16x8_extend_high_u8x16(x);
      for (size_t r = 0; r < 4; ++r) {
        const v128_t y = wasm_v128_load(w + r * kRow + i);
        s[r] = wasm_i32x4_add(s[r], wasm_i32x4_add(wasm_i32x4_dot_i16x8(xl, wasm_i16x8_extend_low_i8x16(y)),
                                                   wasm_i32x4_dot_i16x8(xh, wasm_i16x8_extend_high_i8x16(y))));
      }
    }
    // The four rows' lanes summed: a transpose by shuffles, then adds.
    const v128_t s01 =
        wasm_i32x4_add(wasm_i32x4_shuffle(s[0], s[1], 0, 4, 1, 5), wasm_i32x4_shuffle(s[0], s[1], 2, 6, 3, 7));
    const v128_t s23 =
        wasm_i32x4_add(wasm_i32x4_shuffle(s[2], s[3], 0, 4, 1, 5), wasm_i32x4_shuffle(s[2], s[3], 2, 6, 3, 7));
    v128_t h = wasm_i32x4_add(wasm_i32x4_shuffle(s01, s23, 0, 1, 4, 5), wasm_i32x4_shuffle(s01, s23, 2, 3, 6, 7));
    h = wasm_i32x4_shr(wasm_i32x4_add(h, wasm_v128_load(&net.b1[j])), 6);
    // Narrowed with saturation (the clamp then gives what it gives on the
    // int32), clamped, times the output weights (the upper half zero).
    const v128_t hidden = wasm_i16x8_min(wasm_i16x8_max(wasm_i16x8_narrow_i32x4(h, wasm_i32x4_splat(0)), zero), one);
    const v128_t w2 = wasm_v128_load64_zero(&net.w2[j]);
    sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(hidden, w2));
  }
  return net.b2 + wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) + wasm_i32x4_extract_lane(sum, 2) +
         wasm_i32x4_extract_lane(sum, 3);
#else
  int32_t sum = net.b2;
  for (int j = 0; j < kL1; ++j) {
    const int8_t* w = &net.w1[static_cast<size_t>(j) * 2 * kHidden];
    int32_t s = 0;
    for (int i = 0; i < 2 * kHidden; ++i) s += static_cast<int32_t>(input[i]) * w[i];
    const int hidden = std::clamp<int32_t>((s + net.b1[j]) >> 6, 0, kActivationOne);
    sum += hidden * net.w2[j];
  }
  return sum;
#endif
}

// Drops the features both lists hold (a move's square keeps most of its
// pieces, and a reserve all but one of its counts): taking one away and
// adding it back would leave the row as it was.
void cancelCommon(FeatureList& removed, FeatureList& added) {
  for (int r = 0; r < removed.size;) {
    int a = 0;
    while (a < added.size && added.index[a] != removed.index[r]) ++a;
    if (a == added.size) {
      ++r;
      continue;
    }
    removed.index[r] = removed.index[--removed.size];
    added.index[a] = added.index[--added.size];
  }
}

// The features of the parts a move changes, for one perspective.
void changedFeatures(const Board& board, const ChangedParts& parts, int perspective, FeatureList& out) {
  out.size = 0;
  for (int square : parts.squares)
    if (square >= 0) squareFeatures(board, square, perspective, out);
  if (parts.reservePlayer >= 0) reserveFeatures(board, parts.reservePlayer, perspective, out);
}

// `list`, seen by the other perspective: every feature's rel flipped
// (board_features.h: bit 6 of a piece or top feature, bit 4 of a reserve's).
void otherPerspective(const FeatureList& list, FeatureList& out) {
  out.size = list.size;
  for (int k = 0; k < list.size; ++k) {
    const int f = list.index[k];
    out.index[k] = static_cast<uint16_t>(f < kPieceFeatures + kTopFeatures ? f ^ 64 : f ^ 16);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<Network>> parseNetwork(std::string_view bytes, std::string_view name) {
  auto refuse = [name](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("net file ", quoteWord(name), ": ", why));
  };
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, 8) != 0)
    return refuse("not a gobblet net (no GOBNNUE header)");
  const char* h = bytes.data();
  const uint32_t version = get<uint32_t>(h + 8);
  if (version != kNetVersion)
    return refuse(absl::StrCat("net format version ", version, "; this engine reads version ", kNetVersion));
  const uint32_t features = get<uint32_t>(h + 12), hidden = get<uint32_t>(h + 16), l1 = get<uint32_t>(h + 20);
  if (features != kFeatures || hidden != kHidden || l1 != kL1)
    return refuse(absl::StrCat("a ", features, "x", hidden, "x", l1, " net; this engine runs ", kFeatures, "x", kHidden,
                               "x", kL1));
  const std::string_view variant(h + 24, strnlen(h + 24, 24));
  if (variant != "gobblet") return refuse(absl::StrCat("a net for ", quoteWord(variant), ", not for gobblet"));
  const uint32_t payload = get<uint32_t>(h + 48), checksum = get<uint32_t>(h + 52), described = get<uint32_t>(h + 56);
  if (payload != kPayloadBytes)
    return refuse(absl::StrCat("its header says ", payload, " bytes of weights; the sizes make ", kPayloadBytes));
  if (described > kMaxDescriptionBytes)
    return refuse(absl::StrCat("a description of ", described, " bytes (at most ", kMaxDescriptionBytes, ")"));
  if (bytes.size() != kHeaderBytes + described + payload)
    return refuse(absl::StrCat(bytes.size(), " bytes; its header makes ", kHeaderBytes + described + payload,
                               " (cut short or with bytes after the weights)"));
  const std::string_view weights = bytes.substr(kHeaderBytes + described);
  if (fnv1a(weights) != checksum) return refuse("the weights do not match their checksum (a damaged file)");

  auto net = std::make_unique<Network>();
  net->description = printableText(bytes.substr(kHeaderBytes, described), kMaxDescriptionBytes);
  const char* at = weights.data();
  at = readArray(at, net->b0);
  at = readArray(at, net->w0);
  at = readArray(at, net->b1);
  at = readArray(at, net->w1);
  net->b2 = get<int32_t>(at);
  at += 4;
  readArray(at, net->w2);
  // The hidden and output sums must not overflow int32 whatever the
  // position: |input . w1[j]| <= 256 * 127 * 128 < 2^23, and the output's
  // products |hidden * w2| <= 32 * 127 * 32768 < 2^28.
  for (int j = 0; j < kL1; ++j)
    if (std::abs(int64_t{net->b1[j]}) > kMaxHiddenBias)
      return refuse(
          absl::StrCat("hidden bias ", j, " is ", net->b1[j], " (at most ", kMaxHiddenBias, " in magnitude)"));
  if (std::abs(int64_t{net->b2}) > kMaxOutputBias)
    return refuse(absl::StrCat("output bias ", net->b2, " (at most ", kMaxOutputBias, " in magnitude)"));
  // An accumulator must not overflow int16: the bias and the 48 largest
  // weights of each unit, at most.
  std::array<int, kFeatures> magnitudes;
  for (int i = 0; i < kHidden; ++i) {
    for (int f = 0; f < kFeatures; ++f) magnitudes[f] = std::abs(net->w0[f * kHidden + i]);
    std::partial_sort(magnitudes.begin(), magnitudes.begin() + kMaxActive, magnitudes.end(), std::greater<int>());
    int bound = std::abs(net->b0[i]);
    for (int k = 0; k < kMaxActive; ++k) bound += magnitudes[k];
    if (bound > 32767) return refuse(absl::StrCat("hidden unit ", i, " could overflow (weights too large)"));
  }
  return net;
}

absl::StatusOr<std::unique_ptr<Network>> loadNetwork(const std::string& path) {
  const auto refuse = [&path](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("net file ", quoteWord(path), ": ", why));
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer (the engine's
  // input thread would hang); fstat then refuses whatever is not a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return absl::NotFoundError(absl::StrCat("net file ", quoteWord(path), ": cannot be opened"));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return refuse("not a regular file");
  if (static_cast<uint64_t>(st.st_size) > kMaxNetFileBytes)
    return refuse(absl::StrCat("larger than ", kMaxNetFileBytes, " bytes: not a net of this engine"));
  std::string bytes(kMaxNetFileBytes + 1, '\0');
  size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return refuse(absl::StrCat("cannot be read: ", std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  bytes.resize(got);
  if (bytes.size() > kMaxNetFileBytes)
    return refuse(absl::StrCat("larger than ", kMaxNetFileBytes, " bytes: not a net of this engine"));
  return parseNetwork(bytes, path);
}

std::string serializeNetwork(const Network& net) {
  std::string payload;
  for (int16_t v : net.b0) put(payload, v);
  for (int16_t v : net.w0) put(payload, v);
  for (int32_t v : net.b1) put(payload, v);
  for (int8_t v : net.w1) put(payload, v);
  put(payload, net.b2);
  for (int16_t v : net.w2) put(payload, v);
  const std::string description = net.description.substr(0, kMaxDescriptionBytes);
  std::string out(kMagic, 8);
  put<uint32_t>(out, kNetVersion);
  put<uint32_t>(out, kFeatures);
  put<uint32_t>(out, kHidden);
  put<uint32_t>(out, kL1);
  std::string variant = "gobblet";
  variant.resize(24, '\0');
  out += variant;
  put<uint32_t>(out, static_cast<uint32_t>(payload.size()));
  put<uint32_t>(out, fnv1a(payload));
  put<uint32_t>(out, static_cast<uint32_t>(description.size()));
  return out + description + payload;
}

void refreshAccumulator(const Network& net, const Board& board, Accumulator& out) {
  FeatureList list;
  for (int perspective = 0; perspective < 2; ++perspective) {
    out.values[perspective] = net.b0;
    activeFeatures(board, perspective, list);
    addFeatures(net, list, out.values[perspective], +1);
  }
}

void updateAccumulator(const Network& net, const Board& beforeBoard, const Board& afterBoard, Move move,
                       const Accumulator& before, Accumulator& after) {
  const ChangedParts parts = changedParts(beforeBoard, move);
  FeatureList removed[2], added[2];  // per perspective
  changedFeatures(beforeBoard, parts, 0, removed[0]);
  changedFeatures(afterBoard, parts, 0, added[0]);
  cancelCommon(removed[0], added[0]);
  otherPerspective(removed[0], removed[1]);
  otherPerspective(added[0], added[1]);
  for (int perspective = 0; perspective < 2; ++perspective)
    applyChanges(net, before.values[perspective], removed[perspective], added[perspective], after.values[perspective]);
}

int evaluate(const Network& net, const Accumulator& acc, int sideToMove) {
  alignas(64) uint8_t input[2 * kHidden];
  clampActivations(acc, sideToMove, input);
  const int32_t sum = hiddenAndOutput(net, input);
  // Whatever the weights say, the value stays within the evaluation's range.
  return static_cast<int>(std::clamp<int64_t>(static_cast<int64_t>(sum) * 100 / (kActivationOne * kWeightOne),
                                              -kMaxEvaluation, kMaxEvaluation));
}

std::shared_ptr<const Network> defaultNetwork() {
  static const std::shared_ptr<const Network> net = [] {
    auto parsed = parseNetwork(defaultNetBytes(), "(built in)");
    return parsed.ok() ? std::shared_ptr<const Network>(std::move(*parsed)) : nullptr;
  }();
  return net;
}

}  // namespace gobblet::nnue
