// @ts-check
// The evaluation bar beside the board (#eval-bar): the value of the
// position shown, by colour, from player 1's side of the board: player 1's
// colour is the chance that player 1 wins, grey a draw, player 2's colour
// that player 2 wins (the same chances the analysis lines give for the side
// to move, docs/board.md). The value is the position's own (game.js Value:
// a proof's, else the tablebase's, else its latest search's); its number
// is player 1's chance to win, an estimate never 100% or 0% (">99%"); a
// proven result says it: W2 (player 1 wins in 2 plies), L3, D (an exact
// draw), a proof's W≤17 (in at most 17 plies); a finished game (`result`,
// a `query result` word) its result. A position no one has searched yet
// has no value: the bar is empty and says so (`?`), rather than guess.

import { exactValue, playerOneWinText, valueWords } from './values.js';

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
 * What the bar shows: player 1's chances (null: no value known), its number and its words.
 * @typedef {{wdl: Wdl | null, text: string, say: string}} BarContent
 */

// The bar's content for `value` (player 1's value of the position shown,
// game.js Value; undefined: none known) and the game's `result` there (a
// `query result` word, or null). `previewed`: the position is a preview of
// an analysis line's (the lines are the game position's). Pure.
/**
 * @param {import('./game.js').Value | undefined} value @param {string | null} result
 * @param {boolean} [previewed]
 * @returns {BarContent}
 */
export function barContent(value, result, previewed = false) {
  if (result && RESULTS[result]) {
    const [wdl, text, say] = RESULTS[result];
    return { wdl, text, say };
  }
  if (!value) {
    return {
      wdl: null, text: '?',
      say: previewed ? 'no evaluation of this previewed position (the lines are the game position\'s)'
        : 'no evaluation yet: no search of this position (Analyse or Evaluate game)',
    };
  }
  const proved = value.source === 'proof';
  if (value.mate !== undefined) {
    const n = Math.abs(value.mate);
    return {
      wdl: value.mate > 0 ? [1000, 0, 0] : [0, 0, 1000],
      text: `${value.mate > 0 ? 'W' : 'L'}${proved ? '≤' : ''}${n}`,
      say: valueWords(value),
    };
  }
  const exact = exactValue(value);
  if (exact && value.cp === 0) return { wdl: [0, 1000, 0], text: 'D', say: valueWords(value) };
  if (!value.wdl) return { wdl: null, text: '?', say: `${valueWords(value)} (no chances from this engine)` };
  return { wdl: value.wdl, text: playerOneWinText(value.wdl, exact), say: valueWords(value) };
}

// Draws the bar (barContent's arguments): with no value, empty (its
// `data-known` false: no colour stands for a side's chances).
/**
 * @param {import('./game.js').Value | undefined} value @param {string | null} [result]
 * @param {boolean} [previewed]
 */
export function drawEvalBar(value, result = null, previewed = false) {
  const { wdl, text, say } = barContent(value, result, previewed);
  const [w, d] = wdl ? [wdl[0] / 10, wdl[1] / 10] : [0, 0];
  const bar = $('eval-bar');
  bar.dataset.known = String(Boolean(wdl));
  bar.style.setProperty('--p1-wins', `${w.toFixed(1)}%`);
  bar.style.setProperty('--draws', `${d.toFixed(1)}%`);
  $('eval-fill').style.height = `${w.toFixed(1)}%`;
  $('eval-text').textContent = text;
  // The meter's value: player 1's share of the points, a draw half (none known: none).
  if (wdl) bar.setAttribute('aria-valuenow', String(Math.round(w + d / 2)));
  else bar.removeAttribute('aria-valuenow');
  bar.setAttribute('aria-valuetext', say);
  bar.title = wdl ? `Chances: ${say}` : `No chances shown: ${say}`;
}
