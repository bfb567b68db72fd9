// @ts-check
// The page's address: the game link in its fragment
// (#variant=…&fen=…&moves=…&ply=…), read with every field checked for its
// shape (words.js) before any of it reaches the engine, and written back as
// the game changes; and the server's token (#token=T, or a ?token=T still
// given), taken out of the address at once so that it stays neither in the
// tab's history nor in a link copied from the address bar.

import { count, moves as checkedMoves, positionWords, reasonOf, variantWords } from './words.js';

/** A game as a link gives it: its variant (null: the engine's default),
 * start (a position text, null: the variant's), moves (one line) and the ply
 * shown (null: the end).
 * @typedef {{variant: string | null, start: string | null, moves: string[], ply: number | null}} Link */

// Takes the token out of the address (fragment first, then query) and
// returns it, or null; the address keeps everything else.
export function takeToken() {
  const url = new URL(location.href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const found = fragment.get('token') ?? url.searchParams.get('token');
  if (!fragment.has('token') && !url.searchParams.has('token')) return null;
  fragment.delete('token');
  url.searchParams.delete('token');
  url.hash = fragment.toString();
  history.replaceState(history.state, '', url.href);
  return found;
}

// The game of the address's fragment: {variant (null: the engine's
// default), start (position text or null), moves[], ply (null: the end)},
// or {error} saying which field is not of its shape.
/** @returns {Link | {error: string}} */
export function readLink(hash = location.hash) {
  const link = new URLSearchParams(hash.replace(/^#/, ''));
  try {
    const variant = link.get('variant') ? variantWords(link.get('variant')).join(' ') : null;
    const start = link.get('fen') ? positionWords(link.get('fen')).join(' ') : null;
    const moves = checkedMoves((link.get('moves') || '').split(',').filter((m) => m));
    const ply = link.has('ply') ? count(link.get('ply'), 'ply') : null;
    return { variant, start, moves, ply };
  } catch (e) {
    return { error: reasonOf(e) };
  }
}

// The fragment of a link to `game` ({variant, start, moves, ply}).
/** @param {Link} game */
export function linkHash(game) {
  const p = new URLSearchParams();
  p.set('variant', String(game.variant));
  if (game.start) p.set('fen', game.start);
  if (game.moves.length) p.set('moves', game.moves.join(','));
  if (game.ply !== game.moves.length) p.set('ply', String(game.ply));
  return p.toString();
}

// A link to `game`: this page's address with its fragment (never a token).
/** @param {Link} game */
export function linkTo(game) {
  return `${location.origin}${location.pathname}#${linkHash(game)}`;
}

// Shows `game`'s link in the address bar, replacing the entry (no new history step).
/** @param {Link} game */
export function showLink(game) {
  history.replaceState(history.state, '', '#' + linkHash(game));
}

// The address of the engine's server that served this page (`gobblet --http`): its /ugi WebSocket.
export function socketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ugi`;
}

// The address's fragment, without its `#`.
export function currentHash() {
  return location.hash.slice(1);
}

// The page's host (a PGN's [Site]).
export function pageHost() {
  return location.host;
}
