// @ts-check
// The lines of best play from the tablebase (3x3): the engine's search
// with a tablebase reports each line as its first move only (the exact
// value ends the search there), so the analysis lines are continued here by
// the tablebase itself: at each position after the line's moves, the best
// move by its exact value (values.js markOrder: the quickest win, else a
// draw, else the longest loss), to the game's end or LONGEST plies. Each
// step is one batch that puts the engine back on the position shown, so
// that a question the page asks after it (`query values`) is of that
// position; the walk stops as soon as another position is shown.

import { positionCommand } from './engine_session.js';
import { errorOf } from './ugi.js';
import { parseValues, markOrder } from './values.js';
import { movesTo } from './game.js';

/** @typedef {import('./state.js').State} State */

const LONGEST = 12;  // moves of a line shown (render.js shows at most 12)

/** @param {string} fen @param {string} first */
const keyOf = (fen, first) => `${fen} ${first}`;

// The line from the tablebase that starts with `first` at the position
// `fen`, if found (else undefined: ask for it with findLine).
// (st.tbLines: the whole lines found, by the position text and their first
// move, and the lines being found.)
/** @param {State} st @param {string} fen @param {string} first */
export function tablebaseLine(st, fen, first) {
  return st.tbLines.found.get(keyOf(fen, first));
}

// Finds the line that starts with `first` at the position shown (`fen`),
// then calls `done()` if that position is still shown. Once per line.
/** @param {State} st @param {string} fen @param {string} first @param {() => void} done */
export async function findLine(st, fen, first, done) {
  const { shown, ugi } = st, { found, asked } = st.tbLines;
  const key = keyOf(fen, first);
  if (found.has(key) || asked.has(key)) return;
  asked.add(key);
  const my = shown.generation;
  const before = movesTo(st.game.current);
  const line = [first];
  try {
    while (line.length < LONGEST) {
      if (my !== shown.generation) return;  // (another position: the walk is of no use, and the engine is not ours)
      const lines = await ugi.exec(positionCommand(st, [...before, ...line]), 'query gameover', 'query values',
        positionCommand(st, before));
      if (!lines || my !== shown.generation) return;
      if ((lines.find((l) => l.startsWith('response ')) || '') !== 'response false' || errorOf(lines)) break;
      const values = parseValues((lines.filter((l) => l.startsWith('response '))[1] || '').slice(9));
      const best = values && [...values].sort((a, b) => markOrder(a[1], b[1]))[0];
      if (!best || best[1].wdl === '?') break;
      line.push(best[0]);
    }
  } finally {
    asked.delete(key);
  }
  if (found.size > 1000) found.clear();  // (a long session: keep it small)
  found.set(key, line);
  if (my === shown.generation) done();
}
