// @ts-check
// Protocol lines: the one place the page composes a line it sends the
// engine (docs/protocol.md). A line is built only from words, each checked
// to be one word (words.js): no blank, line end or control character inside,
// so outside text (a link, an import, a field) can never end a line early and
// start a command of its own. Values from outside are checked for their shape
// (a move, a position text, a variant name, a token, a number) on the way in.

import { word, moves as checkedMoves, positionWords, variantWords, token as checkedToken, count } from './words.js';

// The line of `words` (the page's own keywords and checked values), joined by single spaces.
/** @param {...(string | number)} words */
export function protocolLine(...words) {
  if (!words.length) throw new Error('an empty protocol line');
  return words.map((w) => word(String(w))).join(' ');
}

// `position startpos|fen <board> <side> [moves <m>…]`; start: null (the variant's start) or a position text.
/** @param {string | null} start @param {string[]} moves */
export function positionLine(start, moves) {
  const base = start ? ['position', 'fen', ...positionWords(start)] : ['position', 'startpos'];
  const list = checkedMoves(moves);
  return protocolLine(...base, ...(list.length ? ['moves', ...list] : []));
}

/** @param {string | null} name */
export function variantLine(name) {
  return protocolLine('setoption', 'name', 'Variant', 'value', ...variantWords(name));
}

// `setoption name <name> value <n>` for a numeric option (MultiPV).
/** @param {string} name @param {number | string} value */
export function numberOptionLine(name, value) {
  return protocolLine('setoption', 'name', name, 'value', count(value, `${name} value`));
}

// `go …` from {infinite: true}, {prove: true, movetime} (the prover: docs/protocol.md) or numeric
// limits ({depth}, {movetime}, {p1time, p2time, p1inc, p2inc}).
/** @param {Record<string, unknown>} limits */
export function goLine(limits) {
  /** @type {(string | number)[]} */
  const words = ['go'];
  for (const [key, value] of Object.entries(limits)) {
    if (key === 'infinite' || key === 'prove') {  // (switches: no value)
      if (value) words.push(key);
    } else {
      words.push(key, count(value, `go ${key}`));
    }
  }
  return protocolLine(...words);
}

/** @param {string} token */
export function authLine(token) {
  return protocolLine('auth', checkedToken(token));
}
