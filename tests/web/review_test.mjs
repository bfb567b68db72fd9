// The game review's judgements (web/review.js): the expected score of a
// value, the classes by the loss of it (lichess's thresholds) or by the
// tablebase's exact values, the accuracy per player, the marks a class
// writes (NAGs) and what "learn from your mistakes" accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accuracy, classify, expectedScore, exactScore, goodEnough, lossText, moveAccuracy, nagsAfterReview, resultScore,
  reviewByChances, reviewByTablebase, summary, summaryText, progressText, timeLeftText, secondsLeft, CLASS_NAG,
  CLASS_SYMBOL, BLUNDER, MISTAKE, INACCURACY, positionsToDeepen, losingMove, DECIDED } from '../../web/review.js';
import { parseValues } from '../../web/values.js';
import { parseInfo } from '../../web/ugi.js';
import { writePgn, parseGameText } from '../../web/pgn.js';
import { treeOf } from '../../web/game.js';

const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} is not ${b}`);

test('the expected score is W + D/2 of the chances, a proven result 1 or 0', () => {
  close(expectedScore(parseInfo('info depth 8 score cp 9 wdl 533 87 380 pv X@d1')), 0.5765);
  close(expectedScore({ cp: 0, wdl: [0, 1000, 0] }), 0.5);
  close(expectedScore({ mate: 1 }), 1);
  close(expectedScore({ mate: -4 }), 0);
  // An engine without chances: a logistic of its centi-units (0 cp is even, more is better).
  close(expectedScore({ cp: 0 }), 0.5);
  assert.ok(expectedScore({ cp: 200 }) > 0.6 && expectedScore({ cp: -200 }) < 0.4);
  assert.deepEqual(['W', 'D', 'L'].map(exactScore), [1, 0.5, 0]);
  assert.deepEqual([resultScore('p1win', 1), resultScore('p1win', 2), resultScore('draw', 2), resultScore('p2win', 2)],
    [1, 0, 0.5, 1]);
});

test("a move is classed by the loss of expected score: lichess's 0.05 inaccuracy, 0.1 mistake, 0.15 blunder", () => {
  // lichess's 0.1, 0.2, 0.3 are of its winning chances, 2·(expected score) − 1: half of them in expected score.
  assert.deepEqual([INACCURACY, MISTAKE, BLUNDER], [0.05, 0.1, 0.15]);
  assert.equal(classify(0, false), 'good');
  assert.equal(classify(0.0499, false), 'good');
  assert.equal(classify(0.05, false), 'inaccuracy');
  assert.equal(classify(0.0999, false), 'inaccuracy');
  assert.equal(classify(0.1, false), 'mistake');
  assert.equal(classify(0.15, false), 'blunder');
  assert.equal(classify(1, false), 'blunder');
  // The engine's own move is best, whatever a search of the next position says of it.
  assert.equal(classify(0.5, true), 'best');
});

test('a move that loses 0.12-0.135 of expected score (a full-strength loss) is a mistake, not an inaccuracy', () => {
  // Player 2 from 58/6/36 to 45/6/49 (0.61 to 0.48), the best move another.
  const before = expectedScore(parseInfo('info depth 10 score cp 20 wdl 580 60 360 pv X@d1'));
  const after = 1 - expectedScore(parseInfo('info depth 10 score cp 4 wdl 490 60 450 pv a1b1'));
  const r = reviewByChances('L@a4', before, after, 'X@d1');
  close(r.loss, 0.13);
  assert.equal(r.kind, 'mistake');
});

test('the classes are a function of the values alone: the same values, the same review', () => {
  // The served board and the static site differ only in how the engine's lines reach the page.
  const line = 'info depth 9 seldepth 14 multipv 1 score cp 31 wdl 650 50 300 nodes 100000 nps 2000000 time 50 pv a1b1';
  const other = 'info depth 9 seldepth 14 multipv 1 score cp 31 wdl 650 50 300 nodes 100000 nps 700000 time 143 pv a1b1';
  const a = reviewByChances('L@a4', 0.62, 1 - expectedScore(parseInfo(line)), 'X@d1');
  const b = reviewByChances('L@a4', 0.62, 1 - expectedScore(parseInfo(other)), 'X@d1');
  assert.deepEqual(a, b);
  assert.equal(a.kind, 'blunder');
});

test('a move that lets the opponent win at once is a blunder; the loss is never below 0', () => {
  // Player 2 at 0.577 (the engine's best, X@d1), then L@a4: player 1 wins in one (player 2's score 0).
  const after = 1 - expectedScore(parseInfo('info depth 8 score mate 1 wdl 1000 0 0 pv L@d1'));
  const r = reviewByChances('L@a4', 0.5765, after, 'X@d1');
  assert.equal(r.kind, 'blunder');
  close(r.loss, 0.5765);
  assert.equal(r.best, 'X@d1');
  assert.equal(r.exact, false);
  const better = reviewByChances('X@b2', 0.45, 0.47, 'X@d1');  // (a deeper look found it better)
  assert.equal(better.loss, 0);
  assert.equal(better.kind, 'good');
  assert.equal(reviewByChances('X@d1', 0.45, 0.2, 'X@d1').kind, 'best');
});

test('by the tablebase: a win thrown into a draw is a mistake, into a loss (or a draw into a loss) a blunder', () => {
  // The start of 3x3:2,2,1 (a draw; S@a1 loses), and the position after S@a1 (player 2 wins).
  const start = parseValues('S@b1 d S@a2 d M@b2 d S@a1 l18 S@c1 l18 S@b2 l14');
  assert.deepEqual(reviewByTablebase('S@a1', start),
    { kind: 'blunder', loss: 0.5, best: 'S@b1', before: 0.5, after: 0, exact: true });
  assert.equal(reviewByTablebase('M@b2', start)?.kind, 'best');  // (any draw keeps a draw)
  const after = parseValues('M@a1 w17 S@b1 d M@b2 d S@c1 l18 S@b2 l14');
  assert.deepEqual(reviewByTablebase('M@b2', after),
    { kind: 'mistake', loss: 0.5, best: 'M@a1', before: 1, after: 0.5, exact: true });
  assert.equal(reviewByTablebase('S@b2', after)?.kind, 'blunder');
  assert.equal(reviewByTablebase('S@b2', after)?.loss, 1);
  assert.equal(reviewByTablebase('M@a1', after)?.kind, 'best');
  // A slower win keeps the result: good, not best; a quicker loss than the longest likewise.
  const wins = parseValues('a1b1 w3 a1c1 w7 S@c3 l2 S@c2 l6');
  assert.equal(reviewByTablebase('a1c1', wins)?.kind, 'good');
  assert.equal(reviewByTablebase('a1c1', wins)?.loss, 0);
  const losses = parseValues('a1b1 l3 a1c1 l7');
  assert.equal(reviewByTablebase('a1b1', losses)?.kind, 'good');
  assert.equal(reviewByTablebase('a1c1', losses)?.kind, 'best');
  // Unknown values judge nothing.
  assert.equal(reviewByTablebase('a1b1', parseValues('a1b1 ? a1c1 w3')), null);
  assert.equal(reviewByTablebase('b2b3', wins), null);
});

test("a player's accuracy is the mean of 103.1668·e^(−4.354·loss) − 3.1669 over their moves, within 0-100", () => {
  close(moveAccuracy(0), 100, 1e-3);
  close(moveAccuracy(0.1), 103.1668 * Math.exp(-0.4354) - 3.1669);
  assert.ok(moveAccuracy(0.1) > 60 && moveAccuracy(0.1) < 67);
  assert.ok(moveAccuracy(0.3) > 20 && moveAccuracy(0.3) < 26);
  assert.equal(moveAccuracy(1), 0);
  assert.equal(moveAccuracy(-0.2), moveAccuracy(0));
  assert.equal(accuracy([]), null);
  close(accuracy([0, 1]), (moveAccuracy(0) + 0) / 2);
  const s = summary([{ kind: 'best', loss: 0, best: 'a', before: 0.5, after: 0.5, exact: false },
    { kind: 'blunder', loss: 0.5, best: 'b', before: 0.5, after: 0, exact: false },
    { kind: 'inaccuracy', loss: 0.07, best: 'c', before: 0.5, after: 0.43, exact: false }]);
  assert.deepEqual(s.counts, { best: 1, good: 0, inaccuracy: 1, mistake: 0, blunder: 1 });
  assert.equal(s.moves, 3);
  assert.equal(summaryText(s), `accuracy ${Math.round(s.accuracy ?? -1)}% · 1 inaccuracy, 0 mistakes, 1 blunder`);
  assert.equal(summaryText(summary([])), 'no move reviewed');
});

test("the marks: ?! ? ?? as NAGs 6, 2, 4 in place of the move's judgement; ★ for the engine's best", () => {
  assert.deepEqual(CLASS_NAG, { best: 0, good: 0, inaccuracy: 6, mistake: 2, blunder: 4 });
  assert.equal(CLASS_SYMBOL.best, '\u2605');
  assert.deepEqual(nagsAfterReview([], 'blunder'), [4]);
  assert.deepEqual(nagsAfterReview([1, 14], 'mistake'), [2, 14]);  // (a position's NAG stays)
  assert.deepEqual(nagsAfterReview([4, 14], 'good'), [14]);        // (judged again: the old mark goes)
  assert.deepEqual(nagsAfterReview([3], 'best'), [3]);             // (a person's !! stays)
});

test('the marks go into the PGN as NAGs and come back from it', () => {
  const root = treeOf(['X@a1', 'X@d4', 'X@b1', 'X@d3', 'X@c1', 'L@a4', 'L@d1']);
  let n = root;
  for (let i = 0; i < 6; i++) n = n.children[0];
  n.nags = nagsAfterReview(n.nags, 'blunder');
  root.children[0].children[0].nags = nagsAfterReview([], 'inaccuracy');
  globalThis.location = /** @type {any} */ ({ host: 'test' });
  const pgn = writePgn({ variant: 'gobblet', start: null, tags: [] }, root, 'p1win', 'board.test');
  assert.match(pgn, /1\. X@a1 X@d4 \$6 2\. X@b1 X@d3 3\. X@c1 L@a4 \$4 4\. L@d1 1-0/);
  const back = parseGameText(pgn);
  assert.ok(!('error' in back));
  let m = back.root;
  const nags = [];
  while (m.children.length) { m = m.children[0]; nags.push(m.nags); }
  assert.deepEqual(nags, [[], [6], [], [], [], [4], []]);
  // The move-suffix glyphs read as the same NAGs.
  const suffixed = parseGameText('1. X@a1 X@d4?! 2. X@b1 X@d3? 3. X@c1 L@a4?? *');
  assert.ok(!('error' in suffixed));
  const marks = [];
  for (let k = suffixed.root; k.children.length;) { k = k.children[0]; marks.push(k.nags[0] ?? 0); }
  assert.deepEqual(marks, [0, 6, 0, 2, 0, 4]);
});

test('learn from your mistakes: a try is right when it loses less than an inaccuracy', () => {
  assert.equal(goodEnough(0), true);
  assert.equal(goodEnough(0.049), true);
  assert.equal(goodEnough(0.05), false);
});

test('the second pass searches both ends of the moves whose value swung most, never an exact value', () => {
  // Player 1's expected score at each position: a swing of 0.42 (5 to 6), 0.18 (4 to 5), 0.14 (1 to 2), 0.03 ….
  const p1 = [0.62, 0.48, 0.62, 0.65, 0.62, 0.44, 0.86, 0.83];
  const searched = p1.map(() => true);
  assert.deepEqual(positionsToDeepen(p1, searched, 2, 0.05), [4, 5, 6]);
  assert.deepEqual(positionsToDeepen(p1, searched, 3, 0.05), [0, 1, 4, 5, 6]);  // (0.14 twice: the first)
  // Only swings of `least` or more; ties in order of the line.
  assert.deepEqual(positionsToDeepen(p1, searched, 10, 0.15), [4, 5, 6]);
  assert.deepEqual(positionsToDeepen([0.5, 0.6, 0.5], [true, true, true], 1, 0.05), [0, 1]);
  // An exact end (the tablebase's, a proof's, a finished game's) is not searched again; one between two is skipped.
  assert.deepEqual(positionsToDeepen(p1, [true, true, true, true, true, true, false, true], 2, 0.05), [4, 5]);
  assert.deepEqual(positionsToDeepen([1, 0, 1], [false, false, false], 2, 0.05), []);
  // Unknown values: no swing.
  assert.deepEqual(positionsToDeepen([0.5, null, 0.9], [true, true, true], 2, 0.05), []);
});

/** @param {number} before @param {number} after @param {string} [kind] */
const judged = (before, after, kind) => ({ kind: kind || 'good', loss: Math.max(0, before - after), best: null, before,
  after, exact: false });

test('the move that lost the game: the loser\'s last move from not losing to losing, else their worst', () => {
  // Player 2 lost (1-0): their third move took them from 0.79 to 0.17.
  const moves = [
    { side: 1, review: judged(0.6, 0.57) }, { side: 2, review: judged(0.43, 0.40) },
    { side: 1, review: judged(0.6, 0.45, 'mistake') }, { side: 2, review: judged(0.55, 0.48) },
    { side: 1, review: judged(0.52, 0.21, 'blunder') }, { side: 2, review: judged(0.79, 0.17, 'blunder') },
    { side: 1, review: judged(0.83, 0.83) }, { side: 2, review: judged(0.17, 0.05) }];
  assert.equal(losingMove(moves, 'p1win'), 5);
  // Player 1 lost: their last crossing (0.6 to 0.45 came before they were back above 1/2).
  assert.equal(losingMove(moves, 'p2win'), 4);
  assert.equal(losingMove(moves, 'draw'), -1);
  // A game not over: the side the last move leaves at 1 - DECIDED or less lost it (here player 2's own move).
  assert.equal(losingMove(moves, undefined), 5);
  assert.equal(losingMove(moves.slice(0, 7), undefined), -1);  // (player 1 left at 0.83: not decided)
  assert.equal(losingMove([...moves.slice(0, 7), { side: 2, review: judged(0.17, 1 - DECIDED) }], undefined), 5);
  assert.equal(losingMove(moves.slice(0, 4), undefined), -1);
  // Never below 1/2 by their own move: their worst loss (an inaccuracy or more); none: no move named.
  const behind = [{ side: 1, review: judged(0.6, 0.6) }, { side: 2, review: judged(0.4, 0.3, 'mistake') },
    { side: 1, review: judged(0.7, 0.7) }, { side: 2, review: judged(0.3, 0.22, 'inaccuracy') }];
  assert.equal(losingMove(behind, 'p1win'), 1);
  // A crossing by less than an inaccuracy (0.505 to 0.49, a good move) is not it: their big blunder before is.
  const hair = [{ side: 1, review: judged(0.6, 0.6) }, { side: 2, review: judged(0.9, 0.505, 'blunder') },
    { side: 1, review: judged(0.495, 0.495) }, { side: 2, review: judged(0.505, 0.49) },
    { side: 1, review: judged(0.51, 0.95) }];
  assert.equal(losingMove(hair, 'p1win'), 1);
  assert.equal(losingMove([{ side: 1, review: judged(0.6, 0.6) }, { side: 2, review: judged(0.4, 0.38) }], 'p1win'), -1);
  // The engine's own move is never it (the value before it was too high); a move not judged neither.
  assert.equal(losingMove([{ side: 2, review: judged(0.6, 0.1, 'best') }, { side: 1, review: null }], 'p1win'), -1);
  assert.equal(losingMove([{ side: 2, review: null }], 'p1win'), -1);
});

test('a loss is said in points, and one under half a point is not "−0"', () => {
  assert.equal(lossText(0.58), '\u221258 points');
  assert.equal(lossText(0.01), '\u22121 point');
  assert.equal(lossText(0.004), 'less than a point');
  assert.equal(lossText(0), 'less than a point');
});

test('the progress says the move reviewed, of how many, and the time left at the pace so far', () => {
  assert.equal(progressText(1, 24, null), 'Reviewing move 1 of 24…');
  assert.equal(progressText(120, 5000, 180), 'Reviewing move 120 of 5000, about 3 min left…');
  // The pace so far: 30 s for 120 positions, 4881 to go (about 20 min).
  assert.equal(secondsLeft(0, 0, 5001), null);
  close(/** @type {number} */ (secondsLeft(30, 120, 4881)), 1220.25);
  assert.equal(timeLeftText(1220.25), 'about 20 min left');
  assert.deepEqual([0, 9.9, NaN, -1].map(timeLeftText), Array(4).fill('a few seconds left'));
  assert.deepEqual([10, 12.4, 13, 57.4].map(timeLeftText), ['about 10 s left', 'about 10 s left', 'about 15 s left',
    'about 55 s left']);
  assert.deepEqual([57.5, 89, 91, 3569].map(timeLeftText), ['about 1 min left', 'about 1 min left', 'about 2 min left',
    'about 59 min left']);
  assert.deepEqual([3570, 3900, 7200].map(timeLeftText), ['about 1 h left', 'about 1 h 5 min left', 'about 2 h left']);
});
