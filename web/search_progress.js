// @ts-check
// The time a search has run, ticking on the analysis panel (#search-progress)
// while the engine searches (an analysis, or its move), with the nodes
// searched as of the latest `info` line that counts them: between two depths
// of a 4x4 search nothing else on the page moves for seconds (up to 9 s on
// the static site). The engine sends `info nodes N … time T` once a second
// while a depth runs (as UCI engines do), so the count grows between
// depths; the time says how old the count is.
// The value history's short searches (Evaluate game) show nothing here.

import { ugi, session } from './engine_session.js';
import { countText } from './values.js';

/** @typedef {import('./engine_session.js').Search} Search */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const progress = {
  search: /** @type {Search | null} */ (null),  // the search shown
  started: 0,   // when it started (performance.now() ms): first seen, or earlier by an info line's time
  nodes: 0,     // its latest count of nodes, 0 if none yet
  countAt: 0,   // the search's time (ms) of that count
};

// Listens to the search's lines beside engine_session.js (which keeps
// only those with a depth), and ticks the display four times a second.
export function wireSearchProgress() {
  const keepSearchLine = ugi.onSearch;
  ugi.onSearch = (/** @type {string} */ line) => {
    keepSearchLine(line);
    noteCount(line);
  };
  window.setInterval(showProgress, 250);
}

// An `info` line of the search shown: its nodes and time, if it has them.
/** @param {string} line */
function noteCount(line) {
  if (!line.startsWith('info ') || !session.search || session.search !== progress.search) return;
  const nodes = / nodes (\d+)/.exec(line), time = / time (\d+)/.exec(line);
  if (!nodes || !time) return;
  progress.nodes = Number(nodes[1]);
  progress.countAt = Number(time[1]);
  progress.started = Math.min(progress.started, performance.now() - progress.countAt);
}

// "searching 7.4 s · 18.92 M nodes at 6.0 s" while a search runs; nothing otherwise.
function showProgress() {
  const s = session.search;
  const shown = $('search-progress');
  if (!s || s.kind === 'history' || s.kind === 'review') {  // (a review says its own progress)
    progress.search = null;
    if (shown.textContent) shown.textContent = '';
    return;
  }
  if (s !== progress.search) Object.assign(progress, { search: s, started: performance.now(), nodes: 0, countAt: 0 });
  const seconds = (performance.now() - progress.started) / 1000;
  const count = progress.nodes ? ` · ${countText(progress.nodes, 0)} at ${(progress.countAt / 1000).toFixed(1)} s` : '';
  shown.textContent = `searching ${seconds.toFixed(1)} s${count}`;
}
