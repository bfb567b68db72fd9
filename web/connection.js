// @ts-check
// The connection to the engine, kept. When the server goes away (or the
// static site's engine worker fails), a banner says so and stays until a
// new session is open; the controls that need the engine are disabled, each
// saying why, and a move, a step through the game or a key says that the
// page waits; the page tries again by itself, waiting longer after each
// failed try (1, 2, 4, 8, then every 15 s; "Reconnect now" tries at once),
// and gives the new session the game as it was: the variant, every line of
// the tree, the position shown, then the analysis or the engine's move goes
// on (play.js refresh).

import { ugi, session, openSession, takeGame } from './engine_session.js';
import { game } from './game.js';
import { shown } from './shown.js';
import { stopClock } from './clocks.js';
import { setStatus, showVariants, showVariant } from './render.js';
import { refresh } from './play.js';
import { openFirstGame } from './game_io.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// The controls that need the engine (the exports, the comment, Flip, Sound
// and the help do not: a game can still be saved while the engine is away).
const CONTROLS = ['new-game', 'variant', 'custom-variant', 'p1', 'p2', 'time', 'analyse', 'prove', 'multipv', 'evaluate',
  'engine-move', 'import', 'nav-start', 'nav-back', 'nav-forward', 'nav-end', 'take-back', 'move-actions',
  'promote', 'delete-variation', 'review'];
const WAITING = 'Waiting for the engine: the connection to it is lost (the page reconnects by itself).';
// Seconds before each try again: 1, 2, 4, 8, then every 15 s.
const delayBefore = (/** @type {number} */ tryNumber) => Math.min(15, 2 ** (tryNumber - 1));

const link = {
  token: /** @type {string | null} */ (null),  // the token sessions are opened with (useToken)
  lost: false,     // the session closed and no new one is open yet
  trying: false,   // a try is under way
  tries: 0,        // tries since the connection was lost
  due: 0,          // when the next try starts (performance.now() ms)
  timer: 0,        // the next try's
  ticker: 0,       // the countdown's, once a second
};
/** @type {(why: string) => void} */
let askForToken = () => {};

// Wires the banner and what happens when the session closes. `asker(why)`:
// the page asks for a token (the new server wants one, or another one).
/** @param {(why: string) => void} asker */
export function wireConnection(asker) {
  askForToken = asker;
  session.onClosed = connectionLost;
  $('reconnect').addEventListener('click', () => tryAgain());
}

// The token sessions are opened with (null: none): a new one sends it too.
/** @param {string | null} token */
export function useToken(token) {
  link.token = token;
}

// While the engine is away: says that the page waits for it, and true. Else false.
export function waitsForEngine() {
  if (!link.lost) return false;
  setStatus(WAITING, 'error');
  return true;
}

// `fn`, run only while the engine is there (else the page says it waits).
/** @template {unknown[]} A @param {(...args: A) => unknown} fn @returns {(...args: A) => void} */
export function whenConnected(fn) {
  return (...args) => {
    if (!waitsForEngine()) fn(...args);
  };
}

// A session is open (the first, or a new one after a loss, with the token
// the person entered maybe): it takes the game shown before, or, if none was
// loaded yet, the page's first game (game_io.js openFirstGame). The banner
// goes once the game is the engine's again; the position shown is then
// asked again and what goes on there (the engine's move, the analysis)
// starts, not waited for.
export async function resume() {
  showVariants();
  $('level').hidden = !session.levels;  // (an engine without `Skill Level` plays at its one strength)
  if (game.variant) {
    const refusal = await giveGame();
    if (!session.connected) return;  // (lost again meanwhile: the next try is scheduled)
    showLost(false);
    if (refusal) {
      setStatus(`The engine answers again, but refused the game: ${refusal}. Export it (PGN) to keep it.`, 'error');
    } else {
      showVariant(/** @type {string} */ (game.variant));
      refresh();
    }
  } else {
    showLost(false);
    await openFirstGame();
  }
  document.body.dataset.ready = '1';
}

// No session could be opened (the page's first, or one with the token
// entered): the banner, and the tries again, as after a loss.
export function notReached() {
  showLost(true);
  link.tries = 0;
  scheduleTry();
}

// The session closed: what it was doing ends, the banner and the waiting
// controls show, and the first try again is due in a second.
function connectionLost() {
  ++shown.generation;  // (work for the position shown ends: it is asked again of the new session)
  endSearchOfClosedSession();
  stopClock();
  notReached();
}

// The search the closed session ran will send no bestmove: it ends without
// one, so that whoever waits for it (a refresh, a stop) goes on.
function endSearchOfClosedSession() {
  const s = session.search;
  if (!s) return;
  session.search = null;
  s.best = null;
  s.resolve(s);
}

// The next try, after the delay for its number; the banner counts down to it.
function scheduleTry() {
  const seconds = delayBefore(link.tries + 1);
  link.due = performance.now() + seconds * 1000;
  clearTimers();
  link.timer = window.setTimeout(tryAgain, seconds * 1000);
  link.ticker = window.setInterval(showCountdown, 1000);
  showCountdown();
}

function clearTimers() {
  clearTimeout(link.timer);
  clearInterval(link.ticker);
}

// Opens a new session (one try at a time). On success the game goes on;
// refused for its token, the page asks for one and stops trying; else the
// next try is scheduled.
async function tryAgain() {
  if (!link.lost || link.trying) return;
  clearTimers();
  link.trying = true;
  link.tries += 1;
  showBanner(`reconnecting (try ${link.tries})…`);
  const failed = await openSession(link.token);
  link.trying = false;
  if (!link.lost) return;
  if (!failed) {
    await resume();
  } else if (!failed.fatal) {
    showBanner(`the engine answers again but refused this page: ${failed.error}.`);
    askForToken(failed.error);
  } else {
    scheduleTry();
  }
}

function showCountdown() {
  const left = Math.max(0, Math.ceil((link.due - performance.now()) / 1000));
  showBanner(`trying again in ${left} s${link.tries ? ` (${link.tries} ${link.tries > 1 ? 'tries' : 'try'} so far)` : ''}.`);
}

// The banner's text: the connection lost, the game kept, then `what` the page does now.
/** @param {string} what */
function showBanner(what) {
  $('connection-text').textContent = `The connection to the engine (${ugi.where}) is lost. The game is kept `
    + `and goes on once the engine answers again: ${what}`;
}

// The page as it is while the engine is away (on), or back (off): the
// banner, and the controls that need the engine disabled with the reason as
// their title (their own title back after).
/** @param {boolean} on */
function showLost(on) {
  link.lost = on;
  if (!on) clearTimers();
  $('connection').hidden = !on;
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

// Gives the new session the game shown (takeGame: the variant, every line
// of the tree): null, or the engine's reason for refusing it.
async function giveGame() {
  ++shown.generation;  // (nothing of the old session's work acts on the new one)
  const { taken, refusal } = await takeGame([/** @type {string} */ (game.variant)], game.start, game.root);
  return taken ? null : refusal || 'no reason given';
}
