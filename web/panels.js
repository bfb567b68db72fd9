// @ts-check
// Drawing the page's panels and controls from the state (a view module,
// state.js): the controls that follow what is shown (Engine move, Evaluate,
// Analyse, the engine's level), the clocks, the review panel, the proof,
// the puzzle panel (with its hint on the board), the search's progress, and
// the connection's banner with the controls that wait for the engine. The
// logic modules ask for these through st.ui.

import { clockText } from './clocks.js';
import { shownProof } from './proof.js';
import { progressText } from './search_progress.js';
import { WAITING } from './connection.js';
import { LEVELS, FULL_STRENGTH, levelLabel } from './levels.js';
import { puzzleOn, puzzleSolving, lineIndexShown } from './puzzle_run.js';
import { moveNumber } from './game.js';
import { setStatus } from './render.js';

/** @typedef {import('./state.js').State} State */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// The controls that need the engine (the exports, the comment, Flip, Sound
// and the help do not: a game can still be saved while the engine is away).
const CONTROLS = Object.freeze(['new-game', 'variant', 'custom-variant', 'p1', 'p2', 'time', 'analyse', 'prove',
  'multipv', 'evaluate', 'engine-move', 'import', 'nav-start', 'nav-back', 'nav-forward', 'nav-end', 'take-back',
  'move-actions', 'promote', 'delete-variation', 'review']);

// The controls that follow the state: "Engine, move" offered, Evaluate
// while it runs (and while the engine is away), Analyse on or off, the
// level where the engine has one.
/** @param {State} st */
export function drawControls(st) {
  const shown = st.shown;
  $('engine-move').hidden = !shown.engineOffered || puzzleSolving(st);  // (a puzzle's moves are the person's)
  /** @type {HTMLButtonElement} */ ($('evaluate')).disabled = shown.evaluating || st.link.lost;
  $('analyse').textContent = shown.analysing ? 'Stop' : 'Analyse';
  $('analyse').classList.toggle('active', shown.analysing);
  $('level').hidden = !st.session.levels;  // (an engine without `Skill Level` plays at its one strength)
}

/** @param {State} st */
export function drawClocks(st) {
  for (const p of [1, 2]) $(`clock-${p}`).textContent = clockText(st.clocks, p);
}

// The review panel: its progress, Review or Cancel, the player "learn from
// your mistakes" asks about.
/** @param {State} st */
export function drawReviewPanel(st) {
  $('review-progress').textContent = st.review.progress;
  $('review').hidden = st.review.running;
  $('review-cancel').hidden = !st.review.running;
  /** @type {HTMLSelectElement} */ ($('learn-side')).value = String(st.settings.learnSide);
}

// The puzzle panel (puzzle_run.js), shown while a puzzle's game is: the
// puzzle's words (also in the status under the board: on a phone the panel
// is below it), Hint and Show solution while it is being solved, the
// proof's line as buttons once solved or shown, and the hint on the board
// (the square of the piece to move, or its reserve size, ringed).
/** @param {State} st */
export function drawPuzzle(st) {
  const run = st.puzzle, on = puzzleOn(st);
  drawControls(st);  // ("Engine, move" hidden while a puzzle is solved)
  // (Off, the panel is shown only to say why the file, or the rating chosen, gave no puzzle.)
  $('puzzle-panel').hidden = !on && !(run.note && (!run.read?.puzzles.length || run.asked));
  $('puzzle-note').textContent = run.note;
  $('puzzle-box').hidden = !on;
  /** @type {HTMLSelectElement} */ ($('puzzle-rating')).value = String(run.rating);
  for (const e of document.querySelectorAll('.puzzle-hint')) e.classList.remove('puzzle-hint');
  if (!on || !run.puzzle) return;
  $('puzzle-text').textContent = run.text;
  const solving = puzzleSolving(st);
  /** @type {HTMLButtonElement} */ ($('puzzle-hint')).disabled = run.state !== 'try';
  $('puzzle-hint').hidden = !solving;
  $('puzzle-solution').hidden = !solving;
  const done = run.state === 'solved' || run.state === 'shown';
  $('puzzle-line-box').hidden = !done;
  if (done) drawPuzzleLine(st, run.puzzle.line, run.puzzle.position.endsWith(' 2'));
  if (!st.shown.preview && st.game.current === run.at) setStatus(run.text, run.state === 'solved' ? 'over' : '');
  const hint = run.hint;
  if (hint && st.game.current === run.at) {
    const target = hint.from ? document.querySelector(`#board [data-sq="${hint.from}"]`)
      : document.querySelector(`#reserve-${st.shown.view?.pos.side} [data-size="${hint.size}"]`);
    if (target) target.classList.add('puzzle-hint');
  }
}

// The proof's line as buttons ("1. b3b2 a3d4 2. a3b3 …"), the move shown marked.
/** @param {State} st @param {string[]} line @param {boolean} secondFirst the line starts with player 2's move */
function drawPuzzleLine(st, line, secondFirst) {
  const shown = lineIndexShown(st);
  const items = line.map((m, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move puzzle-move';
    b.dataset.index = String(i);
    b.textContent = m;
    if (i === shown) b.classList.add('current');
    b.setAttribute('aria-current', i === shown ? 'true' : 'false');
    const index = i + (secondFirst ? 1 : 0);
    const number = index % 2 === 0 || i === 0 ? `${moveNumber(index, '…')} ` : '';
    const li = document.createElement('li');
    li.append(number, b);
    return li;
  });
  $('puzzle-line').replaceChildren(...items);
}

// The prover's answer about the position shown, if there is one (proof.js).
/** @param {State} st */
export function renderProof(st) {
  const p = shownProof(st.shown);
  const box = $('proof');
  box.hidden = !p;
  box.textContent = p ? p.text : '';
  $('prove').textContent = p && p.running ? 'Proving…' : 'Prove';
}

// The search's progress, ticking four times a second (search_progress.js).
/** @param {State} st */
export function tickSearchProgress(st) {
  setInterval(() => {
    const text = progressText(st), box = $('search-progress');
    if (box.textContent !== text) box.textContent = text;
  }, 250);
}

// The page as it is while the engine is away, or back (connection.js): the
// banner with its words, and the controls that need the engine disabled
// with the reason as their title (their own title back after).
/** @param {State} st */
export function drawConnection(st) {
  const on = st.link.lost;
  $('connection').hidden = !on;
  $('connection-text').textContent = st.link.banner;
  document.body.classList.toggle('engine-away', on);
  for (const id of CONTROLS) {
    const control = /** @type {HTMLButtonElement | HTMLSelectElement | HTMLInputElement} */ ($(id));
    if (on && control.dataset.ownTitle === undefined) {
      control.dataset.ownTitle = control.title;
      control.title = WAITING;
    } else if (!on && control.dataset.ownTitle !== undefined) {
      control.title = control.dataset.ownTitle;
      delete control.dataset.ownTitle;
    }
    control.disabled = on;  // (back: the page's own state follows with the refresh: render.js, play.js)
  }
}

// The level selector's choices (levels.js), full strength chosen: filled
// at start-up, before the settings kept are put back (settings.js).
export function drawLevels() {
  const select = /** @type {HTMLSelectElement} */ ($('level'));
  select.replaceChildren(...LEVELS.map(([level]) => {
    const option = document.createElement('option');
    option.value = String(level);
    option.textContent = levelLabel(level);
    return option;
  }));
  select.value = String(FULL_STRENGTH);
}

// The page is ready: its first game is shown (tests wait for the mark).
export function markReady() {
  document.body.dataset.ready = '1';
}
