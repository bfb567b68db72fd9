// @ts-check
// Puzzle mode (docs/board.md, "Puzzles"): a position from the puzzles' file
// (puzzles.js) shown as a game record (the engine never plays in it by
// itself), the person to find the winning move. A try is judged before it
// is played: the line's own move is played and the board answers with the
// line's defence (the proof's longest resistance), with no engine; any
// other move is played and the engine's prover asked whether it still wins
// (`go prove`, CHECK_MS): proved, it stays and the game goes on off the
// line (the board's defence then the engine's full-strength move); proved
// not to win, it is taken back ("does not win"); undecided, it is taken back
// too ("not the proved move"). Hint names the piece of the next winning move
// (the line's, or off the line the prover's); after a solve or "Show
// solution" the proof's line is there to step through (its moves put into
// the game's tree, as a variation where the person went another way).

import { parsePuzzles, parsePuzzleLine, puzzleRow, readingText, nextPuzzle, ofRating, expected, hintOf, hintText,
  puzzleTitle, solverOf } from './puzzles.js';
import { loadGame, refresh, toggleAnalysis } from './play.js';
import { treeOf, playMove, deleteFrom, goToNode, inTree, movesTo, nodeAt } from './game.js';
import { positionWords } from './words.js';
import { keepGame } from './saved_game.js';
import { startSearch, lineRefusal } from './engine_session.js';
import { playMoveTone } from './sound.js';

/** @typedef {import('./puzzles.js').Puzzle} Puzzle */
/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./state.js').State} State */

// How long the prover may take to decide whether a move off the line still wins.
export const CHECK_MS = 3000;
// How long the board waits before it plays the defence (the person sees their move first).
export const DEFENCE_DELAY_MS = 500;
// The engine's time for a defence off the proof's line.
const DEFENCE_MS = 1000;

/**
 * The puzzle mode's state (a part of the page's State): the file as read
 * (null: not yet), what its reading said, the rating chosen (0: any), the
 * puzzle shown, the root of its game (the mode is on while the game shown
 * is that one), the node where the solver is to move next (or the last move
 * played), the line's moves played, whether the game still follows the
 * proof's line, where it stands ('off', 'loading', 'try': waiting for the
 * person's move, 'checking' a move off the line, 'defending': the board's
 * reply coming, 'solved', 'shown': the solution shown after giving up), its
 * words, the hint given at this move (null: none), the move being
 * checked (null: none), whether a puzzle was asked for and none found
 * (the panel then shows the note), and the puzzles left out (their lines
 * not legal: ids, and what the note says of each).
 * @typedef {{read: {puzzles: Puzzle[], problems: string[], skipped: number} | null, note: string, rating: number,
 *   puzzle: Puzzle | null, root: TreeNode | null, at: TreeNode | null, step: number, onLine: boolean,
 *   state: 'off' | 'loading' | 'try' | 'checking' | 'defending' | 'solved' | 'shown', text: string,
 *   hint: {size: string | null, from: string | null, to: string} | null, checked: TreeNode | null,
 *   asked: boolean, refused: Set<number>, refusals: string[]}} PuzzleRun
 */

/** @returns {PuzzleRun} */
export function createPuzzleRun() {
  return { read: null, note: '', rating: 0, puzzle: null, root: null, at: null, step: 0, onLine: true, state: 'off',
    text: '', hint: null, checked: null, asked: false, refused: new Set(), refusals: [] };
}

// The puzzle mode is on: a puzzle's game is the one shown.
/** @param {State} st */
export function puzzleOn(st) {
  const run = st.puzzle;
  return Boolean(run.puzzle && run.state !== 'off' && st.game.root === run.root);
}

// A puzzle is being solved: shown, neither solved nor given up.
/** @param {State} st */
export function puzzleSolving(st) {
  const state = st.puzzle.state;
  return puzzleOn(st) && (state === 'try' || state === 'checking' || state === 'defending');
}

// Where the puzzle stands, said; kept for a reload with the game (saved_game.js).
/** @param {State} st @param {PuzzleRun['state']} state @param {string} text */
function say(st, state, text) {
  st.puzzle.state = state;
  st.puzzle.text = text;
  st.ui.puzzle();
  keepGame(st);
}

/**
 * A puzzle's game as kept for a reload (saved_game.js): the puzzle as a line
 * of the file, the moves from its position to where the solver moves next
 * (solved: the last move played), whether the game follows the proof's
 * line, and where it stands (a defence or a check that was coming is kept
 * as the solver's turn before it).
 * @typedef {{row: string, at: string[], onLine: boolean, state: 'try' | 'solved' | 'shown'}} KeptPuzzle
 */

// The puzzle of the game shown, as kept for a reload; null where none is shown.
/** @param {State} st @returns {KeptPuzzle | null} */
export function keptPuzzle(st) {
  const run = st.puzzle;
  if (!puzzleOn(st) || !run.puzzle || !run.at || run.state === 'loading') return null;
  const state = run.state === 'solved' || run.state === 'shown' ? run.state : 'try';
  return { row: puzzleRow(run.puzzle), at: movesTo(run.at), onLine: run.onLine, state };
}

// Takes up the puzzle kept with the game just restored (game_io.js): outside
// text, checked as the file's lines are (puzzles.js), its position the
// game's, its line legal (the engine asked); solving, the solver's turn is
// shown again (a try or a defence that was coming, not judged, taken off).
// Null, or why not (the game then stays a plain record).
/** @param {State} st @param {KeptPuzzle} kept @returns {Promise<string | null>} */
export async function resumePuzzle(st, kept) {
  const p = parsePuzzleLine(kept.row);
  if (typeof p === 'string') return p;
  let start = '';
  try {
    start = positionWords(st.game.start).join(' ');
  } catch (e) {
    // (a game from the variant's start: not the puzzle's)
  }
  if (start !== p.position) return "its position is not the game's";
  const at = nodeAt(kept.at, st.game.root);
  if (!at) return 'the position it had reached is not in the game';
  const bad = await lineRefusal(st, p.line);
  if (bad) return `its line is not legal at move ${bad.index + 1} (${bad.reason})`;
  const run = st.puzzle;
  Object.assign(run, { puzzle: p, root: st.game.root, at, step: kept.onLine ? kept.at.length : 0, onLine: kept.onLine,
    hint: null, checked: null, asked: false });
  st.shown.engineHeld = true;
  if (kept.state === 'try') {
    for (const child of [...at.children]) deleteFrom(st.game, child);
    goToNode(st.game, at);
    await refresh(st);
  }
  say(st, kept.state, kept.state === 'solved' ? solvedText(p) : kept.state === 'shown' ? shownText(p)
    : `${puzzleTitle(p)}. Your move: find the move that wins.`);
  return null;
}

// Reads the puzzles' file once (`fetchText`: its text, or throws why not).
/** @param {State} st @param {() => Promise<string>} fetchText */
async function readFile(st, fetchText) {
  const run = st.puzzle;
  if (run.read) return run.read;
  run.note = 'Reading the puzzles…';
  st.ui.puzzle();
  try {
    run.read = parsePuzzles(await fetchText());
    run.note = noteOf(run);
  } catch (e) {
    run.note = `No puzzles: the file puzzles.txt could not be read (${e instanceof Error ? e.message : String(e)}).`;
  }
  st.ui.puzzle();
  return run.read;
}

// The Puzzle button and "Next puzzle": the puzzle after the one shown last
// (the file's first to begin with) among those of the rating chosen. A
// puzzle whose line is not legal is left out (said in the note) and the
// next one opened.
/** @param {State} st @param {() => Promise<string>} fetchText */
export async function nextPuzzleShown(st, fetchText) {
  const read = await readFile(st, fetchText);
  if (!read) return;
  const run = st.puzzle, rating = run.rating;
  /** @type {Puzzle | null} */
  let from = run.puzzle;
  for (;;) {
    const p = nextPuzzle(read.puzzles.filter((q) => q === from || !run.refused.has(q.id)), from, rating);
    if (!p || run.refused.has(p.id)) {
      const none = !ofRating(read.puzzles, rating).length;
      run.note = `${noteOf(run)}${none ? ` None of rating ${rating}.` : ' No puzzle left to show.'}`;
      run.asked = true;  // (the panel shown to say it, also where no puzzle is)
      st.ui.puzzle();
      st.ui.status(none ? `No puzzle of rating ${rating} in the file: choose another rating in the Puzzle panel.`
        : 'No puzzle left to show: the lines of the others are not legal.', 'error');
      return;
    }
    if (await startPuzzle(st, p) !== 'refused') return;
    from = p;
  }
}

// What the panel says of the file: its reading, and the puzzles left out.
/** @param {PuzzleRun} run */
function noteOf(run) {
  return run.read ? [readingText(run.read), ...run.refusals].join(' ') : run.note;
}

// Shows `p`'s position as a game record of its own, the person to move,
// once its whole line is found legal (the engine asked); 'refused' where it
// is not (said in the note; never a move of it played), or it could not be opened.
/** @param {State} st @param {Puzzle} p @returns {Promise<'open' | 'refused' | 'failed' | 'replaced'>} */
export async function startPuzzle(st, p) {
  const run = st.puzzle;
  if (st.shown.analysing) toggleAnalysis(st, false);  // (it would tell the answer)
  const root = treeOf([]);
  Object.assign(run, { puzzle: p, root, at: root, step: 0, onLine: true, hint: null, checked: null, asked: false });
  say(st, 'loading', `Opening puzzle ${p.id}…`);
  const variants = st.session.variants;
  const err = await loadGame(st, ['gobblet', ...variants.filter((v) => v !== 'gobblet')], p.position, root, 0, true,
    { explored: true });
  if (st.puzzle.root !== root) return 'replaced';
  if (err) {
    say(st, 'off', `Puzzle ${p.id} could not be opened: ${err}`);
    st.ui.status(run.text, 'error');
    return 'failed';
  }
  const bad = await lineRefusal(st, p.line);
  if (st.puzzle.root !== root) return 'replaced';
  if (bad) {
    run.refused.add(p.id);
    run.refusals.push(bad.index < 0 ? `Puzzle ${p.id} left out: its line could not be checked (${bad.reason}).`
      : `Puzzle ${p.id} left out: its line is not legal at move ${bad.index + 1} (${bad.reason}).`);
    run.note = noteOf(run);
    say(st, 'off', run.refusals[run.refusals.length - 1]);
    st.ui.status(run.text, 'error');
    return 'refused';
  }
  say(st, 'try', `${puzzleTitle(p)}. Find the move that wins.`);
  return 'open';
}

// True while the puzzle is still being solved and the game shown still at
// `node` in its game (nothing else happened meanwhile: a give-up ends the
// defence or the check that was coming).
/** @param {State} st @param {TreeNode} node */
function still(st, node) {
  return puzzleSolving(st) && st.game.current === node && !st.shown.preview;
}

// Plays `move` at the position shown (a record's move: the engine does not answer) and shows it.
/** @param {State} st @param {string} move */
async function show(st, move) {
  st.shown.engineHeld = true;
  if (st.settings.sound) playMoveTone(move);
  playMove(st.game, move, true);
  const node = st.game.current;
  await refresh(st);
  return node;
}

// Who wins where the game is over: the solver (true) or not.
/** @param {State} st */
function solverWon(st) {
  const v = st.shown.view;
  const solver = solverOf(/** @type {Puzzle} */ (st.puzzle.puzzle));
  return Boolean(v && v.over && v.result === (solver === 1 ? 'p1win' : 'p2win'));
}

// A move tried in the puzzle (play.js attempt, through state.judge): true
// when the puzzle takes it (judged here, not played by play.js). While it
// is being solved, a move at another position than the solver's turn (gone
// back in the move list) is not played: the puzzle's position is shown
// again. Solved or given up, the game is free to explore.
/** @param {State} st @param {string} move */
export function judgePuzzleMove(st, move) {
  const run = st.puzzle;
  if (!puzzleSolving(st) || st.shown.preview) return false;
  if (run.state !== 'try') {
    st.ui.status(run.state === 'checking' ? 'Wait: the engine is checking the move tried.' : 'Wait for the defence.');
  } else if (st.game.current !== run.at) {
    backToPuzzle(st);
  } else {
    tryMove(st, move);
  }
  return true;
}

// The puzzle's position shown again, said why (a move elsewhere is no part of it).
const BACK = 'Back to the puzzle: a move at an earlier position is no part of it.';

/** @param {State} st */
async function backToPuzzle(st) {
  const run = st.puzzle, at = /** @type {TreeNode} */ (run.at);
  goToNode(st.game, at);
  await refresh(st);
  if (!still(st, at)) return;
  say(st, 'try', `${BACK} ${run.text.replace(BACK, '').trim()}`);
}

/** @param {State} st @param {string} move */
async function tryMove(st, move) {
  const run = st.puzzle;
  const p = /** @type {Puzzle} */ (run.puzzle);
  const from = /** @type {TreeNode} */ (run.at);
  if (run.onLine && move === expected(p, run.step)) {
    say(st, 'defending', `${move}: right.`);
    const node = await show(st, move);
    if (!still(st, node) && !await backTo(st, node)) return;
    run.step += 1;
    return goOn(st, node, `${move}: right.`);
  }
  say(st, 'checking', `Checking ${move}…`);
  const node = await show(st, move);
  run.checked = node;
  if (!still(st, node)) return notChecked(st, node, from, move);
  /** @type {boolean | null} */
  let wins = solverWon(st);
  let why = '';
  if (!st.shown.view?.over) {
    const s = await startSearch(st, 'prove', 1, { prove: true, movetime: CHECK_MS }, undefined, st.shown.generation);
    if (!still(st, node)) return notChecked(st, node, from, move);
    // At the defender's turn: a loss of theirs is the solver's win; their
    // win, a draw or their not losing (not-lost) proves the move no win.
    const outcome = s.proof ? s.proof.split(' ')[0] : 'unknown';
    wins = outcome === 'loss' ? true : ['win', 'draw', 'not-lost'].includes(outcome) ? false : null;
    why = { win: ' (the defender wins: proved)', draw: ' (a draw: proved)',
      'not-lost': ' (the defender cannot lose: proved)' }[outcome] ?? '';
  }
  run.checked = null;
  if (wins) {
    run.onLine = false;
    return goOn(st, node, `${move} also wins (proved by the engine), off the proof's line.`);
  }
  // Taken back: the position before it again.
  deleteFrom(st.game, node);
  goToNode(st.game, from);
  await refresh(st);
  if (!still(st, from)) return;
  say(st, 'try', wins === false ? `${move} does not win${why}. Try again, or Hint.`
    : `${move} is not the proved move (the engine could not decide it within ${CHECK_MS / 1000} s). `
      + 'Try again, or Hint.');
}

// The person went elsewhere in the move list (or the engine's answer came
// late) while the defence, a check or a hint was coming: the puzzle's
// `node` is shown again to go on from it; false where the puzzle is no
// longer being solved there (given up, another game, `node` gone).
/** @param {State} st @param {TreeNode} node */
async function backTo(st, node) {
  if (!puzzleSolving(st) || st.shown.preview || !inTree(st.game, node)) return false;
  if (st.game.current !== node) {
    goToNode(st.game, node);
    await refresh(st);
  }
  return still(st, node);
}

// The move `move` tried at `from` (its node `node`) could not be checked:
// the person went elsewhere meanwhile. It is taken back, unjudged.
/** @param {State} st @param {TreeNode} node @param {TreeNode} from @param {string} move */
async function notChecked(st, node, from, move) {
  const run = st.puzzle;
  if (!puzzleSolving(st) || run.checked !== node || !inTree(st.game, node)) return;
  run.checked = null;
  deleteFrom(st.game, node);
  if (!await backTo(st, from)) return;
  say(st, 'try', `${move} was not checked: another position was shown meanwhile. Try again, or Hint.`);
}

// After the solver's move `node`: solved if it won, else the board's defence.
/** @param {State} st @param {TreeNode} node @param {string} said @returns {Promise<void>} */
async function goOn(st, node, said) {
  const run = st.puzzle;
  const p = /** @type {Puzzle} */ (run.puzzle);
  run.hint = null;
  if (solverWon(st)) return solved(st);
  say(st, 'defending', `${said} The defence…`);
  await new Promise((resolve) => setTimeout(resolve, DEFENCE_DELAY_MS));
  if (!still(st, node) && !await backTo(st, node)) return;
  let reply = run.onLine ? expected(p, run.step) : null;
  if (!reply) {
    const s = await startSearch(st, 'puzzle', 1, { movetime: DEFENCE_MS }, undefined, st.shown.generation);
    if (!still(st, node)) return await backTo(st, node) ? goOn(st, node, said) : undefined;  // (its search was stopped)
    reply = s.best && s.best !== '(none)' ? s.best : null;
    if (!reply) return say(st, 'try', `${said} The engine gave no defence: try the next move.`);
  }
  const defended = await show(st, reply);
  if (!still(st, defended)) return;
  if (run.onLine) run.step += 1;
  run.at = defended;
  if (st.shown.view?.over) return say(st, 'shown', `${said} ${reply}: the game is over (${st.shown.view.reason}).`);
  say(st, 'try', `${said} The best defence: ${reply}. Your move: find the move that wins.`);
}

/** @param {State} st */
function solved(st) {
  const run = st.puzzle;
  const p = /** @type {Puzzle} */ (run.puzzle);
  run.at = st.game.current;
  say(st, 'solved', solvedText(p));
}

/** @param {Puzzle} p */
function solvedText(p) {
  return `Solved: puzzle ${p.id}, player ${solverOf(p)} wins. The proof's line: step through it below.`;
}

/** @param {Puzzle} p */
function shownText(p) {
  return `The solution of puzzle ${p.id}: ${p.solution}. The proof's line: step through it below.`;
}

// The Hint button: the piece of the next winning move (the line's; off the
// line, the prover's), drawn on the board (its square, or its reserve size).
/** @param {State} st */
export async function giveHint(st) {
  const run = st.puzzle;
  if (!puzzleOn(st) || run.state !== 'try' || st.game.current !== run.at) return;
  const p = /** @type {Puzzle} */ (run.puzzle);
  let move = run.onLine ? expected(p, run.step) : null;
  if (!move) {
    const node = st.game.current;
    say(st, 'checking', 'Asking the prover for a hint…');
    const s = await startSearch(st, 'prove', 1, { prove: true, movetime: CHECK_MS }, undefined, st.shown.generation);
    if (!still(st, node)) {
      if (await backTo(st, node)) say(st, 'try', 'No hint: another position was shown meanwhile. Hint again.');
      return;
    }
    move = s.best && s.best !== '(none)' ? s.best : null;
    if (!move) return say(st, 'try', `The prover found no winning move within ${CHECK_MS / 1000} s: no hint.`);
  }
  run.hint = hintOf(move);
  say(st, 'try', `${hintText(move)} ${run.text.replace(/^Hint: [^.]*\. /, '')}`);
  st.ui.redraw();
}

// "Show solution": gives up, also while the board's defence or the check
// of a move is coming (they end: still() no longer holds); a move being
// checked is taken off the game. The proof's line is shown from the puzzle's start.
/** @param {State} st */
export async function showSolution(st) {
  const run = st.puzzle;
  if (!puzzleSolving(st)) return;
  const p = /** @type {Puzzle} */ (run.puzzle);
  run.hint = null;
  const checked = run.checked;
  run.checked = null;
  say(st, 'shown', shownText(p));
  if (checked && inTree(st.game, checked)) deleteFrom(st.game, checked);
  await stepLine(st, 0);
}

// Shows the position after the proof line's move `index` (its moves put into
// the game's tree where missing: a variation where the person went another way).
/** @param {State} st @param {number} index */
export async function stepLine(st, index) {
  const run = st.puzzle;
  if (!puzzleOn(st) || !run.puzzle || (run.state !== 'solved' && run.state !== 'shown')) return;
  const line = run.puzzle.line;
  goToNode(st.game, /** @type {TreeNode} */ (run.root));
  for (const m of line.slice(0, Math.max(0, Math.min(index, line.length - 1)) + 1)) playMove(st.game, m, true);
  await refresh(st);
  st.ui.puzzle();
}

// The index of the proof line's move shown (-1: the position shown is not on the line).
/** @param {State} st */
export function lineIndexShown(st) {
  const run = st.puzzle;
  if (!run.puzzle || !run.root) return -1;
  let node = st.game.current;
  const moves = [];
  while (node.parent) {
    moves.unshift(node.move);
    node = node.parent;
  }
  if (node !== run.root || !moves.length) return -1;
  return moves.every((m, i) => m === run.puzzle?.line[i]) ? moves.length - 1 : -1;
}

// The rating chosen for the next puzzles (0: any); what the panel said of
// the rating chosen before goes (the file's reading is said again).
/** @param {State} st @param {number} rating */
export function chooseRating(st, rating) {
  st.puzzle.rating = rating;
  if (st.puzzle.read) st.puzzle.note = noteOf(st.puzzle);
  st.ui.puzzle();
}

// Puzzle mode judges the moves tried in a puzzle (play.js attempt), before
// whatever judged them already (review_run.js: learning from mistakes).
/** @param {State} st */
export function wirePuzzles(st) {
  const before = st.judge;
  st.judge = (move) => judgePuzzleMove(st, move) || Boolean(before && before(move));
}
