// The menu of a move in the move list (right click, or the menu key on a
// focused move, as lichess has it): make its line the main line, delete
// the game from it on, comment on it. It acts through `menuActions`
// (play.js, wired in app.js) and closes on a choice, Escape, or a click
// elsewhere.

import { variationOf } from './game.js';

const $ = (id) => document.getElementById(id);

export const menuActions = { promote: null, deleteFrom: null, comment: null };

let menuNode = null;   // the move the open menu is for
let opener = null;     // its button in the move list, focused again when the menu closes

// Opens the menu for `node` beside `button` (its button in the move list).
export function openMoveMenu(node, button) {
  const menu = $('move-menu');
  menuNode = node;
  opener = button;
  menu.querySelector('[data-action="promote"]').hidden = !variationOf(node);
  const panel = menu.offsetParent || menu.parentElement;
  const at = button.getBoundingClientRect(), box = panel.getBoundingClientRect();
  menu.style.left = `${Math.max(0, at.left - box.left)}px`;
  menu.style.top = `${at.bottom - box.top}px`;
  menu.hidden = false;
  menu.querySelector('button:not([hidden])').focus();
}

export function closeMoveMenu(refocus = false) {
  const menu = $('move-menu');
  if (menu.hidden) return;
  menu.hidden = true;
  menuNode = null;
  if (refocus && opener && opener.isConnected) opener.focus();
  opener = null;
}

export function wireMoveMenu() {
  const menu = $('move-menu');
  menu.addEventListener('click', (e) => {
    const item = e.target.closest('[data-action]');
    if (!item || !menuNode) return;
    const node = menuNode;
    closeMoveMenu();
    menuActions[item.dataset.action === 'delete' ? 'deleteFrom' : item.dataset.action](node);
  });
  menu.addEventListener('keydown', (e) => {
    const items = [...menu.querySelectorAll('button:not([hidden])')];
    const at = items.indexOf(document.activeElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      closeMoveMenu(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      e.stopPropagation();
      items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length].focus();
    }
  });
  document.addEventListener('pointerdown', (e) => {
    if (!menu.hidden && !menu.contains(e.target)) closeMoveMenu();
  });
  menu.addEventListener('focusout', (e) => {
    if (!menu.contains(e.relatedTarget)) closeMoveMenu();
  });
}
