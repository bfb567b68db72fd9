// @ts-check
// Game texts: PGN (the tags [Variant], [FEN], [Result], and any others,
// kept in their order and written back; numbered moves in
// our notation, as gobblet-match and cutegames write them), a bare move
// list, or a position text. Only the text is read here: which variant a
// [Variant] tag names, and whether the moves are legal, is for the engine
// to say when the game is loaded (Variant::parse reads the tag, as
// gobblet-match's PGN reader does). Its shape is checked here, though
// (words.js): a tag or a move that is not a variant name, a position text or
// a move in our notation is refused with the reason, and nothing is sent.

import { BadWord, move, positionWords, reasonOf, refusal, variantWords } from './words.js';
import { addChild, newNode, treeOf, firstIndex, moveNumber, MAX_COMMENT, MAX_GAME_MOVES } from './game.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./game.js').Tag} Tag */

// Annotation glyphs (NAGs, `$N`) as the move list shows them: the six that
// judge a move, and the usual ones that judge a position. Others are shown
// as `$N`. A move's suffix `!`, `?`, … is read as its NAG 1-6.
/** @type {Record<number, string>} */
export const MOVE_GLYPHS = Object.freeze({ 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' });
// (+= and =+ for ⩲ ⩱, which common fonts lack.)
/** @type {Record<number, string>} */
const POSITION_GLYPHS = { 10: '=', 13: '\u221E', 14: '+=', 15: '=+', 16: '\u00B1', 17: '\u2213', 18: '+\u2212', 19: '\u2212+' };
const NAG_OF_SUFFIX = Object.fromEntries(Object.entries(MOVE_GLYPHS).map(([n, g]) => [g, Number(n)]));
const MAX_NAG = 255;

/** @param {number} nag */
export function nagText(nag) {
  return MOVE_GLYPHS[nag] || POSITION_GLYPHS[nag] || `$${nag}`;
}

// PGN's result tokens for the engine's `query result` words.
/** @type {Record<string, string>} */
const PGN_RESULTS = { p1win: '1-0', p2win: '0-1', draw: '1/2-1/2' };
const RESULT_WORDS = Object.fromEntries(Object.entries(PGN_RESULTS).map(([w, t]) => [t, w]));
const UNFINISHED = '*';

// The tags the page writes from the game itself (its variant, start and
// result), whatever an import said: not kept among the game's tags.
const GAME_TAGS = ['variant', 'fen', 'setup', 'result'];
// The most tags a game keeps, and the longest value one may have: an import
// with more, or a longer one, is refused.
export const MAX_TAGS = 100;
export const MAX_TAG_VALUE = 1000;
// What ends a line or has no business inside one: in a kept tag's value, a space.
const LINE_BREAKING = /[\x00-\x1f\x7f\x85\u2028\u2029]/g;

// The longest text an import reads, in characters (UTF-16 units): a longer
// one is refused at once, before any of it is read (a 10 MB paste took some
// 10 s to read, the page frozen meanwhile, before its moves were refused).
// Room for a game of MAX_GAME_MOVES moves with a 190-character comment on
// each; a text of this length is read in under 0.3 s (the slowest shapes,
// a loaded 2-core machine).
export const MAX_IMPORT_CHARS = 1000000;

// Parses `text` into {variant (the [Variant] tag as written, or null: the
// text does not say), start (position text or null), moves[] (the main
// line), root (the tree of moves, variations and comments; a [Result] tag's
// result on its main line's end, game.js), tags (the other tags, in their
// order, each value one line of text)} or {error}.
// A text over MAX_IMPORT_CHARS, or of more than MAX_GAME_MOVES moves, is
// refused as soon as that is known (the rest is not read).
/** @typedef {{variant: string | null, start: string | null, moves: string[], root: TreeNode, tags: Tag[]}} GameText */
/** @param {string} text @returns {GameText | {error: string}} */
export function parseGameText(text) {
  const tooLong = lengthRefusal(text.length);
  if (tooLong) return { error: tooLong };
  try {
    return readGameText(text);
  } catch (e) {
    return { error: reasonOf(e) + '.' };
  }
}

// Why a text of `length` characters is not read (over MAX_IMPORT_CHARS), or null.
/** @param {number} length @returns {string | null} */
export function lengthRefusal(length) {
  return length > MAX_IMPORT_CHARS ? `the text is ${length.toLocaleString('en')} characters long: an import `
    + `reads at most ${MAX_IMPORT_CHARS.toLocaleString('en')} characters.` : null;
}

/** @param {string} text @returns {GameText | {error: string}} */
function readGameText(text) {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'the box is empty: paste a position text, a move list or a PGN.' };
  // A position text alone: ranks with '/', then the side to move.
  if (/^[^\s]+\/[^\s]+\s+[12]$/.test(trimmed)) {
    return { variant: null, start: positionWords(trimmed).join(' '), moves: [], root: treeOf([]), tags: [] };
  }
  /** @type {Record<string, string>} */
  const tags = {};
  /** @type {Tag[]} */
  const kept = [];
  const body = firstGame(trimmed).replace(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/gm, (_, k, v) => {
    const value = v.replace(/\\(.)/g, '$1');
    tags[k.toLowerCase()] = value;
    if (!GAME_TAGS.includes(k.toLowerCase())) keepTag(kept, k, value);
    return '';
  });
  const { root, firstNumber } = readMoveText(body);
  // cutegames writes [FEN "startpos"] and no [Variant] (its settings name the game).
  const start = tags.fen && tags.fen.trim() !== 'startpos' ? checkedTag('FEN', tags.fen, positionWords) : null;
  const variant = tags.variant && tags.variant.trim() ? checkedTag('Variant', tags.variant, variantWords) : null;
  if (firstNumber.endsWith('...') && root.children.length && !firstIndex(start)) {
    // (a moves export of a game that player 2 began, read from the start: another game)
    throw new BadWord(`the moves begin with player 2's move '${firstNumber}' but the start position is `
      + "player 1's: a game that player 2 begins needs its position ([FEN] in a PGN)");
  }
  /** @type {string[]} */
  const moves = [];
  let end = root;
  for (; end.children.length; end = end.children[0]) moves.push(/** @type {string} */ (end.children[0].move));
  end.result = RESULT_WORDS[(tags.result || '').trim()];  // (a game ended by resignation or time, too)
  return { variant, start, moves, root, tags: kept };
}

// Keeps the tag `name` = `value` in `tags` (a later one of the same name
// replaces the earlier, in its place), its value one line of text: every
// line end or control character a space. A BadWord past MAX_TAGS tags or
// MAX_TAG_VALUE characters.
/** @param {Tag[]} tags @param {string} name @param {string} value */
function keepTag(tags, name, value) {
  if (value.length > MAX_TAG_VALUE) {
    throw new BadWord(`the [${name}] tag is longer than ${MAX_TAG_VALUE} characters`);
  }
  const tag = /** @type {Tag} */ ([name, value.replace(LINE_BREAKING, ' ')]);
  const at = tags.findIndex(([k]) => k.toLowerCase() === name.toLowerCase());
  if (at >= 0) tags[at] = tag;
  else if (tags.push(tag) > MAX_TAGS) throw new BadWord(`the game has more than ${MAX_TAGS} tags`);
}

// How deep variations may nest in an import (each level needs a move of
// its own, so a hostile text could otherwise nest thousands deep).
export const MAX_NESTING = 100;

// The movetext as a tree (game.js's nodes): moves, variations `( … )` to any
// depth (up to MAX_NESTING), comments `{ … }` and `; …` (to the line's end)
// on the move before them (a comment before the first move: on the start;
// right after a `(`: on the variation's first move), NAGs (`$14`) and
// suffixes (`!?`, NAG 5) likewise; move numbers and the result are skipped.
// A move must be of our notation's shape (words.js), a NAG 0-255, a
// comment at most MAX_COMMENT characters, the tree at most MAX_GAME_MOVES
// moves (the text is not read past the first move over): else a BadWord says which.
// Returns {root, firstNumber: the first move's number as written (`1.`, `3...`; '' if none)}.
/** @param {string} body */
function readMoveText(body) {
  const root = treeOf([]);
  let at = root;          // the node the next move follows
  /** @type {TreeNode | null} */
  let ahead = null;       // after a `(`: what is said before the variation's first move, for it
  /** @type {string | null} */
  let firstNumber = null; // the first move number, as written (`1.`, `1...`)
  /** @type {TreeNode[]} */
  const open = [];        // where each open variation's parent line goes on after it
  let count = 0;          // the moves of the tree
  const token = /\{([^}]*)\}?|;[^\n]*|\(|\)|[^\s(){};]+/g;
  for (const [t, comment] of body.matchAll(token)) {
    if (t[0] === '{' || t[0] === ';') {
      if (t[0] === '{' && !t.endsWith('}')) throw new BadWord('a comment { … } is not closed');
      addComment(ahead || at, (t[0] === '{' ? comment : t.slice(1)));
    } else if (t === '(') {
      if (!at.parent || ahead) throw new BadWord('a variation ( … ) comes before any move of its line');
      if (open.length >= MAX_NESTING) throw new BadWord(`variations nest deeper than ${MAX_NESTING} levels`);
      open.push(at);
      at = at.parent;  // an alternative to the move just read
      ahead = newNode(null, at);
    } else if (t === ')') {
      if (!open.length) throw new BadWord("a ')' closes no variation");
      at = /** @type {TreeNode} */ (open.pop());
      if (ahead) {  // an empty variation: what was said in it stays, on the move before it
        addComment(at, ahead.comment);
        ahead.nags.forEach((n) => addNag(at, n));
        ahead = null;
      }
    } else {
      const number = /^\d+\.+/.exec(t);
      if (number && firstNumber === null) firstNumber = number[0];
      const [, w, suffix] = /** @type {RegExpExecArray} */ (/^(.*?)([!?]*)$/.exec(t.replace(/^\d+\.+/, '')));
      if (w === UNFINISHED || Object.values(PGN_RESULTS).includes(w)) continue;
      if (w.startsWith('$')) {
        if (!/^\$\d{1,3}$/.test(w) || Number(w.slice(1)) > MAX_NAG) {
          throw refusal(w, `an annotation glyph ($0 to $${MAX_NAG})`);
        }
        addNag(ahead || at, Number(w.slice(1)));
        continue;
      }
      if (w) {
        const m = move(w);
        if (firstNumber === null) firstNumber = '';
        const known = at.children.find((c) => c.move === m);
        if (!known && ++count > MAX_GAME_MOVES) throw new BadWord(`the game has more than ${MAX_GAME_MOVES} moves`);
        at = known || addChild(at, m);
        if (ahead) {  // the variation's first move: what was said before it
          addComment(at, ahead.comment, true);
          ahead.nags.forEach((n) => addNag(at, n));
          ahead = null;
        }
      }
      if (suffix) addNag(ahead || at, NAG_OF_SUFFIX[suffix]);  // (an unknown one, as `!!!`, is dropped)
    }
  }
  if (open.length) throw new BadWord('a variation ( … ) is not closed');
  return { root, firstNumber: firstNumber || '' };
}

// Adds `nag` to the move of `node` (not to the start, which has no move;
// nor NAG 0, "no annotation").
/** @param {TreeNode} node @param {number} nag */
function addNag(node, nag) {
  if (nag && node.parent && !node.nags.includes(nag)) node.nags.push(nag);
}

// Adds `text` (single spaces) to `node`'s comment, after it or (`before`) in front of it.
/** @param {TreeNode} node @param {string} text */
function addComment(node, text, before = false) {
  const words = text.replace(/\s+/g, ' ').trim();
  if (!words) return;
  const joined = !node.comment ? words : before ? `${words} ${node.comment}` : `${node.comment} ${words}`;
  if (joined.length > MAX_COMMENT) throw new BadWord(`a comment is longer than ${MAX_COMMENT} characters`);
  node.comment = joined;
}

// A tag's value as the words `check` takes, joined by spaces; a BadWord naming the tag if it is not one.
/** @param {string} name @param {string} value @param {(text: string) => string[]} check */
function checkedTag(name, value, check) {
  try {
    return check(value).join(' ');
  } catch (e) {
    if (e instanceof BadWord) throw new BadWord(`the [${name}] tag: ${e.message}`);
    throw e;
  }
}

// A tag's value as PGN writes it between its quotes: `"` and `\` escaped,
// and no line end or control character (a space instead).
/** @param {string} value */
function tagValueText(value) {
  return value.replace(LINE_BREAKING, ' ').replace(/["\\]/g, '\\$&');
}

// The first game of a PGN file: its tags and its movetext, up to the next
// game's tags. A line inside a comment `{ … }` is the comment's, even if it
// starts with `[` (a wrapped export, `{ [%eval …] }`).
/** @param {string} text */
function firstGame(text) {
  const lines = text.split('\n');
  let inMoves = false;
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!inComment && line.startsWith('[') && inMoves) return lines.slice(0, i).join('\n');
    if (line && !line.startsWith('[') && !inComment) inMoves = true;
    for (const c of line) {
      if (c === ';' && !inComment) break;  // (the rest of the line is a comment: its { opens nothing)
      if (c === '{') inComment = true;
      else if (c === '}') inComment = false;
    }
  }
  return text;
}

// Moves as a numbered list, `1. L@b2 S@a1 2. …`; `first`: the first move's
// index (game.js firstIndex: 1 when player 2 moves first, `1... S@a1 2. …`).
/** @param {string[]} moves */
export function writeMoveList(moves, first = 0) {
  /** @type {string[]} */
  const out = [];
  moves.forEach((m, i) => {
    if ((first + i) % 2 === 0 || i === 0) out.push(moveNumber(first + i));
    out.push(m);
  });
  return out.join(' ');
}

// A comment as PGN writes it: `{text}`. PGN has no escape inside a
// comment, so a `}` of the text (which would end it, and let the rest be
// read as moves) is written as '｝' (U+FF5D), which every reader keeps
// inside the comment.
/** @param {string} text */
function commentToken(text) {
  return `{${text.replace(/}/g, '\uFF5D')}}`;
}

// The movetext's words after `node`: its main continuation, each move's
// NAGs and comment after it, and each alternative to a move right after that move,
// in parentheses, to any depth. Moves are numbered as writeMoveList does
// (by index, game.js moveNumber); a second move of a pair after a
// comment or a variation gets `N...`. `numbered`: the next move needs its number.
/** @param {TreeNode} node @param {number} index @param {string[]} out */
function moveTextWords(node, index, out, numbered = false) {
  for (; node.children.length; node = node.children[0], index++) {
    const [main, ...others] = node.children;
    if (index % 2 === 0 || numbered) out.push(moveNumber(index));
    out.push(/** @type {string} */ (main.move), ...main.nags.map((n) => `$${n}`));
    if (main.comment) out.push(...commentToken(main.comment).split(' '));
    numbered = Boolean(main.comment);
    for (const other of others) {
      out.push('(' + moveNumber(index), /** @type {string} */ (other.move), ...other.nags.map((n) => `$${n}`));
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
// line (null: unfinished). The tags: the seven of every PGN (from the
// game's tags where it has them, else the page's), the variant and the
// start, then the game's other tags in their order; each on one line.
// `site`: the [Site] tag's (the page's host, address.js pageHost).
// `players`: the page's [White], [Black] and [TimeControl] (players.js
// roster), written where the game's own tags do not say (else "Player 1",
// "Player 2" and no [TimeControl]); the time control after the start.
/**
 * @param {{variant: string | null, start: string | null, tags?: Tag[]}} game
 * @param {TreeNode} root
 * @param {string | null} result
 * @param {string} site
 * @param {[string, string][]} [players]
 */
export function writePgn(game, root, result, site, players = []) {
  const pgnResult = result ? PGN_RESULTS[result] || UNFINISHED : UNFINISHED;
  const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
  const own = game.tags || [];
  /** @param {string} name */
  const given = (name) => own.find(([k]) => k.toLowerCase() === name.toLowerCase());
  /** @param {string} name @param {string} fallback */
  const page = (name, fallback) => players.find(([k]) => k === name)?.[1] ?? fallback;
  const roster = [['Event', 'Gobblet board'], ['Site', site], ['Date', date], ['Round', '-'],
    ['White', page('White', 'Player 1')], ['Black', page('Black', 'Player 2')]];
  /** @param {string} name */
  const inRoster = (name) => roster.some(([r]) => r.toLowerCase() === name.toLowerCase());
  const tags = [
    ...roster.map(([k, v]) => [k, given(k)?.[1] ?? v]),
    ['Result', pgnResult],
    ['Variant', game.variant],
  ];
  if (game.start) tags.push(['FEN', game.start], ['SetUp', '1']);
  tags.push(...players.filter(([k]) => !inRoster(k) && !given(k)));
  tags.push(...own.filter(([k]) => !inRoster(k)));
  const head = tags.map(([k, v]) => `[${k} "${tagValueText(String(v))}"]`).join('\n');
  const words = root.comment ? commentToken(root.comment).split(' ') : [];
  const first = firstIndex(game.start);  // player 2 first: `1... S@a1 2. …`, as gobblet-match writes it
  moveTextWords(root, first, words, first === 1);
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
