// @ts-check
// Who played a game of the page, as its PGN names them, from the controls'
// values (state.js Settings): the engine by its name, level and that
// level's measured Elo (levels.js), a person as "You" against the engine
// (two people: "Player 1", "Player 2"); and the time control as PGN's
// [TimeControl] and gobblet-match write it (match/time_control.cpp
// describe): a clock as base+increment in seconds (`300+3`), the engine's
// fixed time a move as `movetime=1` (PGN has no form for it; a person has
// no limit then), two people without a clock `-` (PGN's "none").

import { FULL_STRENGTH, levelElo } from './levels.js';

const ENGINE_NAME = 'gobblet';

// The name of player `p` (1 or 2) under `settings`; `levels`: the engine has
// levels (its `Skill Level` option: else it plays at its one strength).
/** @param {import('./state.js').Settings} settings @param {1 | 2} p @param {boolean} levels */
export function playerName(settings, p, levels) {
  const [own, other] = p === 1 ? [settings.p1, settings.p2] : [settings.p2, settings.p1];
  if (own !== 'engine') return other === 'engine' ? 'You' : `Player ${p}`;
  if (!levels) return ENGINE_NAME;
  const elo = levelElo(settings.level);
  const level = settings.level === FULL_STRENGTH ? 'full strength' : `level ${settings.level}`;
  return `${ENGINE_NAME} (${level}${elo === null ? '' : `, ~${elo}`})`;
}

// Milliseconds as seconds, as few digits as they need: 300000 `300`, 300 `0.3`.
/** @param {number} ms */
function seconds(ms) {
  return String(Math.round(ms) / 1000);
}

// The [TimeControl] of `settings` (its `time`: `movetime MS` or `clock BASE INC`), or '?' if not of that shape.
/** @param {import('./state.js').Settings} settings */
export function timeControlTag(settings) {
  const [kind, ...words] = settings.time.split(' ');
  const ms = words.map(Number);
  if (!ms.every((x) => Number.isFinite(x) && x >= 0)) return '?';
  if (kind === 'clock' && ms.length === 2) return `${seconds(ms[0])}+${seconds(ms[1])}`;
  if (kind === 'movetime' && ms.length === 1) {
    return settings.p1 === 'engine' || settings.p2 === 'engine' ? `movetime=${seconds(ms[0])}` : '-';
  }
  return '?';
}

// The PGN's roster of a game played on the page: its players and time control.
/** @param {import('./state.js').Settings} settings @param {boolean} levels @returns {[string, string][]} */
export function roster(settings, levels) {
  return [['White', playerName(settings, 1, levels)], ['Black', playerName(settings, 2, levels)],
    ['TimeControl', timeControlTag(settings)]];
}
