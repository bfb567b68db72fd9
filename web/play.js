// @ts-check
// What happens to the position shown: showing it (the engine's answers,
// then the engine's move, the analysis or the tablebase's marks), moves
// played by a person or the engine, navigation along the line and in the
// tree, taking back, previews of an analysis line, the value history, and
// loading a game into the engine. The game changes only through game.js;
// every change of the position shown bumps shown.generation, and work for
// an older position stops there. After every change the game is kept in
// this browser (saved_game.js). A game being played and a game record
// being explored (game.js exploring(): imported with its moves, or
// finished) differ: in a record a move from an earlier position is a
// variation (the main line stays), and the engine moves only when
// "Engine, move" asks it, one move.

import { showLink } from './address.js';
import { bestInfo, playerOneValue } from './values.js';
import { playMoveTone } from './sound.js';
import { game, treeOf, setGame, movesTo, line, ply as plyShown, atEnd, goToPly, goToNode, playMove, takeBackTo,
  promote, deleteVariation, deleteFrom, setComment, setMoveGlyph, snapshot, firstIndex, exploring,
  mainLine } from './game.js';
import { keepGame } from './saved_game.js';
import { shown } from './shown.js';
import { session, stopSearch, startSearch, examine, exactValues, refusalOf, takeGame, restoreVariant, turnOf,
  setPosition, endReview } from './engine_session.js';
import { goLimitsForEngine, resetClocks, startClock, chargeClock, stopClock, runningClock, flagged } from './clocks.js';
import { setStatus, render, renderMoveList, renderTablebase, clearLines, showLines, drawGraphNow, showTablebaseHint,
  showVariant, chosenVariant } from './render.js';

/** @typedef {import('./engine_session.js').View} View */
/** @typedef {import('./game.js').TreeNode} TreeNode */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const selector = (id) => /** @type {HTMLSelectElement} */ ($(id));

// Shows the game's position: asks the engine, draws, then starts what comes next
// (the engine's move, the analysis, the tablebase marks). `playOn`: a move
// was just played (or "Engine, move" asked for one), so the game goes on
// from here even if the tree holds moves after it: the engine answers and
// the clock runs. Otherwise only at the end of the line: a position reached
// by navigation is browsed (the engine waits; "Engine, move" is offered).
// In a record explored (exploring()) the game goes on only when "Engine,
// move" asks (play() passes no `playOn` there): the engine is held again after it.
export async function refresh(playOn = false) {
  const my = ++shown.generation;
  shown.preview = null;
  shown.selection = null;
  clearLines();
  $('engine-move').hidden = true;  // (until this position says whether the engine waits)
  await stopSearch();
  pauseEngineClock();
  if (my !== shown.generation) return;
  const v = await examine(movesTo());
  if (my !== shown.generation || !v) return;
  if ('error' in v) {
    setStatus(v.error, 'error');
    return;
  }
  const view = shown.view = v;
  if (view.over) game.current.result = view.result;  // (a finished main line makes the game a record)
  const explored = exploring();
  if (explored && !playOn) shown.engineHeld = true;
  render();
  showLink(snapshot());
  keepGame();
  if (view.over) {
    if (playOn || atEnd()) stopClock();  // (a finished line browsed leaves the game's clock running)
    return;  // (an analysis on stays on: render.js shows the result, and it goes on at a position before)
  }
  await tablebaseMarks(my);  // (every 3x3 variant and the 4x4 members with a file; 4x4 Gobblet has none)
  if (my !== shown.generation) return;
  if (flagged()) {  // over on time: browsed and analysed, no more moves
    setStatus(timeOverText(), 'over');
    if (shown.analysing) return analyse(my);
    return;
  }
  const goesOn = playOn || (atEnd() && !explored);
  if (goesOn && engineToMove()) return engineMove(my);
  $('engine-move').hidden = !(engineSide() && (shown.engineHeld || !goesOn));
  if (!$('engine-move').hidden && !shown.analysing) {
    const where = explored ? 'a game record explored' : shown.engineHeld && atEnd() ? 'a game opened as it was given'
      : 'an earlier position';
    setStatus(`Player ${view.pos.side} (the engine) to move: ${where}, the engine waits (“Engine, move” plays `
      + `${explored ? 'one move' : 'on'}).`);
  }
  if (shown.analysing) return analyse(my);
  if (goesOn && !engineSide() && gameStarted()) startClock(view.pos.side);  // (a waiting engine's clock does not run)
  if (view.marks) fillValueHistory(my, null, true);
}

// The value of every position of the line not valued yet (an imported game,
// a jump), for the chart: 3x3 with a tablebase, exact (the engine's `query
// values`, automatic); 4x4, a short search per position (the Evaluate
// button). Any change of the position shown ends it.
/** @param {number} my @param {Record<string, unknown> | null} goLimits @param {boolean} exact */
async function fillValueHistory(my, goLimits, exact) {
  let touched = false;
  const nodes = line();
  for (let ply = 0; ply < nodes.length && my === shown.generation; ply++) {
    if (nodes[ply].value) continue;
    touched = true;
    const turn = await turnOf(movesTo(nodes[ply]));
    if (my !== shown.generation || !turn) return;
    if (turn.over) continue;  // a finished game has no move to value
    /** @type {import('./values.js').Score | null | undefined} */
    let info;
    if (exact) {  // the tablebase's value (a search near the end proves it without probing)
      const values = await exactValues(my);
      if (!values) return;
      showTablebaseHint(values.error);
      const marks = values.marks;
      if (!marks || [...marks.values()].some((m) => m.wdl === '?')) return;
      info = bestInfo(marks);
    } else {
      const s = await startSearch('history', 1, /** @type {Record<string, unknown>} */ (goLimits), undefined, my);
      if (my !== shown.generation) return;
      info = s.lines.get(1);
    }
    if (!info) return;
    recordValue(nodes[ply], info, turn.side, exact);
  }
  // Put the engine back on the position shown.
  if (touched && my === shown.generation) await setPosition(movesTo());
}

// The Evaluate button: a short search of every position of the line.
export async function evaluateGame() {
  if (shown.analysing) toggleAnalysis(false);
  const my = shown.generation;
  await stopSearch();
  /** @type {HTMLButtonElement} */ ($('evaluate')).disabled = true;
  setStatus('Evaluating every position of the game…');
  await fillValueHistory(my, { movetime: 150 }, false);
  /** @type {HTMLButtonElement} */ ($('evaluate')).disabled = false;
  if (my === shown.generation) setStatus('Evaluation done: click the chart to go to a position.');
}

// A game opened from a link or an import is shown as it was given: the engine does not
// play in it until the person does something (a move, a new game, a change
// of the players, or "Engine, move"), not as the page loads.
export function engineSide() {
  const view = shown.view;
  return view && !view.over && playerIs(view.pos.side, 'engine');
}

export function engineToMove() {
  return engineSide() && !shown.engineHeld;
}

export function releaseEngine() {
  shown.engineHeld = false;
  $('engine-move').hidden = true;
}

// Plays `move` at the position shown: from an earlier position, a new line
// (the moves after it stay as a variation, game.js), or the move the tree
// already holds there; either way the game goes on from it and the engine
// answers, also when the move is the one already played.
// In a record explored: a new move there is a variation (the main line
// stays), no clock is charged, and the engine waits: the new line does not
// become the game.
/** @param {string} move */
export function play(move) {
  const explored = exploring();
  if (explored) shown.engineHeld = true;
  else releaseEngine();
  if (/** @type {HTMLInputElement} */ ($('sound')).checked) playMoveTone(move);
  if (!explored) chargeClock(shownPosition().side);
  playMove(move, explored);
  refresh(!explored);
}

// Who looks at a legal move before it is played: "learn from your
// mistakes" (review_run.js) takes the moves tried at the position it asks
// about (judge returns true: not played here).
/** @type {{judge: ((move: string) => boolean) | null}} */
export const moveHook = { judge: null };

// Tries a move picked on the board: a legal one is played, anything else is
// sent to the engine, whose error says why it is not legal.
/** @param {string} move */
export async function attempt(move) {
  shown.selection = null;
  if (refusedAfterFlag()) {  // (Space, a drag: no move after a flag either)
    render();
    return;
  }
  if (/** @type {View} */ (shown.view).legal.includes(move)) {
    if (moveHook.judge && moveHook.judge(move)) return;  // ("learn from your mistakes" judges it: review_run.js)
    play(move);
    return;
  }
  const my = shown.generation;
  await stopSearch();
  const err = await refusalOf(movesTo(), move);
  // The engine kept its previous position, the one shown.
  if (my !== shown.generation) return;
  render();
  setStatus(`Refused: ${err.replace(/^position: /, '')}`, 'error');
  if (shown.analysing) refresh();
}

/** @param {number} my */
async function engineMove(my) {
  const side = shownPosition().side;
  if (!exploring() && gameStarted()) startClock(side);
  setStatus(`Engine (player ${side}) is thinking…`);
  const node = game.current;
  const s = await startSearch('engine', 1, goLimitsForEngine(), (s) => showLines(s), my);
  if (my !== shown.generation || flagged() || !s.best || s.best === '(none)') return;
  recordValue(node, s.lines.get(1), side);
  play(s.best);
}

/** @param {number} my */
async function analyse(my) {
  const multipv = Number(selector('multipv').value);
  setStatus('Analysing…');
  const s = await startSearch('analysis', multipv, { infinite: true }, (s) => {
    recordValue(game.current, s.lines.get(1), shownPosition().side);
    if (!shown.preview) showLines(s);  // (under a preview the lines stay put)
  }, my);
  if (my === shown.generation) setStatus('Analysis stopped.');
  return s;
}

/** @param {boolean} on */
function showAnalysing(on) {
  shown.analysing = on;
  $('analyse').textContent = on ? 'Stop' : 'Analyse';
  $('analyse').classList.toggle('active', on);
}

/** @param {boolean} on */
export function toggleAnalysis(on) {
  showAnalysing(on);
  if (on) {
    refresh();
  } else {
    stopSearch().then(() => setStatus('Analysis stopped.'));
  }
}

// Every legal move's exact value from the variant's tablebase (`query values`):
// the 3x3 family's, and the small 4x4 members' where their file is built.
/** @param {number} my */
async function tablebaseMarks(my) {
  const view = /** @type {View} */ (shown.view);
  if (!view.legal.length) return;
  const values = await exactValues(my);
  if (my !== shown.generation || !values) return;
  showTablebaseHint(values.error);
  const marks = values.marks;
  if (!marks || marks.size !== view.legal.length || [...marks.values()].some((m) => m.wdl === '?')) {
    view.marks = null;
    $('tb').hidden = true;
    return;
  }
  view.marks = marks;
  recordValue(game.current, bestInfo(marks), view.pos.side, true);
  renderTablebase();
  render();
}

// Stores the value of the position of `node` for the chart, from player 1's side.
/** @param {TreeNode} node @param {import('./values.js').Score | null | undefined} info @param {number} side */
function recordValue(node, info, side, exact = false) {
  if (!info) return;
  node.value = playerOneValue(info, side, exact);  // (with its chances)
  drawGraphNow();
}

// Shows the position after the current one and `pv`. A running analysis
// goes on (the engine answers the preview's questions while it searches);
// its lines stay as they are under the preview (the line clicked does not
// change under the pointer), and when the preview ends they are shown as
// the analysis then stands: it goes on, not started again from depth 1.
// Any other search (the engine's move) stops, and starts again on return.
let previewCount = 0;
/** @param {string[]} pv */
export async function showPreview(pv) {
  const analysing = session.search && session.search.kind === 'analysis';
  const my = analysing ? shown.generation : ++shown.generation;
  const mine = ++previewCount;
  if (!analysing) {
    await stopSearch();
    pauseEngineClock();
  }
  const v = await examine([...movesTo(), ...pv]);
  // Ended before it was shown (a click, a key): the engine's move it stopped starts again.
  if (!analysing && my === shown.generation && mine !== previewCount) return refresh();
  if (my !== shown.generation || mine !== previewCount || !v || 'error' in v) return;
  shown.preview = { moves: pv, view: v };
  render();
  setStatus(`Preview after ${pv.join(' ')} — click the board or a navigation button to return.`);
}

// Back from a preview (if one is shown) to the position on the board.
export function endPreview() {
  ++previewCount;
  if (!shown.preview) return;
  const s = session.search;
  if (!s || s.kind !== 'analysis' || s.generation !== shown.generation) {
    refresh();
    return;
  }
  shown.preview = null;
  render();
  showLines(s);
  setStatus('Analysing…');
}

// ---- navigation and the tree ----------------------------------------------------

// Shows the position at `ply` of the line shown.
// The clock of the side to move in the game keeps running while a person
// browses (as in a timed game on lichess: thinking while browsing is not
// free). To the position shown: only a preview ends.
/** @param {number} ply */
export function goTo(ply) {
  const from = game.current;
  goToPly(ply);
  if (game.current === from) endPreview();
  else refresh();
}

// Shows the position after the move `node` (of any line of the tree).
/** @param {TreeNode} node */
export function goToMove(node) {
  if (node === game.current) return endPreview();
  goToNode(node);
  refresh();
}

// Takes back the move shown (the moves after it on the line go with it;
// other variations stay).
export function takeBack() {
  if (refusedAfterFlag() || !plyShown()) return;
  let ply = plyShown() - 1;
  // Against the engine, go back to the person's own turn.
  const humans = ['p1', 'p2'].filter((id) => selector(id).value === 'human').length;
  /** @param {number} p */
  const mover = (p) => ((firstIndex() + p) % 2 === 0 ? 'p1' : 'p2');  // who moves at ply p (player 2 may start)
  if (humans === 1 && ply > 0 && selector(mover(ply)).value === 'engine') ply -= 1;
  takeBackTo(Math.max(0, ply));
  refresh();
}

// The variation shown (or the one `node` is in) becomes the main line.
export function promoteShown(node = game.current) {
  promote(node);
  refresh();
}

// Shows the move `node` with the comment field on it, for typing (the move list's menu).
/** @param {TreeNode} node */
export function commentOnMove(node) {
  goToMove(node);
  renderMoveList();  // (the field takes the move now: while it has the focus it keeps its move)
  $('comment').focus();
}

// The move `node` and all after it are deleted (the move list's menu).
/** @param {TreeNode} node */
export function deleteFromMove(node) {
  if (deleteFrom(node)) refresh();
}

// The variation shown is deleted (the position it started from is shown).
export function deleteShown() {
  deleteVariation();
  refresh();
}

// The glyph judging `node`'s move (NAG 1-6, 0: none; game.js setMoveGlyph; the Mark field's, render.js annotationTarget).
/** @param {TreeNode} node @param {number} nag */
export function glyphOn(node, nag) {
  setMoveGlyph(nag, node);
  renderMoveList();
  keepGame();
}

// The comment on `node`'s move (the field's, render.js annotationTarget).
/** @param {TreeNode} node @param {string} text */
export function commentOn(node, text) {
  setComment(text, node);
  renderMoveList();
  keepGame();
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
 * @param {(string | null)[]} candidates @param {string | null} start @param {TreeNode} root @param {number | null} ply
 * @param {boolean} [shared] @param {Parameters<typeof setGame>[4]} [record]
 * @returns {Promise<string | null | undefined>}
 */
export async function loadGame(candidates, start, root, ply, shared = false, record = {}) {
  ++shown.generation;  // ends background work (the value history) before the engine is switched
  await endReview('another game was opened');  // (and any search: the variant is set next)
  const { taken, refusal } = await takeGame(candidates, start, root);
  if (!taken) {
    // Put the engine and the selector back on the game shown (the caller
    // then says why: after the refresh, so that its status stays).
    if (game.variant) {
      await restoreVariant(game.variant);
      showVariant(game.variant);
      await refresh();
    }
    return refusal;
  }
  shown.engineHeld = shared;
  shown.learning = null;  // (its moves were the old game's)
  setGame(taken, start, root, ply, record);
  await markGameEnd();
  showVariant(taken);
  resetClocks();
  await refresh();
  return null;
}

// Puts the engine's result on the end of the main line if the game is over
// there (the engine's word over a PGN's [Result]; an unfinished end keeps the tag's).
async function markGameEnd() {
  const end = mainLine().at(-1);
  if (!end || !end.parent) return;
  const v = await examine(movesTo(end));
  if (v && !('error' in v) && v.over) end.result = v.result;
}

export async function newGame() {
  const err = await loadGame([chosenVariant()], null, treeOf([]), 0);
  if (err) setStatus(err, 'error');
}

// A player's time ran out: the search stops (its best move is not played),
// the status says who won, and the game takes no more moves (clocks.js
// flagged(), until a new game, an import or another time control); the
// game's result (its PGN's, kept) is the other player's win.
export function timeRanOut() {
  ++shown.generation;  // (work for the position ends: an analysis does not say "stopped" over the result)
  const end = /** @type {TreeNode} */ (mainLine().at(-1));
  end.result = end.result ?? (flagged() === 1 ? 'p2win' : 'p1win');  // (the PGN's result; the game a record)
  keepGame();
  if (shown.analysing) showAnalysing(false);
  stopSearch();
  setStatus(timeOverText(), 'over');
}

// The clocks start at the game's first move (they ran from the new game on):
// at the game's start no clock runs, the engine's first search included.
function gameStarted() {
  return movesTo().length > 0;
}

// The engine's clock runs only while it searches its move (browsing or a
// preview stopped its search: its time must not run out meanwhile).
function pauseEngineClock() {
  const running = runningClock();
  if (running && playerIs(running, 'engine')) stopClock();
}

export function timeOverText() {
  return `Player ${flagged()} ran out of time: player ${3 - flagged()} wins.`;
}

// After a flag the game takes no move: says so, and true; else false.
export function refusedAfterFlag() {
  if (!flagged()) return false;
  setStatus(`${timeOverText()} (New game to play again.)`, 'over');
  return true;
}

// Player `side` (1 or 2) is set to `who` ('human' or 'engine').
/** @param {number} side @param {string} who */
export function playerIs(side, who) {
  return selector(side === 1 ? 'p1' : 'p2').value === who;
}

// The position on the board, where one is shown (a move is played, a
// search runs, only there).
function shownPosition() {
  return /** @type {View} */ (shown.view).pos;
}
