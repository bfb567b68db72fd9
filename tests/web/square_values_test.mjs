// Every move's value without a pick (web/values.js, the board's "Values"
// toggle): the best of the tablebase's marks per target square and per size
// placed, best as the move list orders them (a shorter win, a longer loss).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bestByPlacedSize, bestByTarget, markText, parseValues } from '../../web/values.js';

const marks = /** @type {Map<string, import('../../web/values.js').Mark>} */ (
  parseValues('S@a1 l4 M@a1 d a2a1 w7 S@b2 l2 M@b2 l6 a2b3 w3 M@c3 w5 S@c3 w5'));

/** @param {Map<string, import('../../web/values.js').Mark>} m */
const texts = (m) => Object.fromEntries([...m].map(([k, v]) => [k, markText(v)]));

test('each target square shows the best move to it, from any source', () => {
  assert.deepEqual(texts(bestByTarget(marks)), { a1: 'W7', b2: 'L6', b3: 'W3', c3: 'W5' });
});

test('each size placed shows the best square for it; board moves are no placement', () => {
  assert.deepEqual(texts(bestByPlacedSize(marks)), { S: 'W5', M: 'W5' });
  assert.deepEqual(texts(bestByPlacedSize(/** @type {any} */ (parseValues('a1b2 w1')))), {});
});

test('no moves, no values', () => {
  assert.equal(bestByTarget(new Map()).size, 0);
});
