// The page's settings kept in this browser between visits (localStorage): a
// shared link no longer resets them. `ids`: the selectors and checkboxes
// kept; only values a selector offers are taken back.

const KEY = 'gobblet-board-settings';

function valueOf(e) {
  return e.type === 'checkbox' ? String(e.checked) : e.value;
}

export function saveSettings(ids) {
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(ids.map((id) => [id, valueOf(document.getElementById(id))]))));
  } catch (e) { /* storage off: the settings last for this visit */ }
}

export function restoreSettings(ids) {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch (e) { /* none, or not ours */ }
  if (!saved || typeof saved !== 'object') return;
  for (const id of ids) {
    const value = saved[id], e = document.getElementById(id);
    if (typeof value !== 'string' || !e) continue;
    if (e.type === 'checkbox') e.checked = value === 'true';
    else if ([...e.options].some((o) => o.value === value)) e.value = value;
  }
}
