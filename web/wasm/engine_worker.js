// @ts-check
// The WebAssembly engine's Web Worker (docs/wasm.md). The page posts
// protocol lines (strings); the worker posts back the engine's lines
// (strings) and two notes: {opened: true} once the engine is made, and
// {closed: why} when it has ended (after `quit`, or if it failed), just
// before the worker closes itself. The page may also post a proof database
// file the person chose, {store: File, id} (see storeFile): answered {id,
// stored: path} or {id, refused: why}. The engine (gobblet-engine.js, built
// by tools/wasm) reads its input and writes its output through
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

// The proof database files the person loads (docs/wasm.md, "A proof
// database"): kept in the engine's in-memory files (Emscripten's MEMFS, in
// the worker's JavaScript memory, not the engine's), each in a folder of
// its own, STORE_DIR/<k>/NAME (k counts the files stored: a file of the
// same name never replaces one the engine has open), read-only, for
// `setoption name ProofDatabase value <path>`; the engine opens them
// read-only too (tools/wasm/engine_main.cpp), and checks every record. At
// most MAX_STORED_BYTES each. Kept: the last file stored, and the one the
// engine has open (Emscripten's fstat finds an open file by its path, so
// it must stay); the others are removed as the next one is stored.
const STORE_DIR = '/loaded';
const MAX_STORED_BYTES = 256 * 1024 * 1024;
let stored = 0;  // files stored so far

// Stores `file` (a File or Blob the page posted) for the engine: its path,
// or throws an Error saying why not.
/** @param {Blob} file @returns {Promise<string>} */
async function storeFile(file) {
  if (!engine) throw new Error('the engine is not loaded');
  const fs = engine.FS;
  if (!(file instanceof Blob)) throw new Error('not a file');
  if (file.size > MAX_STORED_BYTES) {
    throw new Error(`the file is ${(file.size / 1048576).toFixed(1)} MiB; this engine takes proof databases of `
      + `at most ${MAX_STORED_BYTES / 1048576} MiB`);
  }
  // Its name, of the characters a path and a protocol word may hold (no leading dot: never '..').
  const given = file instanceof File ? file.name : '';
  const name = given.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-64).replace(/^\.+/, '') || 'database';
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!fs.analyzePath(STORE_DIR).exists) fs.mkdir(STORE_DIR);
  const open = new Set(fs.streams.map((stream) => stream && stream.path));
  const entries = (/** @type {string} */ folder) => fs.readdir(folder).filter((n) => n !== '.' && n !== '..');
  for (const folder of entries(STORE_DIR).map((k) => `${STORE_DIR}/${k}`)) {
    const files = entries(folder).map((n) => `${folder}/${n}`);
    if (files.some((f) => open.has(f))) continue;
    for (const f of files) fs.unlink(f);
    fs.rmdir(folder);
  }
  const folder = `${STORE_DIR}/${++stored}`;
  fs.mkdir(folder);
  const path = `${folder}/${name}`;
  fs.writeFile(path, bytes, { canOwn: true });
  fs.chmod(path, 0o444);
  return path;
}

onmessage = (e) => {
  if (ended) return;
  if (e.data && typeof e.data === 'object' && 'store' in e.data) {
    const id = e.data.id;
    storeFile(e.data.store).then((path) => postMessage({ id, stored: path }),
      (err) => postMessage({ id, refused: errorText(err) }));
    return;
  }
  if (typeof e.data !== 'string') return;
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
