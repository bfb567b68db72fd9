// @ts-check
// The connection to the engine, kept. When the server goes away (or the
// static site's engine worker fails), a banner says so and stays until a
// new session is open; the controls that need the engine are disabled, each
// saying why, and a move, a step through the game or a key says that the
// page waits; the page tries again by itself, waiting longer after each
// failed try (1, 2, 4, 8, then every 15 s; "Reconnect now" tries at once),
// and gives the new session the game as it was: the variant, every line of
// the tree, the position shown, then the analysis or the engine's move goes
// on (play.js refresh). The view draws the banner and the controls from
// st.link (state.ui.connection: panels.js).

import { openSession, takeGame } from './engine_session.js';
import { stopClock } from './clocks.js';
import { refresh } from './play.js';
import { openFirstGame, restoreProofFile } from './game_io.js';

/** @typedef {import('./state.js').State} State */

// What the page says while it waits for the engine.
export const WAITING = 'Waiting for the engine: the connection to it is lost (the page reconnects by itself).';
// Seconds before each try again: 1, 2, 4, 8, then every 15 s.
const delayBefore = (/** @type {number} */ tryNumber) => Math.min(15, 2 ** (tryNumber - 1));

// Wires what happens when the session closes. `asker(why)`: the page asks
// for a token (the new server wants one, or another one).
/** @param {State} st @param {(why: string) => void} asker */
export function wireConnection(st, asker) {
  st.link.askForToken = asker;
  st.session.onClosed = () => connectionLost(st);
}

// The token sessions are opened with (null: none): a new one sends it too.
/** @param {State} st @param {string | null} token */
export function useToken(st, token) {
  st.link.token = token;
}

// While the engine is away: says that the page waits for it, and true. Else false.
/** @param {State} st */
export function waitsForEngine(st) {
  if (!st.link.lost) return false;
  st.ui.status(WAITING, 'error');
  return true;
}

// `fn`, run only while the engine is there (else the page says it waits).
/** @template {unknown[]} A @param {State} st @param {(...args: A) => unknown} fn @returns {(...args: A) => void} */
export function whenConnected(st, fn) {
  return (...args) => {
    if (!waitsForEngine(st)) fn(...args);
  };
}

// A session is open (the first, or a new one after a loss, with the token
// the person entered maybe): it takes the game shown before, or, if none was
// loaded yet, the page's first game (game_io.js openFirstGame). The banner
// goes once the game is the engine's again; the position shown is then
// asked again and what goes on there (the engine's move, the analysis)
// starts, not waited for.
/** @param {State} st */
export async function resume(st) {
  const { game, session, ui } = st;
  ui.variants();
  ui.controls();  // (an engine without `Skill Level` plays at its one strength: no level selector)
  const restored = await restoreProofFile(st);  // (before the game: it sets the engine's variant)
  if (!session.connected) return;
  const again = Boolean(game.variant);  // (a session after a lost one: the note before is old)
  if (game.variant) {
    const refusal = await giveGame(st);
    if (!session.connected) return;  // (lost again meanwhile: the next try is scheduled)
    showLost(st, false);
    if (refusal) {
      ui.status(`The engine answers again, but refused the game: ${refusal}. Export it (PGN) to keep it.`, 'error');
    } else {
      ui.variant(/** @type {string} */ (game.variant));
      refresh(st);
    }
  } else {
    showLost(st, false);
    await openFirstGame(st);
  }
  if (restored) ui.ioStatus(restored, !again);  // (after the first game's own note, if any)
  ui.ready();
}

// No session could be opened (the page's first, or one with the token
// entered): the banner, and the tries again, as after a loss.
/** @param {State} st */
export function notReached(st) {
  showLost(st, true);
  st.link.tries = 0;
  scheduleTry(st);
}

// The session closed: what it was doing ends, the banner and the waiting
// controls show, and the first try again is due in a second.
/** @param {State} st */
function connectionLost(st) {
  ++st.shown.generation;  // (work for the position shown ends: it is asked again of the new session)
  endSearchOfClosedSession(st);
  stopClock(st);
  notReached(st);
}

// The search the closed session ran will send no bestmove: it ends without
// one, so that whoever waits for it (a refresh, a stop) goes on.
/** @param {State} st */
function endSearchOfClosedSession(st) {
  const s = st.session.search;
  if (!s) return;
  st.session.search = null;
  s.best = null;
  s.resolve(s);
}

// The next try, after the delay for its number; the banner counts down to it.
/** @param {State} st */
function scheduleTry(st) {
  const link = st.link;
  const seconds = delayBefore(link.tries + 1);
  link.due = performance.now() + seconds * 1000;
  clearTimers(st);
  link.timer = Number(setTimeout(() => tryAgain(st), seconds * 1000));
  link.ticker = Number(setInterval(() => showCountdown(st), 1000));
  showCountdown(st);
}

/** @param {State} st */
function clearTimers(st) {
  clearTimeout(st.link.timer);
  clearInterval(st.link.ticker);
}

// Opens a new session (one try at a time). On success the game goes on;
// refused for its token, the page asks for one and stops trying; else the
// next try is scheduled. ("Reconnect now" asks for it at once.)
/** @param {State} st */
export async function tryAgain(st) {
  const link = st.link;
  if (!link.lost || link.trying) return;
  clearTimers(st);
  link.trying = true;
  link.tries += 1;
  showBanner(st, `reconnecting (try ${link.tries})…`);
  const failed = await openSession(st, link.token);
  link.trying = false;
  if (!link.lost) return;
  if (!failed) {
    await resume(st);
  } else if (!failed.fatal) {
    showBanner(st, `the engine answers again but refused this page: ${failed.error}.`);
    link.askForToken(failed.error);
  } else {
    scheduleTry(st);
  }
}

/** @param {State} st */
function showCountdown(st) {
  const link = st.link;
  const left = Math.max(0, Math.ceil((link.due - performance.now()) / 1000));
  showBanner(st, `trying again in ${left} s${link.tries ? ` (${link.tries} ${link.tries > 1 ? 'tries' : 'try'} so far)` : ''}.`);
}

// The banner's text: the connection lost, the game kept, then `what` the page does now.
/** @param {State} st @param {string} what */
function showBanner(st, what) {
  st.link.banner = `The connection to the engine (${st.ugi.where}) is lost. The game is kept `
    + `and goes on once the engine answers again: ${what}`;
  st.ui.connection();
}

// The page as it is while the engine is away (on), or back (off): the
// banner, and the controls that need the engine disabled (panels.js).
/** @param {State} st @param {boolean} on */
function showLost(st, on) {
  st.link.lost = on;
  if (!on) clearTimers(st);
  st.ui.connection();
}

// Gives the new session the game shown (takeGame: the variant, every line
// of the tree): null, or the engine's reason for refusing it.
/** @param {State} st */
async function giveGame(st) {
  const game = st.game;
  ++st.shown.generation;  // (nothing of the old session's work acts on the new one)
  const { taken, refusal } = await takeGame(st, [/** @type {string} */ (game.variant)], game.start, game.root);
  return taken ? null : refusal || 'no reason given';
}
