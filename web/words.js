// @ts-check
// The shapes of the words the page takes from outside (a link, an imported
// text, a field, the address) before any of them goes into a protocol line:
// moves, position texts, variant names, the auth token, counts. Only the
// shape is checked (docs/notation.md's alphabet, a position's two fields);
// whether a move is legal or a variant exists, the engine says.
//
// Each checker returns the words to send, or throws a BadWord whose message
// says, for people, what is wrong and quotes the text harmlessly (quoted()).

export class BadWord extends Error {}

// The refusal of `text`, which is not `what`: the text quoted harmlessly,
// then what it should be (`'a1b9' is not a move in our notation …`).
/** @param {unknown} text @param {string} what */
export function refusal(text, what) {
  return new BadWord(`${quoted(text)} is not ${what}`);
}

// What to tell people about `e`, a BadWord caught where outside text was
// checked; any other error is a bug of the page's own, and is thrown on.
/** @param {unknown} e */
export function reasonOf(e) {
  if (e instanceof BadWord) return e.message;
  throw e;
}

// One protocol word: no whitespace, no control or format character, no
// separator (so a word can never end a line or start another one).
const WORD = /^[^\s\p{C}\p{Z}]+$/u;
const MOVE = /^([SMLXsmlx]@[a-dA-D][1-4]|[a-dA-D][1-4][a-dA-D][1-4])$/;
const BOARD = /^[1-9SMLXsmlx[\]]+(\/[1-9SMLXsmlx[\]]+)+$/;
const SIDE = /^[12]$/;
const VARIANT_WORD = /^[A-Za-z0-9:,_-]+$/;
const COUNT = /^\d{1,9}$/;

/** @type {Record<string, string>} */
const ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// `text` for a message: characters that are not printable as they are
// (line ends, controls, format characters) as \n or \u{…}, at most 40 characters.
/** @param {unknown} text */
export function quoted(text) {
  const s = String(text);
  const shown = [...s.slice(0, 40)]
    .map((c) => ESCAPES[c] || (/[\p{C}\p{Z}]/u.test(c) && c !== ' ' ? `\\u{${c.codePointAt(0)?.toString(16)}}` : c))
    .join('');
  return `'${shown}${s.length > 40 ? '…' : ''}'`;
}

/** @param {unknown} text @returns {text is string} */
export function isWord(text) {
  return typeof text === 'string' && WORD.test(text);
}

// Any word of a protocol line: what the page's own words and every checked word satisfy.
/** @param {unknown} text */
export function word(text, what = 'word') {
  if (!isWord(text)) throw refusal(text, `one ${what}: it is empty or holds a blank or a control character`);
  return text;
}

// A move in the notation: L@b2 or a1b2 (any case).
/** @param {unknown} text */
export function move(text) {
  if (typeof text !== 'string' || !MOVE.test(text)) throw refusal(text, 'a move in our notation (L@b2 or a1b2)');
  return text;
}

// A move as the engine writes it (docs/notation.md: any case is read; the
// size is written in uppercase, the squares in lowercase), so that moves
// from outside text compare equal to the engine's and the board's: x@A1 → X@a1.
/** @param {unknown} text */
export function engineCaseMove(text) {
  const m = move(text);
  return m[1] === '@' ? m[0].toUpperCase() + m.slice(1).toLowerCase() : m.toLowerCase();
}

/** @param {unknown[]} list */
export function moves(list) {
  return list.map(move);
}

// A position text, as two words [board, side]: ranks of 1-9, S M L X (either
// case) and brackets separated by '/', one or more spaces, the side 1 or 2.
/** @param {unknown} text */
export function positionWords(text) {
  const fields = typeof text === 'string' ? text.trim().split(/ +/) : [];
  if (fields.length !== 2 || !BOARD.test(fields[0]) || !SIDE.test(fields[1])) {
    throw refusal(text, "a position text (ranks of 1-9, S M L X and [ ] separated by '/', " +
      'a space, the side to move 1 or 2, as 3/3/3 1)');
  }
  return fields;
}

// A variant name as the engine takes it (gobblers, Gobblet Gobblers,
// 3x3:2,2,1): words of letters, digits and : , _ - separated by spaces.
/** @param {unknown} text */
export function variantWords(text) {
  const words = typeof text === 'string' ? text.trim().split(/ +/) : [];
  if (!words[0] || !words.every((w) => VARIANT_WORD.test(w))) {
    throw refusal(text, 'a variant name (letters, digits and : , _ - in words, as gobblers or 3x3:2,2,1)');
  }
  return words;
}

// The server's --token: one word.
/** @param {unknown} text */
export function token(text) {
  return word(text, 'token (one word)');
}

// A whole number 0..999999999, from a number or its decimal text.
/** @param {unknown} value */
export function count(value, what = 'number') {
  const text = String(value);
  if (!COUNT.test(text)) throw refusal(text, `a ${what} (a whole number 0 to 999999999)`);
  return Number(text);
}
