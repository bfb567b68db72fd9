// @ts-check
// Values as the page says them: the engine's `query values` answer read into
// marks, their order, and scores and search counts in words. No rules here:
// every value comes from the engine (docs/protocol.md).

/** A move's exact value from the tablebase: win, draw, loss or unknown,
 * and the distance in plies (a win's or a loss's; null for the others).
 * @typedef {{wdl: 'W' | 'D' | 'L' | '?', plies: number | null}} Mark */
/** A score, of the side to move or (the chart's) of player 1: centi-units
 * (cp), or a proven result (mate) in plies, positive for a win.
 * @typedef {{cp: number, mate?: undefined} | {mate: number, cp?: undefined}} Score */

// "w13" / "l4" / "d" / "?" per move (the words after `response`) as a Map
// move -> {wdl: 'W'|'D'|'L'|'?', plies}; an empty Map for "none"; null for
// an answer not of that shape.
/** @param {string} text @returns {Map<string, Mark> | null} */
export function parseValues(text) {
  const words = text.split(' ');
  if (words[0] === 'none') return new Map();
  /** @type {Map<string, Mark>} */
  const marks = new Map();
  for (let i = 0; i + 1 < words.length; i += 2) {
    const m = /^([wld?])(\d*)$/.exec(words[i + 1]);
    if (!m) return null;
    const wdl = /** @type {Mark['wdl']} */ (m[1].toUpperCase());
    marks.set(words[i], { wdl, plies: m[2] ? Number(m[2]) : null });
  }
  return marks;
}

// Best first: wins (shortest first), draws, losses (longest first).
/** @param {Mark} a @param {Mark} b */
export function markOrder(a, b) {
  /** @param {Mark} m */
  const rank = (m) => (m.wdl === 'W' ? 0 : m.wdl === 'D' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const [pa, pb] = [a.plies ?? 0, b.plies ?? 0];
  return a.wdl === 'W' ? pa - pb : pb - pa;
}

// The best of `marks` as an info ({mate} or {cp: 0}, the mover's side), for the chart.
/** @param {Map<string, Mark>} marks @returns {Score | null} */
export function bestInfo(marks) {
  const best = [...marks.values()].sort(markOrder)[0];
  if (!best) return null;
  const distance = /** @type {number} */ (best.plies);  // (a win's or a loss's)
  return best.wdl === 'D' ? { cp: 0 } : { mate: best.wdl === 'W' ? distance : -distance };
}

/** @param {number} n */
export function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}

// "W13", "L4", "D".
/** @param {Mark} m */
export function markText(m) {
  return m.wdl === 'D' ? 'D' : `${m.wdl}${m.plies}`;
}

// A search score ({mate} or {cp}, the side to move's) in words from player 1's side.
/** @param {Score} info @param {number} side */
export function scoreText(info, side) {
  const sign = side === 1 ? 1 : -1;
  if (info.mate !== undefined) {
    const m = sign * info.mate;
    return `player ${m > 0 ? 1 : 2} wins in ${plies(Math.abs(info.mate))}`;
  }
  const cp = sign * info.cp;
  return `${cp > 0 ? '+' : ''}${cp} cp`;
}

// "1,234 nodes" / "3.21 M nodes"; ", 850 kn/s" / ", 5.3 Mn/s" after it.
/** @param {number} nodes @param {number} nps */
export function countText(nodes, nps) {
  const n = nodes >= 1e6 ? `${(nodes / 1e6).toFixed(2)} M nodes` : `${nodes.toLocaleString('en')} nodes`;
  const speed = nps >= 1e6 ? `${(nps / 1e6).toFixed(1)} Mn/s` : nps >= 1000 ? `${Math.round(nps / 1000)} kn/s` : '';
  return speed ? `${n}, ${speed}` : n;
}
