// @ts-check
// The clocks of a game with a time control (the Engine time selector's
// `clock BASE INC`), and the engine's limits for its move: a time per move,
// or both clocks. No clock runs before the game's first move (play.js). A
// person's clock runs from when play reaches a position of theirs (a move
// played, or the end of the line shown: play.js starts it) until they
// move; browsing the tree does not stop it. The engine's runs only while it
// searches its move. A flag says who ran out
// (onTimeout) and ends the game until the clocks are reset (flagged()).

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
// The Engine time selector's choice: `movetime MS` or `clock BASE INC`.
const timeControl = () => /** @type {HTMLSelectElement} */ ($('time')).value.split(' ');
/** @type {{on: boolean, time: number[], inc: number, running: number | null, last: number, timer: number, flag: number}} */
const clocks = { on: false, time: [0, 0], inc: 0, running: null, last: 0, timer: 0, flag: 0 };
/** @type {(loser: number) => void} */
let onTimeout = () => {};

// `handler(loser)`: what the page does when a player's time runs out.
/** @param {(loser: number) => void} handler */
export function whenTimeRunsOut(handler) {
  onTimeout = handler;
}

function clockMode() {
  const t = timeControl();
  return t[0] === 'clock' ? { base: Number(t[1]), inc: Number(t[2]) } : null;
}

// The `go` limits for the engine's move (command.js goLine).
export function goLimitsForEngine() {
  const t = timeControl();
  if (t[0] === 'movetime') return { movetime: t[1] };
  return { p1time: Math.max(0, Math.round(clocks.time[0])), p2time: Math.max(0, Math.round(clocks.time[1])),
    p1inc: clocks.inc, p2inc: clocks.inc };
}

export function resetClocks() {
  stopClock();
  clocks.flag = 0;
  const mode = clockMode();
  clocks.on = !!mode;
  if (mode) {
    clocks.time = [mode.base, mode.base];
    clocks.inc = mode.inc;
  }
  showClocks();
}

// Runs player `side`'s clock.
/** @param {number} side */
export function startClock(side) {
  if (!clocks.on || clocks.running === side) return;  // (already running: its time goes on counting)
  clocks.running = side;
  clocks.last = performance.now();
  clearInterval(clocks.timer);
  clocks.timer = setInterval(tickClock, 200);
}

function tickClock() {
  if (!clocks.running) return;
  const now = performance.now();
  clocks.time[clocks.running - 1] -= now - clocks.last;
  clocks.last = now;
  if (clocks.time[clocks.running - 1] <= 0) {
    clocks.time[clocks.running - 1] = 0;
    const loser = clocks.running;
    stopClock();
    clocks.flag = loser;
    onTimeout(loser);
  }
  showClocks();
}

// Player `side` has moved: its clock stops, with the increment added.
/** @param {number} side */
export function chargeClock(side) {
  if (!clocks.on || clocks.running !== side) return;
  tickClock();
  clocks.time[side - 1] += clocks.inc;
  clocks.running = null;
}

// The player whose clock is running, or null.
export function runningClock() {
  return clocks.running;
}

// The player who ran out of time in this game (the game is over), or 0.
export function flagged() {
  return clocks.flag;
}

export function stopClock() {
  clearInterval(clocks.timer);
  clocks.running = null;
}

function showClocks() {
  for (const p of [1, 2]) {
    const ms = clocks.time[p - 1];
    $(`clock-${p}`).textContent = clocks.on
      ? `${Math.floor(ms / 60000)}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}` : '';
  }
}
