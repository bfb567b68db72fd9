// The engine's levels the page offers (web/levels.js) against their one
// measurement (search/skill.h kSkillLevelElo, docs/search.md "Strength
// levels"), and the figures docs/board.md and the page's help quote of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { LEVELS, FULL_STRENGTH, levelElo, levelLabel } from '../../web/levels.js';

const ROOT = new URL('../../', import.meta.url);
const text = (path) => readFileSync(new URL(path, ROOT), 'utf8');

// kSkillLevelElo's numbers, level 0 first.
function measured() {
  const m = /kSkillLevelElo\[[^\]]*\]\s*=\s*\{([^}]*)\}/.exec(text('search/skill.h'));
  assert.ok(m, 'kSkillLevelElo not found in search/skill.h');
  return m[1].split(',').map((x) => Number(x.trim())).filter((x) => !Number.isNaN(x));
}

test('each level offered carries its measured Elo, rounded to 10', () => {
  const elo = measured();
  assert.equal(elo.length, FULL_STRENGTH + 1);
  assert.equal(LEVELS[0][0], FULL_STRENGTH, 'full strength first');
  for (const [level, shown] of LEVELS) {
    assert.equal(shown, Math.round(elo[level] / 10) * 10, `level ${level}: skill.h says ${elo[level]}`);
  }
  assert.deepEqual(LEVELS.map(([l]) => l), [...LEVELS.map(([l]) => l)].sort((a, b) => b - a), 'strongest first');
});

test('labels and Elo lookups', () => {
  assert.equal(levelLabel(FULL_STRENGTH), `full ~${levelElo(FULL_STRENGTH)}`);
  assert.equal(levelLabel(13), `13 ~${levelElo(13)}`);
  assert.equal(levelElo(4), null);  // (not offered)
  assert.equal(levelLabel(4), '4');
});

test("docs/board.md quotes the selector's first and last labels", () => {
  const m = /`(full ~\d+)` … `(\d+ ~\d+)`/.exec(text('docs/board.md'));
  assert.ok(m, 'docs/board.md: the level selector\'s range `full ~N` … `0 ~M` not found');
  assert.deepEqual([m[1], m[2]], [levelLabel(LEVELS[0][0]), levelLabel(LEVELS.at(-1)[0])]);
});

test("the page's help quotes a label as the selector writes it", () => {
  const help = /beside it in the list \(as in <code>([^<]+)<\/code>/.exec(text('web/index.html'));
  assert.ok(help, "the help's example of a level's label not found in web/index.html");
  const level = Number(help[1].split(' ')[0]);
  assert.equal(help[1], levelLabel(level));
});
