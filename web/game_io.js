// @ts-check
// The game in and out of the page: import (position text, move list or PGN
// with its variations and comments, pgn.js), the exports (position, moves
// of the line shown, PGN of the whole tree, link; io_panel.js puts them in
// the text box, copies and downloads them), and the link in the address (address.js) read at start-up
// and when it changes; at start-up, the game kept in this browser
// (saved_game.js) when the address shows it or none. Outside text (storage's
// too) is checked for its shape before anything of it is sent, and only
// ever shown as text. On the static site, a proof database file loaded into
// the engine (loadProofFile), kept in this browser and loaded again at
// start-up (restoreProofFile).

import { parseGameText, writePgn, writeMoveList } from './pgn.js';
import { takeToken, readLink, linkHash, linkTo, currentHash, pageHost } from './address.js';
import { treeOf, lineMoves, variationCount, snapshot, firstIndex, gameResult, nodeAt } from './game.js';
import { readSavedGame } from './saved_game.js';
import { loadGame, refresh } from './play.js';
import { endReview, loadProofDatabase, loadsProofFiles } from './engine_session.js';
import { keepDatabase, forgetDatabase, readKeptDatabase, loadBegins, loadEnded } from './kept_database.js';
import { resumePuzzle } from './puzzle_run.js';
import { roster } from './players.js';

/** @typedef {import('./state.js').State} State */

// Imports the game written in `text`; what to tell the person.
/** @param {State} st @param {string} text */
export async function importGame(st, text) {
  const parsed = parseGameText(text);
  if ('error' in parsed) return `Not imported: ${parsed.error}`;  // and nothing sent
  // A text that names no variant (a position, a move list, cutegames' PGN):
  // the variant shown if the engine takes the game there, else the first of
  // the engine's variants that does.
  const variant = st.game.variant;
  const candidates = parsed.variant ? [parsed.variant]
    : [variant, ...st.session.variants.filter((v) => v !== variant)];
  // An imported game is shown as it was written, as a link's is: the engine
  // waits for the person before it plays in it, adding no move of its own.
  // A text with moves is a game record: explored, not played on (game.js exploring()).
  const shared = Boolean(parsed.start || parsed.moves.length);
  const err = await loadGame(st, candidates, parsed.start, parsed.root, null, shared,
    { tags: parsed.tags, explored: parsed.root.children.length > 0 });
  const others = err ? 0 : variationCount(parsed.root);
  return err ? `Not imported: ${err}`
    : `Imported ${parsed.moves.length} moves${others ? ` and ${others} variation${others > 1 ? 's' : ''}` : ''}.`;
}

// Loads the proof database file `file` (a File the person chose) into the
// static site's engine, which reads it (read-only) from then on, and shows
// the position again, with its proved value where the file holds it
// (proof.js showStoredProof); what to tell the person: the engine's note
// on the file, or why it was not loaded (the database before stays).
// Whatever runs stops first (the engine takes the option only then), and
// starts again with the position.
/** @param {State} st @param {File} file */
export function loadProofFile(st, file) {
  return oneLoadAtATime(st, async () => {
    ++st.shown.generation;  // (a stopped engine's move is not played: the refresh asks again)
    await endReview(st, 'a proof database was loaded');
    const loaded = await loadProofDatabase(st, file);
    if ('error' in loaded) {
      await refresh(st);
      return `Not loaded: ${loaded.error}`;
    }
    // A file the engine took is kept in this browser for a reload (kept_database.js).
    const notKept = st.game.variant ? await keepDatabase(file, st.game.variant) : 'no game was shown yet';
    await refresh(st);
    return `Loaded: ${loaded.note}.${notKept ? ` It is not kept for a reload: ${notKept}.` : ''}`;
  });
}

// Runs `load` once the proof database loads begun before it have ended
// (st.proofLoads): one at a time, as each sets the engine's option and
// takes its notes (engine_session.js loadProofDatabase).
/** @template T @param {State} st @param {() => Promise<T>} load @returns {Promise<T>} */
function oneLoadAtATime(st, load) {
  const run = st.proofLoads.then(load);
  st.proofLoads = run.catch(() => {});
  return run;
}

// The static site's engine, made (the page opened, reloaded, or the engine
// started again after a failure): the proof database kept in this browser
// loaded into it again, for the variant it was loaded for, before the game
// is given (connection.js resume). What to tell the person, or null where
// none is kept (or the engine reads no file of the page, or went away
// meanwhile: the next session tries again). A kept record or file refused
// is forgotten, saying why: it would be refused at every start; so is one
// whose load began twice in this tab and never ended (an engine that fails
// while it loads the file would be started again, and load it again, for
// ever).
/** @param {State} st @returns {Promise<string | null>} */
export function restoreProofFile(st) {
  if (!loadsProofFiles()) return Promise.resolve(null);
  return oneLoadAtATime(st, async () => {
    const read = await readKeptDatabase();
    if (!read) return null;
    const forgotten = 'The proof database kept in this browser was not loaded, and is forgotten:';
    if ('error' in read) {
      await forgetDatabase();
      return `${forgotten} ${read.error}`;
    }
    if (!loadBegins()) {
      loadEnded();
      await forgetDatabase();
      return `${forgotten} the engine stopped while it loaded it, twice`;
    }
    const loaded = await loadProofDatabase(st, read.kept.file, read.kept.variant);
    if (!st.session.connected) return null;  // (the load stays counted as begun)
    loadEnded();
    if (!('error' in loaded)) return `Loaded again (kept in this browser): ${loaded.note}.`;
    await forgetDatabase();
    return `${forgotten} ${loaded.error}`;
  });
}

// The text of an export of `kind`: the position shown, the moves of the line
// shown, the PGN of the whole tree (its players and time control the
// page's where the game's tags do not name them, players.js), or the link.
/** @param {State} st @param {'position' | 'moves' | 'pgn' | 'link'} kind */
export function exportOf(st, kind) {
  const game = st.game;
  if (kind === 'position') return st.shown.view ? st.shown.view.fen : '';
  if (kind === 'moves') return writeMoveList(lineMoves(game), firstIndex(game.start));
  if (kind === 'pgn') {
    return writePgn(game, game.root, gameResult(game), pageHost(), roster(st.settings, st.session.levels));
  }
  return linkTo(snapshot(game));
}

// Loads the game of the address's #variant=…&fen=…&moves=…&ply=… (the
// engine's default variant's start if none). A link with a field not of its
// shape is refused before anything of it is sent: the default game instead.
/** @param {State} st */
export async function loadLink(st) {
  const link = readLink();
  const defaultVariant = st.session.defaultVariant;
  const err = 'error' in link ? link.error
    : await loadGame(st, [link.variant || defaultVariant], link.start, treeOf(link.moves), link.ply,
      Boolean(link.start || link.moves.length));
  if (err) {
    await loadGame(st, [defaultVariant], null, treeOf([]), 0);
    st.ui.status(`The link's game was refused: ${err}`, 'error');
  }
}

// The address changed (a link pasted into the address bar): its game is
// loaded, unless it is the one shown (a token in it is only taken out).
/** @param {State} st */
export function followAddress(st) {
  takeToken();
  if (currentHash() !== linkHash(snapshot(st.game))) loadLink(st);
}

// Opens the page's first game: the one kept in this browser (saved_game.js)
// when the address shows that game (a reload, or the tab opened again at
// its address); else the address's link (none: a new game), which then
// replaces the one kept. A kept record that is not a game of this page
// (unreadable, forged, too long, a move not legal) is refused with the
// reason, and a new game (or the link's) is shown, which replaces it.
/** @param {State} st */
export async function openFirstGame(st) {
  const saved = readSavedGame();
  const hash = currentHash();
  if (saved && 'error' in saved) {
    await loadLink(st);
    refuseSavedGame(st, saved.error, hash ? "the link's game instead" : 'a new game instead');
  } else if (!saved || !hash || hash !== saved.record.link) {
    await loadLink(st);
  } else {
    const err = await restoreGame(st, saved.record);
    if (err) {
      await loadGame(st, [st.session.defaultVariant], null, treeOf([]), 0);
      refuseSavedGame(st, err, 'a new game instead');
    } else {
      st.ui.ioStatus('The game kept in this browser was restored (New game starts afresh).');
      const puzzle = saved.record.puzzle;
      const why = puzzle && await resumePuzzle(st, puzzle);
      if (why) st.ui.status(`The puzzle kept with this game was not taken up again: ${why.replace(/\.$/, '')}.`,
        'error');
    }
  }
}

// Loads the kept game `record` as an import is loaded: its PGN read (pgn.js,
// every tag and move checked for its shape) and every line of it replayed
// by the engine (loadGame); the engine waits in it. Null, or why not.
/** @param {State} st @param {import('./saved_game.js').SavedGame} record */
async function restoreGame(st, record) {
  const parsed = parseGameText(record.pgn);
  if ('error' in parsed) return parsed.error;
  if (!parsed.variant) return 'it names no variant';
  if (!nodeAt(record.shown, parsed.root)) return 'the position it shows is not in its moves';
  return loadGame(st, [parsed.variant], parsed.start, parsed.root, null, true,
    { tags: parsed.tags, explored: record.explored, shown: record.shown });
}

// Says that the game kept in this browser was refused, `why`, and what is shown `instead`.
/** @param {State} st @param {string} why @param {string} instead */
function refuseSavedGame(st, why, instead) {
  st.ui.status(`The game kept in this browser was refused, ${instead}: ${why.replace(/\.$/, '')}.`, 'error');
}
