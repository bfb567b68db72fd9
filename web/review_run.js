// @ts-check
// The game review (docs/board.md, "Game review"): every move of the main
// line judged for its player (review.js), by the engine's chances at each
// position (a search of a fixed depth, REVIEW_LIMITS) or, where the variant
// has a tablebase (3x3, small 4x4 members), by its exact values (`query
// values`); the marks put on
// the moves (their NAGs, game.js node.review); and "learn from your
// mistakes": the position before each mistake or blunder of a player, the
// person's tries judged, the best move shown on request.
//
// The review runs beside the board: its searches are its own
// (engine_session.js reviewSearch: each sent with its position, the engine
// put back on the position shown at once), so the person browses, moves
// and previews meanwhile; the position shown changing does not stop it.
// What needs the engine's search (the analysis, the engine's move, the
// evaluation), a new game, Cancel or a lost connection ends it, the marks
// found so far kept. A game reviewed is a record explored (game.js
// exploring()): the engine does not play in it by itself.

import { game, mainLine, movesTo, firstIndex, moveNumber, pathTo, goToNode } from './game.js';
import { session, endReview, reviewSearch, positionFacts, setLines } from './engine_session.js';
import { expectedScore, exactScore, resultScore, reviewByChances, reviewByTablebase, nagsAfterReview, goodEnough,
  classWords, lossText, progressText, secondsLeft, CLASS_SYMBOL } from './review.js';
import { markOrder } from './values.js';
import { shown } from './shown.js';
import { goToMove, play, moveHook, toggleAnalysis, refresh } from './play.js';
import { renderMoveList, showJudged, showJudgedNow } from './render.js';
import { keepGame } from './saved_game.js';
import { stopClock } from './clocks.js';
import { whenConnected } from './connection.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./values.js').Mark} Mark */

// Each position's search: 8 plies, at most 2 million nodes (about 0.1-0.2 s
// a position natively, twice that in the static site's engine).
export const REVIEW_LIMITS = { depth: 8, nodes: 2000000 };

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * What the review knows of a position: whose turn it is, and either the
 * game's end there (result) or the mover's expected score with the best
 * move (the engine's, or the tablebase's with every move's marks).
 * @typedef {{side: number, over: boolean, result: string, expected: number, best: string | null,
 *   marks: Map<string, Mark> | null}} Valued
 */

// The value of the position after `moves` for its side to move, or a
// string (why not: the review ended meanwhile, or the engine went away).
/** @param {string[]} moves @param {{cancelled: string | null}} run
 * @returns {Promise<Valued | string>} */
async function valuePosition(moves, run) {
  const facts = await positionFacts(moves);
  if (run.cancelled !== null) return run.cancelled;
  if (!facts) return 'the engine went away';
  /** @type {Valued} */
  const v = { side: facts.side, over: facts.over, result: facts.result, expected: 0.5, best: null, marks: null };
  if (v.over) return v;
  const marks = facts.marks;
  if (marks && marks.size && ![...marks.values()].some((m) => m.wdl === '?')) {
    const [best, top] = [...marks].sort((a, b) => markOrder(a[1], b[1]))[0];
    return { ...v, marks, best, expected: exactScore(top.wdl) };
  }
  const s = await reviewSearch(moves, REVIEW_LIMITS, () => run.cancelled !== null);
  if (run.cancelled !== null) return run.cancelled;
  if (!s.best) return 'the engine went away';
  const info = s.lines.get(1);
  return { ...v, best: s.best === '(none)' ? null : s.best, expected: info ? expectedScore(info) : 0.5 };
}

// The mover's expected score after their move, from `after` (the position it leads to).
/** @param {Valued} after @param {number} mover */
function scoreAfter(after, mover) {
  if (after.over) return resultScore(after.result, mover);
  return after.side === mover ? after.expected : 1 - after.expected;
}

// Judges the move `node` (from the position valued `before` to the one valued `after`).
/** @param {TreeNode} node @param {Valued} before @param {Valued} after */
function judge(node, before, after) {
  const move = /** @type {string} */ (node.move);
  const r = (before.marks && reviewByTablebase(move, before.marks))
    || reviewByChances(move, before.expected, scoreAfter(after, before.side), before.best);
  node.review = r;
  node.nags = nagsAfterReview(node.nags, r.kind);
}

/** @param {string} text */
function progress(text) {
  $('review-progress').textContent = text;
}

/** @param {boolean} on */
function showRunning(on) {
  $('review').hidden = on;
  $('review-cancel').hidden = !on;
}

// Reviews the main line's moves, one position after the other; the marks
// appear on the moves as they are found, each on its own move at the next
// frame (the list is not drawn anew), and the progress says the time left at
// the pace so far: the page's own work per move does not grow with the game.
export async function reviewGame() {
  if (session.review) return;
  const nodes = mainLine();
  if (nodes.length < 2) {
    progress('No moves to review.');
    return;
  }
  if (shown.analysing) toggleAnalysis(false);
  stopLearning();
  // A game reviewed is a record: the engine does not play in it by itself
  // (a move it was searching is not played: the position's work is stale).
  game.explored = true;
  shown.engineHeld = true;
  stopClock();
  ++shown.generation;
  await endReview('');
  /** @type {{cancelled: string | null}} */
  const run = { cancelled: null };
  const owner = { cancel: (/** @type {string} */ why) => { run.cancelled = why; } };
  session.review = owner;
  refresh();  // (the position shown again, the engine waiting: "Engine, move" offered)
  showRunning(true);
  const total = nodes.length - 1;
  const err = await setLines(1);
  /** @type {string | null} */
  let ended = err ? `the engine refused one line: ${err}` : null;
  let done = 0;
  /** @type {Valued | null} */
  let before = null;
  const moves = /** @type {string[]} */ (nodes.slice(1).map((n) => n.move));
  const started = performance.now();
  for (let i = 0; i < nodes.length && !ended; i++) {
    progress(progressText(Math.max(1, i), total, secondsLeft((performance.now() - started) / 1000, i,
      nodes.length - i)));
    const v = await valuePosition(moves.slice(0, i), run);
    if (typeof v === 'string') {
      ended = v;
      break;
    }
    if (before) {
      judge(nodes[i], before, v);
      done = i;
      showJudged(nodes[i]);
    }
    before = v;
    if (v.over) break;  // (a main line goes on after its end only in a PGN from elsewhere: nothing to judge)
  }
  showJudgedNow();  // (the last marks with the review's end)
  if (session.review === owner) session.review = null;
  showRunning(false);
  keepGame();
  if (ended === '') return;  // (a new review: it says its own)
  progress(ended ? `Review stopped at move ${done + 1} of ${total} (${ended}); the ${done} marks found are kept.`
    : `Review done: ${total} moves judged${nodes.some((n) => n.review && n.review.exact)
      ? ' by the tablebase' : ''}.`);
  if (!ended) {
    suggestLearner(nodes);
    refresh();  // (the marks drawn with the position shown)
  }
}

// "Learn from your mistakes" offered for the player who made more mistakes and blunders (a tie: as chosen).
/** @param {TreeNode[]} nodes */
function suggestLearner(nodes) {
  const count = [0, 0];
  for (const n of nodes) {
    if (n.review && (n.review.kind === 'mistake' || n.review.kind === 'blunder')) count[moverOf(n) - 1] += 1;
  }
  if (count[0] !== count[1]) /** @type {HTMLSelectElement} */ ($('learn-side')).value = count[0] > count[1] ? '1' : '2';
}

export function cancelReview() {
  endReview('cancelled');
}

// ---- learn from your mistakes --------------------------------------------------------

// The player who made the move of `node` (1 or 2).
/** @param {TreeNode} node */
function moverOf(node) {
  return (firstIndex() + pathTo(node).length - 2) % 2 === 0 ? 1 : 2;
}

// `node`'s move as the move list writes it: "3… L@a4".
/** @param {TreeNode} node */
function moveName(node) {
  return `${moveNumber(firstIndex() + pathTo(node).length - 2, '…')} ${node.move}`;
}

/** @param {string} state @param {string} text */
function say(state, text) {
  const learning = shown.learning;
  if (!learning) return;
  learning.state = /** @type {import('./shown.js').Learning['state']} */ (state);
  learning.text = text;
  renderMoveList();  // (the review panel with it)
}

// Starts asking about the mistakes and blunders of the player chosen (a review running ends: the tries need the engine).
export async function startLearning() {
  ++shown.generation;  // (a move the engine was searching is not played)
  await endReview('learning from the mistakes needs the engine');
  const side = Number(/** @type {HTMLSelectElement} */ ($('learn-side')).value);
  const items = mainLine().slice(1)
    .filter((n) => n.review && (n.review.kind === 'mistake' || n.review.kind === 'blunder') && moverOf(n) === side);
  if (shown.analysing) toggleAnalysis(false);  // (it would tell the answer)
  shown.learning = { side, items, index: 0, state: 'done', text: '' };
  if (!items.length) {
    say('done', `Player ${side} made no mistake nor blunder in this game (inaccuracies are not asked).`);
    return;
  }
  ask();
}

// Shows the position before the move asked about, and asks.
function ask() {
  const learning = /** @type {import('./shown.js').Learning} */ (shown.learning);
  const item = learning.items[learning.index];
  const r = /** @type {import('./review.js').MoveReview} */ (item.review);
  goToMove(/** @type {TreeNode} */ (item.parent));
  say('try', `${learning.index + 1} of ${learning.items.length}: ${moveName(item)} was ${classWords(r.kind)} `
    + `(${CLASS_SYMBOL[r.kind]}). Find a better move for player ${learning.side}.`);
}

export function nextMistake() {
  const learning = shown.learning;
  if (!learning || learning.index >= learning.items.length - 1) return;
  learning.index += 1;
  ask();
}

export function stopLearning() {
  shown.learning = null;
  renderMoveList();
}

// Plays the best move at the position asked about.
export function showAnswer() {
  const learning = shown.learning;
  if (!learning || learning.state === 'checking') return;
  const item = learning.items[learning.index];
  const best = item.review && item.review.best;
  if (!best) return;
  goToNode(/** @type {TreeNode} */ (item.parent));
  say('answer', `The ${item.review && item.review.exact ? "tablebase's" : "engine's"} best move here: ${best} `
    + `(played as a variation).${learning.index < learning.items.length - 1 ? '' : ' That was the last one.'}`);
  play(best);
}

// A move tried at the position asked about: judged, and played if it is as
// good as the best (else the position stays, and the person tries again).
// True when the move is the one asked about (play.js moveHook).
/** @param {string} move */
function judgeTry(move) {
  const learning = shown.learning;
  if (!learning || learning.state === 'checking' || learning.state === 'done') return false;
  const item = learning.items[learning.index];
  if (game.current !== item.parent || shown.preview) return false;
  checkTry(learning, item, move);
  return true;
}

/** @param {import('./shown.js').Learning} learning @param {TreeNode} item @param {string} move */
async function checkTry(learning, item, move) {
  const r = /** @type {import('./review.js').MoveReview} */ (item.review);
  if (move === item.move) {
    say('wrong', `${move} is the move played, ${classWords(r.kind)}: try another one.`);
    return;
  }
  /** @type {number | null} */
  let loss = null;
  const marks = shown.view && shown.view.marks;
  if (r.exact && marks) {
    const tried = reviewByTablebase(move, marks);
    loss = tried ? tried.loss : null;
  }
  if (loss === null) {
    say('checking', `Checking ${move}…`);
    const my = shown.generation;
    /** @type {{cancelled: string | null}} */
    const run = { cancelled: null };
    const parent = /** @type {TreeNode} */ (item.parent);
    const v = await valuePosition([...movesTo(parent), move], run);
    if (shown.learning !== learning) return;
    if (typeof v === 'string' || my !== shown.generation) {
      say('try', `${move} could not be checked (${typeof v === 'string' ? v : 'the position changed'}): try again.`);
      return;
    }
    loss = move === r.best ? 0 : Math.max(0, r.before - scoreAfter(v, learning.side));
  }
  if (goodEnough(loss)) {
    say('right', `Right: ${move} is as good as the best${loss > 0 ? ` (${lossText(loss)})` : ''}.`
      + (learning.index < learning.items.length - 1 ? ' Next mistake →' : ' That was the last one.'));
    play(move);
  } else {
    say('wrong', `${move} is not good enough: ${lossText(loss)} of expected score against the best. `
      + 'Try again, or Show answer.');
  }
}

// The review panel's buttons (what needs the engine waits for it: connection.js).
export function wireReview() {
  moveHook.judge = judgeTry;
  $('review').addEventListener('click', whenConnected(reviewGame));
  $('review-cancel').addEventListener('click', cancelReview);
  $('learn').addEventListener('click', whenConnected(startLearning));
  $('learn-answer').addEventListener('click', whenConnected(showAnswer));
  $('learn-next').addEventListener('click', whenConnected(nextMistake));
  $('learn-stop').addEventListener('click', stopLearning);
}
