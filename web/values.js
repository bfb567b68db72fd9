// @ts-check
// Values as the page says them: the engine's `query values` answer read into
// marks, their order, and scores and search counts in words. No rules here:
// every value comes from the engine (docs/protocol.md).

/** A move's exact value from the tablebase: win, draw, loss or unknown,
 * and the distance in plies (a win's or a loss's; null for the others).
 * @typedef {{wdl: 'W' | 'D' | 'L' | '?', plies: number | null}} Mark */
/** Chances per mille of one player: [win, draw, loss], W + D + L = 1000
 * (the engine's `wdl W D L`, docs/protocol.md).
 * @typedef {[number, number, number]} Wdl */
/** A score, of the side to move or (the chart's) of player 1: centi-units
 * (cp), or a proven result (mate) in plies, positive for a win; and, where
 * the engine gave them, its chances (wdl) of the same player.
 * @typedef {({cp: number, mate?: undefined} | {mate: number, cp?: undefined}) & {wdl?: Wdl}} Score */

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

// ---- chances: the one unit the page shows values in (docs/board.md) --------

// Whole percentages of per mille chances, in their order, that sum to 100
// and are the same seen from either side (percents of otherSide(wdl) is
// percents(wdl) turned: the bar, of player 1, and a line, of player 2,
// must agree): W and L each to the nearest, a half to the even one, D
// the rest (never below 0, and 0 where D is 0; each within a point).
/** @param {Wdl} wdl @returns {[number, number, number]} */
export function percents(wdl) {
  const w = nearestEven(wdl[0] / 10), l = nearestEven(wdl[2] / 10);
  return [w, 100 - w - l, l];
}

// `x` to the nearest whole number, a half to the even one.
/** @param {number} x */
function nearestEven(x) {
  const down = Math.floor(x);
  const part = x - down;
  if (Math.abs(part - 0.5) < 1e-9) return down % 2 === 0 ? down : down + 1;
  return Math.round(x);
}

// One chance in words: "58%" (`percent` of percents()). An exact chance (a
// proven result, the tablebase's, a proof's) reads as it is, "100%" or
// "0%"; an estimate never looks certain: one that rounds to 0 reads "<1%",
// one that rounds to 100 ">99%" (a search's 999 is no proof).
/** @param {number} percent @param {boolean} exact */
function percentText(percent, exact) {
  if (!exact && percent === 0) return '<1%';
  if (!exact && percent === 100) return '>99%';
  return `${percent}%`;
}

// Chances as the lines write them: "W 58% D 3% L 39%"; `exact`: they are
// certain (else an estimate: percentText).
/** @param {Wdl} wdl @param {boolean} [exact] */
export function chancesText(wdl, exact = false) {
  const p = percents(wdl);
  return ['W', 'D', 'L'].map((k, i) => `${k} ${percentText(p[i], exact)}`).join(' ');
}

// Player 1's chances as the bar and the chart say them: "player 1 wins
// 39%, draw 3%, player 2 wins 58%" (`exact` as for chancesText).
/** @param {Wdl} wdl @param {boolean} [exact] */
export function playerOneChancesText(wdl, exact = false) {
  const [w, d, l] = percents(wdl).map((p) => percentText(p, exact));
  return `player 1 wins ${w}, draw ${d}, player 2 wins ${l}`;
}

// Player 1's chance to win, the bar's number: "39%", ">99%".
/** @param {Wdl} wdl @param {boolean} [exact] */
export function playerOneWinText(wdl, exact = false) {
  return percentText(percents(wdl)[0], exact);
}

// Whether chances are the engine's word for a decided value: it gives a
// share of 1000 only to a proven result or an exact draw, never to an
// estimate (docs/search.md, "Win/draw/loss").
/** @param {Wdl} wdl */
export function decided(wdl) {
  return wdl.includes(1000);
}

// Whether a position's value (game.js Value) is certain: a proof's, the
// tablebase's, a result the search proved (a mate, or chances the engine
// gives as decided); else it is an estimate.
/** @param {import('./game.js').Value} value */
export function exactValue(value) {
  return Boolean(value.exact) || value.mate !== undefined || Boolean(value.wdl && decided(value.wdl));
}

// A position's value (game.js Value) in words, for the chart's points and
// the bar: a proven result ("player 1 wins in 2 plies"; a proof's "player 1
// wins in at most 17 plies (proved)"), an exact draw, else player 1's
// chances (playerOneChancesText), else the score.
/** @param {import('./game.js').Value} value */
export function valueWords(value) {
  const proved = value.source === 'proof';
  if (value.mate !== undefined) {
    const n = Math.abs(value.mate);
    return `player ${value.mate > 0 ? 1 : 2} wins in ${proved ? 'at most ' : ''}${plies(n)}${proved ? ' (proved)' : ''}`;
  }
  if (exactValue(value) && value.cp === 0) return proved ? 'a draw (proved)' : 'a draw';
  if (value.wdl) return playerOneChancesText(value.wdl, exactValue(value));
  return `${value.cp > 0 ? '+' : ''}${value.cp} cp for player 1`;
}

// The same chances seen by the other player.
/** @param {Wdl} wdl @returns {Wdl} */
export function otherSide(wdl) {
  return [wdl[2], wdl[1], wdl[0]];
}

// The chances of a score of the side to move: the engine's (wdl), else
// those a proven result or an exact draw stands for; null where neither
// is known (an engine that gives no chances).
/** @param {Score} score @param {boolean} [exact] @returns {Wdl | null} */
export function chancesOf(score, exact = false) {
  if (score.mate !== undefined) return score.mate > 0 ? [1000, 0, 0] : [0, 0, 1000];
  if (exact) return score.cp > 0 ? [1000, 0, 0] : score.cp < 0 ? [0, 0, 1000] : [0, 1000, 0];
  return score.wdl || null;
}

// An analysis line's value in words, for the side to move: a proven result
// as "win in 5 plies" / "loss in 4 plies", an exact draw (the tablebase's,
// or one the search proved: chances the engine gives as decided) "draw
// (exact)", else the chances, an estimate, which never read 100% or 0%
// ("W 58% D 3% L 39%", "W >99% D <1% L <1%"). `mark`: the tablebase's exact
// value of the line's first move, which the line's value is (a 3x3 line
// with a tablebase); an engine without chances: its score.
/** @param {Score} score @param {Mark | null} [mark] */
export function lineValueText(score, mark = null) {
  if (mark && mark.wdl !== '?') {
    return mark.wdl === 'D' ? 'draw (exact)' : `${mark.wdl === 'W' ? 'win' : 'loss'} in ${plies(/** @type {number} */ (mark.plies))}`;
  }
  if (score.mate !== undefined) return `${score.mate > 0 ? 'win' : 'loss'} in ${plies(Math.abs(score.mate))}`;
  if (!score.wdl) return `${score.cp > 0 ? '+' : ''}${score.cp} cp`;
  return score.wdl[1] === 1000 ? 'draw (exact)' : chancesText(score.wdl);
}

// The value of a position for the chart and the bar, from player 1's side,
// of a score of `side` (the side to move there): the score turned, with
// its chances (chancesOf) turned too. `exact`: the tablebase's.
/** @param {Score} score @param {number} side @param {boolean} [exact] */
export function playerOneValue(score, side, exact = false) {
  const sign = side === 1 ? 1 : -1;
  const chances = chancesOf(score, exact);
  const wdl = chances && (side === 1 ? chances : otherSide(chances));
  const base = score.mate !== undefined ? { mate: sign * score.mate } : { cp: sign * score.cp || 0 };  // (0, not -0)
  return { ...base, exact, ...(wdl ? { wdl } : {}) };
}

// "1,234 nodes" / "3.21 M nodes"; ", 850 kn/s" / ", 5.3 Mn/s" after it.
/** @param {number} nodes @param {number} nps */
export function countText(nodes, nps) {
  const n = nodes >= 1e6 ? `${(nodes / 1e6).toFixed(2)} M nodes` : `${nodes.toLocaleString('en')} nodes`;
  const speed = nps >= 1e6 ? `${(nps / 1e6).toFixed(1)} Mn/s` : nps >= 1000 ? `${Math.round(nps / 1000)} kn/s` : '';
  return speed ? `${n}, ${speed}` : n;
}

// ---- every move's value without a pick (the board's "Values" toggle) -------

// The best mark (markOrder) of the moves `key` gives the same key, as a Map
// key -> mark; moves for which `key` gives null are left out.
/** @param {Map<string, Mark>} marks @param {(move: string) => string | null} key */
function bestBy(marks, key) {
  /** @type {Map<string, Mark>} */
  const best = new Map();
  for (const [move, m] of marks) {
    const k = key(move);
    if (k === null) continue;
    const had = best.get(k);
    if (!had || markOrder(m, had) < 0) best.set(k, m);
  }
  return best;
}

// The best value of any move to each square (`L@b2`, `a1b2`: the square it ends on).
/** @param {Map<string, Mark>} marks */
export function bestByTarget(marks) {
  return bestBy(marks, (move) => move.slice(-2));
}

// The best value of placing each size from the reserve (`L@b2` -> 'L').
/** @param {Map<string, Mark>} marks */
export function bestByPlacedSize(marks) {
  return bestBy(marks, (move) => (move[1] === '@' ? move[0] : null));
}

// The proof database's answer about a position (`query proof`: "win 15
// L@b2", "loss 14", "draw S@a1", "not-lost S@a1", "not-won";
// docs/protocol.md) as {kind, plies, move} (plies: a win's or a loss's,
// else null; move: the side to move's strategy move, else null); null for
// `none` or an answer not of that shape.
/** @typedef {{kind: 'win' | 'loss' | 'draw' | 'not-lost' | 'not-won', plies: number | null, move: string | null}} StoredProof */
/** @param {string} answer @returns {StoredProof | null} */
export function storedProof(answer) {
  const move = '([SMLX]@[a-d][1-4]|[a-d][1-4][a-d][1-4])';
  const m = new RegExp(`^(?:win ([1-9]\\d{0,3}) ${move}|loss ([1-9]\\d{0,3})|(draw|not-lost) ${move}|(not-won))$`)
    .exec(answer);
  if (!m) return null;
  if (m[1]) return { kind: 'win', plies: Number(m[1]), move: m[2] };
  if (m[3]) return { kind: 'loss', plies: Number(m[3]), move: null };
  if (m[4]) return { kind: /** @type {'draw' | 'not-lost'} */ (m[4]), plies: null, move: m[5] };
  return { kind: 'not-won', plies: null, move: null };
}

// The value a stored proof (storedProof) gives its position, for the side
// to move there (a Score): a win or a loss in at most `plies` plies, a
// draw ({cp: 0}); null for a held side alone (only a bound: no value).
/** @param {StoredProof} stored @returns {Score | null} */
export function storedValue(stored) {
  if (stored.kind === 'draw') return { cp: 0 };
  if (stored.kind !== 'win' && stored.kind !== 'loss') return null;
  const plies = /** @type {number} */ (stored.plies);
  return { mate: stored.kind === 'win' ? plies : -plies };
}

// A stored proof (storedProof) as a person reads it, for player `side` to move.
/** @param {StoredProof} stored @param {number} side */
export function storedProofText(stored, side) {
  const within = `at most ${stored.plies} ${stored.plies === 1 ? 'ply' : 'plies'}`;
  switch (stored.kind) {
    case 'win': return `Proved (proof database): player ${side} wins in ${within}, starting with ${stored.move}.`;
    case 'loss': return `Proved (proof database): player ${side} loses in ${within} whatever they play.`;
    case 'draw':
      return `Proved (proof database): a draw — neither side can win; player ${side} holds it starting with ${stored.move}.`;
    case 'not-lost':
      return `Proved (proof database): player ${side} cannot lose, starting with ${stored.move}; `
        + 'whether they can win is not proved.';
    default:
      return `Proved (proof database): player ${side} cannot win (player ${3 - side} cannot lose); `
        + 'whether they can draw is not proved.';
  }
}

// The value a proof gives the position it was asked about, for the side to
// move there (a Score): a win or a loss in at most `plies` plies ({mate:
// ±plies}), a draw with both certificates checked ({cp: 0}); null where it
// proved nothing exact (`unknown`, `not-lost`: only that the side to move
// cannot lose; a draw without its certificates, an older engine's win
// prover's: no proof) or the answer is not of that shape. `answer` as for
// proofText.
/** @param {string} answer @returns {Score | null} */
export function proofValue(answer) {
  const m = /^(win|loss|draw)(?: plies (\d+))?(?: |$)/.exec(answer);
  if (!m) return null;
  if (m[1] === 'draw') return / certificates \d+ and \d+ checked\b/.test(answer) ? { cp: 0 } : null;
  if (!m[2] || Number(m[2]) < 1) return null;
  return { mate: m[1] === 'win' ? Number(m[2]) : -Number(m[2]) };
}

// The prover's answer (the words after `info string proof`: "win plies 17
// nodes 9221 time 92 certificate 4818 checked", "draw nodes 1630 time 4
// certificates 51 and 61 checked", "not-lost nodes 980 time 3 certificate
// 44 checked", a note in parentheses at the end) as a person reads it, for
// player `side` to move; `best` the proof's move. A draw without both
// certificates checked (an older engine's win prover's) is no proof.
/**
 * @param {string} answer @param {number} side @param {string | null | undefined} best
 * @param {number} seconds the prover's budget @returns {string}
 */
export function proofText(answer, side, best, seconds) {
  const outcome = answer.split(' ')[0];
  const number = (/** @type {string} */ key) => {
    const m = new RegExp(` ${key} (\\d+)`).exec(answer);
    return m ? Number(m[1]) : null;
  };
  const plies = number('plies'), nodes = number('nodes'), ms = number('time'), certificate = number('certificate');
  const note = /\((.*)\)$/.exec(answer);
  const cost = `${(nodes || 0).toLocaleString('en')} node${nodes === 1 ? '' : 's'}, ${((ms || 0) / 1000).toFixed(1)} s`;
  const checked = certificate && / certificate \d+ checked\b/.test(answer)
    ? `its certificate of ${certificate.toLocaleString('en')} position${certificate === 1 ? '' : 's'} checked; ` : '';
  const within = `at most ${plies} ${plies === 1 ? 'ply' : 'plies'}`;
  const both = / certificates (\d+) and (\d+) checked\b/.exec(answer);
  if (outcome === 'draw' && both) {
    const [one, other] = [both[1], both[2]].map((n) => Number(n).toLocaleString('en'));
    return `Proved: a draw — neither side can win (certificates of ${one} and ${other} positions checked; ${cost}).`;
  }
  if (outcome === 'not-lost') {
    return `Proved: player ${side} cannot lose, starting with ${best} (${checked}${cost}); `
      + 'whether they can win is not proved.';
  }
  if (outcome === 'win')
    return `Proved: player ${side} wins in ${within}, starting with ${best} (${checked}${cost}).`;
  if (outcome === 'loss')
    return `Proved: player ${side} loses in ${within} whatever they play (${checked}${cost}).`;
  return `No proof within ${seconds} s${note ? ` (${note[1]})` : ''}: the position is beyond the prover's `
    + `reach in that time (${cost}).`;
}
