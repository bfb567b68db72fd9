// The board page: a UGI client that knows no rules. The engine (over
// /ugi) says which moves are legal (`moves`), what the position is
// (`query fen`, `d`), whether the game is over and why; the page draws,
// lets a person pick moves among the legal ones, and runs searches.
// Every line it sends is built by command.js from checked words: text from
// outside (a link, an import, a field) is refused with its reason, never sent.

import { UgiClient, errorOf, answer, parseInfo, parseOption, RESULT_TEXT } from './ugi.js';
import { boardShape, parsePosition, parseSupply, describeStack } from './position.js';
import { drawBoard, drawReserve, drawArrows, drawGhost, setFlipped } from './draw.js';
import { parseGameText, writePgn, writeMoveList } from './pgn.js';
import { drawGraph } from './graph.js';
import { positionLine, variantLine, numberOptionLine, goLine, authLine } from './command.js';
import { BadWord } from './words.js';
import { takeToken, readLink, linkHash, linkTo, showLink } from './address.js';
import { ENGINE } from './engine_choice.js';
import { WorkerSocket } from './worker_socket.js';
import { parseValues, bestInfo, markOrder, markText, plies, scoreText, countText } from './values.js';
import { drawEvalBar } from './eval_bar.js';
import { saveSettings, restoreSettings } from './settings.js';
import { copyText, downloadText } from './export_file.js';
import { playMoveTone } from './sound.js';
import { game, treeOf, setGame, movesTo, line, lineMoves, mainLine, ply as plyShown, atEnd, goToPly, goToNode,
  playMove, takeBackTo, variationOf, promote, deleteVariation, setComment, variationLines, snapshot, lineValues }
  from './game.js';

const $ = (id) => document.getElementById(id);

// The engine's variants (its Variant option's vars) and the default one, from the handshake.
let variants = [];
let defaultVariant = null;
let view = null;        // what the engine said about the position shown
let selection = null;   // {from: 'L@' | 'a1'} a chosen source of the next move
let search = null;      // the search running: {kind, lines: Map, resolve, done}
let generation = 0;     // bumps on every change of the position shown; stale work checks it
let preview = null;     // {moves, fen, pos}: a PV position shown instead of the game
let analysing = false;
const clocks = { on: false, time: [0, 0], inc: 0, running: null, last: 0, timer: 0 };
// The engine: the server that served the page, or (the static site) the
// WebAssembly engine in a worker of the page; either speaks the same UGI.
const ugi = ENGINE === 'worker'
  ? new UgiClient(() => new WorkerSocket('engine_worker.js'), 'the WebAssembly engine of this page')
  : new UgiClient(() => new WebSocket(socketUrl()), socketUrl());
let connected = false;  // the handshake is done on the open socket

function socketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ugi`;
}

function setStatus(text, kind = '') {
  const s = $('status');
  s.textContent = text;
  s.className = kind;
}

// ---- talking to the engine -------------------------------------------------

function positionCommand(moves) {
  return positionLine(game.start, moves);
}

ugi.onSearch = (line) => {
  if (!search) return;
  if (line.startsWith('bestmove')) {
    const s = search;
    search = null;
    s.best = line.split(' ')[1];
    s.resolve(s);
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
  if (search.onInfo && search.generation === generation) search.onInfo(search);
};

ugi.onClose = () => {
  if (!connected) return;  // before the handshake: connect() says why and asks for a token
  connected = false;
  setStatus('The engine closed the connection (reload the page to reconnect).', 'error');
  stopClock();
};

// Stops the running search (if any) and waits for its bestmove.
async function stopSearch() {
  if (!search) return;
  const s = search;
  ugi.send('stop');
  await s.done;
}

// Starts a search on the position the engine holds; resolves with it at its bestmove.
// Started for the position of generation `my` (if given): not started, and
// resolved empty, once the page has moved on while it was being set up.
async function startSearch(kind, multipv, goLimits, onInfo, my) {
  await stopSearch();
  const err = errorOf(await ugi.exec(numberOptionLine('MultiPV', multipv)));
  if (err) throw new Error(err);
  if (my !== undefined && my !== generation) return { kind, lines: new Map(), depth: 0, best: null };
  const s = { kind, multipv, lines: new Map(), depth: 0, onInfo, generation };
  s.done = new Promise((resolve) => { s.resolve = resolve; });
  search = s;
  ugi.send(goLine(goLimits));
  return s.done;
}

// Asks the engine about the game at `ply` (or the moves given): fills `view`.
async function examine(moves) {
  let position;
  try {
    position = positionCommand(moves);
  } catch (e) {
    if (e instanceof BadWord) return { error: e.message };
    throw e;
  }
  const lines = await ugi.exec(position, 'query fen', 'moves', 'query gameover', 'query result',
    'query reason', 'query line', 'd');
  if (!lines) return null;
  const err = errorOf(lines);
  if (err) return { error: err };
  const legal = (answer(lines, 'moves') || '').trim().split(' ').filter((m) => m);
  const [fen, over, result, reason, line] = lines.filter((l) => l.startsWith('response ')).map((l) => l.slice(9));
  const pos = parsePosition(fen);
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
  };
}

// ---- the position shown ----------------------------------------------------

// Shows the game's position: asks the engine, draws, then starts what comes next
// (the engine's move, the analysis, the tablebase marks).
async function refresh() {
  const my = ++generation;
  preview = null;
  selection = null;
  clearLines();
  await stopSearch();
  if (my !== generation) return;
  const v = await examine(movesTo());
  if (my !== generation || !v) return;
  if (v.error) {
    setStatus(v.error, 'error');
    return;
  }
  view = v;
  render();
  showLink(snapshot());
  if (view.over) {
    stopClock();
    if (analysing) toggleAnalysis(false);
    return;
  }
  if (!view.shape.stacks) await tablebaseMarks(my);
  else showTablebaseHint(null);
  if (my !== generation) return;
  if (atEnd() && engineToMove()) return engineMove(my);
  $('engine-move').hidden = !(engineHeld && atEnd() && engineSide());
  if (!$('engine-move').hidden && !analysing) {
    setStatus(`Player ${view.pos.side} (the engine) to move: opened from a link, the engine waits.`);
  }
  if (analysing) return analyse(my);
  if (atEnd()) startClock();
  if (view.marks) fillValueHistory(my, null, true);
}

// The value of every position of the game not valued yet (an imported game,
// a jump), for the chart: 3x3 with a tablebase, exact (a depth-1 search,
// automatic); 4x4, a short search per position (the Evaluate button). Any
// change of the position shown ends it.
async function fillValueHistory(my, goLimits, exact) {
  let touched = false;
  const nodes = line();
  for (let ply = 0; ply < nodes.length && my === generation; ply++) {
    if (nodes[ply].value) continue;
    touched = true;
    const lines = await ugi.exec(positionCommand(movesTo(nodes[ply])), 'query p1turn', 'query gameover');
    if (my !== generation || !lines) return;
    const [p1turn, over] = lines.filter((l) => l.startsWith('response '));
    if (over === undefined) return;
    if (over === 'response true') continue;  // a finished game has no move to value
    const side = p1turn === 'response true' ? 1 : 2;
    let info;
    if (exact) {  // the tablebase's value (a search near the end proves it without probing)
      const marks = await exactValues(my);
      if (my !== generation || !marks || [...marks.values()].some((m) => m.wdl === '?')) return;
      info = bestInfo(marks);
    } else {
      const s = await startSearch('history', 1, goLimits, undefined, my);
      if (my !== generation) return;
      info = s.lines.get(1);
    }
    if (!info) return;
    recordValue(nodes[ply], info, side, exact);
  }
  // Put the engine back on the position shown.
  if (touched && my === generation) await ugi.exec(positionCommand(movesTo()));
}

// A game opened from a link is shown as it was shared: the engine does not
// play in it until the person does something (a move, a new game, a change
// of the players, or "Engine, move"). (It used to move as the page loaded.)
let engineHeld = false;

function engineSide() {
  return view && !view.over && $(view.pos.side === 1 ? 'p1' : 'p2').value === 'engine';
}

function engineToMove() {
  return engineSide() && !engineHeld;
}

function releaseEngine() {
  engineHeld = false;
  $('engine-move').hidden = true;
}

// Plays `move` at the position shown: from an earlier position, a variation
// (the moves after it stay, game.js).
function play(move) {
  releaseEngine();
  if ($('sound').checked) playMoveTone(move);
  const side = view.pos.side;
  chargeClock(side);
  playMove(move);
  refresh();
}

// Tries a move picked on the board: a legal one is played, anything else is
// sent to the engine, whose error says why it is not legal.
async function attempt(move) {
  selection = null;
  if (view.legal.includes(move)) {
    play(move);
    return;
  }
  const my = generation;
  await stopSearch();
  let err;
  try {
    err = errorOf(await ugi.exec(positionCommand([...movesTo(), move]))) || `${move} is not legal here`;
  } catch (e) {
    if (!(e instanceof BadWord)) throw e;
    err = e.message;
  }
  // The engine kept its previous position, the one shown.
  if (my !== generation) return;
  render();
  setStatus(`Refused: ${err.replace(/^position: /, '')}`, 'error');
  if (analysing) refresh();
}

// ---- engine moves, analysis, tablebase --------------------------------------

function goLimitsForEngine() {
  const t = $('time').value.split(' ');
  if (t[0] === 'movetime') return { movetime: t[1] };
  return { p1time: Math.max(0, Math.round(clocks.time[0])), p2time: Math.max(0, Math.round(clocks.time[1])),
    p1inc: clocks.inc, p2inc: clocks.inc };
}

async function engineMove(my) {
  startClock();
  setStatus(`Engine (player ${view.pos.side}) is thinking…`);
  const side = view.pos.side;
  const node = game.current;
  const s = await startSearch('engine', 1, goLimitsForEngine(), (s) => showLines(s), my);
  if (my !== generation || !s.best || s.best === '(none)') return;
  recordValue(node, s.lines.get(1), side);
  play(s.best);
}

async function analyse(my) {
  const multipv = Number($('multipv').value);
  setStatus('Analysing…');
  const s = await startSearch('analysis', multipv, { infinite: true }, (s) => {
    showLines(s);
    recordValue(game.current, s.lines.get(1), view.pos.side);
    drawGraphNow();
  }, my);
  if (my === generation) setStatus('Analysis stopped.');
  return s;
}

function toggleAnalysis(on) {
  analysing = on;
  $('analyse').textContent = on ? 'Stop' : 'Analyse';
  $('analyse').classList.toggle('active', on);
  if (on) {
    refresh();
  } else {
    stopSearch().then(() => setStatus('Analysis stopped.'));
  }
}

// 3x3: every legal move's exact value from the tablebase (a depth-1
// search with one line per move: with a tablebase each score is exact).
async function tablebaseMarks(my) {
  if (!view.legal.length) return;
  const marks = await exactValues(my);
  if (my !== generation) return;
  if (!marks || marks.size !== view.legal.length || [...marks.values()].some((m) => m.wdl === '?')) {
    view.marks = null;
    $('tb').hidden = true;
    return;
  }
  view.marks = marks;
  recordValue(game.current, bestInfo(marks), view.pos.side, true);
  renderTablebase();
  render();
}

// The engine's `query values` for the position it has (docs/protocol.md):
// every legal move's exact value from the tablebase, as marks; null without
// a tablebase (an error line) or when the position changed meanwhile.
async function exactValues(my) {
  const lines = await ugi.exec('query values');
  if (my !== generation || !lines) return null;
  const err = errorOf(lines);
  showTablebaseHint(err);
  if (err) return null;
  return parseValues(answer(lines, 'response ') || '');
}

// Where a 3x3 game has no tablebase, say so and how to get one (the
// engine's words: which variant, and the command), under the analysis.
function showTablebaseHint(err) {
  const hint = $('tb-hint');
  const missing = err && err.startsWith('query values: no tablebase') && view && !view.shape.stacks;
  hint.hidden = !missing;
  if (!missing) return;
  const where = ENGINE === 'worker'
    ? 'put its file beside this page, in tablebases/ (docs/wasm.md)'
    : 'build it where the engine looks (docs/board.md)';
  hint.textContent = `No exact values: ${err.slice('query values: '.length)}; ${where}.`;
}

// Stores the value of the position of `node` for the graph, from player 1's side.
function recordValue(node, info, side, exact = false) {
  if (!info) return;
  const sign = side === 1 ? 1 : -1;
  const entry = info.mate !== undefined ? { mate: sign * info.mate } : { cp: sign * info.cp };
  entry.exact = exact;
  node.value = entry;
  drawGraphNow();
}

// The analysis panel empty: it shows only lines of the position on the board.
function clearLines() {
  $('lines').replaceChildren();
  delete $('lines').dataset.fen;
  $('search-stats').textContent = '';
  $('search-stats').dataset.depth = 0;
  renderBestArrow(null);
}

function showLines(s) {
  const ol = $('lines');
  ol.replaceChildren();
  ol.dataset.fen = view.fen;  // the position these lines are of (tests read it)
  const side = view.pos.side;
  for (const [k, info] of [...s.lines].sort((a, b) => a[0] - b[0])) {
    if (k > s.multipv) continue;
    const li = document.createElement('li');
    li.dataset.multipv = k;
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = scoreText(info, side) + (info.bound ? ' (bound)' : '');
    li.append(score, ' ');
    info.pv.slice(0, 12).forEach((m, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'pv-move';
      b.textContent = m;
      b.title = 'preview the position after this move';
      b.addEventListener('click', () => showPreview(info.pv.slice(0, i + 1)));
      li.append(b, ' ');
    });
    ol.append(li);
  }
  const last = s.last;
  $('search-stats').textContent = last ? `depth ${last.depth}: ${countText(last.nodes || 0, last.nps || 0)}` : '';
  $('search-stats').dataset.depth = last ? last.depth : 0;
  renderBestArrow(s);
}

// Shows the position after the current one and `pv`. A running analysis
// goes on (the engine answers the preview's questions while it searches);
// its lines stay as they were until the preview ends, when the position on
// the board is shown and analysed again.
async function showPreview(pv) {
  const my = ++generation;
  if (search && search.kind !== 'analysis') await stopSearch();
  const v = await examine([...movesTo(), ...pv]);
  if (my !== generation || !v || v.error) return;
  preview = { moves: pv, view: v };
  render();
  setStatus(`Preview after ${pv.join(' ')} — click the board or a navigation button to return.`);
}

// ---- clocks ------------------------------------------------------------------

function clockMode() {
  const t = $('time').value.split(' ');
  return t[0] === 'clock' ? { base: Number(t[1]), inc: Number(t[2]) } : null;
}

function resetClocks() {
  stopClock();
  const mode = clockMode();
  clocks.on = !!mode;
  if (mode) {
    clocks.time = [mode.base, mode.base];
    clocks.inc = mode.inc;
  }
  showClocks();
}

function startClock() {
  if (!clocks.on || !view || view.over || !atEnd()) return;
  clocks.running = view.pos.side;
  clocks.last = performance.now();
  clearInterval(clocks.timer);
  clocks.timer = setInterval(tickClock, 200);
}

function tickClock() {
  if (!clocks.running) return;
  const now = performance.now();
  clocks.time[clocks.running - 1] -= now - clocks.last;
  clocks.last = now;
  if (clocks.time[clocks.running - 1] <= 0) {
    clocks.time[clocks.running - 1] = 0;
    const loser = clocks.running;
    stopClock();
    stopSearch();
    setStatus(`Player ${loser} ran out of time: player ${3 - loser} wins.`, 'over');
  }
  showClocks();
}

function chargeClock(side) {
  if (!clocks.on || clocks.running !== side) return;
  tickClock();
  clocks.time[side - 1] += clocks.inc;
  clocks.running = null;
}

function stopClock() {
  clearInterval(clocks.timer);
  clocks.running = null;
}

function showClocks() {
  for (const p of [1, 2]) {
    const ms = clocks.time[p - 1];
    $(`clock-${p}`).textContent = clocks.on
      ? `${Math.floor(ms / 60000)}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}` : '';
  }
}

// ---- drawing -------------------------------------------------------------------

function shown() {
  return preview ? preview.view : view;
}

function render() {
  const v = shown();
  if (!v) return;
  const shape = v.shape;
  const lastMove = preview ? preview.moves.at(-1) : game.current.move;
  const sources = new Set(v.legal.map((m) => m.slice(0, 2)));
  const targets = new Map();
  if (selection && !preview) {
    for (const m of v.legal) if (m.startsWith(selection.from)) targets.set(m.slice(2, 4), m);
  }
  const line = v.line;
  // The board and the reserves are drawn anew: the keyboard's place on them is kept.
  const active = document.activeElement;
  const focusedSquare = active && active.closest && active.closest('#board [data-sq]');
  const focusedReserve = active && active.closest && active.closest('.reserve-piece');
  const reserveKey = focusedReserve ? [focusedReserve.closest('.reserve').id, focusedReserve.dataset.size] : null;
  if (!boardFocus || !v.pos.squares || !isSquareOf(boardFocus, v.pos.n)) boardFocus = 'a1';
  drawBoard($('board'), v.pos, {
    focus: boardFocus,
    sizes: shape.sizes,
    lastMove,
    selected: selection && !preview ? selection.from : null,
    targets,
    marks: v.marks && !preview ? v.marks : null,
    line,
    sources: preview || v.over ? new Set() : sources,
  });
  for (const p of [1, 2]) {
    drawReserve($(`reserve-${p}`), shape, v.supply[p - 1], p, {
      active: !preview && !v.over && v.pos.side === p,
      sources,
      selected: selection ? selection.from : null,
    });
    $(`side-${p}`).classList.toggle('to-move', !v.over && v.pos.side === p);
  }
  if (focusedSquare) focusSquare(boardFocus);
  if (reserveKey) {
    const again = $(reserveKey[0]).querySelector(`[data-size="${reserveKey[1]}"]:not([disabled])`);
    if (again) again.focus();
    else focusSquare(boardFocus);
  }
  if (!preview) {
    if (v.over) {
      const who = RESULT_TEXT[v.result] || v.result;
      setStatus(`${who}${v.reason ? ': ' + v.reason : ''}.`, 'over');
    } else if (!search) {
      setStatus(`Player ${v.pos.side} to move.`);
    }
  }
  // For tests and bookmarklets: what is shown, as the engine gave it.
  document.body.dataset.variant = shape.stacks ? '4x4' : '3x3';
  document.body.dataset.fen = v.fen;
  document.body.dataset.ply = preview ? -1 : plyShown();
  renderMoveList();
  renderTablebase();
  drawGraphNow();
  showStack(null);
}

// Arrows for the first moves of the analysis's top three lines.
function renderBestArrow(s) {
  const moves = [];
  if (s && s.kind === 'analysis' && !preview && view) {
    for (let k = 1; k <= Math.min(3, s.multipv); k++) {
      const line = s.lines.get(k);
      if (line && line.pv.length && !moves.includes(line.pv[0])) moves.push(line.pv[0]);
    }
  }
  drawArrows($('board'), view ? view.shape.n : 0, moves, view ? view.pos.side : 1, view ? view.shape.sizes : 1);
}

// The move list: the main line in numbered pairs; after a move, its comment
// and the variations that are alternatives to it (in parentheses, nested
// ones inside), as lichess shows them. Every move is a button to its
// position; the one shown is marked. Comments are text, never markup.
function renderMoveList() {
  const ol = $('move-list');
  ol.replaceChildren();
  let row = null;
  let index = 0;
  for (let parent = game.root; parent.children.length; parent = parent.children[0], index++) {
    const [node, ...others] = parent.children;
    if (index % 2 === 0 || !row) {
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = index % 2 ? `${Math.floor(index / 2) + 1}…` : `${index / 2 + 1}.`;
      row.append(num);
      ol.append(row);
    }
    const b = moveButton(node);
    b.dataset.ply = index + 1;
    row.append(b);
    if (node.comment || others.length) {
      const more = document.createElement('li');
      more.className = 'variations';
      if (node.comment) more.append(commentSpan(node.comment));
      for (const other of others) more.append(variationLine(other, index));
      ol.append(more);
      row = null;
    }
  }
  if (game.root.comment) {
    const first = document.createElement('li');
    first.className = 'variations';
    first.append(commentSpan(game.root.comment));
    ol.prepend(first);
  }
  const inVariation = Boolean(variationOf());
  $('promote').hidden = !inVariation;
  $('delete-variation').hidden = !inVariation;
  if (commentNode !== game.current) {  // (not while its own comment is being typed)
    commentNode = game.current;
    $('comment').value = game.current.comment;
  }
  // The current move into the list's own view, never by scrolling the page
  // (scrollIntoView scrolls every scrolling ancestor: on a phone the page
  // jumped 300-500 px at each pick and the board's top left the screen).
  const current = ol.querySelector('.current');
  if (current) {
    const top = current.getBoundingClientRect().top - ol.getBoundingClientRect().top + ol.scrollTop;
    const bottom = top + current.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
  }
}

let commentNode = null;  // the node whose comment the comment field shows

function moveButton(node) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'move' + (node === game.current ? ' current' : '');
  b.textContent = node.move;
  b.addEventListener('click', () => goToMove(node));
  return b;
}

function commentSpan(text) {
  const c = document.createElement('span');
  c.className = 'comment';
  c.textContent = text;
  return c;
}

// A variation from `first` (an alternative to the move at `index`), with
// its comments and its own variations nested, in parentheses.
function variationLine(first, index) {
  const box = document.createElement('span');
  box.className = 'variation';
  box.append('(');
  let numbered = true;
  for (let node = first, i = index; node; node = node.children[0], i++) {
    if (i % 2 === 0 || numbered) box.append(`${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}`);
    box.append(moveButton(node));
    numbered = Boolean(node.comment);
    if (node.comment) box.append(commentSpan(node.comment));
    if (node === first) continue;
    for (const other of node.parent.children.slice(1)) {
      box.append(variationLine(other, i));
      numbered = true;
    }
  }
  box.append(')');
  return box;
}

function renderTablebase() {
  const v = view;
  const box = $('tb');
  if (!v || !v.marks || preview) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const best = [...v.marks.values()].sort(markOrder)[0];
  $('tb-value').textContent = best
    ? `Tablebase: player ${v.pos.side} to move ${best.wdl === 'W' ? `wins in ${plies(best.plies)}` : best.wdl === 'L' ? `loses in ${plies(best.plies)}` : 'draws'}.`
    : '';
  const body = $('tb-moves').tBodies[0];
  body.replaceChildren();
  for (const [move, m] of [...v.marks].sort((a, b) => markOrder(a[1], b[1]))) {
    const tr = document.createElement('tr');
    tr.dataset.move = move;
    tr.className = 'tb-' + m.wdl;
    const a = document.createElement('td');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = move;
    b.addEventListener('click', () => attempt(move));
    a.append(b);
    const c = document.createElement('td');
    c.className = 'mark';
    c.textContent = markText(m);
    tr.append(a, c);
    body.append(tr);
  }
}

function drawGraphNow() {
  $('graph-title').textContent = !view || view.shape.stacks ? 'Evaluation (player 1 up)' : 'Value history (player 1 up)';
  drawGraph($('graph'), lineValues(), line().length - 1, plyShown(), goTo);
  drawEvalBar(game.current.value);
}

// ---- input ----------------------------------------------------------------------

// Shows the position at `ply` of the line shown (or `node` of the tree).
function goTo(ply) {
  goToPly(ply);
  stopClock();
  refresh();
}

function goToMove(node) {
  goToNode(node);
  stopClock();
  refresh();
}

// A click (or the end of a drag) on square `sq` or reserve size `size@`.
function pick(target) {
  if (preview) {
    refresh();
    return;
  }
  if (!view || view.over) return;
  const v = view;
  if (engineToMove() && atEnd()) {
    setStatus('Wait for the engine’s move (or make both players human).');
    return;
  }
  if (target.endsWith('@')) {
    const legalSource = v.legal.some((m) => m.startsWith(target));
    selection = legalSource ? { from: target } : null;
    if (!legalSource) setStatus(`No legal placement of that piece here.`, 'error');
    render();
    return;
  }
  if (selection) {
    const move = selection.from + target;
    if (selection.from === target) {
      selection = null;
      render();
      return;
    }
    const isTarget = v.legal.includes(move);
    const isSource = v.legal.some((m) => m.startsWith(target) && m[1] !== '@');
    if (!isTarget && isSource) {
      selection = { from: target };
      render();
      return;
    }
    attempt(move);
    return;
  }
  if (v.legal.some((m) => m.startsWith(target) && m[1] !== '@')) {
    selection = { from: target };
    render();
  }
}

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest('[data-sq]');
  return sq ? sq.dataset.sq : null;
}

// The stack of the square last pointed at, for the position shown: render()
// says it again, so that it is never the stack of a position left behind
// (it said "b2: empty" right after a piece landed on b2).
let stackSquare = null;
// The board from the other side: player 2's reserve below, the ranks and
// files reversed (draw.js setFlipped), the evaluation bar from the top.
function flipBoard() {
  const on = !$('play').classList.contains('flipped');
  $('play').classList.toggle('flipped', on);
  $('flip').setAttribute('aria-pressed', String(on));
  setFlipped(on);
  render();
  renderBestArrow(search);
}

// ---- the keyboard -------------------------------------------------------------
// The board is one stop of the Tab key: the square last reached (boardFocus)
// takes the focus, the arrows move it, Enter or Space picks its piece or
// plays to it, Escape drops the piece picked. Reserve pieces are buttons:
// Enter or Space picks one, and the keyboard goes on to the board, to the
// first square the piece may go to.
let boardFocus = null;

function isSquareOf(sq, n) {
  return sq.length === 2 && sq.charCodeAt(0) - 97 < n && Number(sq[1]) <= n;
}

function focusSquare(sq) {
  const board = $('board');
  board.querySelectorAll('[data-sq]').forEach((g) => g.setAttribute('tabindex', g.dataset.sq === sq ? 0 : -1));
  const g = board.querySelector(`[data-sq="${sq}"]`);
  if (g) {
    boardFocus = sq;
    g.focus();
    showStack(sq);
  }
}

function onBoardKey(e) {
  const g = e.target.closest('[data-sq]');
  if (!g || !view) return;
  const sq = g.dataset.sq, n = shown().pos.n;
  const flip = $('play').classList.contains('flipped') ? -1 : 1;  // the arrows go the way they point on screen
  const step = { ArrowLeft: [-flip, 0], ArrowRight: [flip, 0], ArrowUp: [0, flip], ArrowDown: [0, -flip] }[e.key];
  if (step) {
    e.preventDefault();
    e.stopPropagation();  // (not the move list's arrows)
    const f = Math.min(n - 1, Math.max(0, sq.charCodeAt(0) - 97 + step[0]));
    const r = Math.min(n, Math.max(1, Number(sq[1]) + step[1]));
    focusSquare(String.fromCharCode(97 + f) + r);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    boardFocus = sq;
    showStack(sq);
    pick(sq);
  } else if (e.key === 'Escape' && selection) {
    selection = null;
    render();
  }
}

function showStack(sq) {
  const v = shown();
  if (sq) stackSquare = sq;
  if (stackSquare && v) $('stack-info').textContent = `${stackSquare}: ${describeStack(v.pos.squares.get(stackSquare))}`;
}

function wireInput() {
  const board = $('board');
  let dragFrom = null;
  board.addEventListener('pointerdown', (e) => {
    const sq = squareAt(e.clientX, e.clientY);
    if (!sq) return;
    boardFocus = sq;  // (a click focuses the square too: the keyboard goes on from there)
    showStack(sq);
    const before = selection ? selection.from : null;
    pick(sq);
    dragFrom = selection && selection.from === sq && before !== sq ? sq : null;
  });
  for (const p of [1, 2]) {
    $(`reserve-${p}`).addEventListener('pointerdown', (e) => {
      const el = e.target.closest('[data-size]');
      if (!el) return;
      pick(el.dataset.size + '@');
      dragFrom = selection ? selection.from : null;
    });
    // Enter or Space on a reserve piece (a click with no pointer: detail 0).
    $(`reserve-${p}`).addEventListener('click', (e) => {
      const el = e.target.closest('[data-size]');
      if (!el || e.detail !== 0) return;
      pick(el.dataset.size + '@');
      const first = $('board').querySelector('.square.target');
      if (selection && first) focusSquare(first.dataset.sq);
    });
  }
  board.addEventListener('keydown', onBoardKey);
  // While a piece is dragged, it follows the pointer and the legal target
  // under the pointer is lit.
  document.addEventListener('pointermove', (e) => {
    if (!dragFrom || !view || !selection || selection.from !== dragFrom) return;
    const size = dragFrom.endsWith('@') ? 'SMLX'.indexOf(dragFrom[0])
      : (view.pos.squares.get(dragFrom) || []).at(-1)?.size;
    if (size === undefined || size < 0) return;
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(board.getScreenCTM().inverse());
    drawGhost(board, at.x, at.y, size, view.shape.sizes, view.pos.side);
    const over = squareAt(e.clientX, e.clientY);
    board.querySelectorAll('.square').forEach((g) =>
      g.classList.toggle('drag-over', g.dataset.sq === over && g.classList.contains('target')));
  });
  document.addEventListener('pointerup', (e) => {
    const from = dragFrom;
    dragFrom = null;
    drawGhost(board, null);
    board.querySelectorAll('.square.drag-over').forEach((g) => g.classList.remove('drag-over'));
    if (!from || !selection || selection.from !== from) return;
    const sq = squareAt(e.clientX, e.clientY);
    if (sq && sq !== from) attempt(from + sq);  // a drop is a move attempt, even onto an own piece
  });
  board.addEventListener('pointermove', (e) => showStack(squareAt(e.clientX, e.clientY)));
  window.addEventListener('hashchange', () => {
    // A link pasted into the address bar: load its game (a token in it is only taken out).
    takeToken();
    if (location.hash.slice(1) !== linkHash(snapshot())) loadLink();
  });

  $('nav-start').addEventListener('click', () => goTo(0));
  $('nav-back').addEventListener('click', () => goTo(plyShown() - 1));
  $('nav-forward').addEventListener('click', () => goTo(plyShown() + 1));
  $('nav-end').addEventListener('click', () => goTo(line().length - 1));
  $('promote').addEventListener('click', () => { promote(); refresh(); });
  $('delete-variation').addEventListener('click', () => { deleteVariation(); refresh(); });
  $('comment').addEventListener('change', () => { setComment($('comment').value); renderMoveList(); });
  $('take-back').addEventListener('click', takeBack);
  $('help-open').addEventListener('click', () => $('help').showModal());
  $('flip').addEventListener('click', flipBoard);
  document.addEventListener('keydown', (e) => {
    if (e.key === '?' && !e.target.closest('textarea, input') && !$('help').open) {
      e.preventDefault();
      $('help').showModal();
      return;
    }
    if (e.key === 'f' && !e.target.closest('textarea, input, select, dialog')) {
      e.preventDefault();
      flipBoard();
      return;
    }
    if (e.target.closest('textarea, input, select, #board, dialog')) return;
    const keys = { ArrowLeft: plyShown() - 1, ArrowRight: plyShown() + 1, Home: 0, End: line().length - 1 };
    if (e.key in keys) {
      e.preventDefault();
      goTo(keys[e.key]);
    }
  });
  $('analyse').addEventListener('click', () => toggleAnalysis(!analysing));
  $('evaluate').addEventListener('click', async () => {
    if (analysing) toggleAnalysis(false);
    const my = generation;
    await stopSearch();
    $('evaluate').disabled = true;
    setStatus('Evaluating every position of the game…');
    await fillValueHistory(my, { movetime: 150 }, false);
    $('evaluate').disabled = false;
    if (my === generation) setStatus('Evaluation done: click the chart to go to a position.');
  });
  $('multipv').addEventListener('change', () => analysing && refresh());
  $('new-game').addEventListener('click', () => newGame());
  $('variant').addEventListener('change', () => {
    const custom = $('variant').value === 'custom';
    $('custom-variant').hidden = !custom;
    if (!custom) newGame();
  });
  $('custom-variant').addEventListener('change', () => newGame());
  for (const id of ['p1', 'p2']) $(id).addEventListener('change', () => { releaseEngine(); saveSettings(SETTINGS); refresh(); });
  $('time').addEventListener('change', () => { saveSettings(SETTINGS); resetClocks(); refresh(); });
  $('multipv').addEventListener('change', () => saveSettings(SETTINGS));
  $('sound').addEventListener('change', () => saveSettings(SETTINGS));
  $('engine-move').addEventListener('click', () => { releaseEngine(); refresh(); });
  $('import').addEventListener('click', importText);
  $('export-fen').addEventListener('click', () => exportText(view ? view.fen : '', 'position'));
  $('export-moves').addEventListener('click', () => exportText(writeMoveList(lineMoves()), 'moves'));
  $('export-pgn').addEventListener('click', () => exportText(writePgn(game, game.root, pgnResult()), 'pgn'));
  $('export-link').addEventListener('click', () => exportText(linkTo(snapshot()), 'link'));
  $('io-text').addEventListener('input', () => { exportKind = 'text'; });
  $('io-copy').addEventListener('click', async () => { $('io-status').textContent = await copyText($('io-text')); });
  $('io-download').addEventListener('click', () => {
    $('io-status').textContent = downloadText($('io-text').value, EXPORT_FILES[exportKind] || EXPORT_FILES.text);
  });
}

// Takes back the move shown (the moves after it on the line go with it;
// other variations stay).
function takeBack() {
  if (!plyShown()) return;
  let ply = plyShown() - 1;
  // Against the engine, go back to the person's own turn.
  const humans = ['p1', 'p2'].filter((id) => $(id).value === 'human').length;
  if (humans === 1 && ply > 0 && $(ply % 2 === 0 ? 'p1' : 'p2').value === 'engine' && !game.start) ply -= 1;
  takeBackTo(Math.max(0, ply));
  refresh();
}

// The game's result for its PGN: the engine's `query result` when the
// position shown is the end of the main line and the game is over there.
function pgnResult() {
  return view && view.over && game.current === mainLine().at(-1) ? view.result : null;
}

// ---- variants, import, export, link -------------------------------------------

function chosenVariant() {
  const v = $('variant').value;
  return v === 'custom' ? $('custom-variant').value.trim() : v;
}

// Switches the engine to the first of `candidates` (variant names as a
// person or a game text spelled them) that takes the game, and shows the
// game; null, or the reason for refusing the first candidate (the engine's,
// or the page's when a name, the position text or a move is not of its shape:
// then nothing is sent for it). `shared` (a game opened from a link): the
// engine waits for the person before it plays in it (engineHeld). `root`:
// the tree of moves (game.js), `ply` the position shown on its main line
// (null: the end); every line of it, variations too, must be legal.
async function loadGame(candidates, start, root, ply, shared = false) {
  const moves = [];
  for (let n = root; n.children.length; n = n.children[0]) moves.push(n.children[0].move);
  ++generation;  // ends background work (the value history) before the engine is switched
  await stopSearch();
  let refusal = null;
  let taken = null;
  for (const variant of candidates) {
    let lines = null;
    let err;
    try {
      const others = variationLines(root).map((m) => positionLine(start, m));
      lines = await ugi.exec(variantLine(variant), 'uginewgame', ...others, positionLine(start, moves), 'd');
      err = errorOf(lines);
    } catch (e) {
      if (!(e instanceof BadWord)) throw e;
      err = e.message;
    }
    if (!err) {
      // A name of the engine's list stays as chosen; any other spelling becomes the engine's name for it.
      taken = (variants.includes(variant) ? variant : answer(lines, 'variant ')) || variant;
      break;
    }
    refusal = refusal || err;
  }
  if (!taken) {
    // Put the engine and the selector back on the game shown (the caller
    // then says why: after the refresh, so that its status stays).
    if (game.variant) {
      await ugi.exec(variantLine(game.variant));
      showVariant(game.variant);
      await refresh();
    }
    return refusal;
  }
  engineHeld = shared;
  setGame(taken, start, root, ply);
  showVariant(taken);
  resetClocks();
  await refresh();
  return null;
}

// The variant selector on `name` (the engine's list, or "other…" with the name).
function showVariant(name) {
  const listed = variants.includes(name);
  $('variant').value = listed ? name : 'custom';
  $('custom-variant').hidden = listed;
  if (!listed) $('custom-variant').value = name;
}

async function newGame() {
  const err = await loadGame([chosenVariant()], null, treeOf([]), 0);
  if (err) setStatus(err, 'error');
}

async function importText() {
  const parsed = parseGameText($('io-text').value);
  if (parsed.error) {
    $('io-status').textContent = `Not imported: ${parsed.error}`;  // and nothing sent
    return;
  }
  // A text that names no variant (a position, a move list, cutegames' PGN):
  // the variant shown if the engine takes the game there, else the first of
  // the engine's variants that does.
  const candidates = parsed.variant ? [parsed.variant] : [game.variant, ...variants.filter((v) => v !== game.variant)];
  const err = await loadGame(candidates, parsed.start, parsed.root, null);
  const others = variationLines(parsed.root).length;
  $('io-status').textContent = err ? `Not imported: ${err}`
    : `Imported ${parsed.moves.length} moves${others ? ` and ${others} variation${others > 1 ? 's' : ''}` : ''}.`;
}

// The players, the engine's time, the analysis lines and the sound, kept in
// this browser between visits (settings.js).
const SETTINGS = ['p1', 'p2', 'time', 'multipv', 'sound'];

// What the text box holds, for the name of its download.
let exportKind = 'text';
const EXPORT_FILES = { position: 'gobblet-position.txt', moves: 'gobblet-moves.txt', pgn: 'gobblet-game.pgn',
  link: 'gobblet-link.txt', text: 'gobblet.txt' };

function exportText(text, kind) {
  $('io-text').value = text;
  exportKind = kind;
  $('io-status').textContent = 'Exported above: copy it or download it.';
}



// ---- start ---------------------------------------------------------------------

async function main() {
  const token = takeToken();  // first: out of the address (and its history entry) before anything else
  restoreSettings(SETTINGS);
  wireInput();
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    $('token-form').hidden = true;
    connect($('token').value.trim());
  });
  await connect(token);
}

// Opens a session (with `token` if given: `auth` first) and loads the
// address's game. A server started with --token closes a socket that does not
// send it: then the page asks for the token and tries again.
async function connect(token) {
  setStatus('Connecting to the engine…');
  try {
    await ugi.connect();
  } catch (e) {
    setStatus(e.message, 'error');
    return;
  }
  let hello = null;
  try {
    if (token && ENGINE !== 'worker') await ugi.exec(authLine(token));  // (the worker's engine is the page's own)
    hello = await ugi.exec('ugi');
  } catch (e) {
    if (!(e instanceof BadWord)) throw e;
    ugi.socket.close();
    askForToken(e.message);
    return;
  }
  if (!hello || !hello.includes('ugiok')) {
    askForToken(ugi.lastError || 'the engine closed the connection');
    return;
  }
  connected = true;
  learnVariants(hello);
  await loadLink();
  document.body.dataset.ready = '1';
}

// The token field, with why it is asked for (the engine's words).
function askForToken(why) {
  setStatus(`Not connected: ${why}. If the engine was started with --token, enter the token.`, 'error');
  $('token').value = '';
  $('token-form').hidden = false;
  $('token').focus();
}

// The variant selector: the engine's variants (its handshake's `option name
// Variant type combo default … var …`), then the entry for any other name.
function learnVariants(hello) {
  const option = (hello || []).map(parseOption).find((o) => o && o.name === 'Variant');
  variants = option ? option.vars : [];
  defaultVariant = option ? option.default : null;
  const other = $('variant').querySelector('option[value="custom"]');
  $('variant').querySelectorAll('option:not([value="custom"])').forEach((e) => e.remove());
  for (const name of variants) {
    const entry = document.createElement('option');
    entry.value = entry.textContent = name;
    other.before(entry);
  }
}

// Loads the game of the address's #variant=…&fen=…&moves=…&ply=… (the
// engine's default variant's start if none). A link with a field not of its
// shape is refused before anything of it is sent: the default game instead.
async function loadLink() {
  const link = readLink();
  const shared = Boolean(link.start || (link.moves && link.moves.length));
  const err = link.error || await loadGame([link.variant || defaultVariant], link.start, treeOf(link.moves), link.ply, shared);
  if (err) {
    await loadGame([defaultVariant], null, treeOf([]), 0);
    setStatus(`The link's game was refused: ${err}`, 'error');
  }
}

main();
