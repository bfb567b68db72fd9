// @ts-check
// The engine's levels the page offers (its `Skill Level` when it plays,
// engine_session.js) and each one's measured Elo rounded to 10: the figures
// of docs/search.md, "Strength levels" (search/skill.h kSkillLevelElo; a
// uniformly random mover at 0). The level selector's labels (panels.js
// drawLevels) and a PGN's player names (players.js) come from here;
// tests/web/levels_test.mjs checks them against skill.h, and docs/board.md's
// and the help's figures against them.

/** @type {ReadonlyArray<readonly [number, number]>} [level, Elo], strongest first */
export const LEVELS = Object.freeze(/** @type {[number, number][]} */ ([[20, 2160], [19, 1820], [17, 1720],
  [16, 1640], [13, 1540], [10, 1530], [7, 1390], [5, 1340], [3, 1190], [2, 990], [1, 690], [0, 610]]));

// `Skill Level` 20: the engine's full strength (docs/protocol.md).
export const FULL_STRENGTH = 20;

// The measured Elo of `level` (rounded to 10), or null for a level the page does not offer.
/** @param {number} level @returns {number | null} */
export function levelElo(level) {
  const found = LEVELS.find(([l]) => l === level);
  return found ? found[1] : null;
}

// A level as the selector names it: `full ~2160`, `13 ~1540`.
/** @param {number} level */
export function levelLabel(level) {
  const elo = levelElo(level);
  const name = level === FULL_STRENGTH ? 'full' : String(level);
  return elo === null ? name : `${name} ~${elo}`;
}
