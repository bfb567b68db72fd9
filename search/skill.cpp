#include "search/skill.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>

#include "engine/movegen.h"
#include "search/evaluate.h"

namespace gobblet {

double skillLevelForElo(int elo) {
  if (elo <= kSkillLevelElo[0]) return 0;
  for (int l = 1; l <= kMaxSkillLevel; ++l)
    if (elo < kSkillLevelElo[l])
      return l - 1 + static_cast<double>(elo - kSkillLevelElo[l - 1]) / (kSkillLevelElo[l] - kSkillLevelElo[l - 1]);
  return kMaxSkillLevel;
}

double skillStrength(double level) {
  if (!(level > 0)) return 0;
  if (level >= kMaxSkillLevel) return kSkillFullStrength;
  const int below = static_cast<int>(level);
  const double next = below + 1 < kMaxSkillLevel ? kSkillLevelStrength[below + 1] : kSkillFullStrength;
  return kSkillLevelStrength[below] + (level - below) * (next - kSkillLevelStrength[below]);
}

uint64_t skillNodes(double level) {
  if (level >= kMaxSkillLevel) return 0;
  return static_cast<uint64_t>(std::llround(500.0 * std::exp2(skillStrength(level) / 2.2)));
}

int skillDepth(double level) {
  if (level >= kMaxSkillLevel) return 0;
  return 1 + static_cast<int>(std::floor(skillStrength(level) / 2));
}

double skillMissChance(double level) {
  const double strength = skillStrength(level);
  if (strength >= kSkillMissFreeStrength) return 0;
  const double left = 1.0 - strength / kSkillMissFreeStrength;
  return 0.95 * left * left;
}

double skillTemperature(double level) {
  const double strength = skillStrength(level);
  if (strength >= kSkillCoolStrength)
    return 5.0 * (kSkillFullStrength - strength) / (kSkillFullStrength - kSkillCoolStrength);
  const double weakness = 1.0 - strength / kSkillCoolStrength;  // 1 at strength 0, 0 at kSkillCoolStrength
  return 300.0 * weakness * weakness + 5.0;
}

int pickSkillMove(double level, const std::vector<int>& scores, double draw) {
  if (level >= kMaxSkillLevel || scores.size() <= 1) return 0;
  const double temperature = skillTemperature(level);
  const auto bestAt = std::max_element(scores.begin(), scores.end());
  // (A level a rounding step below kMaxSkillLevel cools to 0: the best.)
  if (!(temperature > 0)) return static_cast<int>(bestAt - scores.begin());
  const int best = *bestAt;
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

std::vector<std::pair<Move, int>> skillBlindScores(Board& board, int win) {
  const int us = board.sideToMove();
  MoveList list;
  generateMoves(board, list);
  std::vector<std::pair<Move, int>> scored;
  for (Move m : list) {
    board.makeMove(m);
    const int winner = board.winner();
    int score = winner == us ? win : -win;
    if (winner == kNoWinner) {
      const EvalTerms t = evaluateTerms(board);
      score = t.visible.player[us] + t.inHand.player[us] + t.captives.player[us] + t.lines.player[us] +
              t.lineSafety.player[us];
    }
    scored.emplace_back(m, score);
    board.unmakeMove(m);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return scored;
}

double skillDraw(uint64_t seed, uint64_t positionKey, double level, SkillDrawKind kind) {
  static std::atomic<uint64_t> counter{
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
  uint64_t levelBits = 0;
  static_assert(sizeof(levelBits) == sizeof(level));
  std::memcpy(&levelBits, &level, sizeof level);
  uint64_t x = (seed != 0 ? seed : counter.fetch_add(0x9E3779B97F4A7C15ull)) ^ positionKey ^
               (levelBits * 0xD6E8FEB86659FD93ull) ^ (static_cast<uint64_t>(kind) << 52);
  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) / static_cast<double>(uint64_t{1} << 53);
}

}  // namespace gobblet
