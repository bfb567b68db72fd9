// @ts-check
// The game shown, and the one place it changes: a tree of moves. Each node
// is a move (the root: the start position) with its continuations; the
// first child is the main continuation, the others are variations (PGN: in
// parentheses). A new move from an earlier position of a game being played
// becomes the line played, and the old continuation stays as a variation;
// in a game record being explored (exploring()) the new move is a variation
// and the main line stays, as on lichess.
// The line is the path from the start to the position shown, continued by
// the first children to its end: the arrow keys, the chart and the link
// follow it. Each node keeps its comment, its annotation glyphs (PGN's
// NAGs, as numbers), the value found for its position (for the chart
// and the evaluation bar), the result where a game ends there and the game
// review's judgement of its move. The game
// keeps its PGN tags. No rules here: which moves are legal is the engine's
// to say.
// Each function takes the game (Game, a part of the page's state,
// state.js) or the tree it acts on: the module keeps nothing itself.

/** A position's value for the chart and the evaluation bar, from player
 * 1's side, and where it comes from (source): a proof (the prover's, `go
 * prove`: exact, a win's or a loss's `mate` the most plies it takes), the
 * tablebase (exact), or a search (its best line's score and chances; a
 * mate it found is exact too). exact: a proof's or the tablebase's.
 * @typedef {import('./values.js').Score & {exact?: boolean, source?: ValueSource}} Value */
/** @typedef {'proof' | 'tablebase' | 'search'} ValueSource */
/** A node of the tree: the move that leads to it (null at the root, the
 * start), its parent (null at the root), its continuations (the first the
 * main one), its comment, its NAGs, its position's value if known, and the
 * game's result there (a `query result` word: p1win, p2win, draw) where the
 * engine said the game is over there or a PGN's [Result] tag gave it.
 * @typedef {object} TreeNode
 * @property {string | null} move
 * @property {TreeNode | null} parent
 * @property {TreeNode[]} children
 * @property {string} comment
 * @property {number[]} nags
 * @property {Value | undefined} value
 * @property {string | undefined} result
 * @property {import('./review.js').MoveReview | undefined} review  the game review's judgement of its move (review_run.js)
 */

// How certain each source of a value is: a proof over the tablebase over a search.
const CERTAINTY = Object.freeze({ search: 0, tablebase: 1, proof: 2 });

// Keeps `value` as the value of the position of `node`, unless the node
// holds one from a more certain source (a proof, then the tablebase, then
// the latest search: a search of a position the tablebase or a proof
// decided does not replace their exact value). Returns whether it was kept.
/** @param {TreeNode} node @param {Value} value */
export function keepValue(node, value) {
  const had = node.value;
  if (had && CERTAINTY[had.source || 'search'] > CERTAINTY[value.source || 'search']) return false;
  node.value = value;
  return true;
}

/** @param {string | null} move @param {TreeNode | null} parent @returns {TreeNode} */
export function newNode(move, parent) {
  return { move, parent, children: [], comment: '', nags: [], value: undefined, result: undefined, review: undefined };
}

/** A PGN tag: its name as written and its value (one line of text).
 * @typedef {[string, string]} Tag */

/** The game (a part of the page's state, state.js): variant, the engine's
 * name (null: none loaded yet); start, a position text or null (the
 * variant's start); root, the tree; current, the node shown; tags, the PGN
 * tags of an imported game, in their order (pgn.js writes them back);
 * explored, the game is a record given from outside (an import with moves),
 * explored rather than played (exploring()).
 * @typedef {{variant: string | null, start: string | null, root: TreeNode, current: TreeNode, tags: Tag[],
 *   explored: boolean}} Game */

// A game not loaded yet: no variant, an empty tree.
/** @returns {Game} */
export function createGame() {
  const root = newNode(null, null);
  return { variant: null, start: null, root, current: root, tags: [], explored: false };
}

// The index the first move from `start` has in the numbering of moves
// (1., 1..., 2., …): 1 when player 2 moves first (a position text whose
// side to move is 2; PGN writes its first move `1...`), else 0.
/** @param {string | null} start */
export function firstIndex(start) {
  return start && / 2$/.test(start.trim()) ? 1 : 0;
}

// The number of the move at `index` (firstIndex() plus its ply before it)
// as the move list and PGN write it: `3.` for player 1's, `3...` for player 2's.
/** @param {number} index */
export function moveNumber(index, dots = '...') {
  return `${Math.floor(index / 2) + 1}${index % 2 ? dots : '.'}`;
}

// A tree holding one line of moves; returns its root.
/** @param {string[]} moves */
export function treeOf(moves) {
  const root = newNode(null, null);
  let n = root;
  for (const m of moves) n = addChild(n, m);
  return root;
}

/** @param {TreeNode} parent @param {string} move */
export function addChild(parent, move) {
  const child = newNode(move, parent);
  parent.children.push(child);
  return child;
}

// Replaces the game `game`: `root` (from treeOf or an import), the position shown
// at `ply` of its main line (null: the end), or the node `record.shown`
// leads to (moves from the start, of any line); `record.tags` its PGN tags,
// `record.explored` whether it is a record to explore (game.explored).
/**
 * @param {Game} game @param {string} variant @param {string | null} start @param {TreeNode} root
 * @param {number | null} ply @param {{tags?: Tag[], explored?: boolean, shown?: string[] | null}} [record]
 */
export function setGame(game, variant, start, root, ply, record = {}) {
  game.variant = variant;
  game.start = start;
  game.root = root;
  game.tags = record.tags || [];
  game.explored = Boolean(record.explored);
  const main = lineFrom(root);
  game.current = (record.shown && nodeAt(record.shown, root))
    || main[Math.max(0, Math.min(main.length - 1, ply ?? main.length - 1))];
}

// The node the moves `moves` lead to from `root`, or null if the tree holds no such line.
/** @param {string[]} moves @param {TreeNode} root */
export function nodeAt(moves, root) {
  let n = root;
  for (const m of moves) {
    const next = n.children.find((c) => c.move === m);
    if (!next) return null;
    n = next;
  }
  return n;
}

// The game is a record being explored, not a game being played: given
// from outside with its moves (an import), or finished (the end of its main
// line is a finished position, or has a result from its PGN). There a move
// from an earlier position is a variation and the engine moves only when asked (play.js).
/** @param {Game} game */
export function exploring(game) {
  return game.explored || lineFrom(game.root).at(-1)?.result !== undefined;
}

// The game's result: the one at the end of its main line (a `query result` word), or null (unfinished).
/** @param {Game} game */
export function gameResult(game) {
  return lineFrom(game.root).at(-1)?.result ?? null;
}

// The nodes from `node` on along the first children, `node` included.
/** @param {TreeNode} node */
function lineFrom(node) {
  const out = [node];
  while (node.children.length) out.push(node = node.children[0]);
  return out;
}

// The nodes from the root to `node`, both included.
/** @param {TreeNode} node */
export function pathTo(node) {
  /** @type {TreeNode[]} */
  const out = [];
  for (let n = /** @type {TreeNode | null} */ (node); n; n = n.parent) out.push(n);
  return out.reverse();
}

// The moves from the start to `node`.
/** @param {TreeNode} node */
export function movesTo(node) {
  return /** @type {string[]} */ (pathTo(node).slice(1).map((n) => n.move));  // (only the root has no move)
}

// The line: [root, …, the position shown, … its main continuation's end].
/** @param {Game} game */
export function line(game) {
  return [...pathTo(game.current), ...lineFrom(game.current).slice(1)];
}

/** @param {Game} game */
export function lineMoves(game) {
  return /** @type {string[]} */ (line(game).slice(1).map((n) => n.move));
}

/** @param {Game} game */
export function mainLine(game) {
  return lineFrom(game.root);
}

// The ply shown: how many moves lead to it.
/** @param {Game} game */
export function ply(game) {
  return pathTo(game.current).length - 1;
}

// The position shown is the end of its line (no move after it).
/** @param {Game} game */
export function atEnd(game) {
  return game.current.children.length === 0;
}

/** @param {Game} game @param {number} p */
export function goToPly(game, p) {
  const l = line(game);
  game.current = l[Math.max(0, Math.min(l.length - 1, p))];
}

/** @param {Game} game @param {TreeNode} node */
export function goToNode(game, node) {
  game.current = node;
}

// Plays `move` at the position shown: the continuation already there if it
// is that move; else the new move becomes the line played from here (the
// first child) and the old continuation is kept as a variation, or
// (`asVariation`: a record explored) the new move is a variation after the
// continuations there, which stay as they are.
/** @param {Game} game @param {string} move */
export function playMove(game, move, asVariation = false) {
  let child = game.current.children.find((c) => c.move === move);
  if (!child) {
    child = newNode(move, game.current);
    if (asVariation) game.current.children.push(child);
    else game.current.children.unshift(child);
  }
  game.current = child;
  return child;
}

// Takes the line back to `p` plies: the moves after it on the line are
// removed (other variations there stay), and the position at `p` is shown.
/** @param {Game} game @param {number} p */
export function takeBackTo(game, p) {
  const l = line(game);
  const to = l[Math.max(0, Math.min(l.length - 1, p))];
  const cut = l[l.indexOf(to) + 1];
  if (cut) to.children.splice(to.children.indexOf(cut), 1);
  game.current = to;
}

// The first node of the variation `node` is in (the nearest node, itself
// included, that is not its parent's main continuation), or null on the main line.
/** @param {TreeNode} node */
export function variationOf(node) {
  for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return n;
  return null;
}

// Makes the line through `node` the main line: at every branching on its way it comes first.
/** @param {TreeNode} node */
export function promote(node) {
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
/** @param {Game} game @param {TreeNode} node */
export function deleteVariation(game, node) {
  const first = variationOf(node);
  return first ? deleteFrom(game, first) : false;
}

// Removes `node`'s move and everything after it (its line, and the
// variations inside it); the position shown moves to the position before
// it if it was among them. False for the start, or a node no longer in the tree.
/** @param {Game} game @param {TreeNode} node */
export function deleteFrom(game, node) {
  if (!node.parent) return false;
  const siblings = node.parent.children;
  const at = siblings.indexOf(node);
  if (at < 0) return false;  // no longer in the tree (a stale button): -1 would remove the last child
  siblings.splice(at, 1);
  if (pathTo(game.current).includes(node)) game.current = node.parent;
  return true;
}

// The longest comment a move may have (the field's maxlength; an import with a longer one is refused).
export const MAX_COMMENT = 2000;

// The comment on `node`'s move (single spaces, trimmed, at most MAX_COMMENT characters).
/** @param {string} text @param {TreeNode} node */
export function setComment(text, node) {
  node.comment = String(text).replace(/\s+/g, ' ').trim().slice(0, MAX_COMMENT);
}

// The glyph judging `node`'s move: NAG 1-6 (! ? !! ?? !? ?!), or 0 for none;
// the node's other NAGs (of the position) stay.
/** @param {number} nag @param {TreeNode} node */
export function setMoveGlyph(nag, node) {
  node.nags = [...(nag ? [nag] : []), ...node.nags.filter((n) => n < 1 || n > 6)];
}

// `node` is in the game's tree (not in a deleted variation, nor in a game replaced since).
/** @param {Game} game @param {TreeNode | null} node */
export function inTree(game, node) {
  let n = node;
  for (; n && n.parent; n = n.parent) if (!n.parent.children.includes(n)) return false;
  return n === game.root;
}

// The most moves a game (all its lines) may hold: a link or an import with
// more is refused before its lines are built (each line is a path from the
// start, so a tree's lines cost up to its moves squared).
export const MAX_GAME_MOVES = 5000;

// How many moves the tree under `root` holds, counting up to `limit` + 1.
/** @param {TreeNode} root */
export function treeSize(root, limit = MAX_GAME_MOVES) {
  let count = 0;
  const stack = [...root.children];
  while (stack.length && count <= limit) {
    const n = /** @type {TreeNode} */ (stack.pop());
    ++count;
    stack.push(...n.children);
  }
  return count;
}

// The moves of every line that ends in a leaf other than the main line's (for checking an import's variations).
/** @param {TreeNode} root */
export function variationLines(root) {
  /** @type {string[][]} */
  const out = [];
  /** @type {[TreeNode, string[], boolean][]} */
  const stack = [[root, [], true]];
  while (stack.length) {
    const [n, moves, main] = /** @type {[TreeNode, string[], boolean]} */ (stack.pop());
    if (!n.children.length && !main) out.push(moves);
    n.children.forEach((c, i) => stack.push([c, [...moves, /** @type {string} */ (c.move)], main && i === 0]));
  }
  return out;
}

// How many lines of the tree under `root` are variations (its leaves but the main line's end).
/** @param {TreeNode} root */
export function variationCount(root) {
  let leaves = 0;
  const stack = [root];
  while (stack.length) {
    const n = /** @type {TreeNode} */ (stack.pop());
    if (!n.children.length) ++leaves;
    stack.push(...n.children);
  }
  return leaves - 1;
}

// What the link says: the line shown and its ply ({variant, start, moves, ply}, address.js).
/** @param {Game} game */
export function snapshot(game) {
  const moves = lineMoves(game);
  return { variant: game.variant, start: game.start, moves, ply: ply(game) };
}

// The values known along the line, by ply (for the chart).
/** @param {Game} game */
export function lineValues(game) {
  return line(game).map((n) => n.value);
}
