// A net with small random weights for the net's tests (tests/search).
#pragma once

#include <cstdint>
#include <memory>
#include <random>

#include "search/nnue/network.h"

namespace gobblet::nnue {

// A net with small random weights (seeded), so that every unit matters.
inline std::unique_ptr<Network> randomNet(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> small(-40, 40), tiny(-100, 100);
  auto net = std::make_unique<Network>();
  for (auto& v : net->b0) v = static_cast<int16_t>(small(rng));
  for (auto& v : net->w0) v = static_cast<int16_t>(small(rng));
  for (auto& v : net->b1) v = tiny(rng) * 64;
  for (auto& v : net->w1) v = static_cast<int8_t>(tiny(rng));
  net->b2 = tiny(rng) * 64;
  for (auto& v : net->w2) v = static_cast<int16_t>(tiny(rng));
  net->description = "a random net for tests";
  return net;
}

}  // namespace gobblet::nnue
