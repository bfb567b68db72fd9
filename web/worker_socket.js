// @ts-check
// WorkerSocket: the WebAssembly engine in a Web Worker (web/wasm/
// engine_worker.js, docs/wasm.md) behind the part of the WebSocket
// interface UgiClient uses (readyState, send, close, onopen, onmessage,
// onerror, onclose), so that the page talks UGI to it exactly as to the
// engine's server.

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
    this.worker = new Worker(script);
    this.worker.onmessage = (e) => {
      if (typeof e.data === 'string') {
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

  close() {
    this.finish('closed by the page');
  }

  /** @param {string} reason */
  finish(reason) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.worker.terminate();
    if (this.onclose) this.onclose({ reason });
  }
}
