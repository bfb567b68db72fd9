#!/usr/bin/env python3
"""Ratings of the players of gobblet-match records, on the Elo scale, by
maximum likelihood (the Bradley-Terry model: player i scores against j on
average 1 / (1 + 10^((r_j - r_i) / 400)), a draw half a win), with one
player fixed at 0 (the anchor: a uniformly random mover for the skill
levels). A player that won every game against its neighbours has no finite
maximum: as BayesElo does, each pair that played gets one virtual draw
(--prior-draws), which bounds the gaps by what was played.

    tools/skill/fit_levels.py --anchor safe [--anchor-elo E] RECORD... [--json | --ladder]

prints one line per player, best first: name, rating, its 95% interval
(from the curvature of the likelihood, the others held), games, score.
--anchor-elo gives the anchor a rating other than 0 (every rating moves by
it). --ladder prints instead the table of docs/search.md "Strength levels":
for each player named L<n> (a skill level; L20 full strength), its rating,
its games against L<n-1> and against the anchor (wins-draws-losses from its
side, the score) and the gap to L<n-1> from those games alone, with its 95%
interval (the normal approximation of the mean score, turned into Elo).
Reads the line records of --record (docs/match.md); '#' lines are skipped.
"""

import argparse
import json
import math
import re
import sys
from collections import defaultdict

GAME = re.compile(r'^game=\d+ p1="([^"]*)" p2="([^"]*)".* result=(1-0|0-1|1/2-1/2)\b')


def read_games(paths):
    """[(p1, p2, score of p1)] of the records' finished games."""
    games = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = GAME.match(line)
                if m:
                    games.append((m.group(1), m.group(2), {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[m.group(3)]))
    return games


def expected(ri, rj):
    return 1.0 / (1.0 + 10.0 ** ((rj - ri) / 400.0))


def fit(games, anchor, prior_draws=1.0, iterations=20000):
    """{player: rating} maximising the likelihood of `games` (with the
    virtual draws), the anchor at 0; raises ValueError if the anchor did not
    play or a player is not connected to it."""
    players = sorted({p for g in games for p in g[:2]})
    if anchor not in players:
        raise ValueError(f"the anchor {anchor!r} played no game")
    score = defaultdict(float)  # (i, j) -> points of i against j
    count = defaultdict(float)
    for a, b, s in games:
        score[a, b] += s
        score[b, a] += 1 - s
        count[a, b] += 1
        count[b, a] += 1
    for (a, b) in list(count):
        if a < b:
            for x, y in ((a, b), (b, a)):
                score[x, y] += 0.5 * prior_draws
                count[x, y] += prior_draws
    # Connected to the anchor?
    seen, todo = {anchor}, [anchor]
    while todo:
        p = todo.pop()
        for (a, b) in count:
            if a == p and b not in seen:
                seen.add(b)
                todo.append(b)
    if len(seen) != len(players):
        raise ValueError("not connected to the anchor: " + ", ".join(sorted(set(players) - seen)))
    rating = {p: 0.0 for p in players}
    opponents = defaultdict(list)
    for (a, b) in count:
        opponents[a].append(b)
    # Gradient steps on each rating in turn (Newton on one coordinate).
    for _ in range(iterations):
        change = 0.0
        for p in players:
            if p == anchor:
                continue
            gradient, curvature = 0.0, 0.0
            for q in opponents[p]:
                e = expected(rating[p], rating[q])
                gradient += score[p, q] - count[p, q] * e
                curvature += count[p, q] * e * (1 - e)
            k = math.log(10) / 400
            step = gradient / (k * curvature) if curvature > 0 else 0.0
            step = max(-200.0, min(200.0, step))
            rating[p] += step
            change = max(change, abs(step))
        if change < 1e-6:
            break
    return rating, score, count, opponents


def interval(p, rating, count, opponents):
    """The 95% half-width of p's rating, the others held."""
    k = math.log(10) / 400
    information = sum(count[p, q] * k * k * expected(rating[p], rating[q]) * (1 - expected(rating[p], rating[q]))
                      for q in opponents[p])
    return 1.96 / math.sqrt(information) if information > 0 else float("inf")


def elo_of_score(s):
    """The Elo gap of a mean score s (the logistic curve), +-inf at 1 and 0."""
    if s >= 1:
        return math.inf
    if s <= 0:
        return -math.inf
    return -400 * math.log10(1 / s - 1)


def pair_summary(games, a, b):
    """(games, wins, draws, losses, score, gap, low, high) of a against b:
    the gap in Elo of the mean score and its 95% interval, or None if they
    did not play."""
    results = [s if p1 == a else 1 - s for p1, p2, s in games if {p1, p2} == {a, b}]
    n = len(results)
    if n == 0:
        return None
    mean = sum(results) / n
    var = sum((x - mean) ** 2 for x in results) / n
    half = 1.96 * math.sqrt(var / n)
    return (n, results.count(1.0), results.count(0.5), results.count(0.0), mean, elo_of_score(mean),
            elo_of_score(mean - half), elo_of_score(mean + half))


def signed(x):
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{round(x) + 0:+d}"


def ladder_table(games, rating, count, opponents, anchor):
    """The markdown rows of --ladder."""
    levels = sorted(int(p[1:]) for p in rating if re.fullmatch(r"L\d+", p))
    rows = ["| level | Elo ± 95 % | vs the level below: games, W-D-L, score | gap to it, Elo [95 %] "
            f"| vs {anchor}: games, W-D-L, score |", "| --- | --- | --- | --- | --- |"]
    for level in levels:
        p = f"L{level}"
        cells = [str(level) + (" (full)" if level == 20 else ""),
                 f"{rating[p]:.0f} ± {interval(p, rating, count, opponents):.0f}"]
        below = pair_summary(games, p, f"L{level - 1}")
        if below:
            n, w, d, l, score, gap, low, high = below
            cells += [f"{n}, {w}-{d}-{l}, {score:.2f}", f"{signed(gap)} [{signed(low)}, {signed(high)}]"]
        else:
            cells += ["", ""]
        against = pair_summary(games, p, anchor)
        cells.append(f"{against[0]}, {against[1]}-{against[2]}-{against[3]}, {against[4]:.2f}" if against else "")
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--anchor", required=True, help="the player rated 0")
    parser.add_argument("--anchor-elo", type=float, default=0.0, help="the anchor's rating (default 0)")
    parser.add_argument("--prior-draws", type=float, default=1.0)
    parser.add_argument("--json", action="store_true", help="the ratings as a JSON object")
    parser.add_argument("--ladder", action="store_true", help="the skill levels' table (markdown)")
    args = parser.parse_args()
    games = read_games(args.records)
    if not games:
        sys.exit("fit_levels: no finished game in " + " ".join(args.records))
    try:
        rating, score, count, opponents = fit(games, args.anchor, args.prior_draws)
    except ValueError as e:
        sys.exit(f"fit_levels: {e}")
    rating = {p: r + args.anchor_elo for p, r in rating.items()}
    if args.ladder:
        print(ladder_table(games, rating, count, opponents, args.anchor))
        return
    if args.json:
        print(json.dumps({p: round(r) for p, r in rating.items()}))
        return
    played = defaultdict(int)
    points = defaultdict(float)
    for a, b, s in games:
        played[a] += 1
        played[b] += 1
        points[a] += s
        points[b] += 1 - s
    print(f"{'player':12} {'Elo':>6} {'95%':>6} {'games':>6} {'score':>6}")
    for p in sorted(rating, key=lambda p: -rating[p]):
        half = 0.0 if p == args.anchor else interval(p, rating, count, opponents)
        print(f"{p:12} {rating[p]:6.0f} {half:6.0f} {played[p]:6d} {points[p] / played[p]:6.3f}")


if __name__ == "__main__":
    main()
