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

import { mainLine, movesTo, firstIndex, moveNumber, pathTo, goToNode } from './game.js';
import { endReview, reviewSearch, positionFacts, setLines } from './engine_session.js';
import { expectedScore, exactScore, resultScore, reviewByChances, reviewByTablebase, nagsAfterReview, goodEnough,
  classWords, lossText, progressText, secondsLeft, CLASS_SYMBOL } from './review.js';
import { markOrder } from './values.js';
import { goToMove, play, toggleAnalysis, refresh } from './play.js';
import { keepGame } from './saved_game.js';
import { stopClock } from './clocks.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./values.js').Mark} Mark */
/** @typedef {import('./state.js').State} State */

// Each position's search: 8 plies, at most 2 million nodes (about 0.1-0.2 s
// a position natively, twice that in the static site's engine).
export const REVIEW_LIMITS = Object.freeze({ depth: 8, nodes: 2000000 });

/**
 * What the review knows of a position: whose turn it is, and either the
 * game's end there (result) or the mover's expected score with the best
 * move (the engine's, or the tablebase's with every move's marks).
 * @typedef {{side: number, over: boolean, result: string, expected: number, best: string | null,
 *   marks: Map<string, Mark> | null}} Valued
 */

// The value of the position after `moves` for its side to move, or a
// string (why not: the review ended meanwhile, or the engine went away).
/** @param {State} st @param {string[]} moves @param {{cancelled: string | null}} run
 * @returns {Promise<Valued | string>} */
async function valuePosition(st, moves, run) {
  const facts = await positionFacts(st, moves);
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
  const s = await reviewSearch(st, moves, REVIEW_LIMITS, () => run.cancelled !== null);
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

// The review panel's words (drawn by the view: state.ui.reviewPanel).
/** @param {State} st @param {string} text */
function progress(st, text) {
  st.review.progress = text;
  st.ui.reviewPanel();
}

// The review running (Cancel offered) or not (Review offered).
/** @param {State} st @param {boolean} on */
function showRunning(st, on) {
  st.review.running = on;
  st.ui.reviewPanel();
}

// Reviews the main line's moves, one position after the other; the marks
// appear on the moves as they are found, each on its own move at the next
// frame (the list is not drawn anew), and the progress says the time left at
// the pace so far: the page's own work per move does not grow with the game.
/** @param {State} st */
export async function reviewGame(st) {
  const { game, shown, session } = st;
  if (session.review) return;
  const nodes = mainLine(game);
  if (nodes.length < 2) {
    progress(st, 'No moves to review.');
    return;
  }
  if (shown.analysing) toggleAnalysis(st, false);
  stopLearning(st);
  // A game reviewed is a record: the engine does not play in it by itself
  // (a move it was searching is not played: the position's work is stale).
  game.explored = true;
  shown.engineHeld = true;
  stopClock(st);
  ++shown.generation;
  await endReview(st, '');
  /** @type {{cancelled: string | null}} */
  const run = { cancelled: null };
  const owner = { cancel: (/** @type {string} */ why) => { run.cancelled = why; } };
  session.review = owner;
  refresh(st);  // (the position shown again, the engine waiting: "Engine, move" offered)
  showRunning(st, true);
  const total = nodes.length - 1;
  const err = await setLines(st, 1);
  /** @type {string | null} */
  let ended = err ? `the engine refused one line: ${err}` : null;
  let done = 0;
  /** @type {Valued | null} */
  let before = null;
  const moves = /** @type {string[]} */ (nodes.slice(1).map((n) => n.move));
  const started = performance.now();
  for (let i = 0; i < nodes.length && !ended; i++) {
    progress(st, progressText(Math.max(1, i), total, secondsLeft((performance.now() - started) / 1000, i,
      nodes.length - i)));
    const v = await valuePosition(st, moves.slice(0, i), run);
    if (typeof v === 'string') {
      ended = v;
      break;
    }
    if (before) {
      judge(nodes[i], before, v);
      done = i;
      st.ui.judged(nodes[i]);
    }
    before = v;
    if (v.over) break;  // (a main line goes on after its end only in a PGN from elsewhere: nothing to judge)
  }
  st.ui.judgedNow();  // (the last marks with the review's end)
  if (session.review === owner) session.review = null;
  showRunning(st, false);
  keepGame(st);
  if (ended === '') return;  // (a new review: it says its own)
  progress(st, ended ? `Review stopped at move ${done + 1} of ${total} (${ended}); the ${done} marks found are kept.`
    : `Review done: ${total} moves judged${nodes.some((n) => n.review && n.review.exact)
      ? ' by the tablebase' : ''}.`);
  if (!ended) {
    suggestLearner(st, nodes);
    refresh(st);  // (the marks drawn with the position shown)
  }
}

// "Learn from your mistakes" offered for the player who made more mistakes and blunders (a tie: as chosen).
/** @param {State} st @param {TreeNode[]} nodes */
function suggestLearner(st, nodes) {
  const count = [0, 0];
  for (const n of nodes) {
    if (n.review && (n.review.kind === 'mistake' || n.review.kind === 'blunder')) count[moverOf(st, n) - 1] += 1;
  }
  if (count[0] === count[1]) return;
  st.settings.learnSide = count[0] > count[1] ? 1 : 2;
  st.ui.reviewPanel();
}

/** @param {State} st */
export function cancelReview(st) {
  endReview(st, 'cancelled');
}

// ---- learn from your mistakes --------------------------------------------------------

// The player who made the move of `node` (1 or 2).
/** @param {State} st @param {TreeNode} node */
function moverOf(st, node) {
  return (firstIndex(st.game.start) + pathTo(node).length - 2) % 2 === 0 ? 1 : 2;
}

// `node`'s move as the move list writes it: "3… L@a4".
/** @param {State} st @param {TreeNode} node */
function moveName(st, node) {
  return `${moveNumber(firstIndex(st.game.start) + pathTo(node).length - 2, '…')} ${node.move}`;
}

/** @param {State} st @param {string} state @param {string} text */
function say(st, state, text) {
  const learning = st.shown.learning;
  if (!learning) return;
  learning.state = /** @type {import('./shown.js').Learning['state']} */ (state);
  learning.text = text;
  st.ui.moveList();  // (the review panel with it)
}

// Starts asking about the mistakes and blunders of the player chosen (a review running ends: the tries need the engine).
/** @param {State} st */
export async function startLearning(st) {
  const shown = st.shown;
  ++shown.generation;  // (a move the engine was searching is not played)
  await endReview(st, 'learning from the mistakes needs the engine');
  const side = st.settings.learnSide;
  const items = mainLine(st.game).slice(1)
    .filter((n) => n.review && (n.review.kind === 'mistake' || n.review.kind === 'blunder') && moverOf(st, n) === side);
  if (shown.analysing) toggleAnalysis(st, false);  // (it would tell the answer)
  shown.learning = { side, items, index: 0, state: 'done', text: '' };
  if (!items.length) {
    say(st, 'done', `Player ${side} made no mistake nor blunder in this game (inaccuracies are not asked).`);
    return;
  }
  ask(st);
}

// Shows the position before the move asked about, and asks.
/** @param {State} st */
function ask(st) {
  const learning = /** @type {import('./shown.js').Learning} */ (st.shown.learning);
  const item = learning.items[learning.index];
  const r = /** @type {import('./review.js').MoveReview} */ (item.review);
  goToMove(st, /** @type {TreeNode} */ (item.parent));
  say(st, 'try', `${learning.index + 1} of ${learning.items.length}: ${moveName(st, item)} was ${classWords(r.kind)} `
    + `(${CLASS_SYMBOL[r.kind]}). Find a better move for player ${learning.side}.`);
}

/** @param {State} st */
export function nextMistake(st) {
  const learning = st.shown.learning;
  if (!learning || learning.index >= learning.items.length - 1) return;
  learning.index += 1;
  ask(st);
}

/** @param {State} st */
export function stopLearning(st) {
  st.shown.learning = null;
  st.ui.moveList();
}

// Plays the best move at the position asked about.
/** @param {State} st */
export function showAnswer(st) {
  const learning = st.shown.learning;
  if (!learning || learning.state === 'checking') return;
  const item = learning.items[learning.index];
  const best = item.review && item.review.best;
  if (!best) return;
  goToNode(st.game, /** @type {TreeNode} */ (item.parent));
  say(st, 'answer', `The ${item.review && item.review.exact ? "tablebase's" : "engine's"} best move here: ${best} `
    + `(played as a variation).${learning.index < learning.items.length - 1 ? '' : ' That was the last one.'}`);
  play(st, best);
}

// A move tried at the position asked about: judged, and played if it is as
// good as the best (else the position stays, and the person tries again).
// True when the move is the one asked about (play.js moveHook).
/** @param {State} st @param {string} move */
function judgeTry(st, move) {
  const shown = st.shown;
  const learning = shown.learning;
  if (!learning || learning.state === 'checking' || learning.state === 'done') return false;
  const item = learning.items[learning.index];
  if (st.game.current !== item.parent || shown.preview) return false;
  checkTry(st, learning, item, move);
  return true;
}

/** @param {State} st @param {import('./shown.js').Learning} learning @param {TreeNode} item @param {string} move */
async function checkTry(st, learning, item, move) {
  const shown = st.shown;
  const r = /** @type {import('./review.js').MoveReview} */ (item.review);
  if (move === item.move) {
    say(st, 'wrong', `${move} is the move played, ${classWords(r.kind)}: try another one.`);
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
    say(st, 'checking', `Checking ${move}…`);
    const my = shown.generation;
    /** @type {{cancelled: string | null}} */
    const run = { cancelled: null };
    const parent = /** @type {TreeNode} */ (item.parent);
    const v = await valuePosition(st, [...movesTo(parent), move], run);
    if (shown.learning !== learning) return;
    if (typeof v === 'string' || my !== shown.generation) {
      say(st, 'try', `${move} could not be checked (${typeof v === 'string' ? v : 'the position changed'}): try again.`);
      return;
    }
    loss = move === r.best ? 0 : Math.max(0, r.before - scoreAfter(v, learning.side));
  }
  if (goodEnough(loss)) {
    say(st, 'right', `Right: ${move} is as good as the best${loss > 0 ? ` (${lossText(loss)})` : ''}.`
      + (learning.index < learning.items.length - 1 ? ' Next mistake →' : ' That was the last one.'));
    play(st, move);
  } else {
    say(st, 'wrong', `${move} is not good enough: ${lossText(loss)} of expected score against the best. `
      + 'Try again, or Show answer.');
  }
}

// "Learn from your mistakes" judges the moves tried at the position it asks about (play.js attempt).
/** @param {State} st */
export function wireReview(st) {
  st.judge = (move) => judgeTry(st, move);
}
