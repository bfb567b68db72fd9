// @ts-check
// WorkerSocket: the WebAssembly engine in a Web Worker (web/wasm/
// engine_worker.js, docs/wasm.md) behind the part of the WebSocket
// interface UgiClient uses (readyState, send, close, onopen, onmessage,
// onerror, onclose), so that the page talks UGI to it exactly as to the
// engine's server. storeFile() hands the engine a proof database file the
// person chose (the worker keeps it in memory for the engine).

export class WorkerSocket {
  /** @param {string} script */
  constructor(script) {
    this.readyState = 0;  // CONNECTING, OPEN 1, CLOSED 3: WebSocket's numbers
    /** @type {(() => void) | null} */
    this.onopen = null;
    /** @type {((e: {data: string}) => void) | null} */
    this.onmessage = null;
    /** @type {((e: ErrorEvent) => void) | null} */
    this.onerror = null;
    /** @type {((e: {reason: string}) => void) | null} */
    this.onclose = null;
    /** @type {Map<number, (answer: {path: string} | {error: string}) => void>} */
    this.storing = new Map();  // storeFile's answers awaited, by their id
    this.stores = 0;
    this.worker = new Worker(script);
    this.worker.onmessage = (e) => {
      if (e.data && this.storing.has(e.data.id)) {
        const answer = /** @type {(answer: {path: string} | {error: string}) => void} */ (this.storing.get(e.data.id));
        this.storing.delete(e.data.id);
        answer('stored' in e.data ? { path: String(e.data.stored) } : { error: String(e.data.refused) });
      } else if (typeof e.data === 'string') {
        if (this.readyState === 1 && this.onmessage) this.onmessage({ data: e.data });
      } else if (e.data && e.data.opened && this.readyState === 0) {
        this.readyState = 1;
        if (this.onopen) this.onopen();
      } else if (e.data && 'closed' in e.data) {
        this.finish(String(e.data.closed));
      }
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      if (this.readyState === 0 && this.onerror) this.onerror(e);
      this.finish('the engine failed: ' + (e.message || 'an error in its worker'));
    };
  }

  /** @param {string} line */
  send(line) {
    if (this.readyState === 1) this.worker.postMessage(String(line));
  }

  // Hands `file` to the worker, which keeps it in memory for the engine (up
  // to the size it states): resolves with its path there, for the
  // ProofDatabase option, or with why not.
  /** @param {File} file @returns {Promise<{path: string} | {error: string}>} */
  storeFile(file) {
    if (this.readyState !== 1) return Promise.resolve({ error: 'the engine is not running' });
    const id = ++this.stores;
    return new Promise((resolve) => {
      this.storing.set(id, resolve);
      this.worker.postMessage({ store: file, id });
    });
  }

  close() {
    this.finish('closed by the page');
  }

  /** @param {string} reason */
  finish(reason) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.worker.terminate();
    for (const answer of this.storing.values()) answer({ error: reason });
    this.storing.clear();
    if (this.onclose) this.onclose({ reason });
  }
}
