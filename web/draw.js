// @ts-check
// Drawing the board (SVG) and the reserves from a parsed position.

import { squareName, sizeIndex, sizeLetter, describeStack } from './position.js';

/** @typedef {import('./position.js').Piece} Piece */
/** @typedef {import('./values.js').Mark} Mark */

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100;
// How far apart arrows that end on one square stand, in board units.
const ARROW_SPREAD = 34;
// An arrow's head: its length and half its width, in board units.
const HEAD_LENGTH = 26;
const HEAD_HALF_WIDTH = 15;

/** @param {string} name @param {Record<string, string | number>} attrs @param {Element | null} parent */
function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}

// Radius of a piece of size index `size` among `sizes` sizes, in a 100-unit cell.
/** @param {number} size @param {number} sizes */
function radius(size, sizes) {
  return sizes === 1 ? 36 : 15 + (31 * (size + 1)) / sizes;
}

// The board seen from player 2's side (flip): every drawing of the board
// reads its corners through cornerOf.
let flipped = false;
/** @param {boolean} on */
export function setFlipped(on) {
  flipped = on;
}

// The top-left corner of the cell of file f, rank r (0-based) on an n-board.
/** @param {number} f @param {number} r @param {number} n */
function cornerOf(f, r, n) {
  return flipped ? [(n - 1 - f) * CELL, r * CELL] : [f * CELL, (n - 1 - r) * CELL];
}

/** @param {string} sq @param {number} n */
function centre(sq, n) {
  const [x, y] = cornerOf(sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1, n);
  return [x + CELL / 2, y + CELL / 2];
}

// Draws one piece (and, inside it, rings for the pieces it covers).
/** @param {Element} g @param {Piece[]} stack @param {number} sizes @param {number} cx @param {number} cy */
function drawStack(g, stack, sizes, cx, cy) {
  const top = stack[stack.length - 1];
  const r = radius(top.size, sizes);
  el('circle', { cx, cy: cy + 3, r, class: 'shadow' }, g);
  el('circle', { cx, cy, r, class: `piece p${top.player}` }, g);
  el('circle', { cx, cy, r: r * 0.72, class: `rim p${top.player}` }, g);
  for (const under of stack.slice(0, -1)) {
    el('circle', { cx, cy, r: radius(under.size, sizes) * 0.9, class: `covered p${under.player}` }, g);
  }
  const label = el('text', { x: cx, y: cy, class: 'size-label' }, g);
  label.textContent = sizeLetter(top.size) + (stack.length > 1 ? `+${stack.length - 1}` : '');
}

// opts: {sizes (of the variant), lastMove, selected, targets: Map sq -> move, marks: Map move -> {wdl, plies}, line: [sq], sources,
//        focus: the square the keyboard reaches the board on (tabindex 0; the others -1, reached by the arrows),
//        squareValues: with no piece picked, the best value of a move to each square (the "Values" toggle), or null}
/**
 * @param {Element} svg @param {import('./position.js').Position} pos
 * @param {{sizes: number, lastMove: string | null | undefined, selected: string | null, targets: Map<string, string>,
 *   marks: Map<string, Mark> | null, line: string[], sources: Set<string>, focus: string,
 *   squareValues?: Map<string, Mark> | null}} opts
 */
export function drawBoard(svg, pos, opts) {
  const n = pos.n;
  svg.setAttribute('viewBox', `-24 -4 ${n * CELL + 28} ${n * CELL + 30}`);
  svg.replaceChildren();
  const last = opts.lastMove ? [opts.lastMove.slice(-2), opts.lastMove[1] === '@' ? null : opts.lastMove.slice(0, 2)] : [];
  el('rect', { x: -4, y: -4, width: n * CELL + 8, height: n * CELL + 8, rx: 10, class: 'frame' }, svg);
  for (let r = 0; r < n; r++) {
    for (let f = 0; f < n; f++) {
      const sq = squareName(f, r);
      const g = el('g', { 'data-sq': sq, class: 'square', role: 'button', tabindex: sq === (opts.focus || 'a1') ? 0 : -1 }, svg);
      const stackAt = pos.squares.get(sq);
      const target = opts.targets.get(sq);
      const mark = target !== undefined && opts.marks ? opts.marks.get(target) : null;
      const best = opts.squareValues ? opts.squareValues.get(sq) : undefined;
      g.setAttribute('aria-label', `${sq}: ${describeStack(stackAt)}${opts.sources.has(sq) ? ', can move' : ''}` +
        `${opts.targets.has(sq) ? ', target' + (mark ? ' ' + markWord(mark) : '') : ''}` +
        `${best ? ', best move to it ' + markWord(best) : ''}`);
      const classes = ['cell', (f + r) % 2 ? 'light' : 'dark'];
      if (last.includes(sq)) classes.push('last');
      if (opts.selected === sq) classes.push('selected');
      if (opts.line.includes(sq)) classes.push('line');
      if (opts.sources.has(sq)) g.classList.add('source');
      if (opts.targets.has(sq)) g.classList.add('target');
      const [cx0, cy0] = cornerOf(f, r, n);
      el('rect', { x: cx0, y: cy0, width: CELL, height: CELL, class: classes.join(' ') }, g);
      const [cx, cy] = centre(sq, n);
      const stack = pos.squares.get(sq);
      if (stack) drawStack(g, stack, opts.sizes, cx, cy);
      if (target !== undefined) {
        const m = opts.marks && opts.marks.get(target);
        // With exact values the dot itself says the result: a filled dark dot
        // a win, a grey one a draw, a hollow red ring a loss (shape and
        // luminance, not hue alone).
        const kind = stack ? 'target-ring' : 'target-dot';
        el('circle', { cx, cy, r: stack ? 46 : 12, class: m ? `${kind} target-${m.wdl}` : kind }, g);
        if (m) {
          const t = el('text', { x: cx0 + CELL - 6, y: cy0 + 18, class: `mark mark-${m.wdl}` }, g);
          t.textContent = markWord(m);
        }
      }
      if (best && target === undefined) {
        // Every move's value without a pick: the best of the moves to this
        // square, in the corner where a picked piece's marks go, and a thin
        // frame of its kind (solid win, grey draw, dashed loss).
        el('rect', { x: cx0 + 4, y: cy0 + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: `square-frame frame-${best.wdl}` }, g);
        const t = el('text', { x: cx0 + CELL - 6, y: cy0 + 18, class: `mark square-value mark-${best.wdl}` }, g);
        t.textContent = markWord(best);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const file = el('text', { x: cornerOf(i, 0, n)[0] + CELL / 2, y: n * CELL + 20, class: 'coord' }, svg);
    file.textContent = String.fromCharCode(97 + i);
    const rank = el('text', { x: -13, y: cornerOf(0, i, n)[1] + CELL / 2 + 5, class: 'coord' }, svg);
    rank.textContent = String(i + 1);
  }
}

// "W13", "L4", "D".
/** @param {Mark} m */
function markWord(m) {
  return m.wdl === 'D' ? 'D' : `${m.wdl}${m.plies}`;
}

// Arrows for the engine's top lines on the board: `moves` are the first
// moves of lines 1, 2, 3 (line 1 drawn strongest). A board move is an
// arrow from its square, its head on the square it goes to; a drop comes
// in from the mover's edge of the board (player 1 below, player 2 above),
// from inside the frame (off the coordinates), its head pointing into a
// ring of the piece's size with its letter, so that the drop says which
// piece. Arrows that end on one square stand side by side (two drops of
// different sizes to one square: both seen); a drop's letter keeps off a
// piece's letter on its square. The board's letters (the pieces' sizes,
// the coordinates, the values' marks) are drawn again over the arrows, so
// that an arrow hides none of them.
/** @param {Element} svg @param {number} n @param {string[]} moves @param {number} side @param {number} sizes */
export function drawArrows(svg, n, moves, side, sizes) {
  svg.querySelectorAll('.best, .best-letters').forEach((e) => e.remove());
  if (!moves.length) return;
  const ends = moves.map((m) => m.slice(-2));
  moves.forEach((move, rank) => {
    const g = el('g', { class: `best rank-${rank + 1}`, 'data-move': move }, svg);
    const sq = ends[rank];
    const sharing = ends.filter((e) => e === sq).length;
    const shift = (ends.slice(0, rank).filter((e) => e === sq).length - (sharing - 1) / 2) * ARROW_SPREAD;
    const [cx, cy] = centre(sq, n);
    const to = [cx + shift, cy];
    if (move[1] === '@') {
      const below = (side === 1) !== flipped;  // the mover's reserve is below the board
      const toward = below ? 1 : -1;            // from the ring's centre toward the mover's edge
      const r = Math.min(radius(Math.max(0, sizeIndex(move[0])), sizes), CELL / 2 - 3 - Math.abs(shift));
      el('circle', { cx: to[0], cy: to[1], r, class: 'best-ring' }, g);
      // (a piece on the square: its letter at the centre, the drop's off it, on the arrow's side)
      const occupied = svg.querySelector(`[data-sq="${sq}"] .size-label`) !== null;
      const letterAt = [to[0], to[1] - (occupied ? toward * 27 : 0)];
      const tip = [to[0], to[1] + toward * (occupied ? 4 : 16)];
      drawArrow(g, [to[0], below ? n * CELL - 6 : 6], tip);
      const t = el('text', { x: letterAt[0], y: letterAt[1], class: 'best-label' }, g);
      t.textContent = move[0];
      return;
    }
    drawArrow(g, centre(move.slice(0, 2), n), to);
  });
  const over = el('g', { class: 'best-letters', 'aria-hidden': 'true' }, svg);
  for (const text of svg.querySelectorAll('text')) {
    if (!text.closest('.best, .best-letters, .ghost')) over.append(text.cloneNode(true));
  }
}

// An arrow in `g` from `from` to `to` (board units): a shaft, and a head whose tip is at `to`.
/** @param {Element} g @param {number[]} from @param {number[]} to */
function drawArrow(g, from, to) {
  const length = Math.hypot(to[0] - from[0], to[1] - from[1]) || 1;
  const [ux, uy] = [(to[0] - from[0]) / length, (to[1] - from[1]) / length];
  const head = Math.min(HEAD_LENGTH, length);
  const base = [to[0] - ux * head, to[1] - uy * head];
  if (length > head) el('line', { x1: from[0], y1: from[1], x2: base[0], y2: base[1], class: 'best-shaft' }, g);
  const side = [-uy * HEAD_HALF_WIDTH, ux * HEAD_HALF_WIDTH];
  const points = [to, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]];
  el('polygon', { points: points.map((p) => p.map((x) => x.toFixed(1)).join(',')).join(' '), class: 'best-head' }, g);
}

// The piece being dragged, under the pointer at (x, y) in the board's own
// units (`size` an index among `sizes`); null x: none. It takes no pointer
// events, so that the square under it is still the one found.
/** @param {Element} svg @param {number | null} x */
export function drawGhost(svg, x, y = 0, size = 0, sizes = 1, player = 1) {
  svg.querySelectorAll('.ghost').forEach((e) => e.remove());
  if (x === null) return;
  const g = el('g', { class: 'ghost' }, svg);
  el('circle', { cx: x, cy: y, r: radius(size, sizes), class: `piece p${player}` }, g);
  const t = el('text', { x, y, class: 'size-label' }, g);
  t.textContent = sizeLetter(size);
}

// The reserve of `player`: 4x4, its three stacks (top piece each); 3x3, its pieces by size.
/**
 * @param {HTMLElement} box @param {import('./position.js').Shape} shape @param {number[]} supply @param {number} player
 * @param {{active: boolean, sources: Set<string>, selected: string | null, values?: Map<string, Mark> | null}} opts
 * (values: the best value of placing each size, by its letter: the "Values" toggle, or null)
 */
export function drawReserve(box, shape, supply, player, opts) {
  box.replaceChildren();
  /** @type {{size: number, count: number | null}[]} */
  const groups = [];
  if (shape.stacks) {
    for (const top of supply) groups.push({ size: top, count: null });
  } else {
    for (let s = 0; s < shape.sizes; s++) groups.push({ size: s, count: supply.filter((x) => x === s).length });
  }
  for (const { size, count } of groups) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'reserve-piece';
    const empty = size < 0 || count === 0;
    const letter = size >= 0 ? sizeLetter(size) : '';
    if (!empty) b.dataset.size = letter;
    const legal = opts.active && !empty && opts.sources.has(letter + '@');
    b.disabled = !opts.active || empty;
    b.classList.toggle('legal', legal);
    b.classList.toggle('selected', legal && opts.selected === letter + '@');
    const best = !empty && opts.values ? opts.values.get(letter) : undefined;
    b.title = empty ? 'empty' : `${shape.stacks ? 'stack topped by' : 'pieces of size'} ${letter}`
      + (best ? `, best placed: ${markWord(best)}` : '');
    const svg = el('svg', { viewBox: '0 0 100 100', class: 'reserve-svg' });
    if (!empty) {
      el('circle', { cx: 50, cy: 50, r: radius(size, shape.sizes), class: `piece p${player}` }, svg);
      el('circle', { cx: 50, cy: 50, r: radius(size, shape.sizes) * 0.72, class: `rim p${player}` }, svg);
      const t = el('text', { x: 50, y: 50, class: 'size-label' }, svg);
      t.textContent = letter;
    }
    b.append(svg);
    if (count !== null) {
      const c = document.createElement('span');
      c.className = 'count';
      c.textContent = `×${count}`;
      b.append(c);
    }
    if (best) {
      const v = document.createElement('span');
      v.className = `reserve-value mark-${best.wdl}`;
      v.textContent = markWord(best);
      b.append(v);
    }
    box.append(b);
  }
}
