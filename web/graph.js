// @ts-check
// The value graph over the game: one point per ply whose value is known,
// from player 1's side (up: player 1 better). Chances (the page's one unit,
// values.js) keep to the middle half: the height is player 1's chance to
// win less player 2's (an engine without chances: its score, squashed so
// that ±400 is most of it); proven results
// take the outer bands, the nearer the end the nearer the edge: a win in
// 1 at the top, the game's longest proven distance (up to 40 plies) at the
// band's inner edge, so that the whole band shows the game's distances (on
// a fixed 1-40 scale a 3x3 game's wins in 13 and in 1 were 6 % apart).

import { valueWords } from './values.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 300, H = 100;

const BAND = 0.55;  // where the outer bands begin (of the half-height)

/** @typedef {import('./game.js').Value} Value */

/** @param {Value} entry @param {number} longest */
function height(entry, longest) {
  if (entry.mate !== undefined) {
    const d = Math.min(Math.abs(entry.mate), longest);
    return Math.sign(entry.mate) * (BAND + (1 - BAND) * (1 - (d - 1) / (longest - 1)));
  }
  if (entry.wdl) return 0.5 * (entry.wdl[0] - entry.wdl[2]) / 1000;
  return 0.5 * Math.tanh(entry.cp / 400);
}

/** @param {string} name @param {Record<string, string | number>} attrs @param {Element} parent */
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.append(e);
  return e;
}

// values[ply] = {cp} | {mate}; plies = the game's length; current = the ply shown; onPick(ply).
/**
 * @param {SVGElement | HTMLElement} svg @param {(Value | undefined)[]} values @param {number} plies
 * @param {number} current @param {(ply: number) => void} onPick
 */
export function drawGraph(svg, values, plies, current, onPick) {
  svg.replaceChildren();
  const span = Math.max(plies, 1);
  /** @param {number} ply */
  const x = (ply) => 4 + ((W - 8) * ply) / span;
  /** @param {number} v */
  const y = (v) => H / 2 - (H / 2 - 6) * v;
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'graph-p1' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-p2' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-axis' }, svg);
  for (const edge of [BAND, -BAND]) {  // the outer bands' inner edges
    el('line', { x1: 0, y1: y(edge * 0.97), x2: W, y2: y(edge * 0.97), class: 'graph-band' }, svg);
  }
  const mates = values.flatMap((e) => (e && e.mate !== undefined ? [Math.abs(e.mate)] : []));
  const longest = Math.min(40, Math.max(2, ...mates));
  el('line', { x1: x(current), y1: 0, x2: x(current), y2: H, class: 'graph-cursor' }, svg);
  /** @type {[number, number, number, Value][]} */
  const points = [];
  values.forEach((entry, ply) => {
    if (entry && ply <= plies) points.push([x(ply), y(height(entry, longest)), ply, entry]);
  });
  if (points.length > 1) el('polyline', { points: points.map((p) => `${p[0]},${p[1]}`).join(' '), class: 'graph-line' }, svg);
  for (const [px, py, ply, entry] of points) {
    const c = el('circle', { cx: px, cy: py, r: 2.5, class: entry.exact ? 'graph-point exact' : 'graph-point' }, svg);
    const t = document.createElementNS(SVG, 'title');
    t.textContent = `ply ${ply}: ${valueWords(entry)}${entry.exact && entry.source !== 'proof' ? ' (exact)' : ''}`;
    c.append(t);
  }
  // The axes' words, outside the stretched drawing (web/index.html #graph-axes).
  const axes = document.getElementById('graph-axes');
  if (axes) axes.textContent = `ply 0 … ply ${plies === 1 ? 1 : plies}: up, player 1's chances better (player 1's chance to win less player 2's); the outer bands, proven wins (nearer the edge, sooner)`;
  svg.onclick = (e) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / box.width * W - 4) / (W - 8) * span);
    onPick(Math.max(0, Math.min(plies, ply)));
  };
}
