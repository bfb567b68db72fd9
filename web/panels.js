// @ts-check
// Drawing the page's panels and controls from the state (a view module,
// state.js): the controls that follow what is shown (Engine move, Evaluate,
// Analyse, the engine's level), the clocks, the review panel, the proof,
// the search's progress, and the connection's banner with the controls that
// wait for the engine. The logic modules ask for these through st.ui.

import { clockText } from './clocks.js';
import { shownProof } from './proof.js';
import { progressText } from './search_progress.js';
import { WAITING } from './connection.js';
import { LEVELS, FULL_STRENGTH, levelLabel } from './levels.js';

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
  $('engine-move').hidden = !shown.engineOffered;
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
