// @ts-check
// Reading the engine's texts for drawing: the position text of
// docs/notation.md and the `d` output's sizes and supplies. This is data,
// not rules: which variants exist, what is legal, and who won, the engine says.

// The piece sizes' letters, smallest first (docs/notation.md): a size is
// its index here. The one table of them: the other modules ask sizeIndex
// and sizeLetter.
const SIZE_LETTERS = 'SMLX';

/** A piece: its player (1 or 2) and its size (an index of SIZE_LETTERS).
 * @typedef {{player: number, size: number}} Piece */
/** A position as drawn: the board's side, the side to move (1 or 2), and
 * each occupied square's stack, bottom to top.
 * @typedef {{n: number, side: number, squares: Map<string, Piece[]>}} Position */
/** What the board looks like: its side, how many sizes, and whether the
 * reserves are external stacks (4x4).
 * @typedef {{n: number, sizes: number, stacks: boolean}} Shape */

// What the board looks like, from the engine's answers: {n (board side),
// sizes (how many), stacks (4x4's external stacks: the supply shows their tops)}.
/** @param {Position} pos @param {string} sizesText @param {string} supplyText @returns {Shape} */
export function boardShape(pos, sizesText, supplyText) {
  return { n: pos.n, sizes: sizesText.trim().length, stacks: isStacksSupply(supplyText) };
}

// Whether a `d` supply line lists external stacks ("stacks X L -").
/** @param {string} text */
function isStacksSupply(text) {
  return text.trim().split(/\s+/)[0] === 'stacks';
}

// The size of a letter (either case), -1 for a letter that is none.
/** @param {string} letter */
export function sizeIndex(letter) {
  return SIZE_LETTERS.indexOf(letter.toUpperCase());
}

/** @param {number} index */
export function sizeLetter(index) {
  return SIZE_LETTERS[index];
}

// Square name of file f (0 = a) and rank r (0 = 1).
/** @param {number} f @param {number} r */
export function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

// Parses a position text into {n, side (1|2), squares: Map name -> [{player, size}] bottom to top}.
// Returns null for text it cannot read (the engine made it, so that is a bug).
/** @param {string} text @returns {Position | null} */
export function parsePosition(text) {
  const [board, side] = text.trim().split(/\s+/);
  if (!board || !side) return null;
  const ranks = board.split('/');
  const n = ranks.length;
  const squares = new Map();
  for (let i = 0; i < n; i++) {
    const rank = n - 1 - i;
    let file = 0;
    const row = ranks[i];
    for (let j = 0; j < row.length; j++) {
      const c = row[j];
      if (c >= '1' && c <= '9') {
        file += Number(c);
        continue;
      }
      /** @type {Piece[]} */
      const stack = [];
      if (c === '[') {
        const end = row.indexOf(']', j);
        for (const p of row.slice(j + 1, end)) stack.push(piece(p));
        j = end;
      } else {
        stack.push(piece(c));
      }
      squares.set(squareName(file, rank), stack);
      file++;
    }
  }
  return { n, side: Number(side), squares };
}

/** @param {string} letter @returns {Piece} */
function piece(letter) {
  return { player: letter === letter.toUpperCase() ? 1 : 2, size: sizeIndex(letter) };
}

// A 3x3 supply's word: a size's letter, x, how many (Sx2).
const SUPPLY_WORD = new RegExp(`^([${SIZE_LETTERS}])x(\\d+)$`);

// Parses a `d` supply line ("stacks X L -" or "Sx2 Mx1 Lx2") into a list of
// stacks, each the sizes it shows (4x4: one entry per external stack, top
// only; 3x3: one entry per piece in hand; -1: an empty stack).
/** @param {string} text */
export function parseSupply(text) {
  const words = text.trim().split(/\s+/);
  if (isStacksSupply(text)) return words.slice(1).map((w) => (w === '-' ? -1 : sizeIndex(w)));
  /** @type {number[]} */
  const out = [];
  for (const w of words) {
    const m = SUPPLY_WORD.exec(w);
    if (m) for (let i = 0; i < Number(m[2]); i++) out.push(sizeIndex(m[1]));
  }
  return out;
}

// Human text for a stack, bottom to top.
/** @param {Piece[] | undefined} stack */
export function describeStack(stack) {
  if (!stack || !stack.length) return 'empty';
  return stack.map((p) => `${sizeLetter(p.size)}${p.player === 1 ? '¹' : '²'}`).join(' under ');
}
