// The game link in the page's address (web/address.js): its fields read
// with their shape checked before anything reaches the engine, and written
// back the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkHash, readLink } from '../../web/address.js';

test("a link's fields are read with their shape checked, and written back the same", () => {
  const link = readLink('#variant=gobblers&fen=%5BsL%5D2%2F1M1%2F3+2&moves=a3b3,M@c1&ply=1');
  assert.deepEqual(link, { variant: 'gobblers', start: '[sL]2/1M1/3 2', moves: ['a3b3', 'M@c1'], ply: 1 });
  assert.deepEqual(readLink(`#${linkHash(link)}`), link);
  assert.deepEqual(readLink(''), { variant: null, start: null, moves: [], ply: null });
  assert.equal(linkHash({ variant: 'gobblet', start: null, moves: ['X@a1'], ply: 1 }), 'variant=gobblet&moves=X%40a1');
});

test('a hostile link is refused with the reason, before anything is sent', () => {
  assert.deepEqual(readLink('#variant=gobblers&fen=3/3/3%201%0Ago%20infinite'),
    { error: "'3/3/3 1\\ngo infinite' is not a position text (ranks of 1-9, S M L X and [ ] separated by '/', "
      + 'a space, the side to move 1 or 2, as 3/3/3 1)' });
  assert.match(readLink('#moves=X@a1,X@b2%0D%0Aquit').error, /^'X@b2\\r\\nquit' is not a move/);
  assert.match(readLink('#variant=gobblers%0Aquit').error, /is not a variant name/);
  assert.match(readLink('#ply=-1').error, /^'-1' is not a ply/);
});
