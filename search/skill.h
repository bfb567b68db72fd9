// Skill: the engine as a weaker player, for people (the options `Skill
// Level` and `UCI_LimitStrength` + `UCI_Elo`, protocol/engine_options.h).
//
// Level kMaxSkillLevel (20) is full strength. Below it a level is a real
// number (UCI_Elo lands between two whole levels) that plays at a strength
// (skillStrength: the whole levels spaced so that each step up wins about
// as much), and the search is weakened, more the lower the strength, the
// way a person is, never by a random piece thrown away:
//   * a node budget (skillNodes, geometric in the strength) and a depth cap
//     (skillDepth): a shorter horizon, the same on a fast machine as on a
//     slow one wherever the clock lets the budget be spent;
//   * a chance of missing the opponent's threat (skillMissChance, falling
//     to 0 at kSkillMissFreeStrength): for that move the level does
//     not look at the reply nor at the opponent's lines at all: it plays the
//     move that looks best for its own pieces and lines (skillBlindScores),
//     so a line the opponent completes next move goes unseen. It still takes
//     a win in one and never uncovers a line of the opponent's by its move;
//   * it weighs its kSkillCandidates best moves (MultiPV lines; when it
//     misses the reply, every move of the blind look) and plays one with
//     probability proportional to
//     exp((score - best score) / temperature), the temperature falling
//     from 305 centi-units at level 0 (near-equal moves about equally
//     often) to almost none at level 19; never a move that loses by force
//     beside one that does not, and never a move beside a win the level
//     saw.
// A level searches with the evaluation full strength uses (the net with
// Use NNUE: the levels' Elo was measured with it).
// Every draw is a function of the seed, the position and the level, so a
// game against a level is reproducible with a seed (`Skill Seed`); seed 0
// draws anew for each search.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/board.h"
#include "engine/move.h"

namespace gobblet {

inline constexpr int kMaxSkillLevel = 20;
inline constexpr int kSkillCandidates = 4;
// The strength from which a level never misses a threat (skillMissChance 0).
inline constexpr double kSkillMissFreeStrength = 12;
// The strength at which the draw among the candidates has cooled to a
// temperature of 5 centi-units; it cools on to 0 at kSkillFullStrength.
inline constexpr double kSkillCoolStrength = 20;

// The strength each whole level below kMaxSkillLevel plays at: the
// parameters below are functions of a strength s in [0,
// kSkillFullStrength], and the strength of a level is placed so that each
// whole level's step over the one below, in their own games, is about the
// same Elo, level 20 (full strength) included (level 0 is strength 0).
// docs/search.md "Strength levels" says how they were placed and shows the
// steps.
inline constexpr double kSkillLevelStrength[kMaxSkillLevel] = {0,     1.6,   2.58,  3.95,  5.08,  6.35,  7.68,
                                                               8.87,  10.5,  12.32, 13.51, 14.59, 15.71, 16.58,
                                                               17.52, 18.41, 19.67, 21.19, 22.53, 23.85};
// The end of the strength scale: where a level between 19 and 20 heads
// (level 20 itself searches without limits), the temperature 0.
inline constexpr double kSkillFullStrength = 24;

// The Elo of each level, measured (docs/search.md "Strength levels": the
// command, the games and the intervals): the safe-move player
// (`gobblet-fake-engine --mode safe`: a win in one if it has one, else any
// move that gives no line in one) is 500. Level 20 is full strength with
// the built-in net (generation 1) at 0.3 s a move.
inline constexpr int kSkillLevelElo[kMaxSkillLevel + 1] = {197,  304,  399,  536,  624,  770,  944,
                                                           1018, 1208, 1312, 1389, 1476, 1548, 1655,
                                                           1715, 1785, 1923, 2060, 2152, 2247, 2320};
// The level of UCI_LimitStrength with UCI_Elo `elo`: the measured Elo
// interpolated linearly between the two whole levels around it (level 0
// below them all, kMaxSkillLevel above them all). kSkillLevelElo rises.
double skillLevelForElo(int elo);

// The strength a level plays at: kSkillLevelStrength at a whole level,
// linear between two whole levels and from level 19's to
// kSkillFullStrength at kMaxSkillLevel (and above); below 0, 0. It rises
// with the level.
double skillStrength(double level);

// A level's parameters, each a function of its strength s (skillStrength),
// so continuous in the level (a fractional level lies between its
// neighbours); at kMaxSkillLevel and above, full strength: no budget (0), no
// cap (0), no miss, no draw.
// The node budget of a move's search: 500 at strength 0, doubling every 2.2
// of strength (about 200 000 at 19, 960 000 at 24), geometric between whole
// levels too.
uint64_t skillNodes(double level);
// The deepest iteration: 1 + s / 2, rounded down (1 at strength 0, 12 at 23).
int skillDepth(double level);
// The chance that a move is chosen without looking at the reply: 0.95 at
// strength 0, falling to 0 at kSkillMissFreeStrength as the square of the
// strength left (one miss loses a game against a player that sees it, so
// the last small chances weigh as much as the first large ones).
double skillMissChance(double level);
// The softmax temperature in centi-units of score: 300 (1 - s/20)^2 + 5 up
// to strength kSkillCoolStrength (20), then falling linearly from 5 to 0 at
// kSkillFullStrength.
double skillTemperature(double level);

// The index, in `scores` (the candidates' scores, best first, from the
// mover's view, in the search's units: a win or loss is a score beyond any
// evaluation), of the move a level plays; `draw` is a uniform number in
// [0, 1). Level kMaxSkillLevel, or a single candidate: 0.
int pickSkillMove(double level, const std::vector<int>& scores, double draw);

// The blind look of a move that misses the reply: every legal move of the
// side to move scored by what it does for the mover's own pieces alone,
// best first (ties in generation order): `win` for a move that wins at
// once, -`win` for one that loses at once (it uncovers an opponent's line),
// else the mover's own share of the hand-written evaluation's terms
// (evaluateTerms, search/evaluate.h) after it: its lines, its pieces shown,
// in hand and holding captives, none of the opponent's threats. board is
// restored.
std::vector<std::pair<Move, int>> skillBlindScores(Board& board, int win);

// What a uniform draw of a search is for: the candidate played, or whether
// the move misses the reply.
enum class SkillDrawKind { kCandidate = 0, kMiss = 1 };
// The uniform draw in [0, 1) of a search: from the seed, the position's key,
// the level and the kind; seed 0 mixes in a per-process counter instead (a
// new draw each time).
double skillDraw(uint64_t seed, uint64_t positionKey, double level, SkillDrawKind kind = SkillDrawKind::kCandidate);

}  // namespace gobblet
