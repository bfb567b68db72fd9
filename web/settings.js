// @ts-check
// The page's settings kept in this browser between visits (localStorage): a
// shared link does not reset them. `ids`: the selectors and checkboxes
// kept; only values a selector offers are taken back.

const KEY = 'gobblet-board-settings';

/** A setting's control: a selector, or a checkbox.
 * @typedef {HTMLSelectElement | HTMLInputElement} Control */

/** @param {string} id */
function control(id) {
  return /** @type {Control | null} */ (document.getElementById(id));
}

/** @param {Control} e */
function valueOf(e) {
  return e.type === 'checkbox' ? String(/** @type {HTMLInputElement} */ (e).checked) : e.value;
}

/** @param {readonly string[]} ids */
export function saveSettings(ids) {
  try {
    const values = ids.map((id) => [id, valueOf(/** @type {Control} */ (control(id)))]);
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(values)));
  } catch (e) { /* storage off: the settings last for this visit */ }
}

/** @param {readonly string[]} ids */
export function restoreSettings(ids) {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch (e) { /* none, or not ours */ }
  if (!saved || typeof saved !== 'object') return;
  for (const id of ids) {
    const value = saved[id], e = control(id);
    if (typeof value !== 'string' || !e) continue;
    if (e.type === 'checkbox') /** @type {HTMLInputElement} */ (e).checked = value === 'true';
    else if ([.../** @type {HTMLSelectElement} */ (e).options].some((o) => o.value === value)) e.value = value;
  }
}
