// The puzzles' file as the page reads it (web/puzzles.js): good lines taken,
// every kind of bad line skipped with its reason (never a throw), the
// choice by rating and the next puzzle, the line's expected moves and the
// hint; and the repository's own puzzles/puzzles.txt read whole, with no
// line skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  parsePuzzles, parsePuzzleLine, readingText, ofRating, nextPuzzle, solverOf, expected, judgeTry, hintOf, hintText,
  puzzleTitle, puzzleRow, MAX_FILE_CHARS,
} from '../../web/puzzles.js';

const FILE = new URL('../../puzzles/puzzles.txt', import.meta.url);

// A line of the file from its fields.
const row = (...fields) => fields.join('\t');
const GOOD = row('1', '2', '4/4/4/4 1', 'X@a1', 'X@a1 x@b1 X@a2', '3');

test('a good line is a puzzle with its fields typed', () => {
  const p = parsePuzzleLine(GOOD);
  assert.deepEqual(p, { id: 1, rating: 2, position: '4/4/4/4 1', solution: 'X@a1', line: ['X@a1', 'X@b1', 'X@a2'],
    plies: 3 });
  // Moves in any case are kept as the engine writes them (the size uppercase, the squares lowercase).
  const cased = parsePuzzleLine(row('3', '1', '4/4/4/4 1', 'x@A1', 'x@A1 B3B2 S@c4', '3'));
  assert.deepEqual(typeof cased === 'string' ? cased : [cased.solution, cased.line], ['X@a1', ['X@a1', 'b3b2', 'S@c4']]);
  assert.equal(solverOf(p), 1);
  assert.equal(solverOf(parsePuzzleLine(row('2', '5', '4/4/4/4 2', 'a1b2', 'a1b2', '1'))), 2);
});

test('bad lines are skipped with a reason each, the good ones kept, nothing thrown', () => {
  const bad = [
    ['only\tthree\tfields', /3 tab-separated fields, not 6/],
    [row('0', '2', '4/4/4/4 1', 'X@a1', 'X@a1', '1'), /the id '0'/],
    [row('x', '2', '4/4/4/4 1', 'X@a1', 'X@a1', '1'), /the id 'x'/],
    [row('3', '6', '4/4/4/4 1', 'X@a1', 'X@a1', '1'), /the rating '6' is not 1 to 5/],
    [row('3', '2', '4/4/4/4 3', 'X@a1', 'X@a1', '1'), /is not a position text/],
    [row('3', '2', '4/4/4/4 1\ngo infinite', 'X@a1', 'X@a1', '1'), /is not a position text/],
    [row('3', '2', '4/4/4/4 1', 'Q@a1', 'Q@a1', '1'), /is not a move/],
    [row('3', '2', '4/4/4/4 1', 'X@a1', 'X@a1  X@a2 x@b1', '3'), /is not a move/],
    [row('3', '2', '4/4/4/4 1', 'X@a1', 'X@a2 x@b1 X@a1', '3'), /starts with 'X@a2', not the solution 'X@a1'/],
    [row('3', '2', '4/4/4/4 1', 'X@a1', 'X@a1 x@b1 X@a2', '5'), /plies '5' is not the line's 3 moves/],
    [row('3', '2', '4/4/4/4 1', 'X@a1', 'X@a1 x@b1', '2'), /ends with the defender's move/],
    [row('3', '2', '<img src=x onerror=alert(1)>', 'X@a1', 'X@a1', '1'), /is not a position text/],
  ];
  for (const [line, why] of bad) assert.match(/** @type {string} */ (parsePuzzleLine(line)), why, line);
  const text = ['# a comment', GOOD, '', ...bad.map(([l]) => l.replace(/\n/g, ' ')), row('9', '4', '4/4/4/4 2',
    'a1b2', 'a1b2', '1'), GOOD].join('\n');
  const read = parsePuzzles(text);
  assert.deepEqual(read.puzzles.map((p) => p.id), [1, 9]);
  assert.equal(read.skipped, bad.length + 1);  // (and the id 1 again)
  assert.equal(read.problems.length, 5);  // (five named, the rest counted)
  assert.match(read.problems[0], /^line 4: 3 tab-separated fields/);
  assert.match(readingText(read), /^2 puzzles; 13 lines skipped \(line 4: .*; and 8 more\)\.$/);
  assert.equal(readingText(parsePuzzles(GOOD)), '1 puzzle.');
});

test('a file past the limit is refused whole, and Windows and bare \\r line ends are read', () => {
  const read = parsePuzzles('#'.repeat(MAX_FILE_CHARS + 1));
  assert.equal(read.puzzles.length, 0);
  assert.match(read.problems[0], /at most 5000000 are read/);
  assert.deepEqual(parsePuzzles(`# c\r\n${GOOD}\r\n`).puzzles.map((p) => p.id), [1]);
  // A last line ending in a bare \r (old Mac line ends) is read too.
  assert.deepEqual(parsePuzzles(`# c\r${GOOD}\r`).puzzles.map((p) => p.id), [1]);
});

test('puzzles are chosen by rating, the next one after the current, round again', () => {
  const text = [1, 2, 3, 4, 5].map((id) => row(String(id), String(id % 2 ? 1 : 3), '4/4/4/4 1', 'X@a1', 'X@a1', '1'))
    .join('\n');
  const { puzzles } = parsePuzzles(text);
  assert.deepEqual(ofRating(puzzles, 1).map((p) => p.id), [1, 3, 5]);
  assert.deepEqual(ofRating(puzzles, 0).map((p) => p.id), [1, 2, 3, 4, 5]);
  assert.equal(nextPuzzle(puzzles, null, 0)?.id, 1);
  assert.equal(nextPuzzle(puzzles, puzzles[0], 0)?.id, 2);
  assert.equal(nextPuzzle(puzzles, puzzles[4], 0)?.id, 1);
  assert.equal(nextPuzzle(puzzles, puzzles[0], 3)?.id, 2);  // (of another rating: the rating's first)
  assert.equal(nextPuzzle(puzzles, puzzles[3], 3)?.id, 2);
  assert.equal(nextPuzzle(puzzles, null, 5), null);
  assert.equal(nextPuzzle([], null, 0), null);
  // A puzzle kept for a reload (its line of the file, read back): the next is found by its id.
  const kept = parsePuzzleLine(puzzleRow(puzzles[1]));
  assert.deepEqual(kept, puzzles[1]);
  assert.equal(nextPuzzle(puzzles, /** @type {any} */ (kept), 0)?.id, 3);
});

test("the line's moves, the judgement of a try, the hint and the title", () => {
  const p = /** @type {import('../../web/puzzles.js').Puzzle} */ (parsePuzzleLine(GOOD));
  assert.equal(expected(p, 0), 'X@a1');
  assert.equal(expected(p, 2), 'X@a2');
  assert.equal(expected(p, 3), null);
  assert.equal(judgeTry(p, 0, 'X@a1'), 'line');
  assert.equal(judgeTry(p, 0, 'X@b2'), 'other');
  assert.equal(judgeTry(p, 2, 'X@a1'), 'other');
  assert.deepEqual(hintOf('X@b2'), { size: 'X', from: null, to: 'b2' });
  assert.deepEqual(hintOf('c3d4'), { size: null, from: 'c3', to: 'd4' });
  assert.equal(hintText('c3d4'), 'Hint: move the piece on c3.');
  assert.equal(hintText('M@a1'), 'Hint: place a piece of size M from the reserve.');
  assert.equal(puzzleTitle(p), 'Puzzle 1 · rating 2 of 5 · player 1 to move and win in 3 plies');
});

test("the repository's puzzles/puzzles.txt is read whole: every line a puzzle, none skipped", () => {
  const text = readFileSync(FILE, 'utf8');
  const read = parsePuzzles(text);
  assert.deepEqual(read.problems, []);
  const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  assert.equal(read.puzzles.length, lines.length);
  assert.ok(read.puzzles.length > 0, 'no puzzle in the file');
  for (const p of read.puzzles) {
    assert.equal(p.line[0], p.solution, `puzzle ${p.id}`);
    assert.equal(p.line.length, p.plies, `puzzle ${p.id}`);
  }
});
