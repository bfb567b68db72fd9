// @ts-check
// The WebAssembly engine's Web Worker (docs/wasm.md). The page posts
// protocol lines (strings); the worker posts back the engine's lines
// (strings) and two notes: {opened: true} once the engine is made, and
// {closed: why} when it has ended (after `quit`, or if it failed), just
// before the worker closes itself. The engine (gobblet-engine.js, built by
// tools/wasm) reads its input and writes its output through
// globalThis.gobbletHost (tools/wasm/engine_main.cpp); while it searches it
// yields now and then, and the lines that came meanwhile are handed to it.
//
// Two builds of the engine (docs/wasm.md, "Two engines"): gobblet-engine
// where the browser has JavaScript Promise Integration (the yield suspends
// the engine's stack: WebAssembly.Suspending and WebAssembly.promising),
// gobblet-engine-asyncify elsewhere (slower). `?engine=jspi|asyncify` in the
// worker's URL chooses one (tools/wasm/measure_site.py, the tests); {opened}
// says which runs.
/* global createGobbletEngine, importScripts */

/** @type {any} */
const wasmApi = WebAssembly;
const hasJspi = typeof wasmApi.Suspending === 'function' && typeof wasmApi.promising === 'function';
const asked = new URLSearchParams(self.location.search).get('engine');
const build = asked === 'jspi' || asked === 'asyncify' ? asked : hasJspi ? 'jspi' : 'asyncify';
importScripts(build === 'jspi' ? 'gobblet-engine.js' : 'gobblet-engine-asyncify.js');
// Both builds use WebAssembly SIMD (the net's sums, search/nnue/network.cpp;
// Chrome 91, Firefox 89 and Safari 16.4 on have it): a module whose one
// function returns a v128 constant validates only where it is there.
const hasSimd = WebAssembly.validate(new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,  // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,        // types: () -> v128
  0x03, 0x02, 0x01, 0x00,                          // one function of type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c,        // its code: v128.const ...
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // ... 0
  0x0b,                                            // end
]));

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

// The JSPI build's instantiation (Emscripten's instantiateWasm hook): the
// yield import suspends, the entry point returns a promise. Errors end the
// worker, saying why (Emscripten would wait for the instance forever).
/**
 * @param {{env: Record<string, Function>}} imports
 * @param {(instance: {exports: Record<string, unknown>}) => void} receive
 */
function instantiateWithJspi(imports, receive) {
  if (!hasJspi) {
    end('cannot load the engine: this browser has no JavaScript Promise Integration (WebAssembly.Suspending)');
    return {};
  }
  imports.env.gobblet_host_yield = new wasmApi.Suspending(imports.env.gobblet_host_yield);
  const url = new URL('gobblet-engine.wasm', self.location.href).href;
  const compiled = fetch(url, { credentials: 'same-origin' }).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    // A host that does not say application/wasm: compiled from the bytes.
    return WebAssembly.instantiateStreaming(response.clone(), imports)
      .catch(() => response.arrayBuffer().then((bytes) => WebAssembly.instantiate(bytes, imports)));
  });
  compiled.then(({ instance }) => {
    const exports = Object.assign({}, instance.exports);
    exports.gobblet_worker_run = wasmApi.promising(instance.exports.gobblet_worker_run);
    receive({ exports });
  }).catch((err) => end('cannot load the engine: ' + errorText(err)));
  return {};
}

if (!hasSimd) {
  end('cannot load the engine: this browser has no WebAssembly SIMD (Chrome 91, Firefox 89, Safari 16.4 and later have it)');
} else {
  createGobbletEngine({
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    ...(build === 'jspi' ? { instantiateWasm: instantiateWithJspi } : {}),
  }).then((module) => {
    engine = module;
    postMessage({ opened: true, engine: build });
    pump();
  }, (err) => end('cannot load the engine: ' + errorText(err)));
}
