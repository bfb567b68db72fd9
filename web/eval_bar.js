// @ts-check
// The evaluation bar beside the board (#eval-bar): the chances of the
// position shown, by colour, from player 1's side of the board: player 1's
// colour is the chance that player 1 wins, grey a draw, player 2's colour
// that player 2 wins (the same chances the analysis lines give for the side
// to move, docs/board.md). Its number is player 1's chance to win; a proven
// result says it: W2 (player 1 wins in 2 plies), L3, D (an exact draw); a
// finished game (`result`, a `query result` word) its result. With no value
// searched yet, the position's own chances (`query wdl`), marked so; with
// none at all, even.

import { chancesOf, percents, plies } from './values.js';

/** @typedef {import('./values.js').Wdl} Wdl */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {Record<string, [Wdl, string, string]>} */
const RESULTS = {
  p1win: [[1000, 0, 0], '1-0', 'player 1 has won'],
  p2win: [[0, 0, 1000], '0-1', 'player 2 has won'],
  draw: [[0, 1000, 0], '½', 'a draw'],
};

/**
 * What the bar shows: player 1's chances (null: none known), its number and its words.
 * @typedef {{wdl: Wdl | null, text: string, say: string}} BarContent
 */

// The bar's content for `value` (player 1's, game.js Value), the game's
// `result` there (a `query result` word, or null), and `own` (player 1's
// chances of the position without a search, or null). Pure.
/**
 * @param {import('./game.js').Value | undefined} value @param {string | null} result @param {Wdl | null} own
 * @returns {BarContent}
 */
export function barContent(value, result, own) {
  if (result && RESULTS[result]) {
    const [wdl, text, say] = RESULTS[result];
    return { wdl, text, say };
  }
  if (value && value.mate !== undefined) {
    const who = value.mate > 0 ? 1 : 2;
    return {
      wdl: who === 1 ? [1000, 0, 0] : [0, 0, 1000],
      text: `${value.mate > 0 ? 'W' : 'L'}${Math.abs(value.mate)}`,
      say: `player ${who} wins in ${plies(Math.abs(value.mate))}`,
    };
  }
  if (value && value.exact && value.cp === 0) return { wdl: [0, 1000, 0], text: 'D', say: 'a draw' };
  const searched = value ? chancesOf(value, Boolean(value.exact)) : null;
  const wdl = searched || own;
  if (!wdl) return { wdl: null, text: '', say: 'no evaluation yet' };
  const [w, d, l] = percents(wdl);
  const say = `player 1 wins ${w}%, draw ${d}%, player 2 wins ${l}%`
    + (searched ? '' : ' (the position\'s own evaluation, no search yet)');
  return { wdl, text: `${w}%`, say };
}

// Draws the bar (barContent's arguments).
/**
 * @param {import('./game.js').Value | undefined} value @param {string | null} [result] @param {Wdl | null} [own]
 */
export function drawEvalBar(value, result = null, own = null) {
  const { wdl, text, say } = barContent(value, result, own);
  const [w, d] = wdl ? [wdl[0] / 10, wdl[1] / 10] : [50, 0];
  const bar = $('eval-bar');
  bar.style.setProperty('--p1-wins', `${w.toFixed(1)}%`);
  bar.style.setProperty('--draws', `${d.toFixed(1)}%`);
  $('eval-fill').style.height = `${w.toFixed(1)}%`;
  $('eval-text').textContent = text;
  // The meter's value: player 1's share of the points, a draw half (50: even).
  bar.setAttribute('aria-valuenow', String(Math.round(w + d / 2)));
  bar.setAttribute('aria-valuetext', say);
  bar.title = `Chances: ${say}`;
}
