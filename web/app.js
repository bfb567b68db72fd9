// @ts-check
// The board page: a UGI client that knows no rules. The engine (over
// /ugi) says which moves are legal (`moves`), what the position is
// (`query fen`, `d`), whether the game is over and why; the page draws,
// lets a person pick moves among the legal ones, and runs searches.
// Every line it sends is built by command.js from checked words: text from
// outside (a link, an import, a field) is refused with its reason, never sent.
//
// This file makes the page's one state (state.js: the game, what is shown
// of it, the engine's session, …) and wires the page's parts to it at
// start-up: the logic modules — play.js (moves, navigation, analysis, engine
// play), engine_session.js (the engine), clocks.js, game_io.js (import,
// export, the link), connection.js (the engine away: the tries again, a new
// session given the game), search_progress.js, review_run.js (the game
// review and "learn from your mistakes"), puzzle_run.js (puzzle mode) —
// change the state and ask the view to draw through st.ui, which is filled
// here from the view modules:
// render.js (the board, the lists), panels.js (the panels and controls),
// io_panel.js; input.js, move_menu.js, list_anchor.js take the events.

import { takeToken } from './address.js';
import { restoreSettings } from './settings.js';
import { createState } from './state.js';
import { openSession } from './engine_session.js';
import { setStatus, render, clearLines, showLines, renderMoveList, renderTablebase, drawGraphNow, showTablebaseHint,
  showVariant, showVariants, showJudged, showJudgedNow } from './render.js';
import { drawControls, drawClocks, drawReviewPanel, renderProof, drawConnection, markReady,
  tickSearchProgress, drawLevels, drawPuzzle } from './panels.js';
import { showIoStatus, clearIoBox } from './io_panel.js';
import { goTo, goToMove, attempt, showPreview, timeRanOut, promoteShown, deleteFromMove } from './play.js';
import { openMoveMenu, wireMoveMenu } from './move_menu.js';
import { wireListAnchor } from './list_anchor.js';
import { wireInput, commentOnMove, SETTINGS } from './input.js';
import { wireConnection, useToken, resume, whenConnected, notReached } from './connection.js';
import { listenToProgress } from './search_progress.js';
import { wireReview } from './review_run.js';
import { wirePuzzles } from './puzzle_run.js';

/** @typedef {import('./state.js').State} State */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const tokenField = () => /** @type {HTMLInputElement} */ ($('token'));

async function main() {
  const token = takeToken();  // first: out of the address (and its history entry) before anything else
  document.getElementById('not-started')?.remove();  // the scripts run: index.html's note is not for this page
  drawLevels();  // (its choices first: the level kept is one of them)
  restoreSettings(SETTINGS);
  const st = createState();
  st.ui = {
    redraw: () => render(st), status: setStatus, clearLines: () => clearLines(st), showLines: (s) => showLines(st, s),
    moveList: () => renderMoveList(st), tablebase: () => renderTablebase(st), graph: () => drawGraphNow(st),
    tablebaseHint: showTablebaseHint, variant: (name) => showVariant(st, name), variants: () => showVariants(st),
    controls: () => drawControls(st), judged: (node) => showJudged(st, node), judgedNow: () => showJudgedNow(st),
    reviewPanel: () => drawReviewPanel(st), proof: () => renderProof(st), connection: () => drawConnection(st),
    clocks: () => drawClocks(st), ioStatus: showIoStatus, ioClear: clearIoBox, ready: markReady,
    puzzle: () => drawPuzzle(st),
  };
  // (Each needs the engine: while it is away the page says it waits, connection.js.)
  /** @template {unknown[]} A @param {(st: State, ...args: A) => unknown} fn */
  const act = (fn) => whenConnected(st, (/** @type {A} */ ...args) => fn(st, ...args));
  st.actions = {
    goTo: act(goTo), goToMove: act(goToMove), attempt: act(attempt), preview: act(showPreview), menu: openMoveMenu,
    promote: act(promoteShown), deleteFrom: act(deleteFromMove), comment: act(commentOnMove),
  };
  st.clocks.onTimeout = () => timeRanOut(st);
  wireMoveMenu(st);
  wireListAnchor();
  wireConnection(st, askForToken);
  listenToProgress(st);
  tickSearchProgress(st);
  wireReview(st);
  wirePuzzles(st);  // (after the review: a puzzle's tries are judged first)
  wireInput(st);
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    $('token-form').hidden = true;
    connect(st, tokenField().value.trim());
  });
  await connect(st, token);
}

// Opens a session (with `token` if given: `auth` first) and loads the
// address's game. A server started with --token closes a socket that does not
// send it: then the page asks for the token and tries again. An engine not
// reached is tried again by itself (connection.js).
/** @param {State} st @param {string | null} token */
async function connect(st, token) {
  setStatus('Connecting to the engine…');
  useToken(st, token);  // (and the tries again, if any)
  const failed = await openSession(st, token);
  if (failed) {
    if (failed.fatal) {
      setStatus(failed.error, 'error');
      notReached(st);  // (the page tries again by itself)
    } else {
      askForToken(failed.error);
    }
    return;
  }
  await resume(st);  // (the game kept in this browser, or the address's; after a lost session, the game shown)
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
