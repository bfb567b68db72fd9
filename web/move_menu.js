// @ts-check
// The menu of a move in the move list (right click, or the menu key on a
// focused move, as lichess has it; the ⋯ button beside the navigation
// opens it for the move shown, for touch screens): make its line the main
// line, delete the game from it on, comment on it. It acts through
// `st.actions` (play.js, set in app.js) and closes on a choice, Escape,
// Tab, or a click elsewhere; it takes the keys while open (↑ ↓ Home End
// move in it). After a choice or Escape the focus goes back to the move
// shown in the list (render.js focusShownMove).

import { variationOf } from './game.js';
import { focusShownMove } from './render.js';

/** @typedef {import('./game.js').TreeNode} TreeNode */
/** @typedef {import('./state.js').State} State */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {TreeNode | null} */
let menuNode = null;   // the move the open menu is for
/** @type {HTMLElement | null} */
let opener = null;     // its button in the move list, focused again when the menu closes

// The menu's items (index.html: a button for each of its actions).
/** @param {string} selector */
const item = (selector) => /** @type {HTMLButtonElement} */ ($('move-menu').querySelector(selector));

// Opens the menu for `node` beside `button` (its button in the move list).
/** @param {TreeNode} node @param {HTMLElement} button */
export function openMoveMenu(node, button) {
  const menu = $('move-menu');
  menuNode = node;
  opener = button;
  item('[data-action="promote"]').hidden = !variationOf(node);
  const panel = /** @type {Element} */ (menu.offsetParent || menu.parentElement);
  const at = button.getBoundingClientRect(), box = panel.getBoundingClientRect();
  menu.style.left = `${Math.max(0, at.left - box.left)}px`;
  menu.style.top = `${at.bottom - box.top}px`;
  menu.hidden = false;
  item('button:not([hidden])').focus();
}

// Closes the menu; `refocus`: the focus goes back to where it was opened
// from, or (that button redrawn since) to the move shown.
export function closeMoveMenu(refocus = false) {
  const menu = $('move-menu');
  if (menu.hidden) return;
  menu.hidden = true;
  menuNode = null;
  if (refocus) {
    if (opener && opener.isConnected) opener.focus();
    else focusShownMove();
  }
  opener = null;
}

/** @param {State} st */
export function wireMoveMenu(st) {
  const menu = $('move-menu');
  menu.addEventListener('click', (e) => {
    const chosen = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[data-action]'));
    if (!chosen || !menuNode) return;
    const node = menuNode;
    const action = chosen.dataset.action;
    closeMoveMenu(action !== 'comment');  // (Comment takes the focus to its field)
    st.actions[action === 'delete' ? 'deleteFrom' : /** @type {'promote' | 'comment'} */ (action)](node);
    if (action !== 'comment') focusShownMove(true);  // (once the list is redrawn)
  });
  // While open, the menu takes the keys: none reaches the page (← → would
  // step through the game under it, f flip the board, ? open the help).
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Tab') return;  // (leaves the menu: focusout closes it)
    const items = [.../** @type {NodeListOf<HTMLButtonElement>} */ (menu.querySelectorAll('button:not([hidden])'))];
    const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    e.stopPropagation();
    if (e.key === 'Enter' || e.key === ' ') return;  // (the button's click)
    e.preventDefault();
    const to = { ArrowDown: at + 1, ArrowUp: at - 1 + items.length, Home: 0, End: items.length - 1 }[e.key];
    if (to !== undefined) items[to % items.length].focus();
    else if (e.key === 'Escape') closeMoveMenu(true);
  });
  $('move-actions').addEventListener('click', () => {
    if (!$('move-menu').hidden) closeMoveMenu(true);
    else if (st.game.current.parent) openMoveMenu(st.game.current, $('move-actions'));
  });
  // (The ⋯ button counts as inside: its own click closes the menu it opened.)
  /** @param {EventTarget | null} el */
  const inside = (el) => el instanceof Node && (menu.contains(el) || el === $('move-actions'));
  document.addEventListener('pointerdown', (e) => {
    if (!menu.hidden && !inside(e.target)) closeMoveMenu();
  });
  menu.addEventListener('focusout', (e) => {
    if (!inside(e.relatedTarget)) closeMoveMenu();
  });
}
