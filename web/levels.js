// @ts-check
// The engine's levels the page offers (its `Skill Level` when it plays,
// engine_session.js) and each one's measured Elo rounded to 10: the figures
// of docs/search.md, "Strength levels" (search/skill.h kSkillLevelElo; the
// safe-move player, who only never leaves a line in one, at 500). The level
// selector's labels (panels.js drawLevels) and a PGN's player names
// (players.js) come from here;
// tests/web/levels_test.mjs checks them against skill.h, and docs/board.md's
// and the help's figures against them.

// Every other level (the whole levels' steps are even, about 105 Elo each),
// and level 19 below full strength.
/** @type {ReadonlyArray<readonly [number, number]>} [level, Elo], strongest first */
export const LEVELS = Object.freeze(/** @type {[number, number][]} */ ([[20, 2320], [19, 2250], [17, 2060], [15, 1790],
  [13, 1660], [11, 1480], [9, 1310], [7, 1020], [5, 770], [3, 540], [1, 300], [0, 200]]));

// `Skill Level` 20: the engine's full strength (docs/protocol.md).
export const FULL_STRENGTH = 20;

// The measured Elo of `level` (rounded to 10), or null for a level the page does not offer.
/** @param {number} level @returns {number | null} */
export function levelElo(level) {
  const found = LEVELS.find(([l]) => l === level);
  return found ? found[1] : null;
}

// A level as the selector names it: `full ~2320`, `13 ~1660`.
/** @param {number} level */
export function levelLabel(level) {
  const elo = levelElo(level);
  const name = level === FULL_STRENGTH ? 'full' : String(level);
  return elo === null ? name : `${name} ~${elo}`;
}
