// @ts-check
// The proof database kept in this browser (IndexedDB), so that a reload,
// the page opened again, or the static site's engine started again after a
// failure, has the file the person last loaded (docs/wasm.md, "A proof
// database"). One record: the file's bytes (a Blob, up to the worker's
// 256 MiB: localStorage holds some 5 million characters for the whole
// site, IndexedDB hundreds of MiB), its name, and the variant the page
// showed when the engine took it (the engine opens a database of the
// variant in force only). A file the engine refused is never kept.
//
// What storage gives back is outside data, as a chosen file is: its shape
// is checked here, the variant by the engine, and the bytes by the worker
// (their size) and by the engine (every record, as any file it opens).

import { variantWords, reasonOf } from './words.js';

const DB_NAME = 'gobblet-board';
const STORE = 'files';
const KEY = 'proof-database';
const FORMAT = 1;
// The longest file name kept (the worker keeps at most 64 characters of it).
const MAX_NAME = 256;
// Storage that has not answered by then counts as refused: the page's
// start waits for it, and must not wait for ever.
const STORAGE_TIMEOUT_MS = 5000;
// The loads of the kept file begun and not ended (sessionStorage: this tab):
// an engine that fails while it loads the file is started again, and would
// load it again for ever; the page forgets a file whose load began
// MAX_ATTEMPTS times in a row without ending.
const ATTEMPTS_KEY = 'gobblet-board-proof-database-loads';
const MAX_ATTEMPTS = 2;

/** A proof database as kept: the file (a File of the bytes and the name)
 * and the variant it was loaded for.
 * @typedef {{file: File, variant: string}} KeptDatabase */

// Opens the page's IndexedDB database (made on the first use); rejects with
// an Error saying why not (storage turned off, a private window's refusal,
// no answer within STORAGE_TIMEOUT_MS).
/** @returns {Promise<IDBDatabase>} */
function openStorage() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('this browser has no IndexedDB'));
      return;
    }
    /** @type {IDBOpenDBRequest} */
    let request;
    try {
      request = indexedDB.open(DB_NAME, 1);
    } catch (e) {
      reject(new Error('this browser refused its storage'));
      return;
    }
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error('this browser\'s storage did not answer'));
    }, STORAGE_TIMEOUT_MS);
    request.onupgradeneeded = () => { request.result.createObjectStore(STORE); };
    request.onsuccess = () => {
      clearTimeout(timer);
      if (late) request.result.close();  // (the caller has gone on without it)
      else resolve(request.result);
    };
    request.onerror = () => { clearTimeout(timer); reject(new Error('this browser refused its storage')); };
    request.onblocked = () => { clearTimeout(timer); reject(new Error('another tab of this page holds its storage')); };
  });
}

// Runs `work` on the store in a transaction of `mode`; what its request
// gave, once the transaction is complete (a write is then on disk as far as
// the browser says).
/**
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>}
 */
async function transact(mode, work) {
  const db = await openStorage();
  try {
    return await new Promise((resolve, reject) => {
      // (a write of a large file may take its time; a read is of the record, its bytes read later)
      setTimeout(() => reject(new Error('this browser\'s storage did not answer')),
        mode === 'readonly' ? STORAGE_TIMEOUT_MS : 12 * STORAGE_TIMEOUT_MS);
      /** @type {IDBTransaction} */
      let tx;
      /** @type {IDBRequest<T>} */
      let request;
      try {
        tx = db.transaction(STORE, mode);
        request = work(tx.objectStore(STORE));
      } catch (e) {
        reject(new Error('this browser refused its storage'));  // (a database of this name without the store)
        return;
      }
      tx.oncomplete = () => resolve(request.result);
      const failed = () => {
        const name = (tx.error || request.error)?.name;
        reject(new Error(name === 'QuotaExceededError' ? 'this browser\'s storage for the page is full'
          : 'this browser refused to store it'));
      };
      tx.onerror = failed;
      tx.onabort = failed;
    });
  } finally {
    db.close();
  }
}

// Keeps `file` (a File the engine took) loaded for `variant`, replacing the
// one kept before: null, or why it could not (the one before is then
// forgotten: a reload must not bring back another file than the last).
/** @param {File} file @param {string} variant @returns {Promise<string | null>} */
export async function keepDatabase(file, variant) {
  try {
    await transact('readwrite', (store) => store.put({ format: FORMAT, name: file.name, variant, blob: file }, KEY));
    return null;
  } catch (e) {
    await forgetDatabase();
    return e instanceof Error ? e.message : String(e);
  }
}

// Forgets the database kept (if any; storage that cannot be reached keeps
// nothing to forget).
export async function forgetDatabase() {
  try {
    await transact('readwrite', (store) => store.delete(KEY));
  } catch (e) {
    // (nothing can be kept either)
  }
}

// The database kept in this browser: {kept}, {error} saying why the record
// is not one of this page (a field missing or of another type), or null
// when none is kept (or storage cannot be read).
/** @returns {Promise<{kept: KeptDatabase} | {error: string} | null>} */
export async function readKeptDatabase() {
  let data;
  try {
    data = await transact('readonly', (store) => store.get(KEY));
  } catch (e) {
    return null;
  }
  if (data === undefined) return null;
  return shapeOf(data);
}

// The record `data` as a KeptDatabase, or {error}.
/** @param {unknown} data @returns {{kept: KeptDatabase} | {error: string}} */
function shapeOf(data) {
  if (!data || typeof data !== 'object') return { error: 'it is not a record of this page' };
  const record = /** @type {Record<string, unknown>} */ (data);
  if (record.format !== FORMAT) return { error: `its format is ${String(record.format).slice(0, 20)}, not ${FORMAT}` };
  const { name, variant, blob } = record;
  if (typeof name !== 'string' || name.length > MAX_NAME) return { error: 'its file name is missing or too long' };
  const badVariant = { error: 'its variant is missing or not a variant\'s name' };
  if (typeof variant !== 'string' || variant.length > 64) return badVariant;
  try {
    variantWords(variant);  // (the words the page sends: command.js variantLine)
  } catch (e) {
    reasonOf(e);  // (a BadWord; anything else is thrown on)
    return badVariant;
  }
  if (!(blob instanceof Blob)) return { error: 'it holds no file' };
  return { kept: { file: new File([blob], name), variant } };
}

// A load of the kept file begins: false where MAX_ATTEMPTS loads before
// began and never ended (the file is then to be forgotten).
export function loadBegins() {
  try {
    const begun = Number(sessionStorage.getItem(ATTEMPTS_KEY)) || 0;
    sessionStorage.setItem(ATTEMPTS_KEY, String(begun + 1));
    return begun < MAX_ATTEMPTS;
  } catch (e) {
    return true;  // (storage turned off: nothing is kept to load)
  }
}

// The load of the kept file ended, taken or refused.
export function loadEnded() {
  try {
    sessionStorage.removeItem(ATTEMPTS_KEY);
  } catch (e) {
    // (storage turned off)
  }
}
