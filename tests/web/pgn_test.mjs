// Game texts (web/pgn.js): PGN read into the tree and written back with
// its variations, comments and NAGs, move numbers after a start with player
// 2 to move, the other texts (a position, a move list, cutegames' PGN), and
// the refusals of text not of its shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING, nagText, parseGameText, writeMoveList, writePgn } from '../../web/pgn.js';
import { setComment, treeOf } from '../../web/game.js';


// The tree under `node` as nested lists: [move, nags, comment, …children].
function shape(node) {
  return [node.move, node.nags, node.comment, ...node.children.map(shape)];
}

// The movetext of a PGN: what follows its tags, on one line.
function movetext(pgn) {
  return pgn.split('\n\n')[1].trim().replace(/\n/g, ' ');
}

function read(text) {
  const parsed = parseGameText(text);
  assert.equal(parsed.error, undefined, `refused: ${parsed.error}`);
  return parsed;
}

const TREE = '{opening} 1. L@b2 $1 {the centre} (1. M@b2 $6 {weaker} 1... S@a1 (1... L@a1 $2) 2. a1c3) '
  + '1... L@a1 2. S@c3 $14 *';

test('a PGN with variations, comments and NAGs is read into the tree', () => {
  const g = read(`[Event "x"]\n[Variant "gobblers"]\n\n${TREE}\n`);
  assert.equal(g.variant, 'gobblers');
  assert.equal(g.start, null);
  assert.deepEqual(g.moves, ['L@b2', 'L@a1', 'S@c3']);
  assert.deepEqual(shape(g.root), [null, [], 'opening',
    ['L@b2', [1], 'the centre', ['L@a1', [], '', ['S@c3', [14], '']]],
    ['M@b2', [6], 'weaker', ['S@a1', [], '', ['a1c3', [], '']], ['L@a1', [2], '']]]);
});

test('that PGN is written back as it was, and reads back into the same tree', () => {
  const g = read(`[Variant "gobblers"]\n\n${TREE}`);
  const pgn = writePgn({ variant: 'gobblers', start: null }, g.root, null, 'board.test');
  assert.equal(movetext(pgn), TREE);
  assert.match(pgn, /^\[Event "Gobblet board"\]\n\[Site "board\.test"\]\n\[Date "\d{4}\.\d\d\.\d\d"\]\n/);
  assert.match(pgn, /\n\[Result "\*"\]\n\[Variant "gobblers"\]\n\n/);
  assert.deepEqual(shape(read(pgn).root), shape(g.root));
});

test('a game that player 2 begins is numbered 1... S@a1 2. M@c3, and keeps its position', () => {
  const root = treeOf(['S@a1', 'M@c3', 'a1b1']);
  const pgn = writePgn({ variant: 'gobblers', start: '3/3/3 2' }, root, null, 'board.test');
  assert.match(pgn, /\n\[FEN "3\/3\/3 2"\]\n\[SetUp "1"\]\n/);
  assert.equal(movetext(pgn), '1... S@a1 2. M@c3 a1b1 *');
  assert.equal(writeMoveList(['S@a1', 'M@c3', 'a1b1'], 1), '1... S@a1 2. M@c3 a1b1');
  assert.equal(writeMoveList(['L@b2', 'S@a1', 'a1c3']), '1. L@b2 S@a1 2. a1c3');
  const back = read(pgn);
  assert.equal(back.start, '3/3/3 2');
  assert.deepEqual(back.moves, ['S@a1', 'M@c3', 'a1b1']);
});

test("moves that begin 1... need player 2's position", () => {
  assert.deepEqual(parseGameText('1... S@a1 2. M@c3'), {
    error: "the moves begin with player 2's move '1...' but the start position is player 1's: "
      + 'a game that player 2 begins needs its position ([FEN] in a PGN).',
  });
  assert.deepEqual(read('[FEN "3/3/3 2"]\n\n1... S@a1 2. M@c3').moves, ['S@a1', 'M@c3']);
});

test("a second move of a pair after a comment or a variation gets N...; the result closes the movetext", () => {
  const root = treeOf(['L@b2', 'S@a1', 'a1c3']);
  setComment('why', root.children[0]);
  const pgn = writePgn({ variant: 'gobblers', start: null }, root, 'p1win', 'board.test');
  assert.equal(movetext(pgn), '1. L@b2 {why} 1... S@a1 2. a1c3 1-0');
  assert.match(pgn, /\[Result "1-0"\]/);
  assert.equal(movetext(writePgn({ variant: 'gobblers', start: null }, treeOf(['L@b2']), 'draw', 'board.test')), '1. L@b2 1/2-1/2');
  assert.equal(movetext(writePgn({ variant: 'gobblers', start: null }, treeOf(['L@b2']), 'none', 'board.test')), '1. L@b2 *');
});

test('suffixes are read as their NAGs, shown as glyphs, written as $N', () => {
  const g = read('1. L@b2!? S@a1? 2. a1c3!! $16 b2c2!!! *');
  assert.deepEqual(shape(g.root).flat(Infinity).filter((x) => typeof x === 'number'), [5, 2, 3, 16]);
  assert.equal(movetext(writePgn({ variant: 'gobblers', start: null }, g.root, null, 'board.test')),
    '1. L@b2 $5 S@a1 $2 2. a1c3 $3 $16 b2c2 *');
  assert.deepEqual([1, 2, 3, 4, 5, 6, 14, 16, 7].map(nagText), ['!', '?', '!!', '??', '!?', '?!', '+=', '\u00B1', '$7']);
});

test('a comment or NAG right after ( is the first move of the variation', () => {
  const g = read('1. L@b2 ({instead} $3 1. M@b2 S@a1) S@c3 *');
  assert.deepEqual(shape(g.root.children[1]), ['M@b2', [3], 'instead', ['S@a1', [], '']]);
  const empty = read('1. L@b2 ({nothing here}) *');
  assert.equal(empty.root.children.length, 1);
  assert.equal(empty.root.children[0].comment, 'nothing here');
});

test('; comments run to the line end, and a line inside { } is the comment\'s', () => {
  const g = read('1. L@b2 ; the centre {not opened\n1... S@a1 {\n[%eval 0.3]\n} *');
  assert.deepEqual(g.moves, ['L@b2', 'S@a1']);
  assert.equal(g.root.children[0].comment, 'the centre {not opened');
  assert.equal(g.root.children[0].children[0].comment, '[%eval 0.3]');
});

test("a comment's } is written as U+FF5D, so that it cannot end the comment", () => {
  const root = treeOf(['L@b2', 'S@a1']);
  setComment('a } 2. a1c3 {', root.children[0]);
  const pgn = writePgn({ variant: 'gobblers', start: null }, root, null, 'board.test');
  assert.equal(movetext(pgn), '1. L@b2 {a \uFF5D 2. a1c3 {} 1... S@a1 *');
  const back = read(pgn);
  assert.deepEqual(back.moves, ['L@b2', 'S@a1']);
  assert.equal(back.root.children[0].comment, 'a \uFF5D 2. a1c3 {');
});

test('a long line of moves is wrapped at 79 characters, and read back the same', () => {
  const moves = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'S@a1' : 'L@b2'));
  const pgn = writePgn({ variant: 'gobblers', start: null }, treeOf(moves), null, 'board.test');
  const lines = pgn.split('\n\n')[1].trim().split('\n');
  assert.ok(lines.length > 1);
  assert.ok(lines.every((l) => l.length <= 79), lines.join('|'));
  assert.deepEqual(read(pgn).moves, moves);
});

test('only the first game of a file is read; cutegames writes [FEN "startpos"]', () => {
  const g = read('[Event "a"]\n[FEN "startpos"]\n\n1. L@b2 S@a1 *\n\n[Event "b"]\n\n1. M@c3 *\n');
  assert.deepEqual(g.moves, ['L@b2', 'S@a1']);
  assert.equal(g.start, null);
  assert.equal(g.variant, null);
});

test('a position text alone, and a bare move list', () => {
  assert.deepEqual(read('  [sL]2/1M1/3 2 ').start, '[sL]2/1M1/3 2');
  assert.deepEqual(read('[sL]2/1M1/3 2').moves, []);
  const list = read('1. X@a1 X@d4 2. a1b2');
  assert.deepEqual(list.moves, ['X@a1', 'X@d4', 'a1b2']);
  assert.equal(list.variant, null);
});

test('variations nest inside variations, and are written back nested', () => {
  const text = '1. L@b2 S@a1 (1... M@a1 2. a1c3 (2. S@c3 $4)) 2. b2c2 *';
  const g = read(text);
  assert.deepEqual(g.moves, ['L@b2', 'S@a1', 'b2c2']);
  assert.deepEqual(shape(g.root.children[0].children[1]), ['M@a1', [], '', ['a1c3', [], ''], ['S@c3', [4], '']]);
  assert.equal(movetext(writePgn({ variant: 'gobblers', start: null }, g.root, null, 'board.test')), text);
});

test('variations nest up to MAX_NESTING levels', () => {
  const nested = (depth) => `1. L@b2 ${'(1. M@b2 '.repeat(depth)}${')'.repeat(depth)} *`;
  assert.equal(parseGameText(nested(MAX_NESTING)).error, undefined);
  assert.deepEqual(parseGameText(nested(MAX_NESTING + 1)), { error: `variations nest deeper than ${MAX_NESTING} levels.` });
});

test('text not of its shape is refused with the reason, quoted', () => {
  const refusals = {
    '': 'the box is empty: paste a position text, a move list or a PGN.',
    '1. L@b2 {oops': 'a comment { … } is not closed.',
    '1. L@b2 (1. M@b2': 'a variation ( … ) is not closed.',
    '1. L@b2 )': "a ')' closes no variation.",
    '(1. L@b2)': 'a variation ( … ) comes before any move of its line.',
    '1. L@e9': "'L@e9' is not a move in our notation (L@b2 or a1b2).",
    '1. L@b2 $256': "'$256' is not an annotation glyph ($0 to $255).",
    [`1. L@b2 {${'x'.repeat(2001)}}`]: 'a comment is longer than 2000 characters.',
    '[Variant "gobblers;quit"]\n\n1. L@b2': "the [Variant] tag: 'gobblers;quit' is not a variant name "
      + '(letters, digits and : , _ - in words, as gobblers or 3x3:2,2,1).',
  };
  for (const [text, error] of Object.entries(refusals)) assert.deepEqual(parseGameText(text), { error }, text);
  assert.match(parseGameText('[FEN "3/3/3 1 go"]\n\n1. L@b2').error, /^the \[FEN\] tag: '3\/3\/3 1 go' is not a position text/);
});
