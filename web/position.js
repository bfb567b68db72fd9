// Reading the engine's texts for drawing: the position text of
// docs/notation.md and the `d` output's sizes and supplies. This is data,
// not rules: which variants exist, what is legal, and who won, the engine says.

const SIZE_LETTERS = 'SMLX';

// What the board looks like, from the engine's answers: {n (board side),
// sizes (how many), stacks (4x4's external stacks: the supply shows their tops)}.
export function boardShape(pos, sizesText, supplyText) {
  return { n: pos.n, sizes: sizesText.trim().length, stacks: isStacksSupply(supplyText) };
}

// Whether a `d` supply line lists external stacks ("stacks X L -").
function isStacksSupply(text) {
  return text.trim().split(/\s+/)[0] === 'stacks';
}

export function sizeIndex(letter) {
  return SIZE_LETTERS.indexOf(letter.toUpperCase());
}

export function sizeLetter(index) {
  return SIZE_LETTERS[index];
}

// Square name of file f (0 = a) and rank r (0 = 1).
export function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

// Parses a position text into {n, side (1|2), squares: Map name -> [{player, size}] bottom to top}.
// Returns null for text it cannot read (the engine made it, so that is a bug).
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

function piece(letter) {
  return { player: letter === letter.toUpperCase() ? 1 : 2, size: sizeIndex(letter) };
}

// Parses a `d` supply line ("stacks X L -" or "Sx2 Mx1 Lx2") into a list of
// stacks, each the sizes it shows (4x4: one entry per external stack, top
// only; 3x3: one entry per piece in hand).
export function parseSupply(text) {
  const words = text.trim().split(/\s+/);
  if (isStacksSupply(text)) return words.slice(1).map((w) => (w === '-' ? -1 : sizeIndex(w)));
  const out = [];
  for (const w of words) {
    const m = /^([SMLX])x(\d+)$/.exec(w);
    if (m) for (let i = 0; i < Number(m[2]); i++) out.push(sizeIndex(m[1]));
  }
  return out;
}

// Human text for a stack, bottom to top.
export function describeStack(stack) {
  if (!stack || !stack.length) return 'empty';
  return stack.map((p) => `${'SMLX'[p.size]}${p.player === 1 ? '¹' : '²'}`).join(' under ');
}
