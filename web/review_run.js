// @ts-check
// The game review (docs/board.md, "Game review"): every move of the main
// line judged for its player (review.js), by the engine's chances at each
// position or, where the variant has a tablebase (3x3, small 4x4 members),
// by its exact values (`query values`), or by a proof the page holds for the
// position; the marks put on the moves (their NAGs, game.js node.review),
// the values on the chart; and "learn from your mistakes": the position
// before each mistake or blunder of a player, the person's tries judged,
// the best move shown on request.
//
// The searches: one of REVIEW_NODES nodes at each position, then one of
// DEEP_NODES at both ends of the DEEP_MOVES moves whose value swung most
// (review.js positionsToDeepen), all on an engine made fresh for the review
// (engine_session.js freshEngine: one thread, the table emptied). A search
// of a node budget on one thread from an empty table is the same on every
// engine and every machine, so the same game gets the same values, and so
// the same classes, on the served board and on the static site.
//
// The review runs beside the board: its searches are its own
// (engine_session.js reviewSearch: each sent with its position, the engine
// put back on the position shown at once), so the person browses, moves
// and previews meanwhile; the position shown changing does not stop it.
// What needs the engine's search (the analysis, the engine's move, the
// evaluation), a new game, Cancel or a lost connection ends it, the marks
// found so far kept. A game reviewed is a record explored (game.js
// exploring()): the engine does not play in it by itself.

import { mainLine, movesTo, firstIndex, moveNumber, pathTo, goToNode, keepValue } from './game.js';
import { endReview, reviewSearch, positionFacts, setLines, freshEngine } from './engine_session.js';
import { expectedScore, exactScore, resultScore, reviewByChances, reviewByTablebase, nagsAfterReview, goodEnough,
  classWords, lossText, progressText, secondsLeft, timeLeftText, positionsToDeepen, CLASS_SYMBOL, INACCURACY } from './review.js';
import { markOrder, playerOneValue, bestInfo } from './values.js';
import { goToMove, play, toggleAnalysis, refresh } from './play.js';
import { keepGame } from './saved_game.js';
import { stopClock } from './clocks.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./values.js').Mark} Mark */
/** @typedef {import('./state.js').State} State */

// The first pass's search of each position: 100,000 nodes (about 0.04 s
// natively, 2-3x that in the static site's engine).
export const REVIEW_NODES = 100000;
// The second pass: the DEEP_MOVES moves whose value swung most, by
// INACCURACY or more, have both their positions searched again with
// DEEP_NODES nodes (about 0.4 s a position natively). A 4x4 game of 35-68
// plies takes 2.6-3.7 s of one core natively (docs/board.md).
export const DEEP_NODES = 1000000;
export const DEEP_MOVES = 5;

/**
 * What the review knows of a position: whose turn it is, and either the
 * game's end there (result) or the mover's expected score with the best
 * move (the engine's, or the tablebase's with every move's marks); whether
 * a search gave it (searched: a deeper one may replace it; exact values
 * stay); the search's score, of the side to move (null: none).
 * @typedef {{side: number, over: boolean, result: string, expected: number, best: string | null,
 *   marks: Map<string, Mark> | null, searched: boolean, score: import('./values.js').Score | null}} Valued
 */

// The value of the position after `moves` (the position of `node`) for its
// side to move, or a string (why not: the review ended meanwhile, or the
// engine went away): the game's end, the tablebase's values, a proof the
// page holds for the position, or a search of `nodes` nodes.
/** @param {State} st @param {string[]} moves @param {{cancelled: string | null}} run @param {number} nodes
 * @param {TreeNode | null} node @returns {Promise<Valued | string>} */
async function valuePosition(st, moves, run, nodes, node) {
  const facts = await positionFacts(st, moves);
  if (run.cancelled !== null) return run.cancelled;
  if (!facts) return 'the engine went away';
  /** @type {Valued} */
  const v = { side: facts.side, over: facts.over, result: facts.result, expected: 0.5, best: null, marks: null,
    searched: false, score: null };
  if (v.over) return v;
  const marks = facts.marks;
  if (marks && marks.size && ![...marks.values()].some((m) => m.wdl === '?')) {
    const [best, top] = [...marks].sort((a, b) => markOrder(a[1], b[1]))[0];
    return { ...v, marks, best, expected: exactScore(top.wdl) };
  }
  const proved = node && node.value && node.value.source === 'proof' ? node.value : null;
  if (proved) {  // (player 1's: the side to move's)
    const p1 = expectedScore(proved);
    return { ...v, expected: v.side === 1 ? p1 : 1 - p1 };
  }
  return searchPosition(st, moves, run, nodes, v);
}

// `v` valued by a search of `nodes` nodes of the position after `moves`.
/** @param {State} st @param {string[]} moves @param {{cancelled: string | null}} run @param {number} nodes
 * @param {Valued} v @returns {Promise<Valued | string>} */
async function searchPosition(st, moves, run, nodes, v) {
  const s = await reviewSearch(st, moves, { nodes }, () => run.cancelled !== null);
  if (run.cancelled !== null) return run.cancelled;
  if (!s.best) return 'the engine went away';
  const info = s.lines.get(1) || null;
  return { ...v, best: s.best === '(none)' ? null : s.best, expected: info ? expectedScore(info) : 0.5,
    searched: true, score: info };
}

// Player 1's expected score at a position valued `v`.
/** @param {Valued} v */
function playerOneScore(v) {
  return scoreAfter(v, 1);
}

// Puts the review's value of the position of `node` on the chart (and the
// bar): a search's or the tablebase's; a more certain one the node holds
// stays (game.js keepValue: a proof's over the tablebase's over a search's).
/** @param {TreeNode} node @param {Valued} v */
function chartValue(node, v) {
  const exact = v.marks ? bestInfo(v.marks) : null;
  if (exact) keepValue(node, { ...playerOneValue(exact, v.side, true), source: 'tablebase' });
  else if (v.score) keepValue(node, { ...playerOneValue(v.score, v.side), source: 'search' });
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

// Reviews the main line's moves: each position valued in turn (the marks
// appear on the moves as they are found, each on its own move at the next
// frame: the list is not drawn anew), then the positions around the moves
// that matter searched again deeper and their moves judged again; the
// values on the chart at the end of each pass. The progress says the time
// left at the pace so far: the page's own work per move does not grow with
// the game.
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
  const err = (await setLines(st, 1)) || (await freshEngine(st));
  /** @type {string | null} */
  let ended = err ? `the engine refused: ${err}` : null;
  let done = 0;
  /** @type {Valued[]} */
  const values = [];
  const moves = /** @type {string[]} */ (nodes.slice(1).map((n) => n.move));
  // (the second pass's work, in first-pass positions: for the time left)
  const deepWork = Math.min(2 * DEEP_MOVES, nodes.length) * (DEEP_NODES / REVIEW_NODES);
  const started = performance.now();
  for (let i = 0; i < nodes.length && !ended; i++) {
    progress(st, progressText(Math.max(1, i), total, secondsLeft((performance.now() - started) / 1000, i,
      nodes.length - i + deepWork)));
    const v = await valuePosition(st, moves.slice(0, i), run, REVIEW_NODES, nodes[i]);
    if (typeof v === 'string') {
      ended = v;
      break;
    }
    values.push(v);
    chartValue(nodes[i], v);
    if (v.over) nodes[i].result = v.result;  // (the game's end: whom the move that lost it is sought for)
    if (i > 0) {
      judge(nodes[i], values[i - 1], v);
      done = i;
      st.ui.judged(nodes[i]);
    }
    if (v.over) break;  // (a main line goes on after its end only in a PGN from elsewhere: nothing to judge)
  }
  st.ui.graph();
  const deepening = !ended;
  if (deepening) {
    const deeper = positionsToDeepen(values.map(playerOneScore), values.map((v) => v.searched), DEEP_MOVES,
      INACCURACY);
    const pace = (performance.now() - started) / 1000 / values.length;
    for (const [k, i] of deeper.entries()) {
      progress(st, `Looking deeper at the moves that matter: ${k + 1} of ${deeper.length}, `
        + `${timeLeftText(pace * (deeper.length - k) * (DEEP_NODES / REVIEW_NODES))}…`);
      const v = await searchPosition(st, moves.slice(0, i), run, DEEP_NODES, values[i]);
      if (typeof v === 'string') {
        ended = v;
        break;
      }
      values[i] = v;
      chartValue(nodes[i], v);
      for (const j of [i, i + 1]) {
        if (j < 1 || j >= values.length) continue;
        judge(nodes[j], values[j - 1], values[j]);
        st.ui.judged(nodes[j]);
      }
    }
    st.ui.graph();
  }
  st.ui.judgedNow();  // (the last marks with the review's end)
  if (session.review === owner) session.review = null;
  showRunning(st, false);
  keepGame(st);
  if (ended === '') return;  // (a new review: it says its own)
  const where = deepening ? 'while looking deeper at the moves that matter' : `at move ${done + 1} of ${total}`;
  progress(st, ended ? `Review stopped ${where} (${ended}); the ${done} marks found are kept.`
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
    const v = await valuePosition(st, [...movesTo(parent), move], run, DEEP_NODES, null);
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
