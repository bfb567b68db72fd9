// @ts-check
// The puzzles' file (puzzles/puzzles.txt, served beside the page as
// puzzles.txt; docs/board.md, "Puzzles") read into puzzles, and the pure
// rules of solving one: which move the line expects, the defence the board
// plays, the hint, the choice by rating. No state of its own; the mode
// itself (the board, the engine) is puzzle_run.js.
//
// The file is outside text: every field is checked for its shape
// (words.js) before any of it can reach the engine, a bad line is skipped
// with its reason, and nothing of it is ever drawn as markup.

import { engineCaseMove, positionWords, reasonOf, quoted } from './words.js';

/**
 * A puzzle: its id, its difficulty (1-5), the position (a position text),
 * the one winning move, the proof's principal line from the position to
 * the win (the solution first, the defender's moves the longest
 * resistance) and the proved length of the win in plies (the line's length).
 * @typedef {{id: number, rating: number, position: string, solution: string, line: string[], plies: number}} Puzzle
 */

// The most the page reads of the file, and the most puzzles it keeps.
export const MAX_FILE_CHARS = 5000000;
export const MAX_PUZZLES = 100000;
// The most problems listed by name (the rest are counted).
const MAX_PROBLEMS_NAMED = 5;

const ID = /^[1-9]\d{0,8}$/;
const RATING = /^[1-5]$/;
const PLIES = /^[1-9]\d{0,2}$/;

// One line of the file read into a puzzle, or the reason it is not one.
/** @param {string} text @returns {Puzzle | string} */
export function parsePuzzleLine(text) {
  const fields = text.split('\t');
  if (fields.length !== 6) {
    return `${fields.length} tab-separated fields, not 6 (id, rating, position, solution, line, plies)`;
  }
  const [id, rating, position, solution, lineText, plies] = fields;
  if (!ID.test(id)) return `the id ${quoted(id)} is not a whole number from 1`;
  if (!RATING.test(rating)) return `the rating ${quoted(rating)} is not 1 to 5`;
  try {
    const pos = positionWords(position).join(' ');
    const first = engineCaseMove(solution);
    const line = lineText.split(' ').map((m) => engineCaseMove(m));
    if (line[0] !== first) return `the line starts with ${quoted(line[0])}, not the solution ${quoted(first)}`;
    if (!PLIES.test(plies) || Number(plies) !== line.length) {
      return `plies ${quoted(plies)} is not the line's ${line.length} moves`;
    }
    if (line.length % 2 === 0) return `the line of ${line.length} moves ends with the defender's move, not the win`;
    return { id: Number(id), rating: Number(rating), position: pos, solution: first, line, plies: line.length };
  } catch (e) {
    return reasonOf(e);
  }
}

// `puzzle` as a line of the file (what parsePuzzleLine reads back into it).
/** @param {Puzzle} puzzle */
export function puzzleRow(puzzle) {
  const p = puzzle;
  return [p.id, p.rating, p.position, p.solution, p.line.join(' '), p.plies].join('\t');
}

// The file's text read into its puzzles, in the file's order, and what was
// wrong with the lines skipped ("line 7: the rating '9' is not 1 to 5").
// '#' lines and blank lines are comments; a repeated id is skipped. Lines
// end with \n, \r\n or \r; moves are read in any case, kept as the engine
// writes them (x@A1 → X@a1).
/** @param {string} text @returns {{puzzles: Puzzle[], problems: string[], skipped: number}} */
export function parsePuzzles(text) {
  /** @type {Puzzle[]} */
  const puzzles = [];
  /** @type {string[]} */
  const problems = [];
  let skipped = 0;
  if (text.length > MAX_FILE_CHARS) {
    return { puzzles, problems: [`the file is ${text.length} characters long: at most ${MAX_FILE_CHARS} are read`],
      skipped: 1 };
  }
  const ids = new Set();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (!raw.trim() || raw.startsWith('#')) continue;
    let p = parsePuzzleLine(raw);
    if (typeof p !== 'string' && ids.has(p.id)) p = `the id ${p.id} comes again`;
    if (typeof p !== 'string' && puzzles.length >= MAX_PUZZLES) p = `more than ${MAX_PUZZLES} puzzles`;
    if (typeof p === 'string') {
      skipped += 1;
      if (problems.length < MAX_PROBLEMS_NAMED) problems.push(`line ${i + 1}: ${p}`);
      continue;
    }
    ids.add(p.id);
    puzzles.push(p);
  }
  return { puzzles, problems, skipped };
}

// What the file's reading says to people: how many puzzles, and the lines skipped with why.
/** @param {{puzzles: Puzzle[], problems: string[], skipped: number}} read */
export function readingText(read) {
  const n = read.puzzles.length;
  const head = `${n} puzzle${n === 1 ? '' : 's'}`;
  if (!read.skipped) return `${head}.`;
  const more = read.skipped - read.problems.length;
  return `${head}; ${read.skipped} line${read.skipped === 1 ? '' : 's'} skipped (${read.problems.join('; ')}`
    + `${more > 0 ? `; and ${more} more` : ''}).`;
}

// The puzzles of `rating` (0: every rating), in the file's order.
/** @param {Puzzle[]} puzzles @param {number} rating */
export function ofRating(puzzles, rating) {
  return rating ? puzzles.filter((p) => p.rating === rating) : puzzles;
}

// The puzzle after `current` (by its id) among those of `rating` (0: any), in the
// file's order, from the first again after the last; the first of them
// when `current` is null or of another rating; null if there is none.
/** @param {Puzzle[]} puzzles @param {Puzzle | null} current @param {number} rating @returns {Puzzle | null} */
export function nextPuzzle(puzzles, current, rating) {
  const list = ofRating(puzzles, rating);
  if (!list.length) return null;
  const at = current ? list.findIndex((p) => p.id === current.id) : -1;
  return list[(at + 1) % list.length];
}

// Who solves `puzzle`: the side to move in its position (1 or 2).
/** @param {Puzzle} puzzle */
export function solverOf(puzzle) {
  return Number(puzzle.position.split(' ')[1]);
}

// The move the line expects at `step` (the number of its moves played), or null past its end.
/** @param {Puzzle} puzzle @param {number} step */
export function expected(puzzle, step) {
  return step < puzzle.line.length ? puzzle.line[step] : null;
}

// How a move tried at `step` (the solver's turn) stands against the line:
// 'line' the line's own move; 'other' another one (whether it also wins,
// only the engine can say).
/** @param {Puzzle} puzzle @param {number} step @param {string} move @returns {'line' | 'other'} */
export function judgeTry(puzzle, step, move) {
  return expected(puzzle, step) === move ? 'line' : 'other';
}

// Where the hint points for `move`: the square a piece moves from, or the
// reserve's size and the square it goes to ('X@b2' → {size: 'X', from: null, to: 'b2'}).
/** @param {string} move @returns {{size: string | null, from: string | null, to: string}} */
export function hintOf(move) {
  if (move[1] === '@') return { size: move[0].toUpperCase(), from: null, to: move.slice(2) };
  return { size: null, from: move.slice(0, 2), to: move.slice(2) };
}

// The hint in words: which piece to play (not where).
/** @param {string} move */
export function hintText(move) {
  const h = hintOf(move);
  return h.from ? `Hint: move the piece on ${h.from}.` : `Hint: place a piece of size ${h.size} from the reserve.`;
}

// The puzzle's title: "Puzzle 12 · rating 3 of 5 · player 1 to move and win (in 5 plies)".
/** @param {Puzzle} puzzle */
export function puzzleTitle(puzzle) {
  return `Puzzle ${puzzle.id} · rating ${puzzle.rating} of 5 · player ${solverOf(puzzle)} to move and win `
    + `in ${puzzle.plies} pl${puzzle.plies === 1 ? 'y' : 'ies'}`;
}
