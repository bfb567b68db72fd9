#!/usr/bin/env python3
"""tools/datagen/fit_wdl.py on data whose answer is known: results drawn
from a planted model are fitted back to it (the chances within 0.03 over a
grid of scores and phases); a file of another variant and a file that is
not training data are refused with the reason; the --out header reads as
C++ (two arrays of four) in the namespace of the evaluation the games were
searched with, and files of two evaluations are refused."""

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "datagen"
sys.path.insert(0, str(TOOLS))
import training_data  # noqa: E402

PLANTED_A = [10.0, 40.0, 0.0, 0.0]   # a(t) = 10 + 40 t
PLANTED_B = [40.0, -15.0, 0.0, 0.0]  # b(t) = 40 - 15 t


def chances(a, b, x, t):
    av = sum(c * t ** k for k, c in enumerate(a))
    bv = sum(c * t ** k for k, c in enumerate(b))
    return 1 / (1 + np.exp((av - x) / bv)), 1 / (1 + np.exp((av + x) / bv))


def write_file(path, n, variant=b"gobblet", seed=5, net=0):
    rng = np.random.default_rng(seed)
    header = np.zeros(1, dtype=training_data.HEADER)
    header["magic"] = training_data.MAGIC
    header["version"] = training_data.VERSION
    header["header_size"] = training_data.HEADER_SIZE
    header["record_size"] = training_data.RECORD_SIZE
    header["variant"] = variant
    header["games"] = n  # one record a game
    header["net"] = net
    records = np.zeros(n, dtype=training_data.RECORD)
    placed = rng.integers(0, 25, n)
    x = rng.uniform(-200, 200, n)
    w, l = chances(PLANTED_A, PLANTED_B, x, placed / 24)
    u = rng.uniform(0, 1, n)
    records["result"] = np.where(u < w, 1, np.where(u < w + l, -1, 0))
    records["score"] = np.round(x).astype(np.int16)
    if variant == b"gobblet":
        # `placed` pieces, shared by the players, each player's from the
        # tops of three stacks (largest first), player 1's on squares 0-2,
        # player 2's on 3-5: positions the readers take.
        for player, count in enumerate(((placed + 1) // 2, placed // 2)):
            for size in range(4):
                on = np.clip(count - 3 * (3 - size), 0, 3)
                records["pieces"][:, player, size] = ((1 << on) - 1) << (3 * player)
    records["game"] = np.arange(n)
    with open(path, "wb") as f:
        f.write(header.tobytes())
        f.write(records.tobytes())


# glibc's malloc gives the top of its heap back to the system whenever more
# than twice its mmap threshold lies free there; the fit's arrays (160 kB a
# column) are freed and made anew at every Adam step, so that each step
# faulted its pages in again (ten times the arithmetic's time, most of it in
# the kernel). A pad that keeps 64 MB at the top of the heap changes nothing
# else (the numbers are the same, bit for bit).
FIT_ENV = dict(os.environ, MALLOC_TOP_PAD_=str(64 << 20))


def run(*args):
    return subprocess.run([sys.executable, str(TOOLS / "fit_wdl.py"), *map(str, args)], capture_output=True,
                          text=True, env=FIT_ENV)


def check(condition, what):
    if not condition:
        sys.exit(f"FAILED: {what}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "planted.gdata"
        write_file(data, 20000)
        out = run(data, "--json")
        check(out.returncode == 0, out.stderr)
        fitted = json.loads(out.stdout)
        check(fitted["positions"] == 20000, fitted)
        worst = 0.0
        for x in (-150, -60, -20, 0, 20, 60, 150):
            for t in (0.1, 0.5, 0.9):
                want = chances(PLANTED_A, PLANTED_B, x, t)
                got = chances(fitted["a"], fitted["b"], x, t)
                worst = max(worst, abs(want[0] - got[0]), abs(want[1] - got[1]))
        check(worst < 0.03, f"the fitted chances differ from the planted ones by {worst:.3f}")

        header = Path(tmp) / "wdl_model.h"
        out = run(data, "--out", header, "--steps", "200")
        check(out.returncode == 0, out.stderr)
        text = header.read_text()
        check(re.search(r"inline constexpr double kA\[4\] = \{[-0-9., ]+\};", text), text)
        check(re.search(r"inline constexpr double kB\[4\] = \{[-0-9., ]+\};", text), text)
        check("planted.gdata" in text, "the header names its data")
        check("namespace gobblet::wdl_model::hand_written {" in text, "the hand-written evaluation's model")

        by_net = Path(tmp) / "net.gdata"
        write_file(by_net, 2000, net=0x81A9A05B15D0F081)
        out = run(by_net, "--out", header, "--steps", "50")
        check(out.returncode == 0, out.stderr)
        text = header.read_text()
        check("namespace gobblet::wdl_model::net {" in text and "net 81a9a05b15d0f081" in text, text)
        out = run(data, by_net)
        check(out.returncode != 0 and "different evaluations" in out.stderr, out.stderr)

        other = Path(tmp) / "gobblers.gdata"
        write_file(other, 200, variant=b"gobblers")
        out = run(other)
        check(out.returncode != 0 and "variant gobblers" in out.stderr, out.stderr)
        junk = Path(tmp) / "junk.gdata"
        junk.write_bytes(b"GOBDATA\0" + bytes([2, 0, 0, 0]) + bytes(200))
        out = run(junk)
        check(out.returncode != 0 and "format version 2" in out.stderr, out.stderr)
    print(f"fit_wdl: 6 checks passed (largest error of the chances {worst:.3f})")


if __name__ == "__main__":
    main()
