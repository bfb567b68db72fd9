// @ts-check
// Drawing what is shown: the board and the reserves (draw.js), the status
// line, the move list with its variations and comments, the analysis
// lines and their arrows, the tablebase's marks, the value chart and the
// evaluation bar, the stack under the pointer, the variant selector. It
// reads the page's state (state.js) and changes only what the view itself
// keeps there (the keyboard's square); what a click asks for is in
// `st.actions` (app.js sets them). The logic modules ask for these through st.ui.

import { RESULT_TEXT } from './ugi.js';
import { describeStack } from './position.js';
import { drawBoard, drawReserve, drawArrows } from './draw.js';
import { drawGraph } from './graph.js';
import { ENGINE } from './engine_choice.js';
import { markOrder, markText, plies, lineValueText, countText, bestByTarget, bestByPlacedSize } from './values.js';
import { drawEvalBar } from './eval_bar.js';
import { MOVE_GLYPHS, nagText } from './pgn.js';
import { line, ply as plyShown, variationOf, lineValues, firstIndex, moveNumber, inTree, pathTo,
  mainLine } from './game.js';
import { CLASS_SYMBOL, lossText, summary, summaryText, losingMove } from './review.js';
import { linesStayPut, shownView } from './shown.js';
import { tablebaseLine, findLine } from './tb_line.js';
import { renderProof, drawPuzzle } from './panels.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./engine_session.js').SearchResult} SearchResult */
/** @typedef {import('./engine_session.js').Search} Search */
/** @typedef {import('./state.js').State} State */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
/** @param {string} id */
const selector = (id) => /** @type {HTMLSelectElement} */ ($(id));
/** @param {Element | null} e */
const asHtml = (e) => /** @type {HTMLElement | null} */ (e);

// The square whose stack is described under the board: render(st) says it
// again, so that it is never the stack of a position left behind (it said
// "b2: empty" right after a piece landed on b2).
/** @type {string | null} */
let stackSquare = null;
/** @type {TreeNode | null} */
let annotatedNode = null;  // the move the Comment and Mark fields are for (annotationTarget)

/** @param {string} text */
export function setStatus(text, kind = '') {
  const s = $('status');
  s.textContent = text;
  s.className = kind;
}

// The room the lines are drawn in: as many as the Lines chosen (#multipv),
// kept whether or not a search runs (board.css #lines-box).
export function sizeLinesBox() {
  $('lines-box').style.setProperty('--lines', selector('multipv').value);
}

// The analysis panel empty: it shows only lines of the position on the board.
/** @param {State} st */
export function clearLines(st) {
  $('lines').replaceChildren();
  delete $('lines').dataset.fen;
  $('lines-view').textContent = '';
  $('search-stats').textContent = '';
  $('search-stats').dataset.depth = '0';
  renderBestArrow(st, null);
}

// The analysis lines of `s` (a search of the position shown): each with its
// value for the side to move, whom the caption names (values.js
// lineValueText: chances, or a proven result), and its moves. With the
// tablebase's exact values (3x3) a line's value is its first move's exact
// one, its moves the tablebase's best play from it (tb_line.js: the
// search gives the first move only; the rest is shown once found), and the
// statistics say "exact" instead of the search's depth (the tablebase ends
// it at once at depth 100, a depth that meant nothing).
/** @param {State} st @param {Search} s */
export function showLines(st, s) {
  const view = /** @type {import('./engine_session.js').View} */ (st.shown.view);  // (a search runs on a position shown)
  const ol = $('lines');
  ol.replaceChildren();
  ol.dataset.fen = view.fen;  // the position these lines are of (tests read it)
  const marks = view.marks;
  for (const [k, info] of [...s.lines].sort((a, b) => a[0] - b[0])) {
    if (k > s.multipv) continue;
    const li = document.createElement('li');
    li.dataset.multipv = String(k);
    const score = document.createElement('span');
    score.className = 'score';
    const mark = (marks && info.pv.length && marks.get(info.pv[0])) || null;
    score.textContent = lineValueText(info, mark) + (info.bound && !mark ? ' (bound)' : '');
    li.append(score, ' ');
    const pv = (mark && exactLine(st, s, view.fen, info.pv)) || info.pv;
    pv.slice(0, 12).forEach((m, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'pv-move';
      b.textContent = m;
      b.title = 'preview the position after this move';
      b.addEventListener('click', () => st.actions.preview(pv.slice(0, i + 1)));
      li.append(b, ' ');
    });
    ol.append(li);
  }
  $('lines-view').textContent = linesCaption(view.pos.side, Boolean(marks), s.lines.size > 0);
  const last = s.last;
  $('search-stats').textContent = !last ? ''
    : marks ? `exact: the tablebase's values (${countText(last.nodes || 0, 0)})`
    : `depth ${last.depth}: ${countText(last.nodes || 0, last.nps || 0)}`;
  $('search-stats').dataset.depth = String(last ? last.depth : 0);
  renderBestArrow(st, s);
}

// The tablebase's line from the first move of `pv` at `fen` (a line of the
// analysis `s` of the position shown), or null until it is found: then the
// lines are shown again, if they are still the analysis's of that position.
/** @param {State} st @param {Search} s @param {string} fen @param {string[]} pv */
function exactLine(st, s, fen, pv) {
  if (pv.length !== 1 || s.kind !== 'analysis') return null;
  const whole = tablebaseLine(st, fen, pv[0]);
  if (whole) return whole;
  findLine(st, fen, pv[0], () => {
    if (st.session.search === s && s.generation === st.shown.generation && !linesStayPut(st.shown)) showLines(st, s);
  });
  return null;
}

// Whose values the lines give, and in what: said above them.
/** @param {number} side @param {boolean} exact @param {boolean} any */
function linesCaption(side, exact, any) {
  if (!any) return '';
  return exact ? `Player ${side} to move: each line's exact value for player ${side} (tablebase).`
    : `Player ${side} to move: player ${side}'s chances to win, draw, lose after each line.`;
}

// At a finished position, while the analysis is on, the panel says the
// result instead of lines (there is no move to search; the analysis stays
// on, and goes on where a position before it is shown).
/** @param {import('./engine_session.js').View} v */
function showFinished(v) {
  const li = document.createElement('li');
  li.className = 'finished';
  li.textContent = `${RESULT_TEXT[v.result] || v.result}${v.reason ? ': ' + v.reason : ''} — the game is over here, `
    + 'no move to analyse (step back to analyse).';
  $('lines').replaceChildren(li);
  $('lines').dataset.fen = v.fen;
  $('lines-view').textContent = '';
  $('search-stats').textContent = 'game over';
  $('search-stats').dataset.depth = '0';
}

/** @param {State} st */
export function render(st) {
  const v = shownView(st.shown);
  if (!v) return;
  const shape = v.shape;
  const lastMove = st.shown.preview ? st.shown.preview.moves.at(-1) : st.game.current.move;
  const sources = new Set(v.legal.map((m) => m.slice(0, 2)));
  const targets = new Map();
  if (st.shown.selection && !st.shown.preview) {
    for (const m of v.legal) if (m.startsWith(st.shown.selection.from)) targets.set(m.slice(2, 4), m);
  }
  const line = v.line;
  // The board and the reserves are drawn anew: the keyboard's place on them is kept.
  const active = document.activeElement;
  const focusedSquare = active && active.closest && active.closest('#board [data-sq]');
  const focusedReserve = asHtml(active && active.closest && active.closest('.reserve-piece'));
  /** @type {[string, string | undefined] | null} */
  const reserveKey = focusedReserve
    ? [/** @type {Element} */ (focusedReserve.closest('.reserve')).id, focusedReserve.dataset.size] : null;
  if (!st.shown.boardFocus || !v.pos.squares || !isSquareOf(st.shown.boardFocus, v.pos.n)) st.shown.boardFocus = 'a1';
  // Every move's value without a pick (the "Values" toggle, 3x3 with a
  // tablebase): the best move to each square, the best placement of each size.
  const allValues = v.marks && !st.shown.preview && !st.shown.selection && !v.over
    && /** @type {HTMLInputElement} */ ($('all-values')).checked ? v.marks : null;
  drawBoard($('board'), v.pos, {
    squareValues: allValues && bestByTarget(allValues),
    focus: st.shown.boardFocus,
    sizes: shape.sizes,
    lastMove,
    selected: st.shown.selection && !st.shown.preview ? st.shown.selection.from : null,
    targets,
    marks: v.marks && !st.shown.preview ? v.marks : null,
    line,
    sources: st.shown.preview || v.over ? new Set() : sources,
  });
  for (const p of [1, 2]) {
    drawReserve($(`reserve-${p}`), shape, v.supply[p - 1], p, {
      active: !st.shown.preview && !v.over && v.pos.side === p,
      sources,
      selected: st.shown.selection ? st.shown.selection.from : null,
      values: allValues && v.pos.side === p ? bestByPlacedSize(allValues) : null,
    });
    $(`side-${p}`).classList.toggle('to-move', !v.over && v.pos.side === p);
  }
  if (focusedSquare) focusSquare(st, st.shown.boardFocus);
  if (reserveKey) {
    const again = asHtml($(reserveKey[0]).querySelector(`[data-size="${reserveKey[1]}"]:not([disabled])`));
    if (again) again.focus();
    else focusSquare(st, st.shown.boardFocus);
  }
  const asked = learningAsks(st);
  if (!st.shown.preview && asked) {
    setStatus(asked);  // (on a phone the review panel is far below the board)
  } else if (!st.shown.preview) {
    if (v.over) {
      const who = RESULT_TEXT[v.result] || v.result;
      setStatus(`${who}${v.reason ? ': ' + v.reason : ''}.`, 'over');
    } else if (!st.session.search || st.session.search.kind === 'review') {  // (a review searches other positions)
      setStatus(`Player ${v.pos.side} to move.`);
    }
  }
  drawPuzzle(st);  // (its words over the status, its hint on the board drawn anew)
  // For tests and bookmarklets: what is shown, as the engine gave it.
  document.body.dataset.variant = shape.stacks ? '4x4' : '3x3';
  document.body.dataset.fen = v.fen;
  document.body.dataset.ply = String(st.shown.preview ? -1 : plyShown(st.game));
  renderMoveList(st);
  renderTablebase(st);
  drawGraphNow(st);
  showStack(st, null);
  if (!st.shown.preview && v.over && st.shown.analysing) showFinished(v);
  // The board was drawn anew: the analysis's arrows again (a pick or a
  // put-down lost them, and in 3x3, whose search says nothing more, for good).
  renderBestArrow(st, st.session.search);
  renderProof(st);
}

// Arrows for the first moves of the analysis's top three lines (`s`: the
// analysis of the position shown, else none are drawn).
/** @param {State} st @param {Search | null} s */
export function renderBestArrow(st, s) {
  /** @type {string[]} */
  const moves = [];
  if (s && s.kind === 'analysis' && s.generation === st.shown.generation && !st.shown.preview && st.shown.view) {
    for (let k = 1; k <= Math.min(3, s.multipv); k++) {
      const line = s.lines.get(k);
      if (line && line.pv.length && !moves.includes(line.pv[0])) moves.push(line.pv[0]);
    }
  }
  drawArrows($('board'), st.shown.view ? st.shown.view.shape.n : 0, moves, st.shown.view ? st.shown.view.pos.side : 1, st.shown.view ? st.shown.view.shape.sizes : 1);
}

// The move list: the main line in numbered pairs; after a move, its comment
// and the variations that are alternatives to it (in parentheses, nested
// ones inside), as lichess shows them. Every move is a button to its
// position; the one shown is marked. Comments are text, never markup.
// Drawn anew only when the tree or what its moves show changed: else only
// the mark of the move shown moves (a long game's list drawn anew took most
// of a second at each step through it).
/** @param {State} st */
export function renderMoveList(st) {
  const ol = $('move-list');
  drawJudged();
  if (listUpToDate(st)) {
    ol.querySelectorAll('.move.current').forEach((b) => b.classList.remove('current'));
    buttons.get(st.game.current)?.classList.add('current');
  } else {
    drawList(st, ol);
  }
  const inVariation = Boolean(variationOf(st.game.current));
  $('promote').hidden = !inVariation;
  $('delete-variation').hidden = !inVariation;
  /** @type {HTMLButtonElement} */ ($('move-actions')).disabled = !st.game.current.parent;
  renderAnnotationFields(st);
  renderReview(st);
  if (focusAfterRedraw) {  // (only if the focus was on the list, or nowhere)
    focusAfterRedraw = false;
    const active = document.activeElement;
    if (!active || active === document.body || ol.contains(active)) focusShownMove();
  }
  // The current move into the list's own view, never by scrolling the page
  // (scrollIntoView scrolls every scrolling ancestor: on a phone the page
  // jumped 300-500 px at each pick and the board's top left the screen).
  const current = asHtml(ol.querySelector('.current'));
  if (current) {
    const top = current.getBoundingClientRect().top - ol.getBoundingClientRect().top + ol.scrollTop;
    const bottom = top + current.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
  }
}

// What the list drawn is of: the tree, the number of its first move, the
// start's comment and how many moves it shows (every move of the tree).
/** @type {{root: TreeNode | null, first: number, comment: string, moves: number}} */
const drawn = { root: null, first: 0, comment: '', moves: 0 };

// What a move's button and glyphs in the list show, with its place among
// its parent's continuations (the order of the lines): one string.
/** @param {TreeNode} node */
function drawnKey(node) {
  const place = node.parent ? node.parent.children.indexOf(node) : 0;
  return JSON.stringify([place, node.move, node.nags, node.comment, node.review ? reviewTitle(node.review) : '']);
}

// Each move's key (drawnKey) as its button was drawn.
/** @type {WeakMap<TreeNode, string>} */
const drawnAs = new WeakMap();

// The list drawn shows the game's tree as it is: every move of it has its
// button in the list, drawn as the move is now, and the list has no other.
/** @param {State} st */
function listUpToDate(st) {
  if (drawn.root !== st.game.root || drawn.first !== firstIndex(st.game.start) || drawn.comment !== st.game.root.comment) return false;
  let moves = 0;
  const stack = [...st.game.root.children];
  while (stack.length) {
    const node = /** @type {TreeNode} */ (stack.pop());
    const b = buttons.get(node);
    if (!b || !b.isConnected || drawnAs.get(node) !== drawnKey(node)) return false;
    ++moves;
    stack.push(...node.children);
  }
  return moves === drawn.moves;
}

/** @param {State} st @param {HTMLElement} ol */
function drawList(st, ol) {
  ol.replaceChildren();
  drawn.root = st.game.root;
  drawn.first = firstIndex(st.game.start);
  drawn.comment = st.game.root.comment;
  drawn.moves = 0;
  let row = null;
  const first = firstIndex(st.game.start);  // 1: player 2 moves first, `1… S@a1`
  let index = first;
  for (let parent = st.game.root; parent.children.length; parent = parent.children[0], index++) {
    const [node, ...others] = parent.children;
    if (index % 2 === 0 || !row) {
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = moveNumber(index, '…');
      row.append(num);
      ol.append(row);
    }
    const b = moveButton(st, node);
    b.dataset.ply = String(index - first + 1);
    row.append(b, ...glyphs(node));
    if (node.comment || others.length) {
      const more = document.createElement('li');
      more.className = 'variations';
      if (node.comment) more.append(commentSpan(node.comment));
      for (const other of others) more.append(variationLine(st, other, index));
      ol.append(more);
      row = null;
    }
  }
  if (st.game.root.comment) {
    const first = document.createElement('li');
    first.className = 'variations';
    first.append(commentSpan(st.game.root.comment));
    ol.prepend(first);
  }
}

// Focuses the move shown in the list (or, at the start, the list's first
// navigation button); `afterRedraw`: once the list is next drawn (a menu
// choice redraws it after this).
let focusAfterRedraw = false;
export function focusShownMove(afterRedraw = false) {
  if (afterRedraw) {
    focusAfterRedraw = true;
    return;
  }
  const current = asHtml($('move-list').querySelector('.move.current'));
  (current || $('nav-start')).focus({ preventScroll: true });
}

// The Comment and Mark fields are the shown move's, except while one of
// them has the focus: then they stay the move's they were for when it came,
// whatever is played or shown meanwhile (a move clicked on the board, the
// engine's answer). Only the fields are redrawn: the move list is not (a
// click on it that takes the focus from a field must find its buttons).
/** @param {State} st */
export function renderAnnotationFields(st) {
  const comment = field('comment'), glyph = selector('glyph');
  const active = document.activeElement;
  const editing = (active === comment || active === glyph) && inTree(st.game, annotatedNode);
  if (annotatedNode !== st.game.current && !editing) {
    annotatedNode = st.game.current;
    comment.value = annotatedNode.comment;
    glyph.value = String(annotatedNode.nags.find((n) => MOVE_GLYPHS[n]) || 0);
  }
  const node = annotationTarget();
  comment.placeholder = node.parent ? `on ${moveName(st, node)}` : 'on the start';
  glyph.disabled = !node.parent;
}

// The move the Comment and Mark fields are for (the move shown, or the one
// a comment was begun on or a mark is being chosen for).
export function annotationTarget() {
  return /** @type {TreeNode} */ (annotatedNode);  // (set when the move list is first drawn)
}

// `node`'s move with its number, as the move list writes it: `3… S@a1`.
/** @param {State} st @param {TreeNode} node */
function moveName(st, node) {
  return `${moveNumber(firstIndex(st.game.start) + pathTo(node).length - 2, '…')} ${node.move}`;
}

// The buttons of the moves in the list, by node: a move judged by the game
// review gets its marks on its own button (showJudged), since drawing a long
// game's list anew at each move judged held the page for most of the review;
// the move shown gets the mark `current` on its own (renderMoveList).
/** @type {WeakMap<TreeNode, HTMLButtonElement>} */
const buttons = new WeakMap();

/** @param {State} st @param {TreeNode} node */
function moveButton(st, node) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'move' + (node === st.game.current ? ' current' : '');
  b.textContent = node.move;
  if (node.review) {  // (the game review's class: tests and styles read it; its reason on hover)
    b.dataset.review = node.review.kind;
    b.title = reviewTitle(node.review);
  }
  buttons.set(node, b);
  drawnAs.set(node, drawnKey(node));
  ++drawn.moves;
  b.addEventListener('click', () => st.actions.goToMove(node));
  b.addEventListener('contextmenu', (e) => {  // (right click, the menu key, Shift+F10)
    e.preventDefault();
    st.actions.menu(node, b);
  });
  return b;
}

// The annotation glyphs of `node`'s move (!, ?!, ±, …; ★ where the game
// review found it the engine's best move), to follow its button: [] or [span].
/** @param {TreeNode} node */
function glyphs(node) {
  const best = node.review && node.review.kind === 'best' ? CLASS_SYMBOL.best : '';
  if (!node.nags.length && !best) return [];
  const g = document.createElement('span');
  g.className = 'glyph' + (node.review ? ` review-${node.review.kind}` : '');
  g.textContent = [...node.nags.map(nagText), ...(best ? [best] : [])].join(' ');
  if (node.review) g.title = reviewTitle(node.review);
  return [g];
}

// The moves judged by the game review whose marks are not drawn yet: drawn
// together at the next frame (however many were judged meanwhile), or with
// the whole list if it is drawn first.
/** @type {Set<TreeNode>} */
const judgedSoon = new Set();

// Draws the game review's judgement of `node` (node.review, its NAGs) on its
// move in the list at the next frame, and the review panel's counts with it.
/** @param {State} st @param {TreeNode} node */
export function showJudged(st, node) {
  if (!judgedSoon.size) requestAnimationFrame(() => showJudgedNow(st));
  judgedSoon.add(node);
}

// Draws the judgements showJudged keeps now, and the review panel.
/** @param {State} st */
export function showJudgedNow(st) {
  if (!judgedSoon.size) return;
  drawJudged();
  renderReview(st);
}

// Each judged move's button and glyphs, as moveButton and glyphs draw them
// (a move not in the list waits for the list).
function drawJudged() {
  for (const node of judgedSoon) {
    const b = buttons.get(node);
    if (!b || !b.isConnected || !node.review) continue;
    b.dataset.review = node.review.kind;
    b.title = reviewTitle(node.review);
    const next = b.nextElementSibling;
    if (next && next.classList.contains('glyph')) next.remove();
    b.after(...glyphs(node));
    drawnAs.set(node, drawnKey(node));
  }
  judgedSoon.clear();
}

// What "learn from your mistakes" says, where the position shown is the
// one it asks about or the move just tried there; else null.
/** @param {State} st */
function learningAsks(st) {
  const learning = st.shown.learning;
  if (!learning || !learning.text || learning.state === 'done') return null;
  const at = learning.items[learning.index].parent;
  return st.game.current === at || st.game.current.parent === at ? learning.text : null;
}

// The review's words on a move: "blunder: −58 points of expected score; the engine's best: X@d1".
/** @param {import('./review.js').MoveReview} r */
function reviewTitle(r) {
  const loss = r.exact ? '' : `: ${lossText(r.loss)} of expected score`;
  const best = r.kind === 'best' ? (r.exact ? ' (the best result, the best distance)' : " (the engine's move)")
    : r.best ? `; the ${r.exact ? "tablebase's" : "engine's"} best: ${r.best}` : '';
  const result = r.exact && r.kind !== 'best' && r.kind !== 'good' ? (r.kind === 'blunder' ? ': the result thrown into a loss'
    : ': a win thrown into a draw') : '';
  return `${r.kind}${loss}${result}${best}`;
}

// The review panel: each player's accuracy and how many inaccuracies,
// mistakes and blunders the review found on the main line (review.js), and
// "learn from your mistakes" while it is on (shown.learning).
/** @param {State} st */
export function renderReview(st) {
  const moves = mainLine(st.game).slice(1);
  const first = firstIndex(st.game.start);
  for (const side of [1, 2]) {
    const reviews = moves.filter((_, i) => (first + i) % 2 === side - 1).map((n) => n.review)
      .filter((r) => r !== undefined);
    const box = $(`review-${side}`);
    box.hidden = !reviews.length;
    box.textContent = `Player ${side}: ${summaryText(summary(/** @type {import('./review.js').MoveReview[]} */ (reviews)))}`;
  }
  drawLosingMove(st, moves, first);
  const mistakes = moves.some((n) => n.review && (n.review.kind === 'mistake' || n.review.kind === 'blunder'));
  /** @type {HTMLButtonElement} */ ($('learn')).disabled = !mistakes;
  const learning = st.shown.learning;
  if (learning && !learning.items.every((n) => inTree(st.game, n))) st.shown.learning = null;  // (a move of it deleted)
  const box = $('learn-box');
  box.hidden = !st.shown.learning;
  if (!st.shown.learning) return;
  box.dataset.state = st.shown.learning.state;
  $('learn-text').textContent = st.shown.learning.text;
  const asked = learningAsks(st);
  if (asked && !st.shown.preview) setStatus(asked);
  /** @type {HTMLButtonElement} */ ($('learn-answer')).disabled = st.shown.learning.state === 'done'
    || st.shown.learning.state === 'checking';
  /** @type {HTMLButtonElement} */ ($('learn-next')).disabled = st.shown.learning.index >= st.shown.learning.items.length - 1;
}

// "The move that lost the game: 9… M@a1 (player 2, −62 points)" under the
// players' summaries (review.js losingMove), the move a button that shows
// it; hidden where the review names none. `moves`: the main line's moves,
// the first of index `first` (firstIndex).
/** @param {State} st @param {TreeNode[]} moves @param {number} first */
function drawLosingMove(st, moves, first) {
  const judged = moves.map((n, i) => ({ side: (first + i) % 2 === 0 ? 1 : 2, review: n.review || null }));
  const end = moves.length ? moves[moves.length - 1].result : undefined;
  const i = judged.some((m) => m.review) ? losingMove(judged, end) : -1;
  const box = $('review-lost');
  box.hidden = i < 0;
  if (i < 0) return;
  const node = moves[i], r = /** @type {import('./review.js').MoveReview} */ (node.review);
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'review-lost-move';
  button.textContent = `${moveNumber(first + i, '…')} ${node.move}`;
  button.addEventListener('click', () => {
    st.actions.goToMove(node);
    boardIntoView();  // (on a phone the summary is far below the board)
  });
  const cost = r.exact ? (r.after === 0 ? 'the result thrown into a loss' : 'a win thrown into a draw') : lossText(r.loss);
  box.replaceChildren('The move that lost the game: ', button, ` (player ${judged[i].side}, ${cost})`);
}

// Scrolls the board into view where it is not all on the screen (on a
// phone the panels are stacked far below it), its top at the screen's top.
function boardIntoView() {
  const wrap = $('board-wrap'), r = wrap.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) wrap.scrollIntoView({ block: 'start' });
}

/** @param {string} text */
function commentSpan(text) {
  const c = document.createElement('span');
  c.className = 'comment';
  c.textContent = text;
  return c;
}

// A variation from `first` (an alternative to the move at `index`), with
// its comments and its own variations nested, in parentheses.
/** @param {State} st @param {TreeNode} first @param {number} index @returns {HTMLElement} */
function variationLine(st, first, index) {
  const box = document.createElement('span');
  box.className = 'variation';
  box.append('(');
  let numbered = true;
  for (let node = first, i = index; node; node = node.children[0], i++) {
    if (i % 2 === 0 || numbered) box.append(moveNumber(i, '…'));
    box.append(moveButton(st, node), ...glyphs(node));
    numbered = Boolean(node.comment);
    if (node.comment) box.append(commentSpan(node.comment));
    if (node === first) continue;
    for (const other of /** @type {TreeNode} */ (node.parent).children.slice(1)) {
      box.append(variationLine(st, other, i));
      numbered = true;
    }
  }
  box.append(')');
  return box;
}

/** @param {State} st */
export function renderTablebase(st) {
  const v = st.shown.view;
  const box = $('tb');
  if (!v || !v.marks || st.shown.preview) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const best = [...v.marks.values()].sort(markOrder)[0];
  const distance = best && plies(/** @type {number} */ (best.plies));  // (a win's or a loss's)
  $('tb-value').textContent = best
    ? `Tablebase: player ${v.pos.side} to move ${best.wdl === 'W' ? `wins in ${distance}` : best.wdl === 'L' ? `loses in ${distance}` : 'draws'}.`
    : '';
  const body = /** @type {HTMLTableElement} */ ($('tb-moves')).tBodies[0];
  body.replaceChildren();
  for (const [move, m] of [...v.marks].sort((a, b) => markOrder(a[1], b[1]))) {
    const tr = document.createElement('tr');
    tr.dataset.move = move;
    tr.className = 'tb-' + m.wdl;
    const a = document.createElement('td');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = move;
    b.addEventListener('click', () => st.actions.attempt(move));
    a.append(b);
    const c = document.createElement('td');
    c.className = 'mark';
    c.textContent = markText(m);
    tr.append(a, c);
    body.append(tr);
  }
}

/** @param {State} st */
export function drawGraphNow(st) {
  $('graph-title').textContent = !st.shown.view || st.shown.view.shape.stacks ? 'Chances (player 1 up)' : 'Value history (player 1 up)';
  drawGraph($('graph'), lineValues(st.game), line(st.game).length - 1, plyShown(st.game), st.actions.goTo);
  // The bar: the value of the position on the board, never another's: a
  // preview's position has none (no search of it; its result if finished).
  const view = shownView(st.shown), previewed = Boolean(st.shown.preview);
  drawEvalBar(previewed ? undefined : st.game.current.value, view && view.over ? view.result : null, previewed);
}

/** @param {string} sq @param {number} n */
export function isSquareOf(sq, n) {
  return sq.length === 2 && sq.charCodeAt(0) - 97 < n && Number(sq[1]) <= n;
}

/** @param {State} st @param {string} sq */
export function focusSquare(st, sq) {
  const board = $('board');
  /** @type {NodeListOf<SVGElement>} */ (board.querySelectorAll('[data-sq]'))
    .forEach((g) => g.setAttribute('tabindex', g.dataset.sq === sq ? '0' : '-1'));
  const g = /** @type {SVGElement | null} */ (board.querySelector(`[data-sq="${sq}"]`));
  if (g) {
    st.shown.boardFocus = sq;
    g.focus();
    showStack(st, sq);
  }
}

/** @param {State} st @param {string | null} sq */
export function showStack(st, sq) {
  const v = shownView(st.shown);
  if (sq) stackSquare = sq;
  if (stackSquare && v) $('stack-info').textContent = `${stackSquare}: ${describeStack(v.pos.squares.get(stackSquare))}`;
}

// Where a game could have exact values but has no tablebase, say so and how
// to get one (the engine's words: which variant, and the command), under
// the analysis.
/** @param {string | null} err */
export function showTablebaseHint(err) {
  const hint = $('tb-hint');
  // (The engine names the command that builds one; a variant that can have
  // none, 4x4 Gobblet, gets no note.)
  const missing = err !== null && err.startsWith('query values: no tablebase')
    && !/^query values: no tablebase for \S+$/.test(err);
  hint.hidden = !missing;
  if (err === null || !missing) return;
  // Where a missing file goes; a file that is there but unreadable says
  // itself what to do.
  const absent = err.endsWith('makes one)');
  const where = !absent ? ''
    : ENGINE === 'worker' ? '; put its file beside this page, in tablebases/ (docs/wasm.md)'
    : '; build it where the engine looks (docs/board.md)';
  hint.textContent = `No exact values: ${err.slice('query values: '.length)}${where}.`;
}

// The variant selector on `name` (the engine's list, or "other…" with the name).
/** @param {State} st @param {string} name */
export function showVariant(st, name) {
  const listed = st.session.variants.includes(name);
  selector('variant').value = listed ? name : 'custom';
  $('custom-variant').hidden = listed;
  if (!listed) field('custom-variant').value = name;
}

export function chosenVariant() {
  const v = selector('variant').value;
  return v === 'custom' ? field('custom-variant').value.trim() : v;
}

// The variant selector: the engine's variants (session.variants, from its
// handshake), then the entry for any other name.
/** @param {State} st */
export function showVariants(st) {
  const other = /** @type {HTMLOptionElement} */ ($('variant').querySelector('option[value="custom"]'));
  $('variant').querySelectorAll('option:not([value="custom"])').forEach((e) => e.remove());
  for (const name of st.session.variants) {
    const entry = document.createElement('option');
    entry.value = entry.textContent = name;
    other.before(entry);
  }
}

