// Who played a game of the page and its time control, as its PGN names
// them (web/players.js), written by web/pgn.js where the game's own tags do
// not say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playerName, timeControlTag, roster } from '../../web/players.js';
import { parseGameText, writePgn } from '../../web/pgn.js';
import { treeOf } from '../../web/game.js';

const settings = (p1, p2, time = 'movetime 1000', level = 20) => ({ p1, p2, time, level, multipv: 1, sound: false,
  allValues: false, learnSide: 1 });

test('the engine by its level and Elo, a person "You" against it', () => {
  const s = settings('human', 'engine', 'movetime 1000', 13);
  assert.equal(playerName(s, 1, true), 'You');
  assert.equal(playerName(s, 2, true), 'gobblet (level 13, ~1660)');
  assert.equal(playerName(settings('engine', 'human'), 1, true), 'gobblet (full strength, ~2320)');
  assert.equal(playerName(settings('engine', 'human'), 2, true), 'You');
  assert.equal(playerName(settings('engine', 'human', 'movetime 1000', 4), 1, true), 'gobblet (level 4)');
  assert.equal(playerName(settings('engine', 'engine'), 2, false), 'gobblet');  // (no levels: its one strength)
  assert.equal(playerName(settings('human', 'human'), 1, true), 'Player 1');
  assert.equal(playerName(settings('human', 'human'), 2, true), 'Player 2');
});

test('the time control as base+increment in seconds, movetime=S for the engine, - for none', () => {
  assert.equal(timeControlTag(settings('human', 'engine', 'clock 300000 3000')), '300+3');
  assert.equal(timeControlTag(settings('human', 'human', 'clock 60000 1000')), '60+1');
  assert.equal(timeControlTag(settings('human', 'human', 'clock 90500 0')), '90.5+0');
  assert.equal(timeControlTag(settings('human', 'engine', 'movetime 1000')), 'movetime=1');
  assert.equal(timeControlTag(settings('engine', 'engine', 'movetime 300')), 'movetime=0.3');
  assert.equal(timeControlTag(settings('human', 'human', 'movetime 300')), '-');
  assert.equal(timeControlTag(settings('human', 'engine', 'sometimes')), '?');
});

test("the PGN names the page's players where the game's tags do not", () => {
  const players = roster(settings('human', 'engine', 'clock 300000 3000', 13), true);
  const pgn = writePgn({ variant: 'gobblers', start: null, tags: [] }, treeOf(['L@b2']), null, 'board.test', players);
  assert.match(pgn, /\n\[White "You"\]\n\[Black "gobblet \(level 13, ~1660\)"\]\n\[Result "\*"\]\n\[Variant "gobblers"\]\n\[TimeControl "300\+3"\]\n\n/);
  const back = parseGameText(pgn);
  assert.deepEqual(back.tags.filter(([k]) => ['White', 'Black', 'TimeControl'].includes(k)),
    [['White', 'You'], ['Black', 'gobblet (level 13, ~1660)'], ['TimeControl', '300+3']]);
  // An imported game's own names and time control stay.
  const own = writePgn({ variant: 'gobblers', start: null, tags: [['White', 'Ann'], ['TimeControl', '40/900']] },
    treeOf(['L@b2']), null, 'board.test', players);
  assert.match(own, /\[White "Ann"\]\n\[Black "gobblet \(level 13, ~1660\)"\]/);
  assert.equal((own.match(/TimeControl/g) || []).length, 1);
  assert.match(own, /\[TimeControl "40\/900"\]/);
});
