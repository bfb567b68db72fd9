// @ts-check
// The game kept in this browser (localStorage), so that a reload, or the
// page opened again, loses nothing of it: the tree of moves with its
// variations, comments and marks, the tags and the result, the variant and
// the start, and the position shown. It is written after every change
// (play.js) as a PGN (pgn.js: the page's one writer and reader of games)
// with the moves to the position shown. What storage gives back is outside
// text, as an import is: its shape is checked here, then its PGN is read
// and its moves replayed as an import's are (game_io.js restoreGame); a
// record that is not a game of this page is refused with the reason.

import { writePgn, MAX_IMPORT_CHARS } from './pgn.js';
import { movesTo, gameResult, snapshot, MAX_GAME_MOVES } from './game.js';
import { linkHash, pageHost } from './address.js';
import { roster } from './players.js';
import { keptPuzzle } from './puzzle_run.js';

const KEY = 'gobblet-board-game';
const FORMAT = 1;
// The longest record kept, in characters: the PGN in it must be one an
// import reads (MAX_IMPORT_CHARS), and a longer one would crowd the
// browser's storage (some 5 million characters for the whole site).
export const MAX_SAVED_CHARS = MAX_IMPORT_CHARS;

/** A game as kept: its PGN, the moves from the start to the position shown,
 * whether it is a record explored (game.js game.explored), the link
 * (address.js linkHash) the page showed for it, and, for a puzzle's game,
 * the puzzle and how far it went (puzzle_run.js keptPuzzle; else null).
 * @typedef {{pgn: string, shown: string[], explored: boolean, link: string, puzzle: KeptPuzzle | null}} SavedGame
 * @typedef {import('./puzzle_run.js').KeptPuzzle} KeptPuzzle */

// Keeps the game shown in this browser, replacing the one kept before.
// Where it cannot (too large; storage refused or full) the record kept
// before is removed (a reload must not bring back an older game), and the
// Import/Export note says so, once until it can again (st.savedProblem:
// why the last change could not be kept, null: it was).
/** @param {import('./state.js').State} st */
export function keepGame(st) {
  const game = st.game;
  if (!game.variant) return;  // (no game loaded yet)
  const problem = writeRecord({
    pgn: writePgn(game, game.root, gameResult(game), pageHost(), roster(st.settings, st.session.levels)),
    shown: movesTo(game.current),
    explored: game.explored,
    link: linkHash(snapshot(game)),
    puzzle: keptPuzzle(st),
  });
  if (problem && problem !== st.savedProblem) {
    st.ui.ioStatus(`This game is not kept for a reload: ${problem}. Export its PGN to keep it.`);
  }
  st.savedProblem = problem;
}

// Writes `record`; null, or why it was not written.
/** @param {SavedGame} record @returns {string | null} */
function writeRecord(record) {
  const text = JSON.stringify({ format: FORMAT, ...record });
  if (text.length > MAX_SAVED_CHARS) {
    forgetGame();
    return `it is ${text.length.toLocaleString('en')} characters long, and at most `
      + `${MAX_SAVED_CHARS.toLocaleString('en')} are kept`;
  }
  try {
    localStorage.setItem(KEY, text);
    return null;
  } catch (e) {
    forgetGame();
    return 'this browser refused to store it (storage full or turned off)';
  }
}

// Removes the game kept (New game does not need it: the new game replaces it).
export function forgetGame() {
  try {
    localStorage.removeItem(KEY);
  } catch (e) {
    // (storage turned off: nothing is kept)
  }
}

// The game kept in this browser: {record} with every field of its shape
// (the PGN not read yet, nor its moves checked: game_io.js restoreGame),
// {error} saying why what is kept is not a game of this page (too long,
// not JSON, a field missing or of another type), or null when none is kept
// (or storage cannot be read).
/** @returns {{record: SavedGame} | {error: string} | null} */
export function readSavedGame() {
  let text;
  try {
    text = localStorage.getItem(KEY);
  } catch (e) {
    return null;
  }
  if (text === null) return null;
  if (text.length > MAX_SAVED_CHARS) {
    return { error: `it is ${text.length.toLocaleString('en')} characters long, more than the `
      + `${MAX_SAVED_CHARS.toLocaleString('en')} a game kept may have` };
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { error: 'it cannot be read (not a game saved by this page)' };
  }
  return recordOf(data);
}

// `data` (parsed JSON from storage) as a SavedGame if it has this page's
// format and every field of its shape; else {error}.
/** @param {unknown} data @returns {{record: SavedGame} | {error: string}} */
function recordOf(data) {
  if (!data || typeof data !== 'object' || /** @type {any} */ (data).format !== FORMAT) {
    return { error: 'it is not of the format this page saves' };
  }
  const { pgn, shown, explored, link, puzzle } = /** @type {Record<string, unknown>} */ (data);
  if (typeof pgn !== 'string' || !isMoves(shown) || typeof explored !== 'boolean' || typeof link !== 'string'
    || !(puzzle === undefined || puzzle === null || isKeptPuzzle(puzzle))) {
    return { error: 'a field of it is missing or not of its type' };
  }
  return { record: { pgn, shown: /** @type {string[]} */ (shown), explored, link,
    puzzle: /** @type {KeptPuzzle | undefined | null} */ (puzzle) || null } };
}

/** @param {unknown} list */
function isMoves(list) {
  return Array.isArray(list) && list.length <= MAX_GAME_MOVES && list.every((m) => typeof m === 'string');
}

// The shape of a kept puzzle (its contents are checked when it is resumed: puzzle_run.js resumePuzzle).
/** @param {unknown} data */
function isKeptPuzzle(data) {
  if (!data || typeof data !== 'object') return false;
  const { row, at, onLine, state } = /** @type {Record<string, unknown>} */ (data);
  return typeof row === 'string' && isMoves(at) && typeof onLine === 'boolean'
    && (state === 'try' || state === 'solved' || state === 'shown');
}
