// @ts-check
// The person's input: clicks and drags on the board and the reserves, the
// keyboard (on the board: the arrows, Enter or Space, Escape; elsewhere
// ← → Home End along the line shown, f to flip, ? for help) and the page's
// controls. A pick only chooses among the engine's legal moves; a move is
// played (or refused with the engine's reason) by play.js.

import { drawGhost, setFlipped } from './draw.js';
import { sizeIndex } from './position.js';
import { saveSettings } from './settings.js';
import { line, ply as plyShown } from './game.js';
import { shownView } from './shown.js';
import { resetClocks } from './clocks.js';
import { setStatus, render, renderBestArrow, focusSquare, showStack, annotationTarget, renderAnnotationFields,
  sizeLinesBox, renderMoveList, chosenVariant } from './render.js';
import { refresh, attempt, goTo, goToMove, takeBack, promoteShown, deleteShown, commentOn, glyphOn, toggleAnalysis,
  evaluateGame, newGame, releaseEngine, engineSide, refusedAfterFlag, endPreview } from './play.js';
import { wireImportExport } from './io_panel.js';
import { proveShown } from './proof.js';
import { pageIsStacked } from './list_anchor.js';
import { waitsForEngine, whenConnected, tryAgain } from './connection.js';
import { reviewGame, cancelReview, startLearning, showAnswer, nextMistake, stopLearning } from './review_run.js';
import { nextPuzzleShown, giveHint, showSolution, stepLine, chooseRating } from './puzzle_run.js';

/** @typedef {import('./engine_session.js').View} View */
/** @typedef {import('./state.js').State} State */
/** @typedef {import('./game.js').TreeNode} TreeNode */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
/** @param {string} id */
const selector = (id) => /** @type {HTMLSelectElement} */ ($(id));
const help = () => /** @type {HTMLDialogElement} */ ($('help'));
// The element an event is for (the page's events come from elements).
/** @param {Event} e */
const targetOf = (e) => /** @type {Element} */ (e.target);

// The players, the engine's time and level, the analysis lines and the sound, kept in
// this browser between visits (settings.js).
export const SETTINGS = Object.freeze(['p1', 'p2', 'time', 'level', 'multipv', 'sound', 'all-values']);

// The controls' values into the state (st.settings): at start-up, and
// before any control's own handler at each change.
/** @param {State} st */
export function readControls(st) {
  const box = (/** @type {string} */ id) => field(id).checked;
  Object.assign(st.settings, {
    p1: selector('p1').value, p2: selector('p2').value, time: selector('time').value,
    level: Number(selector('level').value), multipv: Number(selector('multipv').value), sound: box('sound'),
    allValues: box('all-values'), learnSide: Number(selector('learn-side').value),
  });
}

// Shows the move `node` with the comment field on it, for typing (the move list's menu).
/** @param {State} st @param {TreeNode} node */
export function commentOnMove(st, node) {
  goToMove(st, node);
  renderMoveList(st);  // (the field takes the move now: while it has the focus it keeps its move)
  $('comment').focus();
}

// A click (or the end of a drag) on square `sq` or reserve size `size@`.
/** @param {State} st @param {string} target */
function pick(st, target) {
  if (waitsForEngine(st)) return;  // (the engine is away: the page says it waits, connection.js)
  if (st.shown.preview) {
    endPreview(st);
    return;
  }
  if (!st.shown.view || st.shown.view.over) return;
  const v = st.shown.view;
  if (refusedAfterFlag(st)) return;
  // The engine's pieces are the engine's to move while it plays: at its
  // turn in the game, and at a position of its turn browsed. In a game
  // opened from a link or an import (the engine waits) and while analysing,
  // the person may try moves for both sides.
  const thinking = st.session.search && st.session.search.kind === 'engine';
  if (engineSide(st) && (thinking || (!st.shown.engineHeld && !st.shown.analysing))) {
    setStatus(thinking ? 'Wait for the engine’s move (or make both players human).'
      : `Player ${v.pos.side} is the engine: press “Engine, move”, or make player ${v.pos.side} human.`);
    return;
  }
  if (target.endsWith('@')) {
    const legalSource = v.legal.some((m) => m.startsWith(target));
    st.shown.selection = legalSource ? { from: target } : null;
    if (!legalSource) setStatus(`No legal placement of that piece here.`, 'error');
    render(st);
    return;
  }
  if (st.shown.selection) {
    const move = st.shown.selection.from + target;
    if (st.shown.selection.from === target) {
      st.shown.selection = null;
      render(st);
      return;
    }
    const isTarget = v.legal.includes(move);
    const isSource = v.legal.some((m) => m.startsWith(target) && m[1] !== '@');
    if (!isTarget && isSource) {
      st.shown.selection = { from: target };
      render(st);
      return;
    }
    attempt(st, move);
    return;
  }
  if (v.legal.some((m) => m.startsWith(target) && m[1] !== '@')) {
    st.shown.selection = { from: target };
    render(st);
  }
}

/** @param {number} x @param {number} y @returns {string | null} */
function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = /** @type {SVGElement | null} */ (el && el.closest('[data-sq]'));
  return sq ? /** @type {string} */ (sq.dataset.sq) : null;
}

// The board from the other side: player 2's reserve below, the ranks and
// files reversed (draw.js setFlipped), the evaluation bar from the top.
/** @param {State} st */
function flipBoard(st) {
  const on = !$('play').classList.contains('flipped');
  $('play').classList.toggle('flipped', on);
  $('flip').setAttribute('aria-pressed', String(on));
  setFlipped(on);
  render(st);
  renderBestArrow(st, st.session.search);
}

// ---- the keyboard -------------------------------------------------------------
// The board is one stop of the Tab key: the square last reached (shown.boardFocus)
// takes the focus, the arrows move it, Enter or Space picks its piece or
// plays to it, Escape drops the piece picked. Reserve pieces are buttons:
// Enter or Space picks one, and the keyboard goes on to the board, to the
// first square it may go to.
/** @param {State} st @param {KeyboardEvent} e */
function onBoardKey(st, e) {
  const g = /** @type {SVGElement | null} */ (targetOf(e).closest('[data-sq]'));
  if (!g || !st.shown.view) return;
  const sq = /** @type {string} */ (g.dataset.sq), n = /** @type {View} */ (shownView(st.shown)).pos.n;
  const flip = $('play').classList.contains('flipped') ? -1 : 1;  // the arrows go the way they point on screen
  /** @type {Record<string, number[] | undefined>} */
  const steps = { ArrowLeft: [-flip, 0], ArrowRight: [flip, 0], ArrowUp: [0, flip], ArrowDown: [0, -flip] };
  const step = steps[e.key];
  if (step) {
    e.preventDefault();
    e.stopPropagation();  // (not the move list's arrows)
    const f = Math.min(n - 1, Math.max(0, sq.charCodeAt(0) - 97 + step[0]));
    const r = Math.min(n, Math.max(1, Number(sq[1]) + step[1]));
    focusSquare(st, String.fromCharCode(97 + f) + r);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    st.shown.boardFocus = sq;
    showStack(st, sq);
    pick(st, sq);
  } else if (e.key === 'Escape' && st.shown.selection) {
    st.shown.selection = null;
    render(st);
  }
}

// On a phone the settings (the header's selectors and checkbox) are folded
// away behind their button (board.css): it unfolds and folds them, and the
// settings unfolded are brought onto the screen.
function toggleSettings() {
  const header = /** @type {HTMLElement} */ (document.querySelector('header'));
  const open = header.classList.toggle('settings-open');
  $('settings-toggle').setAttribute('aria-expanded', String(open));
  if (open) header.scrollIntoView({ block: 'nearest' });
}

/** @param {State} st */
export function wireInput(st) {
  readControls(st);
  document.addEventListener('change', () => readControls(st), true);  // (before the controls' own handlers)
  const board = /** @type {SVGSVGElement} */ (document.querySelector('#board'));
  /** @type {string | null} */
  let dragFrom = null;
  board.addEventListener('pointerdown', (e) => {
    const sq = squareAt(e.clientX, e.clientY);
    if (!sq) return;
    st.shown.boardFocus = sq;  // (a click focuses the square too: the keyboard goes on from there)
    showStack(st, sq);
    const before = st.shown.selection ? st.shown.selection.from : null;
    pick(st, sq);
    dragFrom = st.shown.selection && st.shown.selection.from === sq && before !== sq ? sq : null;
  });
  // A reserve piece: of the player to move only (a size names a piece of
  // the side to move: the other reserve's S picked one's own S). Picked
  // again, it is put down — when released where it was, so that a drag of a
  // piece already picked still plays.
  /** @type {string | null} */
  let putDown = null;
  /** @param {number} p @param {Event} e */
  const reservePiece = (p, e) => {
    const el = /** @type {HTMLElement | null} */ (targetOf(e).closest('[data-size]'));
    const view = shownView(st.shown);
    if (!el || !view) return null;
    if (p !== view.pos.side) {
      setStatus(`That is player ${p}'s reserve: player ${view.pos.side} is to move.`, 'error');
      return null;
    }
    return el.dataset.size + '@';
  };
  for (const p of [1, 2]) {
    $(`reserve-${p}`).addEventListener('pointerdown', (e) => {
      const source = reservePiece(p, e);
      if (!source) return;
      putDown = st.shown.selection && st.shown.selection.from === source ? source : null;
      if (!putDown) pick(st, source);
      dragFrom = st.shown.selection ? st.shown.selection.from : null;
    });
    // Enter or Space on a reserve piece (a click with no pointer: detail 0).
    $(`reserve-${p}`).addEventListener('click', (e) => {
      if (e.detail !== 0) return;
      const source = reservePiece(p, e);
      if (!source) return;
      if (st.shown.selection && st.shown.selection.from === source) {
        st.shown.selection = null;
        render(st);
        return;
      }
      pick(st, source);
      const first = /** @type {SVGElement | null} */ (board.querySelector('.square.target'));
      if (st.shown.selection && first) focusSquare(st, /** @type {string} */ (first.dataset.sq));
    });
  }
  board.addEventListener('keydown', (e) => onBoardKey(st, e));
  // While a piece is dragged, it follows the pointer and the legal target
  // under the pointer is lit.
  document.addEventListener('pointermove', (e) => {
    if (!dragFrom || !st.shown.view || !st.shown.selection || st.shown.selection.from !== dragFrom) return;
    const size = dragFrom.endsWith('@') ? sizeIndex(dragFrom[0])
      : (st.shown.view.pos.squares.get(dragFrom) || []).at(-1)?.size;
    if (size === undefined || size < 0) return;
    const toBoard = /** @type {DOMMatrix} */ (board.getScreenCTM()).inverse();
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(toBoard);
    drawGhost(board, at.x, at.y, size, st.shown.view.shape.sizes, st.shown.view.pos.side);
    const over = squareAt(e.clientX, e.clientY);
    /** @type {NodeListOf<SVGElement>} */ (board.querySelectorAll('.square')).forEach((g) =>
      g.classList.toggle('drag-over', g.dataset.sq === over && g.classList.contains('target')));
  });
  document.addEventListener('pointerup', (e) => {
    const from = dragFrom;
    dragFrom = null;
    drawGhost(board, null);
    board.querySelectorAll('.square.drag-over').forEach((g) => g.classList.remove('drag-over'));
    const again = putDown;
    putDown = null;
    if (!from || !st.shown.selection || st.shown.selection.from !== from) return;
    const sq = squareAt(e.clientX, e.clientY);
    if (sq && sq !== from) attempt(st, from + sq);  // a drop is a move attempt, even onto an own piece
    else if (again === from) {  // a picked reserve piece clicked again: put down
      st.shown.selection = null;
      render(st);
    }
  });
  board.addEventListener('pointermove', (e) => showStack(st, squareAt(e.clientX, e.clientY)));
  $('nav-start').addEventListener('click', () => goTo(st, 0));
  $('nav-back').addEventListener('click', () => goTo(st, plyShown(st.game) - 1));
  $('nav-forward').addEventListener('click', () => goTo(st, plyShown(st.game) + 1));
  $('nav-end').addEventListener('click', () => goTo(st, line(st.game).length - 1));
  $('promote').addEventListener('click', () => promoteShown(st));
  $('delete-variation').addEventListener('click', () => deleteShown(st));
  // A comment is stored as it is typed, and a mark when chosen, on the move
  // the fields were showing when they took the focus (render.js
  // annotationTarget); once left, they show the move shown again.
  $('comment').addEventListener('input', () => commentOn(st, annotationTarget(), field('comment').value));
  $('glyph').addEventListener('change', () => glyphOn(st, annotationTarget(), Number(selector('glyph').value)));
  for (const id of ['comment', 'glyph']) {
    $(id).addEventListener('blur', () => setTimeout(() => renderAnnotationFields(st)));  // (once the focus has left it)
  }
  $('take-back').addEventListener('click', () => takeBack(st));
  $('help-open').addEventListener('click', () => help().showModal());
  $('settings-toggle').addEventListener('click', toggleSettings);
  $('flip').addEventListener('click', () => flipBoard(st));
  document.addEventListener('keydown', (e) => {
    const target = targetOf(e);
    if (e.key === '?' && !target.closest('textarea, input') && !help().open) {
      e.preventDefault();
      help().showModal();
      return;
    }
    if (e.key === 'f' && !target.closest('textarea, input, select, dialog')) {
      e.preventDefault();
      flipBoard(st);
      return;
    }
    if (e.key === 'v' && !e.ctrlKey && !e.metaKey && !e.altKey && !target.closest('textarea, input, select, dialog')) {
      e.preventDefault();  // every move's value on the board, without a pick (3x3 with a tablebase)
      const box = /** @type {HTMLInputElement} */ ($('all-values'));
      box.checked = !box.checked;
      box.dispatchEvent(new Event('change'));
      return;
    }
    if (target.closest('textarea, input, select, #board, dialog')) return;
    const gameKey = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'l'].includes(e.key)
      || (e.key === ' ' && !target.closest('button, a'));
    if (gameKey && waitsForEngine(st)) return;  // (each needs the engine: the page says it waits)
    // As on lichess: ↑ ↓ the line's start and end too, l the analysis on or
    // off, Space the analysis's best move played.
    // (Where the board is stacked above the list, one long column, ↑ ↓ are
    // left to scroll the page.)
    const end = line(st.game).length - 1;
    /** @type {Record<string, number>} */
    const keys = { ArrowLeft: plyShown(st.game) - 1, ArrowRight: plyShown(st.game) + 1, Home: 0, End: end };
    if (!pageIsStacked()) Object.assign(keys, { ArrowUp: 0, ArrowDown: end });
    if (e.key in keys) {
      e.preventDefault();
      goTo(st, keys[e.key]);
    } else if (e.key === 'l' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      toggleAnalysis(st, !st.shown.analysing);
    } else if (e.key === ' ' && !target.closest('button, a') && st.shown.analysing) {
      const best = st.session.search && st.session.search.kind === 'analysis' && st.session.search.lines.get(1);
      e.preventDefault();
      if (best && best.pv.length && !st.shown.preview) attempt(st, best.pv[0]);
    }
  });
  $('analyse').addEventListener('click', () => toggleAnalysis(st, !st.shown.analysing));
  $('prove').addEventListener('click', () => {
    if (st.shown.analysing) toggleAnalysis(st, false);  // (the engine does one thing at a time)
    proveShown(st);
  });
  $('evaluate').addEventListener('click', () => evaluateGame(st));
  $('multipv').addEventListener('change', () => st.shown.analysing && refresh(st));
  $('new-game').addEventListener('click', () => newGame(st, chosenVariant()));
  $('variant').addEventListener('change', () => {
    const custom = selector('variant').value === 'custom';
    $('custom-variant').hidden = !custom;
    if (!custom) newGame(st, chosenVariant());
  });
  // A name typed into "other…" (4x4:2,3, 3x3:2,2,1): a new game of it; an emptied field starts none.
  $('custom-variant').addEventListener('change', (e) => {
    if (/** @type {HTMLInputElement} */ (e.target).value.trim()) newGame(st, chosenVariant());
    else setStatus('Type a variant name, as 4x4:2,3 or 3x3:2,2,1.');
  });
  for (const id of ['p1', 'p2']) $(id).addEventListener('change', () => { releaseEngine(st); saveSettings(SETTINGS); refresh(st); });
  $('time').addEventListener('change', () => { saveSettings(SETTINGS); resetClocks(st); refresh(st); });
  // The engine's level: for its next move (engine_session.js sets its Skill Level before each of its searches).
  $('level').addEventListener('change', () => saveSettings(SETTINGS));
  sizeLinesBox();  // (the Lines kept from the last visit)
  $('multipv').addEventListener('change', () => { sizeLinesBox(); saveSettings(SETTINGS); });
  $('sound').addEventListener('change', () => saveSettings(SETTINGS));
  $('all-values').addEventListener('change', () => { saveSettings(SETTINGS); render(st); });
  $('engine-move').addEventListener('click', () => { releaseEngine(st); refresh(st, true); });
  // The review panel's buttons and the banner's (what needs the engine waits for it: connection.js).
  $('review').addEventListener('click', whenConnected(st, () => reviewGame(st)));
  $('review-cancel').addEventListener('click', () => cancelReview(st));
  $('learn').addEventListener('click', whenConnected(st, () => startLearning(st)));
  $('learn-answer').addEventListener('click', whenConnected(st, () => showAnswer(st)));
  $('learn-next').addEventListener('click', whenConnected(st, () => nextMistake(st)));
  $('learn-stop').addEventListener('click', () => stopLearning(st));
  $('reconnect').addEventListener('click', () => tryAgain(st));
  wireImportExport(st);
  wirePuzzleControls(st);
}

// The puzzles' file, served beside the page (`gobblet --http`: /puzzles.txt;
// the static site: its copy), as text; throws why not.
async function puzzleFileText() {
  const r = await fetch('puzzles.txt', { cache: 'no-cache' });
  if (!r.ok) throw new Error(`the server answered ${r.status} ${r.statusText}`);
  return r.text();
}

// Puzzle mode's controls: Puzzle (the header), its panel's rating, Next
// puzzle, Hint, Show solution and the proof line's moves.
/** @param {State} st */
function wirePuzzleControls(st) {
  const next = whenConnected(st, () => nextPuzzleShown(st, puzzleFileText));
  $('puzzle-start').addEventListener('click', next);
  $('puzzle-next').addEventListener('click', next);
  $('puzzle-rating').addEventListener('change', () => chooseRating(st, Number(selector('puzzle-rating').value)));
  $('puzzle-hint').addEventListener('click', whenConnected(st, () => giveHint(st)));
  $('puzzle-solution').addEventListener('click', whenConnected(st, () => showSolution(st)));
  $('puzzle-line').addEventListener('click', whenConnected(st, (/** @type {Event} */ e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('.puzzle-move');
    if (b instanceof HTMLElement) stepLine(st, Number(b.dataset.index));
  }));
}
