// The UGI client (web/ugi.js) against a socket of the test's own: batches
// answered up to readyok, one at a time, search output apart, nothing but
// protocol lines sent; and the handshake's options and a search's info
// lines read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, errorOf, parseInfo, parseOption, UgiClient } from '../../web/ugi.js';

// A socket as UgiClient uses one (WebSocket's readyState and handlers):
// what the page sent, and `say(line)` for the engine's lines.
class TestSocket {
  constructor() {
    this.readyState = 1;
    this.sent = [];
    this.onopen = this.onmessage = this.onerror = this.onclose = null;
  }

  send(line) {
    this.sent.push(line);
  }

  say(...lines) {
    for (const line of lines) this.onmessage({ data: line });
  }

  close() {
    this.readyState = 3;
    this.onclose({ reason: 'closed' });
  }
}

// The batches start after the ones before them, a turn later.
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function connected() {
  const socket = new TestSocket();
  const client = new UgiClient(() => socket, 'the test');
  const open = client.connect();
  socket.onopen();
  await open;
  return { socket, client };
}

test("a batch is sent with isready and answered by the engine's lines up to readyok", async () => {
  const { socket, client } = await connected();
  const searched = [];
  client.onSearch = (line) => searched.push(line);
  const answered = client.exec('position startpos', 'query fen');
  await turn();
  assert.deepEqual(socket.sent, ['position startpos', 'query fen', 'isready']);
  socket.say('info depth 3 score cp 5 pv X@a1', 'response 4/4/4/4 1', 'info string error: not this', 'readyok');
  assert.deepEqual(await answered, ['response 4/4/4/4 1', 'info string error: not this']);
  assert.deepEqual(searched, ['info depth 3 score cp 5 pv X@a1']);
  assert.equal(client.lastError, 'not this');
  assert.deepEqual(client.log.slice(0, 3), ['> position startpos', '> query fen', '> isready']);
});

test('batches run one at a time, in order', async () => {
  const { socket, client } = await connected();
  const first = client.exec('moves');
  const second = client.exec('query gameover');
  await turn();
  assert.deepEqual(socket.sent, ['moves', 'isready']);
  socket.say('moves X@a1', 'readyok');
  assert.deepEqual(await first, ['moves X@a1']);
  await turn();
  assert.deepEqual(socket.sent.slice(2), ['query gameover', 'isready']);
  socket.say('response false', 'readyok');
  assert.deepEqual(await second, ['response false']);
});

test('only protocol lines go out: a line end inside one is refused, and nothing is sent', async () => {
  const { socket, client } = await connected();
  assert.throws(() => client.send('go depth 1', 'position startpos\ngo infinite'), /not a protocol line/);
  assert.throws(() => client.send('go  infinite'), /not a protocol line/);
  await assert.rejects(client.exec('moves', 'quit\r'), /not a protocol line/);
  assert.deepEqual(socket.sent, []);
  const after = client.exec('moves');  // (the batch after a refused one still runs)
  await turn();
  socket.say('readyok');
  assert.deepEqual(await after, []);
});

test('a socket that closes answers the batch in flight with null and tells the page', async () => {
  const { socket, client } = await connected();
  const closes = [];
  client.onClose = (e) => closes.push(e.reason);
  const pending = client.exec('moves');
  await turn();
  socket.close();
  assert.equal(await pending, null);
  assert.deepEqual(closes, ['closed']);
  assert.equal(await client.exec('moves'), null);  // (nothing is sent on a closed socket)
});

test("the handshake's options: a combo's values in order, a name with a keyword in it", () => {
  assert.deepEqual(parseOption('option name Variant type combo default gobblet var gobblet var gobblers var tictactoe'),
    { name: 'Variant', type: 'combo', default: 'gobblet', vars: ['gobblet', 'gobblers', 'tictactoe'] });
  assert.deepEqual(parseOption('option name Clear Hash type button'), { name: 'Clear Hash', type: 'button', vars: [] });
  assert.deepEqual(parseOption('option name Hash type spin default 16 min 1 max 4096'),
    { name: 'Hash', type: 'spin', default: '16', min: '1', max: '4096', vars: [] });
  assert.deepEqual(parseOption('option name max type check default false'),
    { name: 'max', type: 'check', default: 'false', vars: [] });
  assert.equal(parseOption('id name gobblet'), null);
  assert.equal(parseOption('option name Lonely'), null);
});

test("a search's info lines: depth, line, score and bound, counts, moves", () => {
  assert.deepEqual(parseInfo('info depth 7 seldepth 9 multipv 2 score cp -35 nodes 12345 nps 500000 time 24 '
    + 'hashfull 3 tbhits 0 pv X@a1 S@b2'), {
    depth: 7, seldepth: 9, multipv: 2, cp: -35, nodes: 12345, nps: 500000, time: 24, hashfull: 3, tbhits: 0,
    pv: ['X@a1', 'S@b2'],
  });
  assert.deepEqual(parseInfo('info depth 3 score mate -2 lowerbound nodes 10'),
    { depth: 3, multipv: 1, mate: -2, bound: 'lowerbound', nodes: 10, pv: [] });
  assert.equal(parseInfo('info string hello'), null);
});

test("a batch's answer: the first error, a prefixed value", () => {
  const lines = ['response 3/3/3 1', 'info string error: position: illegal move', 'info string error: second'];
  assert.equal(errorOf(lines), 'position: illegal move');
  assert.equal(errorOf(['response true']), null);
  assert.equal(errorOf(null), null);
  assert.equal(answer(lines, 'response '), '3/3/3 1');
  assert.equal(answer(lines, 'moves'), null);
});
