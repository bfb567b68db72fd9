// The prover's answer in words (web/values.js proofText, the board's Prove
// button): a proved win names the move and the plies, says the certificate
// was checked only when the engine says so; no proof says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proofText, storedProof, storedProofText, storedValue } from '../../web/values.js';

test('a proved win names its side, plies, move and the checked certificate', () => {
  assert.equal(proofText('win plies 17 nodes 9221 time 92 certificate 4818 checked', 1, 'L@b2', 5),
    'Proved: player 1 wins in at most 17 plies, starting with L@b2 '
    + '(its certificate of 4,818 positions checked; 9,221 nodes, 0.1 s).');
  assert.equal(proofText('win plies 1 nodes 1 time 0 certificate 1 checked', 2, 'L@d1', 5),
    'Proved: player 2 wins in at most 1 ply, starting with L@d1 (its certificate of 1 position checked; 1 node, 0.0 s).');
});

test('a certificate the engine does not say it checked is not called checked', () => {
  assert.doesNotMatch(proofText('win plies 3 nodes 10 time 1 certificate 5', 1, 'a1b2', 5), /checked/);
});

test('a loss, and no proof with its note', () => {
  assert.equal(proofText('loss plies 2 nodes 40 time 3 certificate 7 checked', 1, null, 5),
    'Proved: player 1 loses in at most 2 plies whatever they play (its certificate of 7 positions checked; 40 nodes, 0.0 s).');
  assert.equal(proofText('unknown nodes 46272 time 5000 (the budget ran out)', 2, '(none)', 5),
    "No proof within 5 s (the budget ran out): the position is beyond the prover's reach in that time "
    + '(46,272 nodes, 5.0 s).');
});

test('a draw proved by the not-lost prover, and the side to move proved not to lose', () => {
  assert.equal(proofText('draw nodes 2187 time 12 certificates 106 and 588 checked', 1, 'S@a1', 5),
    'Proved: a draw — neither side can win (certificates of 106 and 588 positions checked; 2,187 nodes, 0.0 s).');
  assert.equal(proofText('draw nodes 1 time 0 certificates 1 and 1200 checked', 2, 'S@a1', 5),
    'Proved: a draw — neither side can win (certificates of 1 and 1,200 positions checked; 1 node, 0.0 s).');
  assert.equal(proofText('not-lost nodes 1255 time 75 certificate 106 checked', 2, 'S@a1', 5),
    'Proved: player 2 cannot lose, starting with S@a1 (its certificate of 106 positions checked; 1,255 nodes, 0.1 s); '
    + 'whether they can win is not proved.');
  // A draw without its certificates (an older engine's win prover's) is no proof.
  assert.equal(proofText('draw nodes 1055 time 1 (neither side can force a line)', 1, '(none)', 5),
    "No proof within 5 s (neither side can force a line): the position is beyond the prover's reach in that time "
    + '(1,055 nodes, 0.0 s).');
});

test("the proof database's answer is read strictly and said as proved", () => {
  assert.deepEqual(storedProof('win 15 L@b2'), { kind: 'win', plies: 15, move: 'L@b2' });
  assert.deepEqual(storedProof('loss 14'), { kind: 'loss', plies: 14, move: null });
  assert.deepEqual(storedProof('draw S@a1'), { kind: 'draw', plies: null, move: 'S@a1' });
  assert.deepEqual(storedProof('not-lost a1b2'), { kind: 'not-lost', plies: null, move: 'a1b2' });
  assert.deepEqual(storedProof('not-won'), { kind: 'not-won', plies: null, move: null });
  for (const bad of ['none', 'win 15', 'win 0 L@b2', 'loss -3', 'win 15 L@b2 x', 'win 15 <b>', 'draw 3', 'loss 14 L@b2',
    'draw', 'draw S@a1 x', 'not-lost', 'not-won S@a1', 'held S@a1'])
    assert.equal(storedProof(bad), null, bad);
  assert.equal(storedProofText({ kind: 'win', plies: 15, move: 'L@b2' }, 1),
    'Proved (proof database): player 1 wins in at most 15 plies, starting with L@b2.');
  assert.equal(storedProofText({ kind: 'loss', plies: 1, move: null }, 2),
    'Proved (proof database): player 2 loses in at most 1 ply whatever they play.');
  assert.equal(storedProofText({ kind: 'draw', plies: null, move: 'S@a1' }, 1),
    'Proved (proof database): a draw — neither side can win; player 1 holds it starting with S@a1.');
  assert.equal(storedProofText({ kind: 'not-lost', plies: null, move: 'S@a1' }, 2),
    'Proved (proof database): player 2 cannot lose, starting with S@a1; whether they can win is not proved.');
  assert.equal(storedProofText({ kind: 'not-won', plies: null, move: null }, 1),
    'Proved (proof database): player 1 cannot win (player 2 cannot lose); whether they can draw is not proved.');
});

test("a stored proof's value: exact for a win, a loss and a draw, none for a held side", () => {
  assert.deepEqual(storedValue({ kind: 'win', plies: 15, move: 'L@b2' }), { mate: 15 });
  assert.deepEqual(storedValue({ kind: 'loss', plies: 14, move: null }), { mate: -14 });
  assert.deepEqual(storedValue({ kind: 'draw', plies: null, move: 'S@a1' }), { cp: 0 });
  assert.equal(storedValue({ kind: 'not-lost', plies: null, move: 'S@a1' }), null);
  assert.equal(storedValue({ kind: 'not-won', plies: null, move: null }), null);
});
