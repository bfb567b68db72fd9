// Zobrist keys: one 64-bit key per (player, size, square) and one for
// player 2 to move, generated at compile time from a fixed seed so that
// hashes are identical across runs and machines.
#pragma once

#include <array>
#include <cstdint>

namespace gobblet::zobrist {

struct Keys {
  std::array<std::array<std::array<uint64_t, 16>, 4>, 2> piece{};
  uint64_t side = 0;
};

constexpr Keys makeKeys() {
  Keys k;
  uint64_t state = 0x9E3779B97F4A7C15ull ^ 0x6A09E667F3BCC908ull;
  auto next = [&state]() {  // splitmix64
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (auto& player : k.piece)
    for (auto& size : player)
      for (auto& sq : size) sq = next();
  k.side = next();
  return k;
}

inline constexpr Keys kKeys = makeKeys();

}  // namespace gobblet::zobrist
