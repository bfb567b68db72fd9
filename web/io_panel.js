// @ts-check
// The Import/Export panel (a view and event module, state.js): the text box,
// Import, the exports into the box (game_io.js writes them), Copy and
// Download (export_file.js), the panel's note; and the address's changes
// (a link pasted into the address bar: game_io.js followAddress). On the
// static site, "Load proof database…" and its file chooser (game_io.js
// loadProofFile).

import { lengthRefusal } from './pgn.js';
import { copyText, downloadText } from './export_file.js';
import { importGame, exportOf, followAddress, loadProofFile } from './game_io.js';
import { loadsProofFiles } from './engine_session.js';

/** @typedef {import('./state.js').State} State */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const textBox = () => /** @type {HTMLTextAreaElement} */ ($('io-text'));
const proofFile = () => /** @type {HTMLInputElement} */ ($('proof-file'));

/** @type {Record<string, string>} */
const EXPORT_FILES = { position: 'gobblet-position.txt', moves: 'gobblet-moves.txt', pgn: 'gobblet-game.pgn',
  link: 'gobblet-link.txt', text: 'gobblet.txt' };

// The panel's note (the Import/Export status): `text`, or with `add`, the
// note there and then `text`.
/** @param {string} text @param {boolean} [add] */
export function showIoStatus(text, add = false) {
  const before = add ? $('io-status').textContent || '' : '';
  $('io-status').textContent = before ? `${before} ${text}` : text;
}

// The box and its note emptied (a new game: what they held was the game
// before); the box's input event forgets what it held (wireImportExport).
export function clearIoBox() {
  textBox().value = '';
  textBox().dispatchEvent(new Event('input'));
  showIoStatus('');
}

/** @param {State} st */
export function wireImportExport(st) {
  // What the text box holds, for the name of its download; the refusal of
  // the last paste (or other input) into the box, which was too long to be
  // read and was taken out of it (null if none).
  let exportKind = 'text';
  /** @type {string | null} */
  let refusedInput = null;
  /** @param {'position' | 'moves' | 'pgn' | 'link'} kind */
  const exportText = (kind) => {
    textBox().value = exportOf(st, kind);
    exportKind = kind;
    refusedInput = null;
    showIoStatus('Exported above: copy it or download it.');
  };
  window.addEventListener('hashchange', () => followAddress(st));
  $('import').addEventListener('click', async () => {
    if (refusedInput && !textBox().value) return;  // (the refusal of the paste stays said)
    showIoStatus(await importGame(st, textBox().value));
  });
  $('export-fen').addEventListener('click', () => exportText('position'));
  $('export-moves').addEventListener('click', () => exportText('moves'));
  $('export-pgn').addEventListener('click', () => exportText('pgn'));
  $('export-link').addEventListener('click', () => exportText('link'));
  // A text put into the box (a paste, a drop, typing): one too long to import
  // (pgn.js lengthRefusal) is refused at once and taken out of the box, before
  // the browser lays it out (10 MB in a text box held the page for seconds).
  $('io-text').addEventListener('input', () => {
    exportKind = 'text';
    refusedInput = lengthRefusal(textBox().value.length);
    if (!refusedInput) return;
    textBox().value = '';
    showIoStatus(`Not imported: ${refusedInput} It was taken out of the box.`);
  });
  // A proof database file chosen (the static site's engine only: a
  // server's reads its own): handed to the engine, and what it said shown.
  $('proof-load').hidden = !loadsProofFiles();
  $('proof-load').addEventListener('click', () => proofFile().click());
  proofFile().addEventListener('change', async () => {
    const file = proofFile().files?.[0];
    proofFile().value = '';  // (the same file chosen again is loaded again)
    if (!file) return;
    showIoStatus('Loading the proof database…');
    showIoStatus(await loadProofFile(st, file));
  });
  $('io-copy').addEventListener('click', async () => { showIoStatus(await copyText(textBox())); });
  $('io-download').addEventListener('click', () => {
    showIoStatus(downloadText(textBox().value, EXPORT_FILES[exportKind] || EXPORT_FILES.text));
  });
}
