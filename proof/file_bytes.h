// The bytes of the proof layer's files (certificates, proof databases):
// little-endian integers and the checksum, FNV-1a 64, fed in pieces.
//
//   uint64_t sum = kChecksumStart;
//   sum = checksum(sum, head, headBytes);
//   sum = checksum(sum, body, bodyBytes);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gobblet::proof {

inline constexpr uint64_t kChecksumStart = 0xcbf29ce484222325ull;  // FNV-1a 64's offset basis

// The checksum `sum` of the bytes so far, continued over `n` more.
uint64_t checksum(uint64_t sum, const char* data, size_t n);

// Appends `value` to `out`, little-endian, in sizeof(T) bytes.
template <typename T>
void putLittleEndian(std::string& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xFF));
}

// The little-endian T at `p` (sizeof(T) bytes).
template <typename T>
T getLittleEndian(const char* p) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return static_cast<T>(v);
}

// Writes `value` little-endian over the 8 bytes at `p`.
void overwriteLittleEndian64(char* p, uint64_t value);

}  // namespace gobblet::proof
