// Chances, the one unit the board shows values in (web/values.js, the
// `wdl` of info lines in web/ugi.js, the bar's content in web/eval_bar.js):
// per mille read only when whole, percentages that sum to 100, an estimate
// never 100% or 0%, a line's value for the side to move, the bar's for
// player 1 (a proof's, the tablebase's, a search's, or none).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chancesOf, chancesText, lineValueText, otherSide, percents, playerOneChancesText, playerOneValue, proofValue }
  from '../../web/values.js';
import { keepValue, newNode } from '../../web/game.js';
import { parseInfo, parseWdl } from '../../web/ugi.js';
import { barContent } from '../../web/eval_bar.js';

test('per mille chances are read only as three whole numbers summing to 1000', () => {
  assert.deepEqual(parseWdl('581 34 385'), [581, 34, 385]);
  assert.deepEqual(parseWdl('0 1000 0'), [0, 1000, 0]);
  for (const bad of ['581 34 386', '581 34', '581 34 385 0', '-1 1 1000', '1e3 0 0', '58.1 34 907.9', '', 'a b c']) {
    assert.equal(parseWdl(bad), null, `${bad} taken`);
  }
});

test("an info line's chances follow its score; a bad one is left out", () => {
  const info = parseInfo('info depth 8 seldepth 9 multipv 2 score cp 14 wdl 581 34 385 nodes 10 pv X@a1 X@d4');
  assert.deepEqual(info.wdl, [581, 34, 385]);
  assert.equal(info.cp, 14);
  assert.equal(info.multipv, 2);
  assert.equal(info.nodes, 10);
  assert.deepEqual(info.pv, ['X@a1', 'X@d4']);
  const bounded = parseInfo('info depth 3 score cp -5 upperbound wdl 400 100 500 nodes 7 pv a1b2');
  assert.deepEqual([bounded.bound, bounded.wdl, bounded.nodes], ['upperbound', [400, 100, 500], 7]);
  const bad = parseInfo('info depth 3 score cp 5 wdl 1 2 3 nodes 7 pv a1b2');
  assert.equal(bad.wdl, undefined);
  assert.equal(bad.nodes, 7);
  assert.equal(parseInfo('info depth 3 score cp 5 nodes 7 pv a1b2').wdl, undefined);
});

test('percentages sum to 100, each within a point, the same from either side', () => {
  assert.deepEqual(percents([581, 34, 385]), [58, 4, 38]);
  assert.deepEqual(percents([455, 90, 455]), [46, 8, 46]);
  assert.deepEqual(percents([1000, 0, 0]), [100, 0, 0]);
  assert.deepEqual(percents([0, 1000, 0]), [0, 100, 0]);
  // Seen from the other side, the same numbers turned (a largest-remainder rounding that broke
  // ties by order gave 44 6 50 for a line and 50 7 43 for the bar of the same chances).
  assert.deepEqual(percents([435, 65, 500]), [44, 6, 50]);
  assert.deepEqual(percents([500, 65, 435]), [50, 6, 44]);
  for (let w = 0; w <= 1000; w += 1) {
    for (const d of [0, 1, 5, 65, 333, 1000 - w]) {
      if (w + d > 1000) continue;
      const wdl = [w, d, 1000 - w - d];
      const p = percents(wdl);
      assert.equal(p[0] + p[1] + p[2], 100, String(wdl));
      assert.deepEqual(percents(otherSide(wdl)), [p[2], p[1], p[0]], String(wdl));
      p.forEach((x, i) => assert.ok(x >= 0 && Math.abs(x - wdl[i] / 10) <= 1, `${wdl}: ${p}`));
      if (d === 0) assert.equal(p[1], 0, String(wdl));
    }
  }
});

test('chances in words: W D L, with no false certainty', () => {
  assert.equal(chancesText([581, 34, 385]), 'W 58% D 4% L 38%');
  assert.equal(chancesText([581, 44, 375]), 'W 58% D 4% L 38%');
  // An estimate never reads 100% or 0%, whatever its per mille; an exact value does.
  assert.equal(chancesText([998, 0, 2]), 'W >99% D <1% L <1%');
  assert.equal(chancesText([1000, 0, 0]), 'W >99% D <1% L <1%');
  assert.equal(chancesText([1000, 0, 0], true), 'W 100% D 0% L 0%');
  assert.equal(chancesText([4, 992, 4]), 'W <1% D >99% L <1%');
  assert.equal(playerOneChancesText([999, 0, 1]), 'player 1 wins >99%, draw <1%, player 2 wins <1%');
  assert.equal(playerOneChancesText([0, 0, 1000], true), 'player 1 wins 0%, draw 0%, player 2 wins 100%');
  assert.deepEqual(otherSide([581, 34, 385]), [385, 34, 581]);
});

test("a line's value for the side to move: chances, a proven result, the tablebase's exact value", () => {
  assert.equal(lineValueText({ cp: 14, wdl: [581, 34, 385] }), 'W 58% D 4% L 38%');
  assert.equal(lineValueText({ cp: 900, wdl: [999, 0, 1] }), 'W >99% D <1% L <1%');
  assert.equal(lineValueText({ mate: 5, wdl: [1000, 0, 0] }), 'win in 5 plies');
  assert.equal(lineValueText({ mate: -1 }), 'loss in 1 ply');
  // The tablebase's mark is the line's value (the engine's model gave a draw 467 66 467).
  assert.equal(lineValueText({ cp: 0, wdl: [467, 66, 467] }, { wdl: 'D', plies: null }), 'draw (exact)');
  assert.equal(lineValueText({ mate: 17 }, { wdl: 'W', plies: 17 }), 'win in 17 plies');
  assert.equal(lineValueText({ cp: 3, wdl: [500, 0, 500] }, { wdl: '?', plies: null }), 'W 50% D <1% L 50%');
  // A draw the search proved: the engine's decided chances.
  assert.equal(lineValueText({ cp: 0, wdl: [0, 1000, 0] }), 'draw (exact)');
  assert.equal(lineValueText({ cp: -23 }), '-23 cp');  // (an engine that gives no chances)
});

test("a position's value for player 1: turned with its chances where player 2 moves", () => {
  assert.deepEqual(playerOneValue({ cp: 14, wdl: [581, 34, 385] }, 1), { cp: 14, exact: false, wdl: [581, 34, 385] });
  assert.deepEqual(playerOneValue({ cp: 14, wdl: [581, 34, 385] }, 2), { cp: -14, exact: false, wdl: [385, 34, 581] });
  assert.deepEqual(playerOneValue({ mate: -2 }, 2), { mate: 2, exact: false, wdl: [1000, 0, 0] });
  assert.deepEqual(playerOneValue({ cp: 0 }, 2, true), { cp: 0, exact: true, wdl: [0, 1000, 0] });
  assert.deepEqual(playerOneValue({ cp: 20 }, 1), { cp: 20, exact: false });
  assert.equal(chancesOf({ cp: 20 }), null);
});

test("the bar: the position's value (a proof, the tablebase, a search), a finished game, or none", () => {
  assert.deepEqual(barContent({ cp: -14, wdl: [385, 34, 581], source: 'search' }, null),
    { wdl: [385, 34, 581], text: '38%', say: 'player 1 wins 38%, draw 4%, player 2 wins 58%' });
  assert.deepEqual(barContent({ mate: 2, exact: true, source: 'tablebase' }, null),
    { wdl: [1000, 0, 0], text: 'W2', say: 'player 1 wins in 2 plies' });
  assert.deepEqual(barContent({ mate: -3 }, null),
    { wdl: [0, 0, 1000], text: 'L3', say: 'player 2 wins in 3 plies' });
  assert.deepEqual(barContent({ cp: 0, exact: true }, null), { wdl: [0, 1000, 0], text: 'D', say: 'a draw' });
  assert.equal(barContent({ cp: 5, wdl: [500, 0, 500] }, 'p2win').text, '0-1');
  // A proof: a win within its bound, exact.
  assert.deepEqual(barContent({ mate: 17, exact: true, source: 'proof' }, null),
    { wdl: [1000, 0, 0], text: 'W≤17', say: 'player 1 wins in at most 17 plies (proved)' });
  assert.deepEqual(barContent({ cp: 0, exact: true, source: 'proof' }, null),
    { wdl: [0, 1000, 0], text: 'D', say: 'a draw (proved)' });
  // A search's estimate never reads 100%.
  const lopsided = barContent({ cp: 900, wdl: [999, 0, 1], source: 'search' }, null);
  assert.equal(lopsided.text, '>99%');
  assert.equal(lopsided.say, 'player 1 wins >99%, draw <1%, player 2 wins <1%');
  // No value: no chances, and it says so (no static guess).
  const none = barContent(undefined, null);
  assert.equal(none.wdl, null);
  assert.equal(none.text, '?');
  assert.match(none.say, /^no evaluation yet/);
  assert.match(barContent(undefined, null, true).say, /^no evaluation of this previewed position/);
  assert.equal(barContent(undefined, 'p1win', true).text, '1-0');
});

test("a proof's answer as the position's value", () => {
  assert.deepEqual(proofValue('win plies 17 nodes 9221 time 92 certificate 4818 checked'), { mate: 17 });
  assert.deepEqual(proofValue('loss plies 4 nodes 10 time 1'), { mate: -4 });
  assert.equal(proofValue('draw nodes 10 time 1 (a note)'), null);  // (no certificates: no proof)
  assert.deepEqual(proofValue('draw nodes 2187 time 12 certificates 106 and 588 checked'), { cp: 0 });
  assert.equal(proofValue('not-lost nodes 1255 time 75 certificate 106 checked'), null);  // (at least a draw: no value)
  assert.equal(proofValue('unknown nodes 10 time 5000 (beyond reach)'), null);
  assert.equal(proofValue('winner plies 3'), null);
  assert.equal(proofValue('win nodes 3'), null);
});

test('a value from a more certain source stays: a proof over the tablebase over a search', () => {
  const node = newNode(null, null);
  assert.ok(keepValue(node, { cp: 10, wdl: [500, 100, 400], source: 'search' }));
  assert.ok(keepValue(node, { cp: 12, wdl: [510, 100, 390], source: 'search' }));  // the latest search
  assert.equal(node.value.cp, 12);
  assert.ok(keepValue(node, { mate: 9, exact: true, source: 'proof' }));
  assert.ok(!keepValue(node, { cp: 0, exact: true, source: 'tablebase' }));
  assert.ok(!keepValue(node, { cp: 40, wdl: [700, 100, 200], source: 'search' }));
  assert.deepEqual(node.value, { mate: 9, exact: true, source: 'proof' });
  const exact = newNode(null, null);
  assert.ok(keepValue(exact, { cp: 0, exact: true, source: 'tablebase' }));
  assert.ok(!keepValue(exact, { cp: 0, wdl: [0, 1000, 0], source: 'search' }));
  assert.ok(keepValue(exact, { mate: 3, exact: true, source: 'proof' }));
});
