#!/usr/bin/env python3
"""tools/skill/fit_levels.py on tiny records whose answers are known:
two players (the maximum-likelihood gap of a score s is -400 log10(1/s - 1),
with the virtual draw counted), a chain of three, an unconnected player and
a missing anchor refused."""

import math
import subprocess
import sys
import tempfile
from pathlib import Path

FIT = Path(__file__).resolve().parents[2] / "tools" / "skill" / "fit_levels.py"


def record(games):
    lines = ["# gobblet-match match: (a test)"]
    for n, (a, b, result) in enumerate(games, 1):
        lines.append(f'game={n} p1="{a}" p2="{b}" variant=gobblet moves="" result={result} reason=line')
    return "\n".join(lines) + "\n"


def fit(*records, anchor="random", options=("--json",)):
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k, games in enumerate(records):
            path = Path(tmp) / f"r{k}.txt"
            path.write_text(record(games))
            paths.append(str(path))
        return subprocess.run([sys.executable, str(FIT), "--anchor", anchor, *options, *paths],
                              capture_output=True, text=True)


def check(condition, what):
    if not condition:
        sys.exit(f"FAILED: {what}")


def main():
    import json
    # A beats random 3 times of 4 (colours alternate): with the virtual draw,
    # 3.5 of 5 = 0.7, a gap of 147 Elo.
    out = fit([("A", "random", "1-0"), ("random", "A", "0-1"), ("A", "random", "1-0"), ("random", "A", "1-0")])
    check(out.returncode == 0, out.stderr)
    ratings = json.loads(out.stdout)
    check(ratings["random"] == 0, ratings)
    check(ratings["A"] == round(-400 * math.log10(1 / 0.7 - 1)), ratings)
    # A chain over two records: B wins everything against A, A against random:
    # finite (the virtual draws), in order.
    out = fit([("A", "random", "1-0")] * 4, [("B", "A", "1-0"), ("A", "B", "0-1"), ("B", "A", "1/2-1/2")])
    ratings = json.loads(out.stdout)
    check(ratings["B"] > ratings["A"] > ratings["random"] == 0, ratings)
    # Refusals: an anchor that did not play, a player not connected to it.
    out = fit([("A", "B", "1-0")])
    check(out.returncode != 0 and "the anchor 'random' played no game" in out.stderr, out.stderr)
    out = fit([("A", "random", "1-0"), ("C", "D", "1-0")])
    check(out.returncode != 0 and "not connected to the anchor: C, D" in out.stderr, out.stderr)
    # --anchor-elo moves every rating by the anchor's.
    games = [("A", "random", "1-0"), ("random", "A", "0-1"), ("A", "random", "1-0"), ("random", "A", "1-0")]
    shifted = json.loads(fit(games, options=("--json", "--anchor-elo", "500")).stdout)
    check(shifted == {"random": 500, "A": 500 + round(-400 * math.log10(1 / 0.7 - 1))}, shifted)
    # --ladder: a row per level, its games against the level below (3 of 4
    # won by L1, from its side) with the gap of that score alone (0.75: 191
    # Elo) and against the anchor.
    out = fit([("L0", "safe", "0-1"), ("safe", "L0", "1/2-1/2")],
              [("L1", "L0", "1-0"), ("L0", "L1", "0-1"), ("L1", "L0", "1-0"), ("L0", "L1", "1-0")],
              anchor="safe", options=("--ladder", "--anchor-elo", "500"))
    check(out.returncode == 0, out.stderr)
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in out.stdout.splitlines()[2:]}
    check(set(rows) == {"0", "1"}, out.stdout)
    check(rows["1"][2] == "4, 3-0-1, 0.75" and rows["1"][3].startswith("+191 ["), rows["1"])
    check(rows["0"][2] == "" and rows["0"][4].strip(" |") == "2, 0-1-1, 0.25", rows["0"])
    print("fit_levels: 6 checks passed")


if __name__ == "__main__":
    main()
