// @ts-check
// Keeps the move list under the person's finger. Once they touch the moves
// panel (a move, a navigation button), what changes above the list — the
// analysis lines cleared and filled again, the tablebase's list, the status,
// the Promote buttons appearing — does not move the list on the screen: the
// page scrolls by as much as the list would have moved, until the person
// scrolls themselves. On a phone everything above is stacked over the list,
// and without this each tap would move it by 200-250 px (the browser's own
// scroll anchoring gives up when its anchor, a move or a line, is drawn
// anew, as they are).
// Only where the board is stacked above the list (one column, below 900 px):
// beside it (two columns) the page would scroll the board away instead.

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {number | null} */
let anchorTop = null;  // where the list's top is to stay on the screen, or null: not held

function listTop() {
  return $('move-list').getBoundingClientRect().top;
}

// The board is above the move list: one column (below 900 px wide).
export function pageIsStacked() {
  return $('play').getBoundingClientRect().bottom <= listTop();
}

// Space added at the page's end while the list is held: near the end the
// page could not scroll far enough to put the list back (the lines above,
// cleared, shortened the page; refilled, they pushed the list down).
/** @type {HTMLElement} */
let space;

function keep() {
  if (anchorTop === null || !pageIsStacked()) return;
  const moved = listTop() - anchorTop;
  if (Math.abs(moved) < 1) return;
  window.scrollBy(0, moved);
  const short = listTop() - anchorTop;  // what the page's end left unscrolled
  if (short >= 1) {
    space.style.height = `${space.offsetHeight + short}px`;
    window.scrollBy(0, short);
  }
}

// While the list is held the browser's own scroll anchoring is off: it
// would adjust the scroll too, now and then, and the two together overshoot.
export function wireListAnchor() {
  space = document.createElement('div');
  space.setAttribute('aria-hidden', 'true');
  space.style.height = '0';
  space.style.order = '99';  // (last on a phone too, where the body is a flex column ordered board first)
  document.body.append(space);
  $('moves-panel').addEventListener('pointerdown', () => {
    anchorTop = listTop();
    document.documentElement.style.overflowAnchor = 'none';
  }, true);
  const release = () => {
    anchorTop = null;
    document.documentElement.style.overflowAnchor = '';
    space.style.height = '0';
  };
  // A scroll of the person's own lets the list go: the wheel, a finger, a
  // press on the scroll bar, the keys that scroll (not the page's own
  // scrolls: the browser's, when what is above changes, come before this
  // module puts the list back).
  window.addEventListener('wheel', release, { passive: true });
  window.addEventListener('touchmove', release, { passive: true });
  window.addEventListener('pointerdown', (e) => {
    if (e.clientX >= document.documentElement.clientWidth) release();
  });
  window.addEventListener('keydown', (e) => {
    if (['PageUp', 'PageDown', ' ', 'ArrowUp', 'ArrowDown'].includes(e.key)
        && !/** @type {Element} */ (e.target).closest('input, textarea, select')) {
      release();
    }
  });
  // Every box that sits above the list on some layout: after each change of
  // size (after layout, before paint: no visible jump), the list is put back.
  const observer = new ResizeObserver(keep);
  const header = /** @type {Element} */ (document.querySelector('header'));
  for (const el of [header, $('play'), $('analysis'), $('moves-panel')]) observer.observe(el);
  for (const el of $('moves-panel').children) if (el.id !== 'move-list') observer.observe(el);
}
