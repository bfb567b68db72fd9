// @ts-check
// The engine's session: the UGI client (the server's WebSocket, or on the
// static site the WebAssembly engine in a Web Worker: either speaks the same
// UGI), its handshake, the searches it runs (one at a time), and the
// questions the page asks about a position. Every line is built by
// command.js from checked words.

import { UgiClient, errorOf, answer, parseInfo, parseOption } from './ugi.js';
import { boardShape, parsePosition, parseSupply } from './position.js';
import { positionLine, variantLine, numberOptionLine, goLine, authLine, protocolLine } from './command.js';
import { quoted, reasonOf } from './words.js';
import { ENGINE } from './engine_choice.js';
import { WorkerSocket } from './worker_socket.js';
import { parseValues } from './values.js';
import { MAX_GAME_MOVES, treeSize, variationLines, movesTo } from './game.js';
import { socketUrl } from './address.js';
import { FULL_STRENGTH } from './levels.js';

/** @typedef {import('./ugi.js').Info} Info */
/** @typedef {import('./values.js').Mark} Mark */
/** @typedef {import('./state.js').State} State */

/**
 * A search's outcome: what it was for ('engine', 'analysis', 'history'),
 * its lines by number at the latest depth, that depth, and its best move
 * (null: none, or a search not started).
 * (A `go prove` is a search of kind 'prove': `proof` is its answer, the
 * words after `info string proof`: "win plies 17 nodes 9221 time 92 …".)
 * @typedef {{kind: string, lines: Map<number, Info>, depth: number, best?: string | null, proof?: string}}
 *   SearchResult
 */
/**
 * A search running: how many lines, the latest info, what it tells on each
 * info (onInfo) while its position (generation) is shown, and its end.
 * @typedef {SearchResult & {multipv: number, last?: Info, onInfo: ((s: Search) => void) | undefined,
 *   generation: number, done: Promise<Search>, resolve: (s: Search) => void}} Search
 */
/**
 * What the engine says about a position (examine): its text and its
 * reading (pos, shape), the legal moves, whether the game is over there
 * (result, a `query result` word; reason, how it ended, in the engine's
 * words, '' if not over; line, the winner's squares), both players'
 * reserves (position.js parseSupply) and the tablebase's marks (play.js).
 * (No value: a position's value comes from a search, the tablebase or a
 * proof, game.js Value, never from its static evaluation.)
 * @typedef {object} View
 * @property {string} fen
 * @property {import('./position.js').Position} pos
 * @property {import('./position.js').Shape} shape
 * @property {string[]} legal
 * @property {boolean} over
 * @property {string} result
 * @property {string} reason
 * @property {string[]} line
 * @property {number[][]} supply
 * @property {Map<string, Mark> | null} marks
 * @property {string | null} stored the proof database's answer (`query proof`: "win 15 L@b2", "draw S@a1"), null for none
 */

// The page's UGI client: the server's WebSocket (the address it was served
// from), or the static site's engine in a Web Worker (engine_choice.js).
export function newClient() {
  return ENGINE === 'worker'
    ? new UgiClient(() => new WorkerSocket('engine_worker.js'), 'the WebAssembly engine of this page')
    : new UgiClient(() => new WebSocket(socketUrl()), socketUrl());
}

/**
 * The engine's session (a part of the page's state, state.js): connected,
 * the handshake is done on the open socket; chances, the engine gives
 * win/draw/loss chances (UCI_ShowWDL taken); variants, the
 * engine's variants (its Variant option's vars) and its default, from the
 * handshake; search, the search running; onClosed, what the page does when
 * the engine closes a session that was open; review, the game review
 * running (review_run.js: its searches are its own, stopSearch); levels,
 * the engine has the `Skill Level` option; skill, the Skill Level the
 * engine has now (its default at a session's start).
 * @typedef {{connected: boolean, variants: string[], defaultVariant: string | null, search: Search | null,
 *   chances: boolean, onClosed: () => void, review: {cancel: (why: string) => void} | null,
 *   levels: boolean, skill: number}} Session
 */

/** @returns {Session} */
export function createSession() {
  return { connected: false, chances: false, variants: [], defaultVariant: null, search: null, onClosed: () => {},
    review: null, levels: false, skill: FULL_STRENGTH };
}

// Listens to the client of `st`: the lines of the search running, and the end of a session.
/** @param {State} st */
export function listen(st) {
  const { session, ugi } = st;
  ugi.onSearch = (/** @type {string} */ line) => {
    const search = session.search;
    if (!search) return;
    if (line.startsWith('bestmove')) {
      session.search = null;
      search.best = line.split(' ')[1];
      search.resolve(search);
      return;
    }
    if (line.startsWith('info string proof ')) {
      search.proof = line.slice('info string proof '.length);
      return;
    }
    const info = parseInfo(line);
    if (!info) return;
    if (info.depth !== search.depth) {
      search.lines = new Map([...search.lines].filter(([k]) => k <= search.multipv));
      search.depth = info.depth;
    }
    search.lines.set(info.multipv, info);
    search.last = info;
    // A search of a position no longer shown (its stop is on its way, or a
    // preview is shown over it) says nothing more.
    if (search.onInfo && search.generation === st.shown.generation) search.onInfo(search);
  };
  ugi.onClose = () => {
    if (!session.connected) return;  // before the handshake: openSession() says why
    session.connected = false;
    session.onClosed();
  };
}

// Opens the session (with `token` if given: `auth` first) and learns the
// variants: null once the handshake is done, else {error, fatal} (fatal:
// no engine to ask; else the engine wants a token, or another one).
/** @param {State} st @param {string | null} token @returns {Promise<{error: string, fatal?: boolean} | null>} */
export async function openSession(st, token) {
  const { session, ugi } = st;
  try {
    await ugi.connect();
  } catch (e) {
    return { error: /** @type {Error} */ (e).message, fatal: true };
  }
  let hello = null;
  try {
    if (token && ENGINE !== 'worker') await ugi.exec(authLine(token));  // (the worker's engine is the page's own)
    hello = await ugi.exec('ugi');
  } catch (e) {
    const error = reasonOf(e);
    ugi.socket?.close();
    return { error };
  }
  if (!hello || !hello.includes('ugiok')) return { error: ugi.lastError || 'the engine closed the connection' };
  session.connected = true;
  // `option name Variant type combo default … var …`
  const option = hello.map(parseOption).find((o) => o && o.name === 'Variant');
  session.variants = option ? option.vars : [];
  session.defaultVariant = (option && option.default) ?? null;
  session.chances = await askForChances(ugi, hello);
  session.levels = hello.map(parseOption).some((o) => o && o.name === 'Skill Level');
  session.skill = FULL_STRENGTH;  // (a new session: the engine's default)
  return null;
}

// Asks the engine to give its lines' chances (UCI_ShowWDL: `wdl W D L`
// after each score) where its handshake `hello` offers the option: whether
// it took it (an engine without it: the page shows scores instead).
/** @param {import('./ugi.js').UgiClient} ugi @param {string[]} hello */
async function askForChances(ugi, hello) {
  if (!hello.map(parseOption).some((o) => o && o.name === 'UCI_ShowWDL')) return false;
  const lines = await ugi.exec(protocolLine('setoption', 'name', 'UCI_ShowWDL', 'value', 'true'));
  return Boolean(lines) && !errorOf(lines);
}

/** @param {State} st @param {string[]} moves */
export function positionCommand(st, moves) {
  return positionLine(st.game.start, moves);
}

// Stops the running search (if any) and waits for its bestmove. A game
// review's search (kind 'review') goes on while the position shown changes:
// only `all` stops it (endReview, a new search).
/** @param {State} st */
export async function stopSearch(st, all = false) {
  const s = st.session.search;
  if (!s || (s.kind === 'review' && !all)) return;
  st.ugi.send('stop');
  await s.done;
}

// What each kind of search is called in a message.
/** @type {Record<string, string>} */
const SEARCH_WORDS = { engine: "engine's move", analysis: 'analysis', prove: 'proof' };

// Starts a search on the position the engine holds; resolves with it at its bestmove.
// Started for the position of generation `my` (if given): not started, and
// resolved empty, once the page has moved on while it was being set up.
/**
 * @param {State} st @param {string} kind @param {number} multipv @param {Record<string, unknown>} goLimits
 * @param {((s: Search) => void) | undefined} onInfo @param {number} [my]
 * @returns {Promise<SearchResult>}
 */
export async function startSearch(st, kind, multipv, goLimits, onInfo, my) {
  const { shown, ugi } = st;
  endReview(st, `the ${SEARCH_WORDS[kind] || 'evaluation'} needs the engine`);
  await stopSearch(st, true);
  await playAt(st, kind === 'engine' ? st.settings.level : FULL_STRENGTH);
  const err = errorOf(await ugi.exec(numberOptionLine('MultiPV', multipv)));
  if (err) throw new Error(err);
  if (my !== undefined && my !== shown.generation) return { kind, lines: new Map(), depth: 0, best: null };
  /** @type {(s: Search) => void} */
  let resolve = () => {};
  /** @type {Promise<Search>} */
  const done = new Promise((r) => { resolve = r; });
  /** @type {Search} */
  const s = { kind, multipv, lines: new Map(), depth: 0, onInfo, generation: shown.generation, done, resolve };
  st.session.search = s;
  ugi.send(goLine(goLimits));
  return s.done;
}

// Ends the game review running, if any (`why`: said in its panel), and its search.
/** @param {State} st @param {string} why */
export async function endReview(st, why) {
  if (st.session.review) st.session.review.cancel(why);
  await stopSearch(st, true);
}

// A game review's search of the position after `moves` (kind 'review', one
// line; it goes on while the page shows other positions): sent in one
// batch with the position, and the engine put back on the position shown
// at once (a search keeps its own position: docs/protocol.md), so that the
// page's questions about the position shown are answered for it meanwhile.
// Resolves at its bestmove (best null: the session closed, or `given up`
// held, or another search began, before it was sent).
/** @param {State} st @param {string[]} moves @param {Record<string, unknown>} goLimits
 * @param {() => boolean} givenUp @returns {Promise<SearchResult>} */
export async function reviewSearch(st, moves, goLimits, givenUp) {
  const { session, ugi } = st;
  await stopSearch(st, true);
  await playAt(st, FULL_STRENGTH);
  if (givenUp() || session.search) return { kind: 'review', lines: new Map(), depth: 0, best: null };
  /** @type {(s: Search) => void} */
  let resolve = () => {};
  /** @type {Promise<Search>} */
  const done = new Promise((r) => { resolve = r; });
  /** @type {Search} */
  const s = { kind: 'review', multipv: 1, lines: new Map(), depth: 0, onInfo: undefined, generation: -1, done, resolve };
  session.search = s;
  const sent = await ugi.exec(positionCommand(st, moves), goLine(goLimits),
    positionCommand(st, movesTo(st.game.current)));
  if (!sent && session.search === s) {  // (the socket closed before it went out)
    session.search = null;
    s.best = null;
    s.resolve(s);
  }
  return s.done;
}

// The engine a game review searches with: one thread and a table of
// REVIEW_HASH_MIB MiB, emptied (`uginewgame`, which also forgets what the
// engine proved), so that the same searches of a node budget give the
// same values on every engine, the server's or the static site's; the
// engine put back on the position shown. The engine's refusal (a server
// whose sessions' tables are smaller), or null; the review goes on.
/** @param {State} st */
export async function freshEngine(st) {
  const lines = await st.ugi.exec(numberOptionLine('Threads', 1), numberOptionLine('Hash', REVIEW_HASH_MIB),
    'uginewgame', positionCommand(st, movesTo(st.game.current)));
  return lines ? errorOf(lines) : 'the engine went away';
}

// The table a review searches with, in MiB (the engine's default).
export const REVIEW_HASH_MIB = 16;

// The engine's Skill Level for the next search (no search may run):
// `level` for its moves, full strength for the analysis, the evaluation
// and the review. Sent only when it changes, to an engine that has it.
/** @param {State} st @param {number} level */
async function playAt(st, level) {
  const { session, ugi } = st;
  if (!session.levels || session.skill === level) return;
  const err = errorOf(await ugi.exec(protocolLine('setoption', 'name', 'Skill', 'Level', 'value', Math.round(level))));
  if (!err) session.skill = level;
}

// Sets the MultiPV option (no search may run: setoption is refused then).
/** @param {State} st @param {number} lines */
export async function setLines(st, lines) {
  return errorOf(await st.ugi.exec(numberOptionLine('MultiPV', lines)));
}

// The engine's answers about the position after `moves` — `query p1turn`,
// `query gameover`, `query result` and `query values` — in one batch that
// puts the engine back on the position shown: {side, over, result, marks
// (null: no tablebase for the variant)}, or null (the socket closed).
/** @param {State} st @param {string[]} moves */
export async function positionFacts(st, moves) {
  const lines = await st.ugi.exec(positionCommand(st, moves), 'query p1turn', 'query gameover', 'query result',
    'query values', positionCommand(st, movesTo(st.game.current)));
  if (!lines) return null;
  const answers = lines.filter((l) => l.startsWith('response ')).map((l) => l.slice(9));
  const [p1turn, over, result, marks] = answers;
  if (result === undefined) return null;
  return { side: p1turn === 'true' ? 1 : 2, over: over === 'true', result, marks: marks ? parseValues(marks) : null };
}

// Asks the engine about the position after `moves` (from the game's start):
// a view {fen, pos, shape, legal, over, result, reason, line, supply,
// marks}, {error}, or null (the socket closed).
/** @param {State} st @param {string[]} moves @returns {Promise<View | {error: string} | null>} */
export async function examine(st, moves) {
  let position;
  try {
    position = positionCommand(st, moves);
  } catch (e) {
    return { error: reasonOf(e) };
  }
  const lines = await st.ugi.exec(position, 'query fen', 'moves', 'query gameover', 'query result',
    'query reason', 'query line', 'query proof', 'd');
  if (!lines) return null;
  const err = errorOf(lines);
  if (err) return { error: err };
  const legal = (answer(lines, 'moves') || '').trim().split(' ').filter((m) => m);
  const [fen, over, result, reason, line, stored] = lines.filter((l) => l.startsWith('response ')).map((l) => l.slice(9));
  const pos = parsePosition(fen);
  if (!pos) return { error: `the engine's position text ${quoted(fen)} cannot be read` };
  const supply = [answer(lines, 'supply 1: ') || '', answer(lines, 'supply 2: ') || ''];
  return {
    fen,
    pos,
    shape: boardShape(pos, answer(lines, 'sizes ') || '', supply[0]),
    legal,
    over: over === 'true',
    result,                                          // a `query result` word
    reason: reason && reason !== 'none' ? reason : '',  // how the game ended, in the engine's words
    line: line && line !== 'none' ? line.split(' ') : [],  // the winner's squares, from the engine
    supply: supply.map(parseSupply),
    marks: null,
    stored: stored && stored !== 'none' ? stored : null,
  };
}

// Whether `move` may be played at the position after `moves`: the engine's
// reason if not (it keeps its previous position then), or null.
/** @param {State} st @param {string[]} moves @param {string} move */
export async function refusalOf(st, moves, move) {
  try {
    return errorOf(await st.ugi.exec(positionCommand(st, [...moves, move]))) || `${move} is not legal here`;
  } catch (e) {
    return reasonOf(e);
  }
}

// Whether every move of `moves` (from the game's start) is legal in turn:
// null, or the first that is not — its index in `moves` and the engine's
// reason (index -1: the engine did not answer). The engine is put back on
// the position shown after.
/** @param {State} st @param {string[]} moves @returns {Promise<{index: number, reason: string} | null>} */
export async function lineRefusal(st, moves) {
  /** @type {{index: number, reason: string} | null} */
  let refusal = null;
  try {
    const whole = await st.ugi.exec(positionCommand(st, moves));
    if (!whole) refusal = { index: -1, reason: 'the engine did not answer' };
    for (let k = 0; whole && errorOf(whole) && !refusal && k < moves.length; k++) {
      const lines = await st.ugi.exec(positionCommand(st, moves.slice(0, k + 1)));
      const err = lines ? errorOf(lines) : 'the engine did not answer';
      if (err) refusal = { index: lines ? k : -1, reason: err };
    }
  } catch (e) {
    refusal = { index: -1, reason: reasonOf(e) };
  }
  await setPosition(st, movesTo(st.game.current));
  return refusal;
}

// The engine's `query values` for the position it has (docs/protocol.md):
// every legal move's exact value from the tablebase, as {marks}, or {error}
// (no tablebase: the engine's words); null when the position changed meanwhile.
/** @param {State} st @param {number} my */
export async function exactValues(st, my) {
  const lines = await st.ugi.exec('query values');
  if (my !== st.shown.generation || !lines) return null;
  const error = errorOf(lines);
  return { marks: error ? null : parseValues(answer(lines, 'response ') || ''), error };
}

// Switches the engine to the first of `candidates` (variant names as a
// person or a game text spelled them) that takes the game of `start` and
// the tree `root` (every line of it, variations too, must be legal):
// {taken: the engine's name} or {refusal: the reason for refusing the
// first candidate (the engine's, or the page's when a name, the position
// text or a move is not of its shape: then nothing is sent for it)}.
/**
 * @param {State} st @param {(string | null)[]} candidates @param {string | null} start
 * @param {import('./game.js').TreeNode} root @returns {Promise<{taken?: string, refusal?: string | null}>}
 */
export async function takeGame(st, candidates, start, root) {
  if (treeSize(root) > MAX_GAME_MOVES) return { refusal: `the game has more than ${MAX_GAME_MOVES} moves` };
  /** @type {string[]} */
  const main = [];
  for (let n = root; n.children.length; n = n.children[0]) main.push(/** @type {string} */ (n.children[0].move));
  const variations = variationLines(root);  // the same for every candidate
  /** @type {string | null} */
  let refusal = null;
  for (const variant of candidates) {
    let lines = null;
    let err;
    try {
      const others = variations.map((m) => positionLine(start, m));
      lines = await st.ugi.exec(variantLine(variant), 'uginewgame', ...others, positionLine(start, main), 'd');
      err = errorOf(lines);
    } catch (e) {
      err = reasonOf(e);
    }
    if (!err) {
      // A name of the engine's list stays as chosen; any other spelling becomes the engine's name for it.
      const named = /** @type {string} */ (variant);  // (a name the engine took)
      return { taken: (st.session.variants.includes(named) ? named : answer(lines, 'variant ')) || named };
    }
    refusal = refusal || err;
  }
  return { refusal };
}

// Puts the engine back on `variant` (after a refused game).
/** @param {State} st @param {string} variant */
export async function restoreVariant(st, variant) {
  await st.ugi.exec(variantLine(variant));
}

// Whether the person can load a proof database file into the engine: the
// static site's WebAssembly engine (a server's engine reads the files its
// server names, never the page's: docs/protocol.md).
export function loadsProofFiles() {
  return ENGINE === 'worker';
}

// Hands the proof database file `file` (a File the person chose) to the
// WebAssembly engine and sets its ProofDatabase option to it (no search
// may run: the caller stops them): {note}, what the engine said of it
// (`proof database '/loaded/1/g.pdb' opened read-only for gobblers: 1431
// entries`, and any warning), or {error}: the worker's refusal (a file too
// large) or the engine's (not a proof database, another variant's, …);
// then the database in use stays. With `variant`, the engine is put on it
// first (a database opens for the variant in force only): the kept file's
// at start-up (game_io.js restoreProofFile), before the game is given.
/**
 * @param {State} st @param {File} file @param {string | null} [variant]
 * @returns {Promise<{note: string} | {error: string}>}
 */
export async function loadProofDatabase(st, file, variant = null) {
  const { ugi } = st;
  const socket = ugi.socket;
  if (!loadsProofFiles() || !(socket instanceof WorkerSocket)) {
    return { error: 'only the static site\'s engine reads a file of this page' };
  }
  if (variant !== null) {
    let error;
    try {
      const lines = await ugi.exec(variantLine(variant));
      error = lines ? errorOf(lines) : 'the engine went away';
    } catch (e) {
      error = reasonOf(e);
    }
    if (error) return { error };
  }
  const stored = await socket.storeFile(file);
  if ('error' in stored) return stored;
  // The engine's notes on the file (`info string proof database …`, and a
  // warning of a damaged tail) reach the search listener: taken from it
  // while the option is set.
  /** @type {string[]} */
  const notes = [];
  const listener = ugi.onSearch;
  ugi.onSearch = (line) => {
    if (line.startsWith('info string ')) notes.push(line.slice('info string '.length));
    else listener(line);
  };
  let lines;
  try {
    lines = await ugi.exec(protocolLine('setoption', 'name', 'ProofDatabase', 'value', stored.path));
  } finally {
    ugi.onSearch = listener;
  }
  if (!lines) return { error: 'the engine went away' };
  const error = errorOf(lines);
  return error ? { error } : { note: notes.join('; ') || 'the engine said nothing of it' };
}

// Asks whether the position after `moves` is over and whose turn it is: {side, over} or null.
/** @param {State} st @param {string[]} moves */
export async function turnOf(st, moves) {
  const lines = await st.ugi.exec(positionCommand(st, moves), 'query p1turn', 'query gameover');
  if (!lines) return null;
  const [p1turn, over] = lines.filter((l) => l.startsWith('response '));
  if (over === undefined) return null;
  return { side: p1turn === 'response true' ? 1 : 2, over: over === 'response true' };
}

// Puts the engine on the position after `moves` (nothing asked).
/** @param {State} st @param {string[]} moves */
export async function setPosition(st, moves) {
  await st.ugi.exec(positionCommand(st, moves));
}
