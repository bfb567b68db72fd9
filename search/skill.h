// Skill: the engine as a weaker player, for people (the options `Skill
// Level` and `UCI_LimitStrength` + `UCI_Elo`, protocol/engine_options.h).
//
// Level kMaxSkillLevel (20) is full strength. Below it the search is
// weakened the way a person is, never by a random blunder:
//   * it looks less far: at most skillDepth(level) plies (1 at level 0);
//   * it weighs its kSkillCandidates best moves (searched as MultiPV lines)
//     and plays one with probability proportional to
//     exp((score - best score) / temperature), the temperature falling
//     from about 3 pieces' worth of score at level 0 to a few centi-units
//     at level 19: a weak level often takes a near-best move, a strong one
//     rarely, and no level takes a move that loses by force while another
//     does not (its weight is e^-100 or less).
// The draw is a function of the seed, the position and the level, so a
// game against a level is reproducible with a seed (`Skill Seed`); seed 0
// draws anew for each search.
#pragma once

#include <cstdint>
#include <vector>

namespace gobblet {

inline constexpr int kMaxSkillLevel = 20;
inline constexpr int kSkillCandidates = 4;

// The Elo of each level, measured (docs/search.md: the command, the
// conditions and the errors; `tools/skill/measure_levels.sh
// build/release/bin OUT 20 2+0.02 1`): a uniformly random mover is 0.
inline constexpr int kSkillLevelElo[kMaxSkillLevel + 1] = {608,  692,  988,  1188, 1176, 1335, 1369,
                                                           1390, 1428, 1427, 1526, 1501, 1478, 1538,
                                                           1549, 1506, 1642, 1722, 1738, 1815, 2157};
// The level of UCI_LimitStrength with UCI_Elo `elo`: the strongest level
// whose measured Elo is at most `elo` (level 0 below them all).
int skillLevelForElo(int elo);

// The deepest iteration a level searches (kMaxSkillLevel: no cap, 0).
int skillDepth(int level);
// The softmax temperature in centi-units of score.
double skillTemperature(int level);

// The index, in `scores` (the candidates' search scores, best first, from
// the mover's view, in the search's units: a win or loss is a score beyond
// any evaluation), of the move a level plays; `draw` is a uniform number in
// [0, 1). Level kMaxSkillLevel, or a single candidate: 0.
int pickSkillMove(int level, const std::vector<int>& scores, double draw);

// The uniform draw in [0, 1) of a search: from the seed, the position's key
// and the level; seed 0 mixes in a per-process counter instead (a new draw
// each time).
double skillDraw(uint64_t seed, uint64_t positionKey, int level);

}  // namespace gobblet
