#!/usr/bin/env python3
"""Fits the win/draw/loss model of `info ... wdl` (search/wdl.h) to the
results of self-play games (gobblet-datagen files, docs/datagen.md).

The model: for a score x (centi-units, the side to move's view) in a
position with m of the variant's pieces on the board, t = m / pieces,

    W(x) = 1 / (1 + exp((a(t) - x) / b(t)))      the side to move wins
    L(x) = 1 / (1 + exp((a(t) + x) / b(t)))      ... loses
    D(x) = 1 - W(x) - L(x)

with a and b cubic polynomials in t: the score at which a win is as likely
as not, and the spread. It is fitted by maximum likelihood to the
positions that are not decided (a forced result is 1000 0 0 or 0 0 1000
without a model), each with its game's result, by Adam steps on the mean
negative log-likelihood.

    tools/datagen/fit_wdl.py DATA... [--steps N] [--out HEADER] [--json]

prints the positions used, the log-likelihood before and after, the
coefficients, a table of score -> W/D/L at four phases, and how well the
predicted win chance matches the games (by tenths); with --out it writes
the coefficients as a C++ header. Each evaluation has its own model: the
files' games must all have been searched with the hand-written evaluation
(the header's namespace is wdl_model::hand_written, the engine's
search/wdl_model_hand_written.h) or all with a net (wdl_model::net,
search/wdl_model_net.h).
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import training_data  # noqa: E402

# Pieces a player has in each variant the model knows (4x4 Gobblet: three
# stacks of four sizes).
PIECES = {"gobblet": 24}
SCALE = 100.0  # the fit works in units of 100 centi-units


def model(coefficients, x, t):
    """(W, L) of scores x at phases t; coefficients = a0..a3, b0..b3 (in SCALE units)."""
    a = np.polyval(coefficients[3::-1], t)
    b = np.polyval(coefficients[:3:-1], t)
    return sigmoid((x - a) / b), sigmoid((-x - a) / b)


def sigmoid(u):
    return 1 / (1 + np.exp(-np.clip(u, -60, 60)))


def negative_log_likelihood(coefficients, x, t, result):
    """The mean negative log-likelihood of the results, and its gradient."""
    a = np.polyval(coefficients[3::-1], t)
    b = np.polyval(coefficients[:3:-1], t)
    w = sigmoid((x - a) / b)
    l = sigmoid((-x - a) / b)
    d = np.clip(1 - w - l, 1e-9, 1)
    w = np.clip(w, 1e-9, 1)
    l = np.clip(l, 1e-9, 1)
    p = np.where(result == 1, w, np.where(result == -1, l, d))
    nll = -np.mean(np.log(p))
    # Derivatives of W and L by a and b.
    dw_da = -w * (1 - w) / b
    dw_db = -w * (1 - w) * (x - a) / b ** 2
    dl_da = -l * (1 - l) / b
    dl_db = l * (1 - l) * (x + a) / b ** 2
    dp_da = np.where(result == 1, dw_da, np.where(result == -1, dl_da, -dw_da - dl_da))
    dp_db = np.where(result == 1, dw_db, np.where(result == -1, dl_db, -dw_db - dl_db))
    g_a = -dp_da / p
    g_b = -dp_db / p
    powers = np.stack([t ** k for k in range(4)])
    gradient = np.concatenate([(powers * g_a).mean(axis=1), (powers * g_b).mean(axis=1)])
    return nll, gradient


def fit(x, t, result, steps):
    """Adam on the mean negative log-likelihood from a = 1, b = 1 (SCALE units)."""
    c = np.array([1.0, 0, 0, 0, 1.0, 0, 0, 0])
    m = np.zeros_like(c)
    v = np.zeros_like(c)
    rate, beta1, beta2 = 0.02, 0.9, 0.999
    for step in range(1, steps + 1):
        _, g = negative_log_likelihood(c, x, t, result)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        c = c - rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-12)
        # a stays >= 0 and b > 0 over the phases (else D < 0 or the curve turns).
        grid = np.linspace(0, 1, 25)
        if np.polyval(c[:3:-1], grid).min() < 0.05:
            c[4] += 0.05 - np.polyval(c[:3:-1], grid).min()
        if np.polyval(c[3::-1], grid).min() < 0:
            c[0] -= np.polyval(c[3::-1], grid).min()
    return c


def per_mille(coefficients, x, t):
    w, l = model(coefficients, x / SCALE, t)
    W = int(round(1000 * float(w)))
    L = int(round(1000 * float(l)))
    return W, 1000 - W - L, L


def header_text(coefficients, provenance, evaluation):
    a = ", ".join(f"{c * SCALE:.4f}" for c in coefficients[:4])
    b = ", ".join(f"{c * SCALE:.4f}" for c in coefficients[4:])
    lines = ["// The win/draw/loss model of search/wdl.h: written by tools/datagen/fit_wdl.py.",
             "// Do not edit by hand: run the fit again (docs/search.md, \"Win/draw/loss\").", "//"]
    words = provenance.split()
    line = "//"
    for word in words:
        if len(line) + 1 + len(word) > 110:
            lines.append(line)
            line = "//"
        line += " " + word
    lines.append(line)
    lines += ["#pragma once", "", f"namespace gobblet::wdl_model::{evaluation} {{", "",
              "// a(t) and b(t), centi-units: a0 + a1 t + a2 t^2 + a3 t^3, t the share of the pieces on the board.",
              f"inline constexpr double kA[4] = {{{a}}};", f"inline constexpr double kB[4] = {{{b}}};", "",
              f"}}  // namespace gobblet::wdl_model::{evaluation}", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", help="gobblet-datagen files")
    parser.add_argument("--steps", type=int, default=3000, help="Adam steps (default 3000)")
    parser.add_argument("--out", help="write the model there as a C++ header (search/wdl_model_net.h, "
                                      "search/wdl_model_hand_written.h)")
    parser.add_argument("--json", action="store_true", help="print the coefficients as JSON only")
    args = parser.parse_args()

    xs, ts, rs, games, names, nets = [], [], [], 0, [], set()
    for path in args.data:
        try:
            header, records = training_data.read(path)
        except (OSError, training_data.FormatError) as e:
            sys.exit(f"fit_wdl: {e}")
        if header["variant"] not in PIECES:
            sys.exit(f"fit_wdl: {path}: variant {header['variant']}: the model is fitted on "
                     f"{', '.join(PIECES)} games")
        undecided = records[(records["flags"] & training_data.DECIDED) == 0]
        xs.append(undecided["score"].astype(np.float64) / SCALE)
        ts.append(training_data.pieces_on_board(undecided) / PIECES[header["variant"]])
        rs.append(undecided["result"].astype(np.int64))
        games += header["games"]
        nets.add(header["net"])
        names.append(f"{os.path.basename(path)} (seed {header['seed']}, nodes {header['nodes']}, "
                     f"depth {header['depth']}, random plies {header['random_plies']}"
                     + (f", net {header['net']:016x})" if header["net"] else ", hand-written evaluation)"))
    if len(nets) > 1:
        sys.exit("fit_wdl: the files' games were searched with different evaluations "
                 f"({', '.join(f'{n:016x}' if n else 'hand-written' for n in sorted(nets))}): "
                 "each evaluation's scores have their own model; fit each alone")
    evaluation = "net" if nets.pop() else "hand_written"
    x, t, result = np.concatenate(xs), np.concatenate(ts), np.concatenate(rs)
    if len(x) < 100:
        sys.exit(f"fit_wdl: {len(x)} undecided positions: too few to fit")
    start = np.array([1.0, 0, 0, 0, 1.0, 0, 0, 0])
    before, _ = negative_log_likelihood(start, x, t, result)
    c = fit(x, t, result, args.steps)
    after, _ = negative_log_likelihood(c, x, t, result)
    if args.json:
        print(json.dumps({"a": [float(v * SCALE) for v in c[:4]], "b": [float(v * SCALE) for v in c[4:]],
                          "positions": int(len(x)), "nll": float(after)}))
        return
    wins, draws, losses = (int(np.sum(result == 1)), int(np.sum(result == 0)), int(np.sum(result == -1)))
    print(f"positions: {len(x)} undecided of {games} games (won {wins}, drawn {draws}, lost by the side to move "
          f"{losses}); files: {'; '.join(names)}")
    print(f"mean negative log-likelihood: {before:.5f} at a = b = 100 -> {after:.5f} fitted")
    print("a(t) =", " + ".join(f"{v * SCALE:.2f} t^{k}" for k, v in enumerate(c[:4])))
    print("b(t) =", " + ".join(f"{v * SCALE:.2f} t^{k}" for k, v in enumerate(c[4:])))
    print("score -> W/D/L per mille, side to move; by the share t of the pieces on the board:")
    print("| score | " + " | ".join(f"t = {p}" for p in (0.25, 0.5, 0.75, 1.0)) + " |")
    print("|---|---|---|---|---|")
    for score in (-400, -200, -100, -50, 0, 50, 100, 200, 400):
        cells = [" ".join(str(v) for v in per_mille(c, score, p)) for p in (0.25, 0.5, 0.75, 1.0)]
        print(f"| {score} | " + " | ".join(cells) + " |")
    w, _ = model(c, x, t)
    print("predicted win chance -> share of the games won (positions):")
    for low in np.arange(0, 1, 0.1):
        chosen = (w >= low) & (w < low + 0.1)
        if chosen.sum():
            print(f"  {low:.1f}-{low + 0.1:.1f}: {np.mean(result[chosen] == 1):.3f} ({int(chosen.sum())})")
    if args.out:
        provenance = (f"Fitted by `tools/datagen/fit_wdl.py --steps {args.steps}` to {len(x)} undecided positions "
                      f"of {games} self-play games: {'; '.join(names)}. Mean negative log-likelihood "
                      f"{before:.5f} -> {after:.5f}.")
        temporary = args.out + ".tmp"
        with open(temporary, "w") as f:
            f.write(header_text(c, provenance, evaluation))
        os.replace(temporary, args.out)
        print(f"wrote {args.out} (wdl_model::{evaluation})")


if __name__ == "__main__":
    main()
