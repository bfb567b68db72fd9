// @ts-check
// What happens to the position shown: showing it (the engine's answers,
// then the engine's move, the analysis or the tablebase's marks), moves
// played by a person or the engine, navigation along the line and in the
// tree, taking back, previews of an analysis line, the value history, and
// loading a game into the engine. The game changes only through game.js;
// every change of the position shown bumps shown.generation, and work for
// an older position stops there. Each function acts on the page's state
// `st` (state.js) and asks the view to draw through st.ui. After every change the game is kept in
// this browser (saved_game.js). A game being played and a game record
// being explored (game.js exploring(): imported with its moves, or
// finished) differ: in a record a move from an earlier position is a
// variation (the main line stays), and the engine moves only when
// "Engine, move" asks it, one move.

import { showLink } from './address.js';
import { bestInfo, playerOneValue } from './values.js';
import { playMoveTone } from './sound.js';
import { treeOf, setGame, movesTo, line, ply as plyShown, atEnd, goToPly, goToNode, playMove, takeBackTo,
  promote, deleteVariation, deleteFrom, setComment, setMoveGlyph, snapshot, firstIndex, exploring,
  mainLine, keepValue } from './game.js';
import { keepGame } from './saved_game.js';
import { linesStayPut } from './shown.js';
import { showStoredProof } from './proof.js';
import { stopSearch, startSearch, examine, exactValues, refusalOf, takeGame, restoreVariant, turnOf,
  setPosition, endReview } from './engine_session.js';
import { FULL_STRENGTH } from './levels.js';
import { goLimitsForEngine, resetClocks, startClock, chargeClock, stopClock, runningClock, flagged } from './clocks.js';

/** @typedef {import('./engine_session.js').View} View */
/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./state.js').State} State */

// Shows the game's position: asks the engine, draws, then starts what comes next
// (the engine's move, the analysis, the tablebase marks). `playOn`: a move
// was just played (or "Engine, move" asked for one), so the game goes on
// from here even if the tree holds moves after it: the engine answers and
// the clock runs. Otherwise only at the end of the line: a position reached
// by navigation is browsed (the engine waits; "Engine, move" is offered).
// In a record explored (exploring()) the game goes on only when "Engine,
// move" asks (play() passes no `playOn` there): the engine is held again after it.
/** @param {State} st */
export async function refresh(st, playOn = false) {
  const { game, shown, ui } = st;
  const my = ++shown.generation;
  shown.preview = null;
  shown.selection = null;
  ui.clearLines();
  offerEngineMove(st, false);  // (until this position says whether the engine waits)
  await stopSearch(st);
  pauseEngineClock(st);
  if (my !== shown.generation) return;
  const v = await examine(st, movesTo(game.current));
  if (my !== shown.generation || !v) return;
  if ('error' in v) {
    ui.status(v.error, 'error');
    return;
  }
  const view = shown.view = v;
  if (view.over) game.current.result = view.result;  // (a finished main line makes the game a record)
  showStoredProof(st, view);
  const explored = exploring(game);
  if (explored && !playOn) shown.engineHeld = true;
  ui.redraw();
  showLink(snapshot(game));
  keepGame(st);
  if (view.over) {
    if (playOn || atEnd(game)) stopClock(st);  // (a finished line browsed leaves the game's clock running)
    return;  // (an analysis on stays on: render.js shows the result, and it goes on at a position before)
  }
  await tablebaseMarks(st, my);  // (every 3x3 variant and the 4x4 members with a file; 4x4 Gobblet has none)
  if (my !== shown.generation) return;
  if (flagged(st)) {  // over on time: browsed and analysed, no more moves
    ui.status(timeOverText(st), 'over');
    if (shown.analysing) return analyse(st, my);
    return;
  }
  const goesOn = playOn || (atEnd(game) && !explored);
  if (goesOn && engineToMove(st)) return engineMove(st, my);
  offerEngineMove(st, Boolean(engineSide(st) && (shown.engineHeld || !goesOn)));
  if (shown.engineOffered && !shown.analysing) {
    const where = explored ? 'a game record explored' : shown.engineHeld && atEnd(game) ? 'a game opened as it was given'
      : 'an earlier position';
    ui.status(`Player ${view.pos.side} (the engine) to move: ${where}, the engine waits (“Engine, move” plays `
      + `${explored ? 'one move' : 'on'}).`);
  }
  if (shown.analysing) return analyse(st, my);
  if (goesOn && !engineSide(st) && gameStarted(st)) startClock(st, view.pos.side);  // (a waiting engine's clock does not run)
  if (view.marks) fillValueHistory(st, my, null, true);
}

// The "Engine, move" button offered (on) or not.
/** @param {State} st @param {boolean} on */
function offerEngineMove(st, on) {
  st.shown.engineOffered = on;
  st.ui.controls();
}

// The value of every position of the line not valued yet (an imported game,
// a jump), for the chart: 3x3 with a tablebase, exact (the engine's `query
// values`, automatic); 4x4, a short search per position (the Evaluate
// button). Any change of the position shown ends it.
/** @param {State} st @param {number} my @param {Record<string, unknown> | null} goLimits @param {boolean} exact */
async function fillValueHistory(st, my, goLimits, exact) {
  const shown = st.shown;
  let touched = false;
  const nodes = line(st.game);
  for (let ply = 0; ply < nodes.length && my === shown.generation; ply++) {
    if (nodes[ply].value) continue;
    touched = true;
    const turn = await turnOf(st, movesTo(nodes[ply]));
    if (my !== shown.generation || !turn) return;
    if (turn.over) continue;  // a finished game has no move to value
    /** @type {import('./values.js').Score | null | undefined} */
    let info;
    if (exact) {  // the tablebase's value (a search near the end proves it without probing)
      const values = await exactValues(st, my);
      if (!values) return;
      st.ui.tablebaseHint(values.error);
      const marks = values.marks;
      if (!marks || [...marks.values()].some((m) => m.wdl === '?')) return;
      info = bestInfo(marks);
    } else {
      const s = await startSearch(st, 'history', 1, /** @type {Record<string, unknown>} */ (goLimits), undefined, my);
      if (my !== shown.generation) return;
      info = s.lines.get(1);
    }
    if (!info) return;
    recordValue(st, nodes[ply], info, turn.side, exact);
  }
  // Put the engine back on the position shown.
  if (touched && my === shown.generation) await setPosition(st, movesTo(st.game.current));
}

// The Evaluate button: a short search of every position of the line.
/** @param {State} st */
export async function evaluateGame(st) {
  const shown = st.shown;
  if (shown.analysing) toggleAnalysis(st, false);
  const my = shown.generation;
  await stopSearch(st);
  shown.evaluating = true;
  st.ui.controls();
  st.ui.status('Evaluating every position of the game…');
  await fillValueHistory(st, my, { movetime: 150 }, false);
  shown.evaluating = false;
  st.ui.controls();
  if (my === shown.generation) st.ui.status('Evaluation done: click the chart to go to a position.');
}

// A game opened from a link or an import is shown as it was given: the engine does not
// play in it until the person does something (a move, a new game, a change
// of the players, or "Engine, move"), not as the page loads.
/** @param {State} st */
export function engineSide(st) {
  const view = st.shown.view;
  return view && !view.over && playerIs(st, view.pos.side, 'engine');
}

/** @param {State} st */
export function engineToMove(st) {
  return engineSide(st) && !st.shown.engineHeld;
}

/** @param {State} st */
export function releaseEngine(st) {
  st.shown.engineHeld = false;
  offerEngineMove(st, false);
}

// Plays `move` at the position shown: from an earlier position, a new line
// (the moves after it stay as a variation, game.js), or the move the tree
// already holds there; either way the game goes on from it and the engine
// answers, also when the move is the one already played.
// In a record explored: a new move there is a variation (the main line
// stays), no clock is charged, and the engine waits: the new line does not
// become the game.
/** @param {State} st @param {string} move */
export function play(st, move) {
  const explored = exploring(st.game);
  if (explored) st.shown.engineHeld = true;
  else releaseEngine(st);
  if (st.settings.sound) playMoveTone(move);
  if (!explored) chargeClock(st, shownPosition(st).side);
  playMove(st.game, move, explored);
  refresh(st, !explored);
}

// Tries a move picked on the board: a legal one is played, anything else is
// sent to the engine, whose error says why it is not legal. Who looks at a
// legal move before it is played: "learn from your mistakes"
// (review_run.js, st.judge) takes the moves tried at the position it asks
// about (true: not played here).
/** @param {State} st @param {string} move */
export async function attempt(st, move) {
  const shown = st.shown;
  shown.selection = null;
  if (refusedAfterFlag(st)) {  // (Space, a drag: no move after a flag either)
    st.ui.redraw();
    return;
  }
  if (/** @type {View} */ (shown.view).legal.includes(move)) {
    if (st.judge && st.judge(move)) return;  // ("learn from your mistakes" judges it: review_run.js)
    play(st, move);
    return;
  }
  const my = shown.generation;
  await stopSearch(st);
  const err = await refusalOf(st, movesTo(st.game.current), move);
  // The engine kept its previous position, the one shown.
  if (my !== shown.generation) return;
  st.ui.redraw();
  st.ui.status(`Refused: ${err.replace(/^position: /, '')}`, 'error');
  if (shown.analysing) refresh(st);
}

/** @param {State} st @param {number} my */
async function engineMove(st, my) {
  const side = shownPosition(st).side;
  if (!exploring(st.game) && gameStarted(st)) startClock(st, side);
  st.ui.status(`Engine (player ${side}) is thinking…`);
  const node = st.game.current;
  // Its lines and the bar show the same search, the position's value as it
  // goes; at a level below full strength none: that search is the weaker
  // level's (a short horizon, a move drawn among the best), and a
  // position's value is the full strength's.
  const valued = !st.session.levels || st.settings.level === FULL_STRENGTH;
  const s = await startSearch(st, 'engine', 1, goLimitsForEngine(st), (s) => {
    if (valued) recordValue(st, node, s.lines.get(1), side);
    st.ui.showLines(s);
  }, my);
  if (my !== st.shown.generation || flagged(st) || !s.best || s.best === '(none)') return;
  if (valued) recordValue(st, node, s.lines.get(1), side);
  play(st, s.best);
}

/** @param {State} st @param {number} my */
async function analyse(st, my) {
  st.ui.status('Analysing…');
  const s = await startSearch(st, 'analysis', st.settings.multipv, { infinite: true }, (s) => {
    recordValue(st, st.game.current, s.lines.get(1), shownPosition(st).side);
    if (!linesStayPut(st.shown)) st.ui.showLines(s);  // (under a preview, shown or asked, the lines stay put)
  }, my);
  if (my === st.shown.generation) st.ui.status('Analysis stopped.');
  return s;
}

/** @param {State} st @param {boolean} on */
function showAnalysing(st, on) {
  st.shown.analysing = on;
  st.ui.controls();
}

/** @param {State} st @param {boolean} on */
export function toggleAnalysis(st, on) {
  showAnalysing(st, on);
  if (on) {
    refresh(st);
  } else {
    stopSearch(st).then(() => st.ui.status('Analysis stopped.'));
  }
}

// Every legal move's exact value from the variant's tablebase (`query values`):
// the 3x3 family's, and the small 4x4 members' where their file is built.
/** @param {State} st @param {number} my */
async function tablebaseMarks(st, my) {
  const view = /** @type {View} */ (st.shown.view);
  if (!view.legal.length) return;
  const values = await exactValues(st, my);
  if (my !== st.shown.generation || !values) return;
  st.ui.tablebaseHint(values.error);
  const marks = values.marks;
  if (!marks || marks.size !== view.legal.length || [...marks.values()].some((m) => m.wdl === '?')) {
    view.marks = null;
    st.ui.tablebase();  // (none: the list hidden)
    return;
  }
  view.marks = marks;
  recordValue(st, st.game.current, bestInfo(marks), view.pos.side, true);
  st.ui.tablebase();
  st.ui.redraw();
}

// Stores the value of the position of `node` for the chart and the bar,
// from player 1's side, of `info`, a score of `side` (the side to move
// there): a search's (its best line), or with `exact` the tablebase's. A
// value from a more certain source stays (game.js keepValue).
/** @param {State} st @param {TreeNode} node @param {import('./values.js').Score | null | undefined} info
 * @param {number} side */
function recordValue(st, node, info, side, exact = false) {
  if (!info) return;
  // (with its chances)
  if (keepValue(node, { ...playerOneValue(info, side, exact), source: exact ? 'tablebase' : 'search' })) st.ui.graph();
}

// Shows the position after the current one and `pv`. A running analysis
// goes on (the engine answers the preview's questions while it searches);
// its lines stay as they are under the preview (the line clicked does not
// change under the pointer), and when the preview ends they are shown as
// the analysis then stands: it goes on, not started again from depth 1.
// Any other search (the engine's move) stops, and starts again on return.
/** @param {State} st @param {string[]} pv */
export async function showPreview(st, pv) {
  const shown = st.shown, search = st.session.search;
  const analysing = search && search.kind === 'analysis';
  const my = analysing ? shown.generation : ++shown.generation;
  const mine = ++shown.previews;
  shown.previewAsked = mine;
  if (!analysing) {
    await stopSearch(st);
    pauseEngineClock(st);
  }
  const v = await examine(st, [...movesTo(st.game.current), ...pv]);
  if (shown.previewAsked === mine) shown.previewAsked = 0;
  // Ended before it was shown (a click, a key): the engine's move it stopped starts again.
  if (!analysing && my === shown.generation && mine !== shown.previews) return refresh(st);
  if (my !== shown.generation || mine !== shown.previews || !v || 'error' in v) return;
  shown.preview = { moves: pv, view: v };
  st.ui.redraw();
  st.ui.status(`Preview after ${pv.join(' ')} — click the board or a navigation button to return.`);
}

// Back from a preview (if one is shown) to the position on the board.
/** @param {State} st */
export function endPreview(st) {
  const shown = st.shown;
  ++shown.previews;
  const s = st.session.search;
  if (!shown.preview) {
    // A preview asked and not shown yet: the lines held for it are shown as the analysis stands.
    const asked = shown.previewAsked !== 0;
    shown.previewAsked = 0;
    if (asked && s && s.kind === 'analysis' && s.generation === shown.generation) st.ui.showLines(s);
    return;
  }
  if (!s || s.kind !== 'analysis' || s.generation !== shown.generation) {
    refresh(st);
    return;
  }
  shown.preview = null;
  st.ui.redraw();
  st.ui.showLines(s);
  st.ui.status('Analysing…');
}

// ---- navigation and the tree ----------------------------------------------------

// Shows the position at `ply` of the line shown.
// The clock of the side to move in the game keeps running while a person
// browses (as in a timed game on lichess: thinking while browsing is not
// free). To the position shown: only a preview ends.
/** @param {State} st @param {number} ply */
export function goTo(st, ply) {
  const from = st.game.current;
  goToPly(st.game, ply);
  if (st.game.current === from) endPreview(st);
  else refresh(st);
}

// Shows the position after the move `node` (of any line of the tree).
/** @param {State} st @param {TreeNode} node */
export function goToMove(st, node) {
  if (node === st.game.current) return endPreview(st);
  goToNode(st.game, node);
  refresh(st);
}

// Takes back the move shown (the moves after it on the line go with it;
// other variations stay).
/** @param {State} st */
export function takeBack(st) {
  if (refusedAfterFlag(st) || !plyShown(st.game)) return;
  let ply = plyShown(st.game) - 1;
  // Against the engine, go back to the person's own turn.
  const humans = [1, 2].filter((side) => playerIs(st, side, 'human')).length;
  /** @param {number} p */
  const mover = (p) => ((firstIndex(st.game.start) + p) % 2 === 0 ? 1 : 2);  // who moves at ply p (player 2 may start)
  if (humans === 1 && ply > 0 && playerIs(st, mover(ply), 'engine')) ply -= 1;
  takeBackTo(st.game, Math.max(0, ply));
  refresh(st);
}

// The variation shown (or the one `node` is in) becomes the main line.
/** @param {State} st */
export function promoteShown(st, node = st.game.current) {
  promote(node);
  refresh(st);
}

// The move `node` and all after it are deleted (the move list's menu).
/** @param {State} st @param {TreeNode} node */
export function deleteFromMove(st, node) {
  if (deleteFrom(st.game, node)) refresh(st);
}

// The variation shown is deleted (the position it started from is shown).
/** @param {State} st */
export function deleteShown(st) {
  deleteVariation(st.game, st.game.current);
  refresh(st);
}

// The glyph judging `node`'s move (NAG 1-6, 0: none; game.js setMoveGlyph; the Mark field's, render.js annotationTarget).
/** @param {State} st @param {TreeNode} node @param {number} nag */
export function glyphOn(st, node, nag) {
  setMoveGlyph(nag, node);
  st.ui.moveList();
  keepGame(st);
}

// The comment on `node`'s move (the field's, render.js annotationTarget).
/** @param {State} st @param {TreeNode} node @param {string} text */
export function commentOn(st, node, text) {
  setComment(text, node);
  st.ui.moveList();
  keepGame(st);
}

// ---- loading a game -----------------------------------------------------------------

// Switches the engine to the first of `candidates` (variant names as a
// person or a game text spelled them) that takes the game, and shows the
// game; null, or the reason for refusing the first candidate (the engine's,
// or the page's when a name, the position text or a move is not of its shape:
// then nothing is sent for it). `shared` (a game opened from a link or an import): the
// engine waits for the person before it plays in it (engineHeld). `root`:
// the tree of moves (game.js), `ply` the position shown on its main line
// (null: the end); every line of it, variations too, must be legal.
// `record`: its tags, whether it is a record to explore, and the position
// to show (game.js setGame). Where its main line ends in a finished
// position, the engine's result is put there (a record: exploring()).
/**
 * @param {State} st @param {(string | null)[]} candidates @param {string | null} start @param {TreeNode} root
 * @param {number | null} ply @param {boolean} [shared] @param {Parameters<typeof setGame>[5]} [record]
 * @returns {Promise<string | null | undefined>}
 */
export async function loadGame(st, candidates, start, root, ply, shared = false, record = {}) {
  const { game, shown } = st;
  ++shown.generation;  // ends background work (the value history) before the engine is switched
  await endReview(st, 'another game was opened');  // (and any search: the variant is set next)
  const { taken, refusal } = await takeGame(st, candidates, start, root);
  if (!taken) {
    // Put the engine and the selector back on the game shown (the caller
    // then says why: after the refresh, so that its status stays).
    if (game.variant) {
      await restoreVariant(st, game.variant);
      st.ui.variant(game.variant);
      await refresh(st);
    }
    return refusal;
  }
  shown.engineHeld = shared;
  shown.learning = null;  // (its moves were the old game's)
  setGame(game, taken, start, root, ply, record);
  await markGameEnd(st);
  st.ui.variant(taken);
  resetClocks(st);
  await refresh(st);
  return null;
}

// Puts the engine's result on the end of the main line if the game is over
// there (the engine's word over a PGN's [Result]; an unfinished end keeps the tag's).
/** @param {State} st */
async function markGameEnd(st) {
  const end = mainLine(st.game).at(-1);
  if (!end || !end.parent) return;
  const v = await examine(st, movesTo(end));
  if (v && !('error' in v) && v.over) end.result = v.result;
}

// A new game of the variant `variant` (the selector's choice); the
// Import/Export box, which held the game before, emptied.
/** @param {State} st @param {string} variant */
export async function newGame(st, variant) {
  st.ui.ioClear();
  const err = await loadGame(st, [variant], null, treeOf([]), 0);
  if (err) st.ui.status(err, 'error');
}

// A player's time ran out: the search stops (its best move is not played),
// the status says who won, and the game takes no more moves (clocks.js
// flagged(), until a new game, an import or another time control); the
// game's result (its PGN's, kept) is the other player's win.
/** @param {State} st */
export function timeRanOut(st) {
  ++st.shown.generation;  // (work for the position ends: an analysis does not say "stopped" over the result)
  const end = /** @type {TreeNode} */ (mainLine(st.game).at(-1));
  end.result = end.result ?? (flagged(st) === 1 ? 'p2win' : 'p1win');  // (the PGN's result; the game a record)
  keepGame(st);
  if (st.shown.analysing) showAnalysing(st, false);
  stopSearch(st);
  st.ui.status(timeOverText(st), 'over');
}

// The clocks start at the game's first move (they ran from the new game on):
// at the game's start no clock runs, the engine's first search included.
/** @param {State} st */
function gameStarted(st) {
  return movesTo(st.game.current).length > 0;
}

// The engine's clock runs only while it searches its move (browsing or a
// preview stopped its search: its time must not run out meanwhile).
/** @param {State} st */
function pauseEngineClock(st) {
  const running = runningClock(st);
  if (running && playerIs(st, running, 'engine')) stopClock(st);
}

/** @param {State} st */
export function timeOverText(st) {
  return `Player ${flagged(st)} ran out of time: player ${3 - flagged(st)} wins.`;
}

// After a flag the game takes no move: says so, and true; else false.
/** @param {State} st */
export function refusedAfterFlag(st) {
  if (!flagged(st)) return false;
  st.ui.status(`${timeOverText(st)} (New game to play again.)`, 'over');
  return true;
}

// Player `side` (1 or 2) is set to `who` ('human' or 'engine').
/** @param {State} st @param {number} side @param {string} who */
export function playerIs(st, side, who) {
  return (side === 1 ? st.settings.p1 : st.settings.p2) === who;
}

// The position on the board, where one is shown (a move is played, a
// search runs, only there).
/** @param {State} st */
function shownPosition(st) {
  return /** @type {View} */ (st.shown.view).pos;
}
