// @ts-check
// What the page shows of the game, beside the game itself (game.js, the one
// owner of the moves): the engine's answers about the position shown, the
// piece picked, a preview of an analysis line, the keyboard's square, and
// the generation that work for an older position checks before it acts.

/** @typedef {import('./engine_session.js').View} View */

/** "Learn from your mistakes" (review_run.js): the player whose moves are
 * asked, the moves judged a mistake or a blunder (main line order), the one
 * asked now, and where the asking stands ('try': waiting for a move,
 * 'checking', 'right', 'wrong', 'answer': the best move shown, 'done') with its words.
 * @typedef {{side: number, items: import('./game.js').TreeNode[], index: number,
 *   state: 'try' | 'checking' | 'right' | 'wrong' | 'answer' | 'done', text: string}} Learning */

/**
 * @type {{view: View | null, selection: {from: string} | null, preview: {moves: string[], view: View} | null,
 *   generation: number, analysing: boolean, engineHeld: boolean, boardFocus: string | null,
 *   learning: Learning | null, proof: {generation: number, text: string, running: boolean} | null}}
 */
export const shown = {
  view: null,         // what the engine said about the position shown (engine_session.js examine)
  selection: null,    // {from: 'L@' | 'a1'}: the source picked for the next move
  preview: null,      // {moves, view}: the position after a line's moves, shown instead of the game's
  generation: 0,      // bumps on every change of the position shown; stale work checks it
  analysing: false,   // the Analyse button is on
  engineHeld: false,  // a game opened (link, import, reload) or a record explored: the engine waits (play.js)
  boardFocus: null,   // the square the keyboard is on (input.js)
  learning: null,     // "learn from your mistakes", while on (review_run.js)
  proof: null,        // the prover's answer about the position of `generation` (proof.js)
};

// The engine's view of what the board shows: the preview's, else the game's.
export function shownView() {
  return shown.preview ? shown.preview.view : shown.view;
}
