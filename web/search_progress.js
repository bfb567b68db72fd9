// @ts-check
// The time a search has run, ticking on the analysis panel (#search-progress)
// while the engine searches (an analysis, or its move), with the nodes
// searched as of the latest `info` line that counts them: between two depths
// of a 4x4 search nothing else on the page moves for seconds (up to 9 s on
// the static site). The engine sends `info nodes N … time T` once a second
// while a depth runs (as UCI engines do), so the count grows between
// depths; the time says how old the count is.
// The value history's short searches (Evaluate game) show nothing here.

import { countText } from './values.js';

/** @typedef {import('./state.js').State} State */

// Listens to the search's lines beside engine_session.js (which keeps
// only those with a depth); the view shows progressText four times a
// second (panels.js). st.progress: the search counted, when it started
// (performance.now() ms: first seen, or earlier by an info line's time), its
// latest count of nodes (0 if none yet), the search's time (ms) of that count.
/** @param {State} st */
export function listenToProgress(st) {
  const keepSearchLine = st.ugi.onSearch;
  st.ugi.onSearch = (/** @type {string} */ line) => {
    keepSearchLine(line);
    noteCount(st, line);
  };
}

// An `info` line of the search shown: its nodes and time, if it has them.
/** @param {State} st @param {string} line */
function noteCount(st, line) {
  const { session, progress } = st;
  if (!line.startsWith('info ') || !session.search || session.search !== progress.search) return;
  const nodes = / nodes (\d+)/.exec(line), time = / time (\d+)/.exec(line);
  if (!nodes || !time) return;
  progress.nodes = Number(nodes[1]);
  progress.countAt = Number(time[1]);
  progress.started = Math.min(progress.started, performance.now() - progress.countAt);
}

// "searching 7.4 s · 18.92 M nodes at 6.0 s" while a search runs; '' otherwise.
/** @param {State} st */
export function progressText(st) {
  const { session, progress } = st;
  const s = session.search;
  if (!s || s.kind === 'history' || s.kind === 'review') {  // (a review says its own progress)
    progress.search = null;
    return '';
  }
  if (s !== progress.search) Object.assign(progress, { search: s, started: performance.now(), nodes: 0, countAt: 0 });
  const seconds = (performance.now() - progress.started) / 1000;
  const count = progress.nodes ? ` · ${countText(progress.nodes, 0)} at ${(progress.countAt / 1000).toFixed(1)} s` : '';
  return `searching ${seconds.toFixed(1)} s${count}`;
}
