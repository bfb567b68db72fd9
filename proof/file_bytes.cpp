#include "file_bytes.h"

namespace gobblet::proof {

uint64_t checksum(uint64_t sum, const char* data, size_t n) {
  constexpr uint64_t kPrime = 0x100000001b3ull;
  for (size_t i = 0; i < n; ++i) sum = (sum ^ static_cast<uint8_t>(data[i])) * kPrime;
  return sum;
}

void overwriteLittleEndian64(char* p, uint64_t value) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

}  // namespace gobblet::proof
