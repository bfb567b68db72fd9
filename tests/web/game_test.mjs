// The game tree (web/game.js): moves played from earlier positions kept as
// variations, the line shown and navigation along it, taking back,
// promotion and deletion, comments and glyphs, and the numbering of moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  atEnd, createGame, deleteFrom, deleteVariation, firstIndex, goToNode, goToPly, inTree, line, lineMoves, mainLine,
  MAX_COMMENT, moveNumber, movesTo, pathTo, playMove, ply, promote, setComment, setGame, setMoveGlyph, snapshot,
  takeBackTo, treeOf, treeSize, variationCount, variationLines, variationOf,
} from '../../web/game.js';

const movesOf = (nodes) => nodes.slice(1).map((n) => n.move);

// The game the tests act on (the page keeps its own in its state, web/state.js).
const game = createGame();

// A gobblers game of `moves` shown at `at` plies (null: the end).
function newGame(moves, at = null, start = null) {
  setGame(game, 'gobblers', start, treeOf(moves), at);
}

// The node reached by `moves` from the start, along any line.
function nodeAt(moves) {
  let n = game.root;
  for (const m of moves) n = n.children.find((c) => c.move === m);
  return n;
}

test('a game is shown at the ply asked, or at its end', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  assert.equal(ply(game), 1);
  assert.equal(game.current.move, 'L@b2');
  assert.deepEqual(lineMoves(game), ['L@b2', 'S@a1', 'a1c3']);
  assert.equal(atEnd(game), false);
  newGame(['L@b2', 'S@a1', 'a1c3']);
  assert.equal(ply(game), 3);
  assert.ok(atEnd(game));
  newGame(['L@b2'], 7);
  assert.equal(ply(game), 1);
});

test('a move from an earlier position becomes the line, the old continuation a variation', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  const played = playMove(game, 'M@a1');
  assert.equal(game.current, played);
  assert.deepEqual(nodeAt(['L@b2']).children.map((c) => c.move), ['M@a1', 'S@a1']);
  assert.deepEqual(lineMoves(game), ['L@b2', 'M@a1']);
  assert.deepEqual(movesOf(mainLine(game)), ['L@b2', 'M@a1']);
  assert.deepEqual(variationLines(game.root), [['L@b2', 'S@a1', 'a1c3']]);
  assert.equal(variationCount(game.root), 1);
});

test('the move the tree already holds is followed, not added again', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  const existing = nodeAt(['L@b2', 'S@a1']);
  assert.equal(playMove(game, 'S@a1'), existing);
  assert.equal(nodeAt(['L@b2']).children.length, 1);
  assert.equal(variationCount(game.root), 0);
  assert.deepEqual(movesTo(game.current), ['L@b2', 'S@a1']);
});

test('navigation follows the line shown: the path to the position, then its main continuation', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  playMove(game, 'M@a1');                               // main line: L@b2 M@a1; variation: L@b2 S@a1 a1c3
  goToNode(game, nodeAt(['L@b2', 'S@a1', 'a1c3']));
  assert.deepEqual(lineMoves(game), ['L@b2', 'S@a1', 'a1c3']);
  goToPly(game, 2);
  assert.equal(game.current, nodeAt(['L@b2', 'S@a1']));  // still in the variation
  goToPly(game, 1);
  assert.deepEqual(lineMoves(game), ['L@b2', 'M@a1']);       // from L@b2 the line is its main continuation
  goToPly(game, -5);
  assert.equal(game.current, game.root);
  goToPly(game, 99);
  assert.deepEqual(movesTo(game.current), ['L@b2', 'M@a1']);
  assert.deepEqual(pathTo(game.current).map((n) => n.move), [null, 'L@b2', 'M@a1']);
  assert.equal(line(game).length, 3);
});

test('taking back removes the line after the ply; other variations stay', () => {
  newGame(['L@b2', 'S@a1', 'a1c3', 'M@b1'], 1);
  playMove(game, 'M@a1');                               // L@b2: [M@a1, S@a1 …]
  goToNode(game, nodeAt(['L@b2', 'S@a1', 'a1c3', 'M@b1']));
  takeBackTo(game, 2);
  assert.equal(game.current, nodeAt(['L@b2', 'S@a1']));
  assert.ok(atEnd(game));
  assert.deepEqual(nodeAt(['L@b2']).children.map((c) => c.move), ['M@a1', 'S@a1']);
});

test('a variation is found from any of its moves, and promotion makes it the main line', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  playMove(game, 'M@a1');
  const inside = nodeAt(['L@b2', 'S@a1', 'a1c3']);
  assert.equal(variationOf(inside), nodeAt(['L@b2', 'S@a1']));
  assert.equal(variationOf(nodeAt(['L@b2', 'M@a1'])), null);
  promote(inside);
  assert.deepEqual(movesOf(mainLine(game)), ['L@b2', 'S@a1', 'a1c3']);
  assert.equal(variationOf(inside), null);
  assert.deepEqual(variationLines(game.root), [['L@b2', 'M@a1']]);
});

test('deleting a variation removes it from its first move and shows where it began', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  playMove(game, 'M@a1');
  goToNode(game, nodeAt(['L@b2', 'S@a1', 'a1c3']));
  assert.ok(deleteVariation(game, game.current));
  assert.equal(game.current, nodeAt(['L@b2']));
  assert.deepEqual(nodeAt(['L@b2']).children.map((c) => c.move), ['M@a1']);
  goToPly(game, 2);
  assert.equal(deleteVariation(game, game.current), false);          // the main line is no variation
  assert.deepEqual(movesOf(mainLine(game)), ['L@b2', 'M@a1']);
});

test('deleting from a move removes it and all after it; a stale node or the start deletes nothing', () => {
  newGame(['L@b2', 'S@a1', 'a1c3'], 1);
  playMove(game, 'M@a1');
  goToNode(game, nodeAt(['L@b2', 'S@a1', 'a1c3']));
  const gone = nodeAt(['L@b2', 'S@a1']);
  assert.ok(deleteFrom(game, gone));
  assert.equal(game.current, nodeAt(['L@b2']));    // the position shown was among the moves deleted
  assert.equal(inTree(game, gone), false);
  assert.equal(deleteFrom(game, gone), false);           // already gone: the last child stays
  assert.deepEqual(nodeAt(['L@b2']).children.map((c) => c.move), ['M@a1']);
  assert.equal(deleteFrom(game, game.root), false);
  const kept = nodeAt(['L@b2', 'M@a1']);
  assert.ok(inTree(game, kept));
  newGame(['L@b2']);
  assert.equal(inTree(game, kept), false);                // a game replaced since
});

test('comments are single-spaced and capped; a mark replaces the move glyph only', () => {
  newGame(['L@b2', 'S@a1']);
  setComment('  the   centre\n first ', game.current);
  assert.equal(game.current.comment, 'the centre first');
  setComment('x'.repeat(MAX_COMMENT + 50), game.current);
  assert.equal(game.current.comment.length, MAX_COMMENT);
  game.current.nags = [2, 14];
  setMoveGlyph(5, game.current);
  assert.deepEqual(game.current.nags, [5, 14]);
  setMoveGlyph(0, game.current);
  assert.deepEqual(game.current.nags, [14]);
});

test('moves are numbered in pairs; player 2 first numbers its move 1...', () => {
  assert.equal(firstIndex(null), 0);
  assert.equal(firstIndex('3/3/3 1'), 0);
  assert.equal(firstIndex('[sL]2/1M1/3 2'), 1);
  assert.deepEqual([0, 1, 2, 3].map((i) => moveNumber(i)), ['1.', '1...', '2.', '2...']);
  assert.equal(moveNumber(3, '…'), '2…');
  newGame(['S@a1'], null, '3/3/3 2');
  assert.equal(firstIndex(game.start), 1);
});

test("a tree's size is counted up to one past the limit; the link's snapshot is the line shown", () => {
  const root = treeOf(['L@b2', 'S@a1', 'a1c3', 'M@b1', 'M@c1']);
  assert.equal(treeSize(root), 5);
  assert.equal(treeSize(root, 2), 3);
  setGame(game, 'gobblers', '3/3/3 2', root, 2);
  assert.deepEqual(snapshot(game), {
    variant: 'gobblers', start: '3/3/3 2', moves: ['L@b2', 'S@a1', 'a1c3', 'M@b1', 'M@c1'], ply: 2,
  });
});
