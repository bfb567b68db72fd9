// Reading the engine's texts for drawing: the position text of
// docs/notation.md, the variant name, the `d` output's supplies and result
// reason. This is data, not rules: what is legal, and who won, the engine says.

const SIZE_LETTERS = 'SMLX';

// A variant's shape from its name: {name, n (board side), sizes, perSize, stacks}.
export function variantShape(name) {
  if (name === 'gobblet') return { name, n: 4, sizes: 4, perSize: 3, stacks: true };
  if (name === 'gobblers') return { name, n: 3, sizes: 3, perSize: 2, stacks: false };
  if (name === 'tictactoe') return { name, n: 3, sizes: 1, perSize: 5, stacks: false };
  const m = /^3x3:(\d+),(\d+),([01])$/.exec(name);
  if (m) return { name, n: 3, sizes: Number(m[1]), perSize: Number(m[2]), stacks: false };
  return null;
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
  if (words[0] === 'stacks') return words.slice(1).map((w) => (w === '-' ? -1 : sizeIndex(w)));
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
