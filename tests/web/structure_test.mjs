// The board's structure (web/*.js, docs/board.md "State"): the modules share
// one state (web/state.js) and no module but state.js exports a mutable
// object or binding; only the view and event modules that state.js names
// touch the page (document, window, localStorage, location,
// addEventListener); the logic modules keep no state of their own at
// module level (a `let`, a Map or Set made at load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const WEB = new URL('../../web/', import.meta.url);
const modules = readdirSync(WEB).filter((f) => f.endsWith('.js')).sort();
const source = (name) => readFileSync(new URL(name, WEB), 'utf8');

// The text without its comments (a `//` inside a string, as in a URL, is kept).
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

// The modules state.js names as those that may touch the page: the lines
// `//   name.js, name.js  what for` of its header.
function pageModules() {
  const names = new Set();
  for (const m of source('state.js').matchAll(/^\/\/ {3}([\w.]+\.js(?:, [\w.]+\.js)*)\s/gm)) {
    for (const name of m[1].split(', ')) names.add(name);
  }
  return names;
}

// Why the exports of a module's `text` may be changed by another module: [] if none can.
function mutableExports(text) {
  const found = [];
  for (const m of text.matchAll(/^export\s+(let|var)\s+(\w+)/gm)) found.push(`export ${m[1]} ${m[2]}`);
  for (const m of text.matchAll(/^export\s+const\s+(\w+)\s*=\s*([^;]*)/gm)) {
    // (a JSDoc cast, /** @type {…} */ (…), hides the value: look inside it)
    const cast = /^\/\*\*[\s\S]*?\*\/\s*\(\s*/.exec(m[2]);
    const value = (cast ? m[2].slice(cast[0].length) : m[2]).trim();
    const primitive = /^(-?\d|'|"|`|true\b|false\b|null\b|[A-Z][A-Z0-9_]*\s*$)/.test(value);
    const frozen = value.startsWith('Object.freeze(');
    const fn = /^(\([^)]*\)|\w+)\s*=>/.test(value);
    if (!primitive && !frozen && !fn) found.push(`export const ${m[1]} = ${value.slice(0, 30)}…`);
  }
  const lets = new Set([...text.matchAll(/^(?:let|var)\s+(\w+)/gm)].map((m) => m[1]));
  for (const m of text.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const name of m[1].split(',').map((n) => n.trim().split(/\s+/)[0])) {
      if (lets.has(name)) found.push(`export { ${name} } (a let)`);
    }
  }
  return found;
}

const PAGE_WORDS = /\b(document|window|localStorage|location|addEventListener)\b/;

test('state.js names the modules that may touch the page, and each of them exists', () => {
  const names = pageModules();
  assert.ok(names.size >= 5, 'state.js names the view and event modules in its header');
  for (const name of names) assert.ok(modules.includes(name), `${name} (named in state.js) is in web/`);
});

test('no module but state.js exports a mutable object or binding', () => {
  const found = modules.filter((name) => name !== 'state.js')
    .flatMap((name) => mutableExports(code(source(name))).map((e) => `${name}: ${e}`));
  assert.deepEqual(found, [], 'shared state lives in state.js (State), passed down; constants are frozen');
});

test('only the view and event modules named in state.js touch the page', () => {
  const allowed = pageModules();
  const found = modules.filter((name) => name !== 'state.js' && !allowed.has(name)).flatMap((name) =>
    code(source(name)).split('\n').filter((line) => PAGE_WORDS.test(line)).map((line) => `${name}: ${line.trim()}`));
  assert.deepEqual(found, [], 'a logic module changes the state and asks the view through st.ui');
});

test('the logic modules keep no state of their own at module level', () => {
  const allowed = pageModules();
  const found = modules.filter((name) => name !== 'state.js' && !allowed.has(name)).flatMap((name) =>
    code(source(name)).split('\n').filter((line) => /^(let|var)\s|^const\s+\w+\s*=\s*new\s+(Map|Set|WeakMap)\b/.test(line))
      .map((line) => `${name}: ${line.trim()}`));
  assert.deepEqual(found, [], 'what a logic module keeps between calls is a part of State');
});

test('the checks catch what they are for', () => {
  assert.deepEqual(mutableExports('export let x = 1;'), ['export let x']);
  assert.equal(mutableExports('export const game = { a: 1 };').length, 1);
  assert.equal(mutableExports('export const LIST = [1, 2];').length, 1);
  assert.equal(mutableExports('export const ugi = new UgiClient();').length, 1);
  assert.equal(mutableExports('export const actions = /** @type {any} */ ({ a: null });').length, 1);
  assert.equal(mutableExports('let n = 0;\nexport { n };').length, 1);
  assert.deepEqual(mutableExports("export const A = 20;\nexport const B = 'x';\nexport const C = Object.freeze({});\n"
    + 'export const D = MAX_X;\nexport const E = (x) => x;'), []);
  assert.equal(code('// document\nconst a = 1; // window\n/* location */'), '\nconst a = 1; \n');
  assert.equal(code("const url = 'http://x';"), "const url = 'http://x';");
});
