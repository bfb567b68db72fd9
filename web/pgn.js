// Game texts: PGN (the tags [Variant], [FEN], [Result]; numbered moves in
// our notation, as gobblet-match and cutegames write them), a bare move
// list, or a position text. Only the text is read here: which variant a
// [Variant] tag names, and whether the moves are legal, is for the engine
// to say when the game is loaded (Variant::parse reads the tag, as
// gobblet-match's PGN reader does). Its shape is checked here, though
// (words.js): a tag or a move that is not a variant name, a position text or
// a move in our notation is refused with the reason, and nothing is sent.

import { BadWord, move, positionWords, variantWords } from './words.js';
import { addChild, treeOf } from './game.js';

// PGN's result tokens for the engine's `query result` words.
const PGN_RESULTS = { p1win: '1-0', p2win: '0-1', draw: '1/2-1/2' };
const UNFINISHED = '*';

// Parses `text` into {variant (the [Variant] tag as written, or null: the
// text does not say), start (position text or null), moves[] (the main
// line), root (the tree of moves, variations and comments)} or {error}.
export function parseGameText(text) {
  try {
    return readGameText(text);
  } catch (e) {
    if (e instanceof BadWord) return { error: e.message + '.' };
    throw e;
  }
}

function readGameText(text) {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'the box is empty: paste a position text, a move list or a PGN.' };
  // A position text alone: ranks with '/', then the side to move.
  if (/^[^\s]+\/[^\s]+\s+[12]$/.test(trimmed)) {
    return { variant: null, start: positionWords(trimmed).join(' '), moves: [], root: treeOf([]) };
  }
  const tags = {};
  const body = firstGame(trimmed).replace(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/gm, (_, k, v) => {
    tags[k.toLowerCase()] = v.replace(/\\(.)/g, '$1');
    return '';
  });
  const root = readMoveText(body);
  // cutegames writes [FEN "startpos"] and no [Variant] (its settings name the game).
  const start = tags.fen && tags.fen.trim() !== 'startpos' ? checkedTag('FEN', tags.fen, positionWords) : null;
  const variant = tags.variant && tags.variant.trim() ? checkedTag('Variant', tags.variant, variantWords) : null;
  const moves = [];
  for (let n = root; n.children.length; n = n.children[0]) moves.push(n.children[0].move);
  return { variant, start, moves, root };
}

// How deep variations may nest in an import (each level needs a move of
// its own, so a hostile text could otherwise nest thousands deep).
export const MAX_NESTING = 100;

// The movetext as a tree (game.js's nodes): moves, variations `( … )` to any
// depth (up to MAX_NESTING), comments `{ … }` on the move before them (a
// comment before the first move: on the start); `;` comments, NAGs (`$1`),
// `!?` marks, move numbers and the result are skipped. A move must be of
// our notation's shape (words.js): else a BadWord says which.
function readMoveText(body) {
  const root = treeOf([]);
  let at = root;          // the node the next move follows
  const open = [];        // where each open variation's parent line goes on after it
  const token = /\{([^}]*)\}?|;[^\n]*|\(|\)|[^\s(){};]+/g;
  for (const [t, comment] of body.matchAll(token)) {
    if (t[0] === '{') {
      if (!t.endsWith('}')) throw new BadWord('a comment { … } is not closed');
      const words = comment.replace(/\s+/g, ' ').trim();
      if (words) at.comment = at.comment ? `${at.comment} ${words}` : words;
    } else if (t[0] === ';') {
      continue;
    } else if (t === '(') {
      if (!at.parent) throw new BadWord('a variation ( … ) comes before any move');
      if (open.length >= MAX_NESTING) throw new BadWord(`variations nest deeper than ${MAX_NESTING} levels`);
      open.push(at);
      at = at.parent;  // an alternative to the move just read
    } else if (t === ')') {
      if (!open.length) throw new BadWord("a ')' closes no variation");
      at = open.pop();
    } else {
      const w = t.replace(/^\d+\.+/, '').replace(/[!?]+$/, '');
      if (!w || /^\$\d+$/.test(w) || w === UNFINISHED || Object.values(PGN_RESULTS).includes(w)) continue;
      const m = move(w);
      at = at.children.find((c) => c.move === m) || addChild(at, m);
    }
  }
  if (open.length) throw new BadWord('a variation ( … ) is not closed');
  return root;
}

// A tag's value as the words `check` takes, joined by spaces; a BadWord naming the tag if it is not one.
function checkedTag(name, value, check) {
  try {
    return check(value).join(' ');
  } catch (e) {
    if (e instanceof BadWord) throw new BadWord(`the [${name}] tag: ${e.message}`);
    throw e;
  }
}

// The first game of a PGN file: its tags and its movetext, up to the next
// game's tags. A line inside a comment `{ … }` is the comment's, even if it
// starts with `[` (a wrapped export, `{ [%eval …] }`).
function firstGame(text) {
  const lines = text.split('\n');
  let inMoves = false;
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!inComment && line.startsWith('[') && inMoves) return lines.slice(0, i).join('\n');
    if (line && !line.startsWith('[') && !inComment) inMoves = true;
    for (const c of line) {
      if (c === '{') inComment = true;
      else if (c === '}') inComment = false;
    }
  }
  return text;
}

export function writeMoveList(moves) {
  const out = [];
  for (let i = 0; i < moves.length; i += 2) out.push(`${i / 2 + 1}. ${moves.slice(i, i + 2).join(' ')}`);
  return out.join(' ');
}

// A comment as PGN writes it: `{text}`. PGN has no escape inside a
// comment, so a `}` of the text (which would end it, and let the rest be
// read as moves) is written as '｝' (U+FF5D), which every reader keeps
// inside the comment.
function commentToken(text) {
  return `{${text.replace(/}/g, '\uFF5D')}}`;
}

// The movetext's words after `node`: its main continuation, each move's
// comment after it, and each alternative to a move right after that move,
// in parentheses, to any depth. Moves are numbered as writeMoveList does
// (by index: the first move is 1.); a second move of a pair after a
// comment or a variation gets `N...`. `numbered`: the next move needs its number.
function moveTextWords(node, index, out, numbered = false) {
  for (; node.children.length; node = node.children[0], index++) {
    const [main, ...others] = node.children;
    const number = `${Math.floor(index / 2) + 1}.`;
    if (index % 2 === 0) out.push(number);
    else if (numbered) out.push(number + '..');
    out.push(main.move);
    if (main.comment) out.push(...commentToken(main.comment).split(' '));
    numbered = Boolean(main.comment);
    for (const other of others) {
      out.push('(' + number + (index % 2 ? '..' : ''), other.move);
      if (other.comment) out.push(...commentToken(other.comment).split(' '));
      moveTextWords(other, index + 1, out, Boolean(other.comment));
      out[out.length - 1] += ')';
      numbered = true;
    }
  }
  return out;
}

// The game as PGN: its tags, and the tree of moves from `root` with its
// variations and comments. A game of one line and no comment is written
// as gobblet-match and cutegames read it (numbered moves, the result).
// `result`: a `query result` word, the game's end at the end of its main
// line (null: unfinished).
export function writePgn(game, root, result) {
  const pgnResult = result ? PGN_RESULTS[result] || UNFINISHED : UNFINISHED;
  const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
  const tags = [
    ['Event', 'Gobblet board'],
    ['Site', location.host],
    ['Date', date],
    ['Round', '-'],
    ['White', 'Player 1'],
    ['Black', 'Player 2'],
    ['Result', pgnResult],
    ['Variant', game.variant],
  ];
  if (game.start) tags.push(['FEN', game.start], ['SetUp', '1']);
  const head = tags.map(([k, v]) => `[${k} "${String(v).replace(/["\\]/g, '\\$&')}"]`).join('\n');
  const words = root.comment ? commentToken(root.comment).split(' ') : [];
  moveTextWords(root, 0, words);
  words.push(pgnResult);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + w.length + 1 > 79) {
      lines.push(line);
      line = w;
    } else {
      line = line ? `${line} ${w}` : w;
    }
  }
  lines.push(line);
  return `${head}\n\n${lines.join('\n')}\n`;
}
