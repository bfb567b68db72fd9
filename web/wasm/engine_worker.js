// @ts-check
// The WebAssembly engine's Web Worker (docs/wasm.md). The page posts
// protocol lines (strings); the worker posts back the engine's lines
// (strings) and two notes: {opened: true} once the engine is made, and
// {closed: why} when it has ended (after `quit`, or if it failed), just
// before the worker closes itself. The engine (gobblet-engine.js, built by
// tools/wasm) reads its input and writes its output through
// globalThis.gobbletHost (tools/wasm/engine_main.cpp); while it searches it
// yields now and then, and the lines that came meanwhile are handed to it.
/* global createGobbletEngine, importScripts */
importScripts('gobblet-engine.js');

/** @type {string[]} */
const input = [];     // lines the page sent that the engine has not taken yet
/** @type {GobbletEngine | null} */
let engine = null;    // the module, once made
let running = false;  // is the engine handling lines (perhaps awaiting a yield)?
let ended = false;
/** @type {(() => void) | null} */
let wake = null;      // resolves the yield of a search waiting for stop/ponderhit

globalThis.gobbletHost = {
  takeLine: () => (input.length ? /** @type {string} */ (input.shift()) : null),
  output: (/** @type {string} */ line) => postMessage(line),
  // A working search gets its turn back after the messages already queued
  // (a message to itself: no timer clamping); a waiting one when a line
  // arrives (or after a while, to look again).
  yield: (/** @type {boolean} */ waiting) => /** @type {Promise<void>} */ (new Promise((resolve) => {
    if (waiting) {
      wake = resolve;
      setTimeout(() => { if (wake === resolve) { wake = null; resolve(); } }, 100);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(0);
  })),
};

// An error's message (or what was thrown), at most 200 characters.
/** @param {unknown} err */
function errorText(err) {
  return String(err && /** @type {Error} */ (err).message || err).slice(0, 200);
}

/** @param {string} why */
function end(why) {
  if (ended) return;
  ended = true;
  postMessage({ closed: why });
  close();
}

// Lets the engine handle what has come, as long as lines keep coming.
async function pump() {
  if (!engine || running || ended) return;
  running = true;
  try {
    while (input.length && !ended) {
      const goesOn = await engine.ccall('gobblet_worker_run', 'number', [], [], { async: true });
      if (!goesOn) end('quit');
    }
  } catch (err) {
    end('the engine failed: ' + errorText(err));
  }
  running = false;
}

onmessage = (e) => {
  if (ended || typeof e.data !== 'string') return;
  input.push(e.data);
  if (wake) {
    const w = wake;
    wake = null;
    w();
  }
  pump();
};

createGobbletEngine({
  print: (text) => console.log(text),
  printErr: (text) => console.warn(text),
}).then((module) => {
  engine = module;
  postMessage({ opened: true });
  pump();
}, (err) => end('cannot load the engine: ' + errorText(err)));
