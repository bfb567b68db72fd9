// @ts-check
// What the page shows of the game, beside the game itself (game.js, the one
// owner of the moves): the engine's answers about the position shown, the
// piece picked, a preview of an analysis line, the keyboard's square, the
// controls' own state, and the generation that work for an older position
// checks before it acts. A part of the page's state (state.js).

/** @typedef {import('./engine_session.js').View} View */

/** "Learn from your mistakes" (review_run.js): the player whose moves are
 * asked, the moves judged a mistake or a blunder (main line order), the one
 * asked now, and where the asking stands ('try': waiting for a move,
 * 'checking', 'right', 'wrong', 'answer': the best move shown, 'done') with its words.
 * @typedef {{side: number, items: import('./game.js').TreeNode[], index: number,
 *   state: 'try' | 'checking' | 'right' | 'wrong' | 'answer' | 'done', text: string}} Learning */

/**
 * What is shown:
 * view, what the engine said about the position shown (engine_session.js examine);
 * selection, {from: 'L@' | 'a1'}: the source picked for the next move;
 * preview, {moves, view}: the position after a line's moves, shown instead of the game's;
 * previews, counts the previews asked (one ended before it is shown is not shown: play.js);
 * previewAsked, the count of the preview asked and not yet shown or ended (0: none): the analysis's
 *   lines stay put from the click on (linesStayPut), not only once the preview is shown;
 * generation, bumps on every change of the position shown; stale work checks it;
 * analysing, the Analyse button is on;
 * engineHeld, a game opened (link, import, reload) or a record explored: the engine waits (play.js);
 * engineOffered, the "Engine, move" button is offered (play.js);
 * evaluating, the Evaluate button's work runs (play.js evaluateGame);
 * boardFocus, the square the keyboard is on (input.js);
 * learning, "learn from your mistakes", while on (review_run.js);
 * proof, the prover's answer about the position of `generation` (proof.js).
 * @typedef {{view: View | null, selection: {from: string} | null, preview: {moves: string[], view: View} | null,
 *   previews: number, previewAsked: number, generation: number, analysing: boolean, engineHeld: boolean, engineOffered: boolean,
 *   evaluating: boolean, boardFocus: string | null, learning: Learning | null,
 *   proof: {generation: number, text: string, running: boolean} | null}} Shown
 */

/** @returns {Shown} */
export function createShown() {
  return {
    view: null, selection: null, preview: null, previews: 0, previewAsked: 0, generation: 0, analysing: false, engineHeld: false,
    engineOffered: false, evaluating: false, boardFocus: null, learning: null, proof: null,
  };
}

// Whether the analysis's lines stay as they are: a preview is shown, or
// asked (the line clicked must not change under the pointer while the
// engine examines the preview's position).
/** @param {Shown} shown */
export function linesStayPut(shown) {
  return shown.preview !== null || shown.previewAsked !== 0;
}

// The engine's view of what the board shows: the preview's, else the game's.
/** @param {Shown} shown */
export function shownView(shown) {
  return shown.preview ? shown.preview.view : shown.view;
}
