// @ts-check
// The clocks of a game with a time control (the Engine time selector's
// `clock BASE INC`), and the engine's limits for its move: a time per move,
// or both clocks. No clock runs before the game's first move (play.js). A
// person's clock runs from when play reaches a position of theirs (a move
// played, or the end of the line shown: play.js starts it) until they
// move; browsing the tree does not stop it. The engine's runs only while it
// searches its move. A flag says who ran out
// (onTimeout) and ends the game until the clocks are reset (flagged()).
// The clocks are drawn by the view (state.ui.clocks: panels.js).

/** @typedef {import('./state.js').State} State */

/**
 * The clocks (a part of the page's state, state.js): on, the time control
 * is a clock; time, each player's ms left; inc, the increment (ms); running,
 * the player whose clock runs (null: none); last, when it was last counted
 * (performance.now() ms); timer, its interval; flag, the player who ran
 * out (0: none); onTimeout(loser), what the page does then (app.js).
 * @typedef {{on: boolean, time: number[], inc: number, running: number | null, last: number, timer: number,
 *   flag: number, onTimeout: (loser: number) => void}} Clocks
 */

/** @returns {Clocks} */
export function createClocks() {
  return { on: false, time: [0, 0], inc: 0, running: null, last: 0, timer: 0, flag: 0, onTimeout: () => {} };
}

// The Engine time setting: `movetime MS` or `clock BASE INC`, as words.
/** @param {State} st */
const timeControl = (st) => st.settings.time.split(' ');

/** @param {State} st */
function clockMode(st) {
  const t = timeControl(st);
  return t[0] === 'clock' ? { base: Number(t[1]), inc: Number(t[2]) } : null;
}

// The `go` limits for the engine's move (command.js goLine).
/** @param {State} st */
export function goLimitsForEngine(st) {
  const t = timeControl(st), clocks = st.clocks;
  if (t[0] === 'movetime') return { movetime: t[1] };
  return { p1time: Math.max(0, Math.round(clocks.time[0])), p2time: Math.max(0, Math.round(clocks.time[1])),
    p1inc: clocks.inc, p2inc: clocks.inc };
}

/** @param {State} st */
export function resetClocks(st) {
  const clocks = st.clocks;
  stopClock(st);
  clocks.flag = 0;
  const mode = clockMode(st);
  clocks.on = !!mode;
  if (mode) {
    clocks.time = [mode.base, mode.base];
    clocks.inc = mode.inc;
  }
  st.ui.clocks();
}

// Runs player `side`'s clock.
/** @param {State} st @param {number} side */
export function startClock(st, side) {
  const clocks = st.clocks;
  if (!clocks.on || clocks.running === side) return;  // (already running: its time goes on counting)
  clocks.running = side;
  clocks.last = performance.now();
  clearInterval(clocks.timer);
  clocks.timer = Number(setInterval(() => tickClock(st), 200));
}

/** @param {State} st */
function tickClock(st) {
  const clocks = st.clocks;
  if (!clocks.running) return;
  const now = performance.now();
  clocks.time[clocks.running - 1] -= now - clocks.last;
  clocks.last = now;
  if (clocks.time[clocks.running - 1] <= 0) {
    clocks.time[clocks.running - 1] = 0;
    const loser = clocks.running;
    stopClock(st);
    clocks.flag = loser;
    clocks.onTimeout(loser);
  }
  st.ui.clocks();
}

// Player `side` has moved: its clock stops, with the increment added.
/** @param {State} st @param {number} side */
export function chargeClock(st, side) {
  const clocks = st.clocks;
  if (!clocks.on || clocks.running !== side) return;
  tickClock(st);
  clocks.time[side - 1] += clocks.inc;
  clocks.running = null;
}

// The player whose clock is running, or null.
/** @param {State} st */
export function runningClock(st) {
  return st.clocks.running;
}

// The player who ran out of time in this game (the game is over), or 0.
/** @param {State} st */
export function flagged(st) {
  return st.clocks.flag;
}

/** @param {State} st */
export function stopClock(st) {
  clearInterval(st.clocks.timer);
  st.clocks.running = null;
}

// A clock's time as it is shown: `m:ss`, or '' without a clock.
/** @param {Clocks} clocks @param {number} side */
export function clockText(clocks, side) {
  const ms = clocks.time[side - 1];
  return clocks.on ? `${Math.floor(ms / 60000)}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}` : '';
}
