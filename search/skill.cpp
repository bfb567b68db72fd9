#include "search/skill.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

namespace gobblet {

int skillLevelForElo(int elo) {
  int level = 0;
  for (int l = 0; l <= kMaxSkillLevel; ++l)
    if (kSkillLevelElo[l] <= elo) level = l;
  return level;
}

int skillDepth(int level) {
  if (level >= kMaxSkillLevel) return 0;
  return 1 + std::max(0, level) * 2 / 3;  // 1, 1, 2, 3, 3, 4, ... 13 at level 19
}

double skillTemperature(int level) {
  const double weakness = 1.0 - static_cast<double>(std::clamp(level, 0, kMaxSkillLevel)) / kMaxSkillLevel;
  return 300.0 * weakness * weakness + 5.0;
}

int pickSkillMove(int level, const std::vector<int>& scores, double draw) {
  if (level >= kMaxSkillLevel || scores.size() <= 1) return 0;
  const double temperature = skillTemperature(level);
  const int best = *std::max_element(scores.begin(), scores.end());
  std::vector<double> weights(scores.size());
  double total = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    // A forced loss against a move that does not lose (or a win missed) is
    // thousands of units below: its weight underflows to zero.
    weights[i] = std::exp(std::max(-100.0, (scores[i] - best) / temperature));
    if (scores[i] < best && best - scores[i] > 5000) weights[i] = 0;
    total += weights[i];
  }
  double at = std::clamp(draw, 0.0, 1.0) * total;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (at < weights[i]) return static_cast<int>(i);
    at -= weights[i];
  }
  return 0;
}

double skillDraw(uint64_t seed, uint64_t positionKey, int level) {
  static std::atomic<uint64_t> counter{
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
  uint64_t x = (seed != 0 ? seed : counter.fetch_add(0x9E3779B97F4A7C15ull)) ^ positionKey ^
               (static_cast<uint64_t>(level) << 56);
  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) / static_cast<double>(uint64_t{1} << 53);
}

}  // namespace gobblet
