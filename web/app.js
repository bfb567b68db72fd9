// @ts-check
// The board page: a UGI client that knows no rules. The engine (over
// /ugi) says which moves are legal (`moves`), what the position is
// (`query fen`, `d`), whether the game is over and why; the page draws,
// lets a person pick moves among the legal ones, and runs searches.
// Every line it sends is built by command.js from checked words: text from
// outside (a link, an import, a field) is refused with its reason, never sent.
//
// This file wires the page's parts at start-up: game.js (the game, a tree
// of moves: the one owner of it), shown.js (what is shown of it),
// engine_session.js (the engine), play.js (moves, navigation, analysis,
// engine play), render.js (drawing), input.js (mouse and keyboard),
// clocks.js, game_io.js (import, export, the link), move_menu.js (a move's menu),
// list_anchor.js (the move list stays under the finger), connection.js (the
// engine away: a banner, the controls waiting, a new session given the game),
// search_progress.js (the time a search has run, ticking), review_run.js
// (the game review and "learn from your mistakes").

import { takeToken } from './address.js';
import { restoreSettings } from './settings.js';
import { openSession, session } from './engine_session.js';
import { actions, setStatus } from './render.js';
import { goTo, goToMove, attempt, showPreview, timeRanOut, promoteShown, deleteFromMove,
  commentOnMove } from './play.js';
import { openMoveMenu, menuActions, wireMoveMenu } from './move_menu.js';
import { wireListAnchor } from './list_anchor.js';
import { whenTimeRunsOut } from './clocks.js';
import { wireInput, SETTINGS } from './input.js';
import { wireConnection, useToken, resume, whenConnected, notReached } from './connection.js';
import { wireSearchProgress } from './search_progress.js';
import { wireReview } from './review_run.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const tokenField = () => /** @type {HTMLInputElement} */ ($('token'));

async function main() {
  const token = takeToken();  // first: out of the address (and its history entry) before anything else
  document.getElementById('not-started')?.remove();  // the scripts run: index.html's note is not for this page
  restoreSettings(SETTINGS);
  session.level = Number(/** @type {HTMLSelectElement} */ ($('level')).value);  // (the engine's level, kept)
  // (Each needs the engine: while it is away the page says it waits, connection.js.)
  Object.assign(actions, { goTo: whenConnected(goTo), goToMove: whenConnected(goToMove),
    attempt: whenConnected(attempt), preview: whenConnected(showPreview), menu: openMoveMenu });
  Object.assign(menuActions, {
    promote: whenConnected(promoteShown),
    deleteFrom: whenConnected(deleteFromMove),
    comment: whenConnected(commentOnMove),
  });
  wireMoveMenu();
  wireListAnchor();
  whenTimeRunsOut(timeRanOut);
  wireConnection(askForToken);
  wireSearchProgress();
  wireReview();
  wireInput();
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    $('token-form').hidden = true;
    connect(tokenField().value.trim());
  });
  await connect(token);
}

// Opens a session (with `token` if given: `auth` first) and loads the
// address's game. A server started with --token closes a socket that does not
// send it: then the page asks for the token and tries again. An engine not
// reached is tried again by itself (connection.js).
/** @param {string | null} token */
async function connect(token) {
  setStatus('Connecting to the engine…');
  useToken(token);  // (and the tries again, if any)
  const failed = await openSession(token);
  if (failed) {
    if (failed.fatal) {
      setStatus(failed.error, 'error');
      notReached();  // (the page tries again by itself)
    } else {
      askForToken(failed.error);
    }
    return;
  }
  await resume();  // (the game kept in this browser, or the address's; after a lost session, the game shown)
}

// The token field, with why it is asked for (the engine's words).
/** @param {string} why */
function askForToken(why) {
  setStatus(`Not connected: ${why}. If the engine was started with --token, enter the token.`, 'error');
  tokenField().value = '';
  $('token-form').hidden = false;
  $('token').focus();
}

main();
