// Reading the engine's position texts and `d` lines for drawing
// (web/position.js), against docs/notation.md's examples, and the values
// and scores in words (web/values.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  boardShape, describeStack, parsePosition, parseSupply, sizeIndex, sizeLetter, squareName,
} from '../../web/position.js';
import { bestInfo, countText, markOrder, markText, parseValues, plies } from '../../web/values.js';

// The squares of a parsed position as {square: 'Sm…'}: each stack bottom to
// top, player 1's pieces upper case, as the notation writes them.
function squaresOf(pos) {
  return Object.fromEntries([...pos.squares].map(([sq, stack]) => [sq,
    stack.map((p) => (p.player === 1 ? sizeLetter(p.size) : sizeLetter(p.size).toLowerCase())).join('')]));
}

test('the start positions: empty boards, their side and player 1 to move', () => {
  const three = parsePosition('3/3/3 1');
  assert.equal(three.n, 3);
  assert.equal(three.side, 1);
  assert.equal(three.squares.size, 0);
  const four = parsePosition('4/4/4/4 1');
  assert.equal(four.n, 4);
  assert.equal(four.squares.size, 0);
});

test("docs/notation.md's [sL]2/1M1/3 2: a3's stack, b2's M, player 2 to move", () => {
  const pos = parsePosition('[sL]2/1M1/3 2');
  assert.equal(pos.side, 2);
  assert.deepEqual(squaresOf(pos), { a3: 'sL', b2: 'M' });
  assert.deepEqual(pos.squares.get('a3'), [{ player: 2, size: 0 }, { player: 1, size: 2 }]);
  assert.equal(describeStack(pos.squares.get('a3')), 'S² under L¹');
  assert.equal(describeStack(pos.squares.get('c1')), 'empty');
});

test('ranks go from the top down, files left to right, runs of empty squares as digits', () => {
  const pos = parsePosition('X3/1[mLx]2/4/3s 2');
  assert.deepEqual(squaresOf(pos), { a4: 'X', b3: 'mLx', d1: 's' });
  assert.equal(describeStack(pos.squares.get('b3')), 'M² under L¹ under X²');
});

test('text that is not a position is not read', () => {
  assert.equal(parsePosition(''), null);
  assert.equal(parsePosition('3/3/3'), null);
});

test('sizes: one table of letters, smallest first, either case', () => {
  assert.deepEqual(['S', 'M', 'L', 'X'].map(sizeIndex), [0, 1, 2, 3]);
  assert.equal(sizeIndex('l'), 2);
  assert.equal(sizeIndex('Q'), -1);
  assert.deepEqual([0, 1, 2, 3].map(sizeLetter), ['S', 'M', 'L', 'X']);
  assert.equal(squareName(0, 0), 'a1');
  assert.equal(squareName(3, 2), 'd3');
});

test("the `d` supply lines: 4x4's stack tops, 3x3's pieces in hand", () => {
  assert.deepEqual(parseSupply('stacks X L -'), [3, 2, -1]);
  assert.deepEqual(parseSupply('Sx2 Mx1 Lx2'), [0, 0, 1, 2, 2]);
  assert.deepEqual(parseSupply('Sx0'), []);
  // (the engine's `d`: "sizes SMLX", "supply 1: stacks X X X"; gobblers: "sizes SML", "supply 1: Sx2 Mx2 Lx2")
  assert.deepEqual(boardShape(parsePosition('4/4/4/4 1'), 'SMLX', 'stacks X X X'), { n: 4, sizes: 4, stacks: true });
  assert.deepEqual(boardShape(parsePosition('3/3/3 1'), 'SML', 'Sx2 Mx2 Lx2'), { n: 3, sizes: 3, stacks: false });
});

test("the engine's `query values`: a mark per move, none, or not that shape", () => {
  const marks = parseValues('X@a1 w13 S@b2 d a1b2 l4 M@c3 ?');
  assert.deepEqual([...marks], [
    ['X@a1', { wdl: 'W', plies: 13 }],
    ['S@b2', { wdl: 'D', plies: null }],
    ['a1b2', { wdl: 'L', plies: 4 }],
    ['M@c3', { wdl: '?', plies: null }],
  ]);
  assert.equal(parseValues('none').size, 0);
  assert.equal(parseValues('X@a1 win'), null);
});

test('marks best first: the shortest win, draws, then the longest loss', () => {
  const marks = [
    { wdl: 'L', plies: 2 }, { wdl: 'W', plies: 9 }, { wdl: 'D', plies: null }, { wdl: 'L', plies: 8 }, { wdl: 'W', plies: 1 },
  ];
  assert.deepEqual(marks.sort(markOrder).map(markText), ['W1', 'W9', 'D', 'L8', 'L2']);
  assert.deepEqual(bestInfo(parseValues('X@a1 l3 S@b2 w5')), { mate: 5 });
  assert.deepEqual(bestInfo(parseValues('X@a1 l3 S@b2 d')), { cp: 0 });
  assert.deepEqual(bestInfo(parseValues('X@a1 l3')), { mate: -3 });
  assert.equal(bestInfo(new Map()), null);
});

test("plies and the search's counts in words (a line's value: chances_test.mjs)", () => {
  assert.equal(plies(1), '1 ply');
  assert.equal(countText(1234, 850000), '1,234 nodes, 850 kn/s');
  assert.equal(countText(3214000, 5300000), '3.21 M nodes, 5.3 Mn/s');
  assert.equal(countText(12, 0), '12 nodes');
});
