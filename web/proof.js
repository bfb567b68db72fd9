// @ts-check
// The Prove button: the engine's prover (`go prove`, docs/protocol.md) on
// the position shown, for up to PROVE_MS, and its answer in words under the
// analysis lines: "Proved: player 1 wins in at most 17 plies, starting with
// L@b2 (its certificate of 4,818 positions checked)". A proof belongs to its
// position: it is shown only while that position is (shown.generation), and
// what it proved is that position's value (the bar's and the chart's).
// The view draws it (state.ui.proof: panels.js).

import { startSearch } from './engine_session.js';
import { shownView } from './shown.js';
import { proofText, proofValue, playerOneValue, storedProof, storedProofText, storedValue } from './values.js';
import { keepValue } from './game.js';
import { puzzleSolving } from './puzzle_run.js';

export const PROVE_MS = 5000;

// Asks the prover about the position shown (the analysis must be off: the
// engine does one thing at a time). The answer is kept for that position.
/** @param {import('./state.js').State} st */
export async function proveShown(st) {
  const shown = st.shown;
  const v = shownView(shown);
  if (!v || shown.preview || (shown.proof && shown.proof.running)) return;
  if (v.over) {
    shown.proof = { generation: shown.generation, text: 'The game is over here: nothing to prove.', running: false };
    return st.ui.proof();
  }
  const my = shown.generation, node = st.game.current;
  shown.proof = { generation: my, text: 'Proving…', running: true };
  st.ui.proof();
  const s = await startSearch(st, 'prove', 1, { prove: true, movetime: PROVE_MS }, undefined, my);
  // What it proved is the position's value (the chart's and the bar's), the most certain there is.
  const proved = s.proof ? proofValue(s.proof) : null;
  if (proved && keepValue(node, { ...playerOneValue(proved, v.pos.side, true), source: 'proof' })) st.ui.graph();
  if (!shown.proof || shown.proof.generation !== my) return;
  shown.proof = {
    generation: my, running: false,
    text: s.proof ? proofText(s.proof, v.pos.side, s.best, PROVE_MS / 1000) : 'The prover gave no answer (the engine went away).',
  };
  st.ui.proof();
}

// The proof database's value of the position shown (`query proof`, which
// examine asks with the position), at once and without a search: said as
// the prover's answer is and, for a win, a loss or a draw, kept as the
// position's value (the bar's and the chart's); a side held alone is said
// only (a bound, no value). Nothing where the database says nothing, nor while a
// puzzle is being solved (it would name the winning move unasked).
/** @param {import('./state.js').State} st @param {import('./engine_session.js').View} view */
export function showStoredProof(st, view) {
  const stored = view.stored ? storedProof(view.stored) : null;
  if (!stored || puzzleSolving(st)) return;
  const exact = storedValue(stored);  // (a held side alone: words only, no value)
  if (exact && keepValue(st.game.current, { ...playerOneValue(exact, view.pos.side, true), source: 'proof' }))
    st.ui.graph();
  st.shown.proof = { generation: st.shown.generation, text: storedProofText(stored, view.pos.side), running: false };
  st.ui.proof();
}

// The answer about the position shown, if there is one (the view draws it: panels.js).
/** @param {import('./shown.js').Shown} shown */
export function shownProof(shown) {
  return shown.proof && shown.proof.generation === shown.generation ? shown.proof : null;
}
