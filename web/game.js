// The game shown, and the one place it changes: a tree of moves. Each node
// is a move (the root: the start position) with its continuations; the
// first child is the main continuation, the others are variations. A new
// move from an earlier position becomes the line played, and the old
// continuation stays as a variation (PGN: in parentheses).
// The line is the path from the start to the position shown, continued by
// the first children to its end: the arrow keys, the chart and the link
// follow it. Each node keeps its comment, its annotation glyphs (PGN's
// NAGs, as numbers) and the value found for its position (for the chart
// and the evaluation bar). No rules here: which moves are legal is the
// engine's to say.

export function newNode(move, parent) {
  return { move, parent, children: [], comment: '', nags: [], value: undefined };
}

// variant: the engine's name; start: a position text or null (the variant's start).
export const game = { variant: null, start: null, root: newNode(null, null), current: null };
game.current = game.root;

// The index the first move from `start` has in the numbering of moves
// (1., 1..., 2., …): 1 when player 2 moves first (a position text whose
// side to move is 2; PGN writes its first move `1...`), else 0.
export function firstIndex(start = game.start) {
  return start && / 2$/.test(start.trim()) ? 1 : 0;
}

// The number of the move at `index` (firstIndex() plus its ply before it)
// as the move list and PGN write it: `3.` for player 1's, `3...` for player 2's.
export function moveNumber(index, dots = '...') {
  return `${Math.floor(index / 2) + 1}${index % 2 ? dots : '.'}`;
}

// A tree holding one line of moves; returns its root.
export function treeOf(moves) {
  const root = newNode(null, null);
  let n = root;
  for (const m of moves) n = addChild(n, m);
  return root;
}

export function addChild(parent, move) {
  const child = newNode(move, parent);
  parent.children.push(child);
  return child;
}

// Replaces the game: `root` (from treeOf or an import), the position shown at `ply` of its main line (null: the end).
export function setGame(variant, start, root, ply) {
  game.variant = variant;
  game.start = start;
  game.root = root;
  game.current = root;
  const main = lineFrom(root);
  game.current = main[Math.max(0, Math.min(main.length - 1, ply ?? main.length - 1))];
}

// The nodes from `node` on along the first children, `node` included.
function lineFrom(node) {
  const out = [node];
  while (node.children.length) out.push(node = node.children[0]);
  return out;
}

// The nodes from the root to `node`, both included.
export function pathTo(node = game.current) {
  const out = [];
  for (let n = node; n; n = n.parent) out.push(n);
  return out.reverse();
}

// The moves from the start to `node` (the position shown by default).
export function movesTo(node = game.current) {
  return pathTo(node).slice(1).map((n) => n.move);
}

// The line: [root, …, the position shown, … its main continuation's end].
export function line() {
  return [...pathTo(game.current), ...lineFrom(game.current).slice(1)];
}

export function lineMoves() {
  return line().slice(1).map((n) => n.move);
}

export function mainLine() {
  return lineFrom(game.root);
}

// The ply shown: how many moves lead to it.
export function ply() {
  return pathTo().length - 1;
}

// The position shown is the end of its line (no move after it).
export function atEnd() {
  return game.current.children.length === 0;
}

export function goToPly(p) {
  const l = line();
  game.current = l[Math.max(0, Math.min(l.length - 1, p))];
}

export function goToNode(node) {
  game.current = node;
}

// Plays `move` at the position shown: the continuation already there if it
// is that move; else the new move becomes the line played from here (the
// first child) and the old continuation is kept as a variation.
export function playMove(move) {
  let child = game.current.children.find((c) => c.move === move);
  if (!child) {
    child = newNode(move, game.current);
    game.current.children.unshift(child);
  }
  game.current = child;
  return child;
}

// Takes the line back to `p` plies: the moves after it on the line are
// removed (other variations there stay), and the position at `p` is shown.
export function takeBackTo(p) {
  const l = line();
  const to = l[Math.max(0, Math.min(l.length - 1, p))];
  const cut = l[l.indexOf(to) + 1];
  if (cut) to.children.splice(to.children.indexOf(cut), 1);
  game.current = to;
}

// The first node of the variation `node` is in (the nearest node, itself
// included, that is not its parent's main continuation), or null on the main line.
export function variationOf(node = game.current) {
  for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return n;
  return null;
}

// Makes the line through `node` the main line: at every branching on its way it comes first.
export function promote(node = game.current) {
  for (let n = node; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    const at = siblings.indexOf(n);
    if (at < 0) return;  // a node no longer in the tree (a stale button): nothing to promote
    siblings.splice(at, 1);
    siblings.unshift(n);
  }
}

// Removes the variation `node` is in, from its first move on; the position
// shown moves to where it started if it was inside. False on the main line.
export function deleteVariation(node = game.current) {
  const first = variationOf(node);
  return first ? deleteFrom(first) : false;
}

// Removes `node`'s move and everything after it (its line, and the
// variations inside it); the position shown moves to the position before
// it if it was among them. False for the start, or a node no longer in the tree.
export function deleteFrom(node) {
  if (!node.parent) return false;
  const siblings = node.parent.children;
  const at = siblings.indexOf(node);
  if (at < 0) return false;  // no longer in the tree (a stale button): -1 would remove the last child
  siblings.splice(at, 1);
  if (pathTo().includes(node)) game.current = node.parent;
  return true;
}

// The longest comment a move may have (the field's maxlength; an import with a longer one is refused).
export const MAX_COMMENT = 2000;

// The comment on `node`'s move (single spaces, trimmed, at most MAX_COMMENT characters).
export function setComment(text, node = game.current) {
  node.comment = String(text).replace(/\s+/g, ' ').trim().slice(0, MAX_COMMENT);
}

// The glyph judging `node`'s move: NAG 1-6 (! ? !! ?? !? ?!), or 0 for none;
// the node's other NAGs (of the position) stay.
export function setMoveGlyph(nag, node = game.current) {
  node.nags = [...(nag ? [nag] : []), ...node.nags.filter((n) => n < 1 || n > 6)];
}

// `node` is in the game's tree (not in a deleted variation, nor in a game replaced since).
export function inTree(node) {
  let n = node;
  for (; n && n.parent; n = n.parent) if (!n.parent.children.includes(n)) return false;
  return n === game.root;
}

// The most moves a game (all its lines) may hold: a link or an import with
// more is refused before its lines are built (each line is a path from the
// start, so a tree's lines cost up to its moves squared).
export const MAX_GAME_MOVES = 5000;

// How many moves the tree under `root` holds, counting up to `limit` + 1.
export function treeSize(root, limit = MAX_GAME_MOVES) {
  let count = 0;
  const stack = [...root.children];
  while (stack.length && count <= limit) {
    const n = stack.pop();
    ++count;
    stack.push(...n.children);
  }
  return count;
}

// The moves of every line that ends in a leaf other than the main line's (for checking an import's variations).
export function variationLines(root = game.root) {
  const out = [];
  const stack = [[root, [], true]];
  while (stack.length) {
    const [n, moves, main] = stack.pop();
    if (!n.children.length && !main) out.push(moves);
    n.children.forEach((c, i) => stack.push([c, [...moves, c.move], main && i === 0]));
  }
  return out;
}

// How many lines of the tree under `root` are variations (its leaves but the main line's end).
export function variationCount(root = game.root) {
  let leaves = 0;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (!n.children.length) ++leaves;
    stack.push(...n.children);
  }
  return leaves - 1;
}

// What the link says: the line shown and its ply ({variant, start, moves, ply}, address.js).
export function snapshot() {
  const moves = lineMoves();
  return { variant: game.variant, start: game.start, moves, ply: ply() };
}

// The values known along the line, by ply (for the chart).
export function lineValues() {
  return line().map((n) => n.value);
}
