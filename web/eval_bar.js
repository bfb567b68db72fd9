// @ts-check
// The evaluation bar beside the board (#eval-bar): player 1's share of the
// position shown, from its value (player 1's side: {cp} or {mate} in plies,
// `exact` for the tablebase's); a proven result fills it or empties it; a
// finished game (`result`, a `query result` word) says its result; no value
// yet: even.

import { plies } from './values.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {Record<string, [number, string, string]>} */
const RESULTS = { p1win: [1, '1-0', 'player 1 has won'], p2win: [0, '0-1', 'player 2 has won'], draw: [0.5, '½', 'a draw'] };

/** @param {import('./game.js').Value | undefined} value @param {string | null} result */
export function drawEvalBar(value, result = null) {
  let share = 0.5, text = '', say = 'no evaluation yet';
  if (result && RESULTS[result]) {
    [share, text, say] = RESULTS[result];
  } else if (value && value.mate !== undefined) {
    share = value.mate > 0 ? 1 : 0;
    text = `${value.mate > 0 ? 'W' : 'L'}${Math.abs(value.mate)}`;
    say = `player ${value.mate > 0 ? 1 : 2} wins in ${plies(Math.abs(value.mate))}`;
  } else if (value && value.cp !== undefined) {
    share = 1 / (1 + Math.exp(-value.cp / 150));  // 150 cp: about 3 to 1
    text = (value.cp > 0 ? '+' : '') + (value.cp / 100).toFixed(1);
    say = value.exact ? 'a draw' : `${text} for player 1 (hundredths of a piece)`;
    if (value.exact) text = 'D';
  }
  $('eval-fill').style.height = `${(share * 100).toFixed(1)}%`;
  $('eval-text').textContent = text;
  const bar = $('eval-bar');
  bar.setAttribute('aria-valuenow', String(Math.round(share * 100)));
  bar.setAttribute('aria-valuetext', say);
  bar.title = `Evaluation: ${say}`;
}
