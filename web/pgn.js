// Game texts: PGN (the tags [Variant], [FEN], [Result]; numbered moves in
// our notation, as gobblet-match and cutegames write them), a bare move
// list, or a position text. Only the text is read here: which variant a
// [Variant] tag names, and whether the moves are legal, is for the engine
// to say when the game is loaded (Variant::parse reads the tag, as
// gobblet-match's PGN reader does). Its shape is checked here, though
// (words.js): a tag or a move that is not a variant name, a position text or
// a move in our notation is refused with the reason, and nothing is sent.

import { BadWord, move, positionWords, variantWords } from './words.js';

// PGN's result tokens for the engine's `query result` words.
const PGN_RESULTS = { p1win: '1-0', p2win: '0-1', draw: '1/2-1/2' };
const UNFINISHED = '*';

// Parses `text` into {variant (the [Variant] tag as written, or null: the
// text does not say), start (position text or null), moves[]} or {error}.
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
  if (/^[^\s]+\/[^\s]+\s+[12]$/.test(trimmed)) return { variant: null, start: positionWords(trimmed).join(' '), moves: [] };
  const tags = {};
  const body = firstGame(trimmed).replace(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/gm, (_, k, v) => {
    tags[k.toLowerCase()] = v.replace(/\\(.)/g, '$1');
    return '';
  });
  const moves = body
    .replace(/\{[^}]*\}/g, ' ')       // comments
    .replace(/;[^\n]*/g, ' ')          // rest-of-line comments
    .replace(/\([^()]*\)/g, ' ')       // variations (one level)
    .replace(/\$\d+/g, ' ')            // annotation glyphs
    .split(/\s+/)
    .map((w) => w.replace(/^\d+\.+/, '').replace(/[!?]+$/, ''))
    .filter((w) => w && w !== UNFINISHED && !Object.values(PGN_RESULTS).includes(w));
  moves.forEach(move);
  // cutegames writes [FEN "startpos"] and no [Variant] (its settings name the game).
  const start = tags.fen && tags.fen.trim() !== 'startpos' ? checkedTag('FEN', tags.fen, positionWords) : null;
  const variant = tags.variant && tags.variant.trim() ? checkedTag('Variant', tags.variant, variantWords) : null;
  return { variant, start, moves };
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

// The first game of a PGN file: its tags and its movetext, up to the next game's tags.
function firstGame(text) {
  const lines = text.split('\n');
  let inMoves = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('[') && inMoves) return lines.slice(0, i).join('\n');
    if (line && !line.startsWith('[')) inMoves = true;
  }
  return text;
}

export function writeMoveList(moves) {
  const out = [];
  for (let i = 0; i < moves.length; i += 2) out.push(`${i / 2 + 1}. ${moves.slice(i, i + 2).join(' ')}`);
  return out.join(' ');
}

// The game as PGN; `view` (the position shown) gives the result if the game is over there.
export function writePgn(game, view) {
  const over = view && view.over && game.ply === game.moves.length;
  const result = over ? PGN_RESULTS[view.result] || UNFINISHED : UNFINISHED;
  const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
  const tags = [
    ['Event', 'Gobblet board'],
    ['Site', location.host],
    ['Date', date],
    ['Round', '-'],
    ['White', 'Player 1'],
    ['Black', 'Player 2'],
    ['Result', result],
    ['Variant', game.variant],
  ];
  if (game.start) tags.push(['FEN', game.start], ['SetUp', '1']);
  const head = tags.map(([k, v]) => `[${k} "${String(v).replace(/["\\]/g, '\\$&')}"]`).join('\n');
  const words = writeMoveList(game.moves).split(' ').concat(result);
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
