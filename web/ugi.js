// @ts-check
// UgiClient: the engine's UGI protocol over the page's WebSocket (/ugi),
// or to the WebAssembly engine in a Web Worker (worker_socket.js: the same
// interface), whichever `openSocket` makes.
//
// The engine answers in order, so a command batch is sent followed by
// `isready` and every line up to `readyok` is its answer (errors included).
// Search output (`info …` other than errors, `bestmove`) goes to the
// search listener instead, whenever it comes. Batches run one at a time.
// Only protocol lines go out (command.js builds them from checked words):
// send() refuses anything else, so no text can carry a second line.

import { isWord } from './words.js';

const OPEN = 1;  // WebSocket's readyState (WorkerSocket uses the same numbers)

/** @typedef {WebSocket | import('./worker_socket.js').WorkerSocket} Socket */

export class UgiClient {
  // openSocket(): a new WebSocket or WorkerSocket; `where` names it in messages.
  /** @param {() => Socket} openSocket @param {string} where */
  constructor(openSocket, where) {
    this.openSocket = openSocket;
    this.where = where;
    /** @type {Socket | null} */
    this.socket = null;
    /** @type {string[]} */
    this.pending = [];          // lines collected for the batch in flight
    /** @type {((lines: string[] | null) => void) | null} */
    this.waiter = null;         // resolves the batch in flight at readyok
    /** @type {Promise<unknown>} */
    this.chain = Promise.resolve();
    /** @type {(line: string) => void} */
    this.onSearch = () => {};   // (line) for info/bestmove
    /** @type {(e: {reason: string}) => void} */
    this.onClose = () => {};
    /** @type {string[]} */
    this.log = [];              // the last lines both ways, for the log panel
    /** @type {string | null} */
    this.lastError = null;      // the engine's last error line (why it closed, before a handshake)
  }

  // Opens the socket (again, after a close: a new session); resolves when
  // it is open, rejects if it cannot be.
  connect() {
    return /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
      /** @type {Socket} */
      let socket;
      try {
        socket = this.openSocket();
      } catch (e) {
        return reject(new Error('cannot start the engine (' + this.where + '): ' + /** @type {Error} */ (e).message));
      }
      this.socket = socket;
      this.pending = [];
      this.waiter = null;
      this.chain = Promise.resolve();
      this.lastError = null;
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error('cannot reach the engine (' + this.where + ')'));
      socket.onclose = (/** @type {{reason: string}} */ e) => {
        if (socket !== this.socket) return;
        if (this.waiter) this.waiter(null);
        this.waiter = null;
        this.onClose(e);
      };
      socket.onmessage = (/** @type {{data: unknown}} */ e) => {
        if (socket === this.socket) this.receive(String(e.data));
      };
    }));
  }

  /** @param {string} line */
  remember(line) {
    this.log.push(line);
    if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
  }

  /** @param {string} line */
  receive(line) {
    this.remember('< ' + line);
    if (line.startsWith('info string error: ')) this.lastError = line.slice('info string error: '.length);
    if (line === 'readyok' && this.waiter) {
      const done = this.waiter;
      this.waiter = null;
      done(this.pending);
      this.pending = [];
      return;
    }
    if (line.startsWith('bestmove') || (line.startsWith('info ') && !line.startsWith('info string error'))) {
      this.onSearch(line);
      return;
    }
    this.pending.push(line);
  }

  // Sends lines without waiting for anything (go, stop). Each must be words
  // joined by single spaces (no line end, no control character): else it throws.
  /** @param {...string} lines */
  send(...lines) {
    const bad = lines.find((line) => typeof line !== 'string' || !line.split(' ').every(isWord));
    if (bad !== undefined) throw new Error('not a protocol line: ' + JSON.stringify(String(bad)).slice(0, 80));
    for (const line of lines) {
      this.remember('> ' + line);
      /** @type {Socket} */ (this.socket).send(line);  // (sent only once connected)
    }
  }

  // Sends a batch and resolves with its answer lines (null if the socket closed).
  /** @param {...string} lines */
  exec(...lines) {
    /** @returns {Promise<string[] | null>} */
    const run = () => new Promise((resolve) => {
      if (!this.socket || this.socket.readyState !== OPEN) return resolve(null);
      this.pending = [];
      this.send(...lines, 'isready');  // throws (the batch rejects) before sending anything if a line is bad
      this.waiter = resolve;
    });
    const result = this.chain.then(run);
    this.chain = result.catch(() => null);
    return result;
  }
}

// The first error line of a batch's answer, without its prefix, or null.
/** @param {string[] | null} lines */
export function errorOf(lines) {
  const e = (lines || []).find((l) => l.startsWith('info string error: '));
  return e ? e.slice('info string error: '.length) : null;
}

// An `option name … type …` line of the handshake as {name, type, default,
// vars[]} (a combo's values, in the engine's order), or null for another line.
/**
 * @typedef {{name?: string, type?: string, default?: string, min?: string, max?: string, vars: string[]}} Option
 * @param {string} line
 * @returns {Option | null}
 */
export function parseOption(line) {
  const keywords = ['name', 'type', 'default', 'min', 'max', 'var'];
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'option') return null;
  /** @type {[string, string][]} */
  const fields = [];  // [keyword, value] in order; a value may hold several words
  for (const w of words.slice(1)) {
    // An option's name may contain a keyword: the name runs up to 'type'.
    const inName = fields.length === 1 && fields[0][0] === 'name' && w !== 'type';
    if (keywords.includes(w) && !inName) fields.push([w, '']);
    else if (fields.length) fields[fields.length - 1][1] += (fields[fields.length - 1][1] ? ' ' : '') + w;
  }
  /** @type {Option} */
  const option = { vars: [] };
  for (const [k, v] of fields) {
    if (k === 'var') option.vars.push(v);
    else Object.assign(option, { [k]: v });
  }
  return option.name && option.type ? option : null;
}

// The engine's `query result` words (docs/protocol.md) as the page says them.
/** @type {Record<string, string>} */
export const RESULT_TEXT = Object.freeze({ p1win: 'Player 1 wins', p2win: 'Player 2 wins', draw: 'Draw' });

// The value after `prefix` in the first line that starts with it, or null.
/** @param {string[] | null} lines @param {string} prefix */
export function answer(lines, prefix) {
  const l = (lines || []).find((x) => x.startsWith(prefix));
  return l === undefined ? null : l.slice(prefix.length);
}

// Parses an `info` line into {depth, multipv, cp|mate, bound, wdl, nodes, nps, time, pv[]}; null if no depth.
// (The engine's lines with a depth carry a score: docs/protocol.md; with
// UCI_ShowWDL, `wdl W D L` after it: kept only as three per mille chances summing to 1000.)
/**
 * @typedef {import('./values.js').Score & {depth: number, multipv: number, pv: string[], bound?: string,
 *   seldepth?: number, nodes?: number, nps?: number, time?: number, hashfull?: number, tbhits?: number}} Info
 * @param {string} line
 * @returns {Info | null}
 */
export function parseInfo(line) {
  const w = line.split(' ');
  /** @type {Record<string, any>} */
  const info = { multipv: 1, pv: [] };
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    if (k === 'pv') { info.pv = w.slice(i + 1).filter((m) => m); break; }
    if (k === 'score') {
      const kind = w[++i], v = Number(w[++i]);
      if (kind === 'cp') info.cp = v; else if (kind === 'mate') info.mate = v;
      if (w[i + 1] === 'lowerbound' || w[i + 1] === 'upperbound') info.bound = w[++i];
      continue;
    }
    if (k === 'wdl') {
      const wdl = parseWdl(w.slice(i + 1, i + 4).join(' '));
      if (wdl) info.wdl = wdl;
      i += 3;
      continue;
    }
    if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull', 'tbhits'].includes(k)) info[k] = Number(w[++i]);
  }
  return info.depth === undefined ? null : /** @type {Info} */ (info);
}

// "W D L" (per mille, as `wdl` in an info line and `query wdl`'s answer
// give them) as [W, D, L]; null unless three whole numbers 0..1000 summing to 1000.
/** @param {string} text @returns {import('./values.js').Wdl | null} */
export function parseWdl(text) {
  const words = text.trim().split(' ');
  if (words.length !== 3 || !words.every((x) => /^\d{1,4}$/.test(x))) return null;
  const [w, d, l] = words.map(Number);
  return w + d + l === 1000 ? [w, d, l] : null;
}
