// The shapes of outside words (web/words.js) and the protocol lines built
// from them (web/command.js): what is taken, what is refused, and that a
// refusal quotes the text harmlessly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BadWord, count, isWord, move, moves, positionWords, quoted, reasonOf, refusal, token, variantWords, word,
} from '../../web/words.js';
import { authLine, goLine, numberOptionLine, positionLine, protocolLine, variantLine } from '../../web/command.js';

// The message of the BadWord that `f` throws.
function refusalMessage(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof BadWord, `a BadWord, not ${e}`);
    return e.message;
  }
  assert.fail('not refused');
}

test('a move is a drop or a board move in the notation, any case', () => {
  assert.equal(move('L@b2'), 'L@b2');
  assert.equal(move('a1b2'), 'a1b2');
  assert.equal(move('s@D4'), 's@D4');
  assert.deepEqual(moves(['X@a1', 'c3c4']), ['X@a1', 'c3c4']);
  for (const bad of ['L@e5', 'Q@a1', 'a1', 'a1b2c3', 'L@b2 ', '', 'a5b1', null]) {
    assert.throws(() => move(bad), BadWord, `${bad} taken`);
  }
});

test('a refused move is quoted with its line end shown, and says the shape', () => {
  assert.equal(refusalMessage(() => move('X@a1\ngo infinite')),
    "'X@a1\\ngo infinite' is not a move in our notation (L@b2 or a1b2)");
});

test('quoted shows controls, format characters and separators as escapes, at most 40 characters', () => {
  assert.equal(quoted('a\r\nb\tc'), "'a\\r\\nb\\tc'");
  assert.equal(quoted('x\u2028y\u0000z\u200b'), "'x\\u{2028}y\\u{0}z\\u{200b}'");
  assert.equal(quoted('a b'), "'a b'");
  assert.equal(quoted('y'.repeat(41)), `'${'y'.repeat(40)}…'`);
  assert.equal(quoted(null), "'null'");
});

test('refusal() and reasonOf(): one refusal, and only a BadWord is a reason', () => {
  const e = refusal('3/3/3 9', 'a position text');
  assert.ok(e instanceof BadWord);
  assert.equal(e.message, "'3/3/3 9' is not a position text");
  assert.equal(reasonOf(e), "'3/3/3 9' is not a position text");
  const bug = new TypeError('a bug of the page');
  assert.throws(() => reasonOf(bug), (thrown) => thrown === bug);
});

test('a position text is two words: ranks of 1-9, S M L X and brackets, and the side', () => {
  assert.deepEqual(positionWords('3/3/3 1'), ['3/3/3', '1']);
  assert.deepEqual(positionWords('  [sL]2/1M1/3   2 '), ['[sL]2/1M1/3', '2']);
  assert.deepEqual(positionWords('4/4/4/4 1'), ['4/4/4/4', '1']);
  for (const bad of ['3/3/3', '3/3/3 3', '3/3/3 1 2', '3/3/Q2 1', '333 1', '3/3/3 1\ngo infinite', '3/3/3\t1']) {
    assert.throws(() => positionWords(bad), BadWord, `${JSON.stringify(bad)} taken`);
  }
  assert.match(refusalMessage(() => positionWords('3/3/3 1\ngo')), /^'3\/3\/3 1\\ngo' is not a position text \(/);
});

test('a variant name is words of letters, digits and : , _ -', () => {
  assert.deepEqual(variantWords('gobblers'), ['gobblers']);
  assert.deepEqual(variantWords('Gobblet Gobblers'), ['Gobblet', 'Gobblers']);
  assert.deepEqual(variantWords('3x3:2,2,1'), ['3x3:2,2,1']);
  for (const bad of ['', '   ', 'gobblers;quit', 'gobblers\nquit', 'tic tac\u2028toe', 42]) {
    assert.throws(() => variantWords(bad), BadWord, `${JSON.stringify(bad)} taken`);
  }
});

test('a word holds no blank, control, format or separator character', () => {
  assert.ok(isWord('auth'));
  assert.ok(isWord('s3cr\u00e9t'));
  for (const bad of ['', 'a b', 'a\nb', 'a\u00a0b', 'a\u200bb', 'a\u2029b', 7]) assert.equal(isWord(bad), false, JSON.stringify(bad));
  assert.equal(token('T0k3n'), 'T0k3n');
  assert.equal(refusalMessage(() => token('two words')),
    "'two words' is not one token (one word): it is empty or holds a blank or a control character");
  assert.equal(word('go'), 'go');
});

test('a count is a whole number 0 to 999999999, from a number or its text', () => {
  assert.equal(count('0'), 0);
  assert.equal(count(150), 150);
  assert.equal(count('999999999'), 999999999);
  for (const bad of ['-1', '1e3', '1.5', '1234567890', '', ' 7', 'NaN']) {
    assert.throws(() => count(bad), BadWord, JSON.stringify(bad));
  }
  assert.equal(refusalMessage(() => count('x', 'ply')), "'x' is not a ply (a whole number 0 to 999999999)");
});

test('position lines: startpos or fen, and the moves only when there are some', () => {
  assert.equal(positionLine(null, []), 'position startpos');
  assert.equal(positionLine(null, ['X@a1', 'S@b2']), 'position startpos moves X@a1 S@b2');
  assert.equal(positionLine('[sL]2/1M1/3  2', ['a3b3']), 'position fen [sL]2/1M1/3 2 moves a3b3');
  assert.throws(() => positionLine(null, ['X@a1\nquit']), BadWord);
  assert.throws(() => positionLine('3/3/3 1\ngo infinite', []), BadWord);
});

test('go lines: infinite, or each limit a count', () => {
  assert.equal(goLine({ infinite: true }), 'go infinite');
  assert.equal(goLine({ movetime: '150' }), 'go movetime 150');
  assert.equal(goLine({ p1time: 60000, p2time: 59000, p1inc: 1000, p2inc: 1000 }),
    'go p1time 60000 p2time 59000 p1inc 1000 p2inc 1000');
  assert.throws(() => goLine({ depth: '3 infinite' }), BadWord);
});

test('the other lines: options, variant, auth, and no blank inside a word', () => {
  assert.equal(numberOptionLine('MultiPV', 3), 'setoption name MultiPV value 3');
  assert.equal(variantLine('Gobblet Gobblers'), 'setoption name Variant value Gobblet Gobblers');
  assert.equal(authLine('T0k3n'), 'auth T0k3n');
  assert.throws(() => authLine('T0k3n\nquit'), BadWord);
  assert.throws(() => protocolLine('go', 'depth 3'), BadWord);
  assert.throws(() => protocolLine(), /an empty protocol line/);
});
