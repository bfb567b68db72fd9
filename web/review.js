// @ts-check
// The game review's judgements, as pure functions (no page, no engine):
// a move's class from the loss of the mover's expected score, or from the
// tablebase's exact values; the accuracy of a player's moves; what each
// class writes in the move list and in PGN. review_run.js asks the engine
// and puts the classes on the moves. docs/board.md, "Game review".
//
// Expected score: the mover's chances as points, W + D/2 (the engine's
// `wdl W D L` per mille, so (W + D/2) / 1000: 0 a sure loss, 1 a sure win);
// a proven result 1 or 0; the tablebase's win 1, draw 1/2, loss 0. The loss
// of a move is the mover's expected score before it (the engine's best
// move's) less the mover's after it (1 less the opponent's, at the next
// position), never below 0.
//
// Every function here reads values only: the same values give the same
// classes whichever engine (the server's, the static site's WebAssembly
// one) gave them.

import { chancesOf } from './values.js';

/** A move's class.
 * @typedef {'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder'} ReviewClass */
/** What the review says of a move: its class, the mover's loss of expected
 * score (0..1), the engine's best move at the position before it (null where
 * none was found), the mover's expected score there (with that move) and
 * after the move played, and whether the values are the tablebase's (exact).
 * @typedef {{kind: ReviewClass, loss: number, best: string | null, before: number, after: number,
 *   exact: boolean}} MoveReview */

// The losses of expected score from which a move is an inaccuracy, a
// mistake, a blunder: lichess's 0.1, 0.2 and 0.3 of its winning chances,
// which run from −1 to 1 (twice an expected score less 1), so 0.05, 0.1
// and 0.15 of expected score (5, 10 and 15 points of win chance).
export const INACCURACY = 0.05;
export const MISTAKE = 0.1;
export const BLUNDER = 0.15;

/** @type {readonly ReviewClass[]} */
export const CLASSES = Object.freeze(['best', 'good', 'inaccuracy', 'mistake', 'blunder']);

// The NAG each class writes (PGN: $6 ?!, $2 ?, $4 ??); best and good none
// (PGN has no glyph for "the engine's move": $1 "!" says more than that).
/** @type {Record<ReviewClass, number>} */
export const CLASS_NAG = Object.freeze({ best: 0, good: 0, inaccuracy: 6, mistake: 2, blunder: 4 });

// What the move list shows after a move of each class (the NAGs' glyphs; ★ the engine's best).
/** @type {Record<ReviewClass, string>} */
export const CLASS_SYMBOL = Object.freeze({ best: '\u2605', good: '', inaccuracy: '?!', mistake: '?', blunder: '??' });

// The review's own NAGs: a move judged again loses the old ones.
const REVIEW_NAGS = [2, 4, 6];

// The expected score of a score of the side to move (values.js Score): its
// chances where the engine gave them (or a proven result's), else a
// logistic of its centi-units (an engine without chances: lichess's curve).
/** @param {import('./values.js').Score} score */
export function expectedScore(score) {
  const wdl = chancesOf(score);
  if (wdl) return (wdl[0] + wdl[1] / 2) / 1000;
  return 1 / (1 + Math.exp(-0.00368208 * /** @type {number} */ (score.cp)));
}

// The expected score of the tablebase's exact value: W 1, D 1/2, L 0.
/** @param {'W' | 'D' | 'L' | '?'} wdl */
export function exactScore(wdl) {
  return wdl === 'W' ? 1 : wdl === 'L' ? 0 : 0.5;
}

// The expected score of player `side` (1 or 2) in a finished game of `result` (a `query result` word).
/** @param {string} result @param {number} side */
export function resultScore(result, side) {
  if (result === 'draw') return 0.5;
  return result === (side === 1 ? 'p1win' : 'p2win') ? 1 : 0;
}

// A move's class from the mover's loss of expected score; the engine's own best move is `best` whatever the loss.
/** @param {number} loss @param {boolean} isBest @returns {ReviewClass} */
export function classify(loss, isBest) {
  if (isBest) return 'best';
  if (loss >= BLUNDER) return 'blunder';
  if (loss >= MISTAKE) return 'mistake';
  if (loss >= INACCURACY) return 'inaccuracy';
  return 'good';
}

// The review of a move judged by the engine's chances: `before`, the
// mover's expected score at the position before it (its best move's);
// `after`, the mover's at the position after it; `best`, the engine's move there.
/** @param {string} move @param {number} before @param {number} after @param {string | null} best
 * @returns {MoveReview} */
export function reviewByChances(move, before, after, best) {
  const loss = Math.max(0, before - after);
  return { kind: classify(loss, move === best), loss, best, before, after, exact: false };
}

// The review of a move judged by the tablebase: `marks`, every legal move's
// exact value at the position before it (values.js parseValues). The result
// kept: best (the best distance: the quickest win, the longest loss, any
// draw) or good; a win thrown into a draw: a mistake; a win or a draw thrown
// into a loss: a blunder. Null where the move's value is not known.
/** @param {string} move @param {Map<string, import('./values.js').Mark>} marks @returns {MoveReview | null} */
export function reviewByTablebase(move, marks) {
  const played = marks.get(move);
  const ranked = [...marks].sort((a, b) => markRank(a[1]) - markRank(b[1]));
  if (!played || played.wdl === '?' || !ranked.length || ranked[0][1].wdl === '?') return null;
  const [best, top] = ranked[0];
  const before = exactScore(top.wdl), after = exactScore(played.wdl);
  const loss = before - after;
  /** @type {ReviewClass} */
  let kind;
  if (played.wdl === top.wdl) kind = played.wdl === 'D' || played.plies === top.plies ? 'best' : 'good';
  else kind = played.wdl === 'L' ? 'blunder' : 'mistake';
  return { kind, loss, best: kind === 'best' ? move : best, before, after, exact: true };
}

// Best first: wins (quickest first), draws, losses (longest first), unknown last.
/** @param {import('./values.js').Mark} m */
function markRank(m) {
  const plies = m.plies ?? 0;
  return m.wdl === 'W' ? plies : m.wdl === 'D' ? 1000 : m.wdl === 'L' ? 3000 - plies : 4000;
}

// The accuracy of one move, 0..100, from its loss of expected score (0..1):
// 103.1668 · e^(−4.354 · loss) − 3.1669, kept within 0..100 (lichess's
// curve, its win chances in per cent read as fractions): 100 for no loss,
// about 65 for a loss of 0.1, 39 for 0.2, 24 for 0.3, 8 for 0.5, 0 from 0.8.
/** @param {number} loss */
export function moveAccuracy(loss) {
  return Math.max(0, Math.min(100, 103.1668 * Math.exp(-4.354 * Math.max(0, loss)) - 3.1669));
}

// The positions a second, deeper pass searches again: both ends of the
// `count` moves whose value swung most, either way, of those that swung by
// `least` or more. `p1`: player 1's expected score at each position of the
// line (0 the start) from the first pass, null where none is known;
// `searched`: whether the first pass searched the position (an exact value,
// the tablebase's, a proof's or a finished game's, is never searched
// again). A swing is where shallow searches disagree with each other: a
// move that loses much, or one that gains more than a move can (the search
// before it missed something). Ascending positions: the order the pass
// searches them in, the same on every engine.
/** @param {(number | null)[]} p1 @param {boolean[]} searched @param {number} count @param {number} least
 * @returns {number[]} */
export function positionsToDeepen(p1, searched, count, least) {
  /** @type {[number, number][]} */
  const swings = [];
  for (let i = 1; i < p1.length; i++) {
    const a = p1[i - 1], b = p1[i];
    if (a === null || b === null || !(searched[i - 1] || searched[i])) continue;
    const swing = Math.abs(b - a);
    if (swing >= least) swings.push([swing, i]);
  }
  swings.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  const chosen = new Set();
  for (const [, i] of swings.slice(0, count)) {
    for (const k of [i - 1, i]) if (searched[k]) chosen.add(k);
  }
  return [...chosen].sort((x, y) => x - y);
}

// A side's expected score from which the game is decided for it, where
// the game has not ended: the other side has lost it.
export const DECIDED = 0.9;

// The move that lost the game: the index in `moves` (the main line's
// moves judged, in order: each with its mover, 1 or 2, and its review, or
// null where not judged) of the loser's last move that took them from not
// losing (an expected score of 1/2 or more) to losing (under 1/2) and lost
// an inaccuracy or more (a near-even move that crossed by a hair is not
// it), or, where none did, their move that lost the most (an inaccuracy or more);
// -1 where there is none or no loser. A move the review calls best is
// never it (the loss came before: the value before it was too high). The loser: the side the game's
// `result` (a `query result` word) says lost; a game not over, the side
// the last move judged leaves at 1 − DECIDED or less.
/** @param {{side: number, review: MoveReview | null}[]} moves @param {string | undefined} result */
export function losingMove(moves, result) {
  let loser = result === 'p1win' ? 2 : result === 'p2win' ? 1 : 0;
  if (!loser && result !== 'draw') {
    const last = [...moves].reverse().find((m) => m.review);
    if (last && last.review && last.review.after <= 1 - DECIDED) loser = last.side;
    if (last && last.review && last.review.after >= DECIDED) loser = 3 - last.side;
  }
  if (!loser) return -1;
  let crossed = -1, worst = -1;
  moves.forEach((m, i) => {
    const r = m.review;
    if (m.side !== loser || !r || r.kind === 'best') return;
    if (r.before >= 0.5 && r.after < 0.5 && r.loss >= INACCURACY) crossed = i;
    if (r.loss >= INACCURACY && (worst < 0 || r.loss > /** @type {MoveReview} */ (moves[worst].review).loss)) worst = i;
  });
  return crossed >= 0 ? crossed : worst;
}

// A player's accuracy: the mean of their moves' accuracies, or null for no move.
/** @param {number[]} losses */
export function accuracy(losses) {
  if (!losses.length) return null;
  return losses.reduce((sum, loss) => sum + moveAccuracy(loss), 0) / losses.length;
}

// A player's review in numbers: accuracy (0..100, or null) and how many moves of each class.
/** @param {MoveReview[]} reviews */
export function summary(reviews) {
  /** @type {Record<ReviewClass, number>} */
  const counts = { best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const r of reviews) counts[r.kind] += 1;
  return { accuracy: accuracy(reviews.map((r) => r.loss)), counts, moves: reviews.length };
}

// "accuracy 87% · 2 inaccuracies, 1 mistake, 0 blunders" (no moves: "no move reviewed").
/** @param {ReturnType<typeof summary>} s */
export function summaryText(s) {
  if (s.accuracy === null) return 'no move reviewed';
  /** @param {number} n @param {string} one @param {string} many */
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  return `accuracy ${Math.round(s.accuracy)}% · ${count(s.counts.inaccuracy, 'inaccuracy', 'inaccuracies')}, `
    + `${count(s.counts.mistake, 'mistake', 'mistakes')}, ${count(s.counts.blunder, 'blunder', 'blunders')}`;
}

// The NAGs of a move once the review has judged it `kind`: the class's NAG
// (?!, ?, ??) in place of any judgement of the move (1-6); on a best or good
// move, only the review's own (?!, ?, ??) are taken off, a person's ! !! !? stay.
// The position's NAGs (beyond 6) stay.
/** @param {number[]} nags @param {ReviewClass} kind */
export function nagsAfterReview(nags, kind) {
  const nag = CLASS_NAG[kind];
  if (nag) return [nag, ...nags.filter((n) => n < 1 || n > 6)];
  return nags.filter((n) => !REVIEW_NAGS.includes(n));
}

// "Learn from your mistakes": a try is as good as the best when it loses
// less than an inaccuracy's worth of expected score against the best move.
/** @param {number} loss */
export function goodEnough(loss) {
  return loss < INACCURACY;
}

// The class's name with its article: "a blunder", "an inaccuracy".
/** @param {ReviewClass} kind */
export function classWords(kind) {
  return kind === 'inaccuracy' ? 'an inaccuracy' : kind === 'best' ? "the engine's best move" : `a ${kind}`;
}

// A loss of expected score in points (hundredths), as the review's words
// say it: "−58 points"; under half a point, "less than a point" (not "−0").
/** @param {number} loss */
export function lossText(loss) {
  const points = Math.round(loss * 100);
  return points > 0 ? `\u2212${points} point${points === 1 ? '' : 's'}` : 'less than a point';
}

// The review's progress: "Reviewing move 120 of 5000, about 3 min left…";
// `secondsLeft` null: no estimate yet (nothing judged).
/** @param {number} move @param {number} total @param {number | null} secondsLeft */
export function progressText(move, total, secondsLeft) {
  return `Reviewing move ${move} of ${total}${secondsLeft === null ? '' : `, ${timeLeftText(secondsLeft)}`}…`;
}

// The time a review has left, in words: "a few seconds left" under 10 s,
// then in 5 s steps up to a minute, whole minutes up to an hour, and hours
// with their minutes ("about 1 h 5 min left").
/** @param {number} seconds */
export function timeLeftText(seconds) {
  if (!(seconds >= 10)) return 'a few seconds left';
  if (seconds < 57.5) return `about ${Math.round(seconds / 5) * 5} s left`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return `about ${minutes} min left`;
  const m = minutes % 60;
  return `about ${Math.floor(minutes / 60)} h${m ? ` ${m} min` : ''} left`;
}

// The seconds a review has left at the same pace: `elapsed` seconds for the
// `valued` positions done so far, `left` positions to go; null before any.
/** @param {number} elapsed @param {number} valued @param {number} left */
export function secondsLeft(elapsed, valued, left) {
  return valued > 0 ? (elapsed / valued) * left : null;
}
