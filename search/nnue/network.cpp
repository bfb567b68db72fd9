#include "network.h"

#include "default_net.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

#include "absl/strings/str_cat.h"
#include "engine/printable_text.h"
#include "unit_order.h"

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
  for (int j = 0; j < kL1; ++j)  // row-major in the file
    for (int i = 0; i < 2 * kHidden; ++i) net->w1[w1Index(j, i)] = static_cast<int8_t>(*at++);
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
  reorderHiddenUnits(*net, unitsByActivity(*net));
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
  // at[u]: where the file's unit u sits in net.
  std::array<int, kHidden> at{};
  for (int p = 0; p < kHidden; ++p) at[net.fileUnit[p]] = p;
  std::string payload;
  for (int u = 0; u < kHidden; ++u) put(payload, net.b0[at[u]]);
  for (int f = 0; f < kFeatures; ++f)
    for (int u = 0; u < kHidden; ++u) put(payload, net.w0[f * kHidden + at[u]]);
  for (int32_t v : net.b1) put(payload, v);
  for (int j = 0; j < kL1; ++j)
    for (int half = 0; half < 2; ++half)
      for (int u = 0; u < kHidden; ++u) put(payload, net.w1[w1Index(j, half * kHidden + at[u])]);
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

std::shared_ptr<const Network> defaultNetwork() {
  static const std::shared_ptr<const Network> net = [] {
    auto parsed = parseNetwork(defaultNetBytes(), "(built in)");
    return parsed.ok() ? std::shared_ptr<const Network>(std::move(*parsed)) : nullptr;
  }();
  return net;
}

}  // namespace gobblet::nnue
