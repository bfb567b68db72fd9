// @ts-check
// The game in and out of the page: import (position text, move list or PGN
// with its variations and comments, pgn.js), the exports (position, moves
// of the line shown, PGN of the whole tree, link) into the text box, copy
// and download, and the link in the address (address.js) read at start-up
// and when it changes; at start-up, the game kept in this browser
// (saved_game.js) when the address shows it or none. Outside text (storage's
// too) is checked for its shape before anything of it is sent, and only
// ever shown as text.

import { parseGameText, lengthRefusal, writePgn, writeMoveList } from './pgn.js';
import { takeToken, readLink, linkHash, linkTo } from './address.js';
import { copyText, downloadText } from './export_file.js';
import { game, treeOf, lineMoves, variationCount, snapshot, firstIndex, gameResult, nodeAt } from './game.js';
import { readSavedGame } from './saved_game.js';
import { shown } from './shown.js';
import { session } from './engine_session.js';
import { setStatus } from './render.js';
import { loadGame } from './play.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const textBox = () => /** @type {HTMLTextAreaElement} */ ($('io-text'));

// What the text box holds, for the name of its download.
let exportKind = 'text';
// The refusal of the last paste (or other input) into the text box, which
// was too long to be read and was taken out of the box; null if none.
/** @type {string | null} */
let refusedInput = null;

/** @type {Record<string, string>} */
const EXPORT_FILES = { position: 'gobblet-position.txt', moves: 'gobblet-moves.txt', pgn: 'gobblet-game.pgn',
  link: 'gobblet-link.txt', text: 'gobblet.txt' };

/** @param {string} text @param {string} kind */
function exportText(text, kind) {
  textBox().value = text;
  exportKind = kind;
  refusedInput = null;
  $('io-status').textContent = 'Exported above: copy it or download it.';
}

// A text put into the box (a paste, a drop, typing): one too long to import
// (pgn.js lengthRefusal) is refused at once and taken out of the box, before
// the browser lays it out (10 MB in a text box held the page for seconds).
function checkInput() {
  exportKind = 'text';
  refusedInput = lengthRefusal(textBox().value.length);
  if (!refusedInput) return;
  textBox().value = '';
  $('io-status').textContent = `Not imported: ${refusedInput} It was taken out of the box.`;
}

async function importText() {
  if (refusedInput && !textBox().value) return;  // (the refusal of the paste stays said)
  const parsed = parseGameText(textBox().value);
  if ('error' in parsed) {
    $('io-status').textContent = `Not imported: ${parsed.error}`;  // and nothing sent
    return;
  }
  // A text that names no variant (a position, a move list, cutegames' PGN):
  // the variant shown if the engine takes the game there, else the first of
  // the engine's variants that does.
  const candidates = parsed.variant ? [parsed.variant]
    : [game.variant, ...session.variants.filter((v) => v !== game.variant)];
  // An imported game is shown as it was written, as a link's is: the engine
  // waits for the person before it plays in it, adding no move of its own.
  // A text with moves is a game record: explored, not played on (game.js exploring()).
  const shared = Boolean(parsed.start || parsed.moves.length);
  const err = await loadGame(candidates, parsed.start, parsed.root, null, shared,
    { tags: parsed.tags, explored: parsed.root.children.length > 0 });
  const others = err ? 0 : variationCount(parsed.root);
  $('io-status').textContent = err ? `Not imported: ${err}`
    : `Imported ${parsed.moves.length} moves${others ? ` and ${others} variation${others > 1 ? 's' : ''}` : ''}.`;
}

// Loads the game of the address's #variant=…&fen=…&moves=…&ply=… (the
// engine's default variant's start if none). A link with a field not of its
// shape is refused before anything of it is sent: the default game instead.
export async function loadLink() {
  const link = readLink();
  const err = 'error' in link ? link.error
    : await loadGame([link.variant || session.defaultVariant], link.start, treeOf(link.moves), link.ply,
      Boolean(link.start || link.moves.length));
  if (err) {
    await loadGame([session.defaultVariant], null, treeOf([]), 0);
    setStatus(`The link's game was refused: ${err}`, 'error');
  }
}

// Opens the page's first game: the one kept in this browser (saved_game.js)
// when the address shows that game (a reload, or the tab opened again at
// its address); else the address's link (none: a new game), which then
// replaces the one kept. A kept record that is not a game of this page
// (unreadable, forged, too long, a move not legal) is refused with the
// reason, and a new game (or the link's) is shown, which replaces it.
export async function openFirstGame() {
  const saved = readSavedGame();
  const hash = location.hash.slice(1);
  if (saved && 'error' in saved) {
    await loadLink();
    refuseSavedGame(saved.error, hash ? "the link's game instead" : 'a new game instead');
  } else if (!saved || !hash || hash !== saved.record.link) {
    await loadLink();
  } else {
    const err = await restoreGame(saved.record);
    if (err) {
      await loadGame([session.defaultVariant], null, treeOf([]), 0);
      refuseSavedGame(err, 'a new game instead');
    } else {
      $('io-status').textContent = 'The game kept in this browser was restored (New game starts afresh).';
    }
  }
}

// Loads the kept game `record` as an import is loaded: its PGN read (pgn.js,
// every tag and move checked for its shape) and every line of it replayed
// by the engine (loadGame); the engine waits in it. Null, or why not.
/** @param {import('./saved_game.js').SavedGame} record */
async function restoreGame(record) {
  const parsed = parseGameText(record.pgn);
  if ('error' in parsed) return parsed.error;
  if (!parsed.variant) return 'it names no variant';
  if (!nodeAt(record.shown, parsed.root)) return 'the position it shows is not in its moves';
  return loadGame([parsed.variant], parsed.start, parsed.root, null, true,
    { tags: parsed.tags, explored: record.explored, shown: record.shown });
}

// Says that the game kept in this browser was refused, `why`, and what is shown `instead`.
/** @param {string} why @param {string} instead */
function refuseSavedGame(why, instead) {
  setStatus(`The game kept in this browser was refused, ${instead}: ${why.replace(/\.$/, '')}.`, 'error');
}

export function wireImportExport() {
  window.addEventListener('hashchange', () => {
    // A link pasted into the address bar: load its game (a token in it is only taken out).
    takeToken();
    if (location.hash.slice(1) !== linkHash(snapshot())) loadLink();
  });
  $('import').addEventListener('click', importText);
  $('export-fen').addEventListener('click', () => exportText(shown.view ? shown.view.fen : '', 'position'));
  $('export-moves').addEventListener('click', () => exportText(writeMoveList(lineMoves(), firstIndex()), 'moves'));
  $('export-pgn').addEventListener('click', () => exportText(writePgn(game, game.root, gameResult()), 'pgn'));
  $('export-link').addEventListener('click', () => exportText(linkTo(snapshot()), 'link'));
  $('io-text').addEventListener('input', checkInput);
  $('io-copy').addEventListener('click', async () => { $('io-status').textContent = await copyText(textBox()); });
  $('io-download').addEventListener('click', () => {
    $('io-status').textContent = downloadText(textBox().value, EXPORT_FILES[exportKind] || EXPORT_FILES.text);
  });
}
