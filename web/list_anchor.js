// Keeps the move list under the person's finger. Once they touch the moves
// panel (a move, a navigation button), what changes above the list — the
// analysis lines cleared and filled again, the tablebase's list, the status,
// the Promote buttons appearing — no longer moves the list on the screen: the
// page scrolls by as much as the list would have moved, until the person
// scrolls themselves. On a phone everything above is stacked over the list,
// and each tap moved it by 200-250 px (the browser's own scroll anchoring
// gives up when its anchor, a move or a line, is drawn anew, as they are).
// Only where the board is stacked above the list (one column, below 900 px):
// beside it (two columns) the page would scroll the board away instead.

const $ = (id) => document.getElementById(id);

let anchorTop = null;  // where the list's top is to stay on the screen, or null: not held

function listTop() {
  return $('move-list').getBoundingClientRect().top;
}

function keep() {
  if (anchorTop === null || $('play').getBoundingClientRect().bottom > listTop()) return;
  const moved = listTop() - anchorTop;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}

// While the list is held the browser's own scroll anchoring is off: it
// would adjust the scroll too, now and then, and the two together overshoot.
export function wireListAnchor() {
  $('moves-panel').addEventListener('pointerdown', () => {
    anchorTop = listTop();
    document.documentElement.style.overflowAnchor = 'none';
  }, true);
  const release = () => {
    anchorTop = null;
    document.documentElement.style.overflowAnchor = '';
  };
  window.addEventListener('wheel', release, { passive: true });
  window.addEventListener('touchmove', release, { passive: true });
  window.addEventListener('keydown', (e) => {
    if (['PageUp', 'PageDown', ' '].includes(e.key) && !e.target.closest('input, textarea, select, button, #board')) release();
  });
  // Every box that sits above the list on some layout: after each change of
  // size (after layout, before paint: no visible jump), the list is put back.
  const observer = new ResizeObserver(keep);
  for (const el of [document.querySelector('header'), $('play'), $('analysis'), $('moves-panel')]) observer.observe(el);
  for (const el of $('moves-panel').children) if (el.id !== 'move-list') observer.observe(el);
}
