// @ts-check
// The Prove button: the engine's prover (`go prove`, docs/protocol.md) on
// the position shown, for up to PROVE_MS, and its answer in words under the
// analysis lines: "Proved: player 1 wins in at most 17 plies, starting with
// L@b2 (its certificate of 4,818 positions checked)". A proof belongs to its
// position: it is shown only while that position is (shown.generation).

import { startSearch } from './engine_session.js';
import { shown, shownView } from './shown.js';
import { proofText } from './values.js';

export const PROVE_MS = 5000;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// Asks the prover about the position shown (the analysis must be off: the
// engine does one thing at a time). The answer is kept for that position.
export async function proveShown() {
  const v = shownView();
  if (!v || shown.preview || (shown.proof && shown.proof.running)) return;
  if (v.over) {
    shown.proof = { generation: shown.generation, text: 'The game is over here: nothing to prove.', running: false };
    return renderProof();
  }
  const my = shown.generation;
  shown.proof = { generation: my, text: 'Proving…', running: true };
  renderProof();
  const s = await startSearch('prove', 1, { prove: true, movetime: PROVE_MS }, undefined, my);
  if (!shown.proof || shown.proof.generation !== my) return;
  shown.proof = {
    generation: my, running: false,
    text: s.proof ? proofText(s.proof, v.pos.side, s.best, PROVE_MS / 1000) : 'The prover gave no answer (the engine went away).',
  };
  renderProof();
}

// Shows the answer about the position shown, if there is one.
export function renderProof() {
  const p = shown.proof && shown.proof.generation === shown.generation ? shown.proof : null;
  const box = $('proof');
  box.hidden = !p;
  box.textContent = p ? p.text : '';
  $('prove').textContent = p && p.running ? 'Proving…' : 'Prove';
}
