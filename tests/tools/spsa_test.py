#!/usr/bin/env python3
"""The SPSA tuner (tools/tune/spsa.py) on tiny runs at a few hundred nodes a
move: every iteration's engines and theta follow the documented schedule
(recomputed here from the history and the match log), a run stopped by
SIGTERM goes on to the same values as one never stopped, `show` prints the
engine's words for theta, and wrong settings, a damaged state file, an
unknown value and a missing program are refused with the reason.

    spsa_test.py BIN_DIR
"""

import importlib.util
import json
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPSA = [sys.executable, str(ROOT / "tools" / "tune" / "spsa.py")]


def check(condition, what):
    if not condition:
        sys.exit(f"FAILED: {what}")


def spsa(*words, **kw):
    return subprocess.run(SPSA + [str(w) for w in words], capture_output=True, text=True, timeout=300, **kw)


def the_update_follows_the_result():
    """play() with a stand-in match runner: theta moves towards the side that
    won, by a_k r / (c_k d), and the signs, the engines and the games are
    the iteration's."""
    spec = importlib.util.spec_from_file_location("spsa", ROOT / "tools" / "tune" / "spsa.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    params = [{"name": "lmr_divisor", "c_end": 20.0, "start": 220.0, "low": 50, "high": 1000},
              {"name": "order_lines", "c_end": 5.0, "start": 1.0, "low": 0, "high": 1024}]
    settings = {"params": params, "iterations": 10, "pairs": 2, "tc": "1+0.01", "nodes": 0, "random_plies": 4,
                "seed": 9, "r_end": 0.002, "options": []}

    class Stand:
        def __init__(self, table):
            self.table, self.commands = table, []

        def run(self, command, _log):
            self.commands.append(command)
            return 0, "game 1/4: plus vs minus 1-0 (line) | x\n" + self.table

    class Args:
        bin_dir, concurrency = "/bin-dir", 2

    for table, r in (("plus vs minus   4   3   1   0   0.875", 3), ("plus vs minus   4   0   1   3   0.125", -3)):
        state = {"settings": settings, "theta": [220.0, 1.0], "history": []}
        stand = Stand(table)
        h = module.play(stand, state, 3, Args, "/nowhere")
        check((h["wins"], h["draws"], h["losses"]) == (abs(r) if r > 0 else 0, 1, abs(r) if r < 0 else 0),
              f"the table's W-D-L are plus's: {h}")
        command = stand.commands[0]
        check(command[command.index("--games") + 1] == "4" and command[command.index("--tc") + 1] == "1+0.01",
              "two games a pair, the clock")
        for i, p in enumerate(params):
            c = p["c_end"] * (10 / 3) ** 0.101
            a = 0.002 * p["c_end"] ** 2 * ((1 + 10) / (1 + 3)) ** 0.602
            d = h["signs"][i]
            moved = state["theta"][i] - [220.0, 1.0][i]
            expected = max(a * r / (c * d), p["low"] - [220.0, 1.0][i])  # order_lines is held at 0
            check(abs(moved - expected) < 1e-9, f"{p['name']}: moved {moved}, not a_k r / (c_k d) = {expected}")
            check((moved > 0) == (r * d > 0) or moved == -1.0, f"{p['name']}: theta moves towards the winner")
    failing = Stand("plus vs minus   4   1   0   3   0.25")
    failing.run = lambda command, _log: (0, "game 2/4: minus vs plus 1-0 (crash) | x\nplus vs minus 4 1 0 3 0.25")
    try:
        module.play(failing, {"settings": settings, "theta": [220.0, 1.0], "history": []}, 1, Args, "/nowhere")
        check(False, "a game lost by a crash is refused")
    except module.SpsaError as e:
        check("a game ended by crash" in str(e), f"a crash named: {e}")


def main():
    bin_dir = Path(sys.argv[1])
    the_update_follows_the_result()
    settings = ["--param", "lmr_divisor=20", "--param", "aspiration_delta=6:30", "--iterations", "4", "--pairs",
                "1", "--nodes", "400", "--seed", "5", "--r-end", "0.05", "--option", "Hash=1", "--bin-dir",
                str(bin_dir)]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        whole = tmp / "whole"
        done = spsa("run", "--dir", whole, *settings)
        check(done.returncode == 0, f"a tiny run: {done.stderr}")
        state = json.loads((whole / "spsa.json").read_text())
        history = state["history"]
        check([h["k"] for h in history] == [1, 2, 3, 4], "four iterations recorded")
        params = state["settings"]["params"]
        check([(p["name"], p["start"], p["low"], p["high"]) for p in params] ==
              [("lmr_divisor", 220, 50, 1000), ("aspiration_delta", 30, 1, 1000)],
              "the starts and ranges are the engine's (gobblet --params) or the given START")

        # The schedule, recomputed: the engines each match ran with, and theta after it.
        commands = [shlex.split(line[2:]) for line in (whole / "matches.log").read_text().splitlines()
                    if line.startswith("$ ")]
        check(len(commands) == 4, "one match an iteration")
        n, big_a = 4, 0.4
        theta = [220.0, 30.0]
        for h, command in zip(history, commands):
            k = h["k"]
            engines = [command[i + 1] for i, w in enumerate(command) if w == "--engine"]
            values = [dict(re.findall(r"--param (\w+)=(-?\d+)", e[len("cmd="):])) for e in engines]
            for p, i in zip(params, range(2)):
                c = p["c_end"] * n ** 0.101 / k ** 0.101
                a = 0.05 * p["c_end"] ** 2 * (big_a + n) ** 0.602 / (big_a + k) ** 0.602
                d = h["signs"][i]
                plus = min(max(theta[i] + c * d, p["low"]), p["high"])
                minus = min(max(theta[i] - c * d, p["low"]), p["high"])
                check(int(values[0][p["name"]]) == round(plus) and int(values[1][p["name"]]) == round(minus),
                      f"iteration {k}: the engines play theta +- c_k d ({p['name']})")
                theta[i] = min(max(theta[i] + a * (h["wins"] - h["losses"]) / (c * d), p["low"]), p["high"])
                check(abs(theta[i] - h["theta"][i]) < 1e-3, f"iteration {k}: theta moved by a_k r / (c_k d)")
            check("--each" in command and "option.Hash=1" in command and "--nodes" in command,
                  "the options and the limit reach the match")
            check(h["wins"] + h["draws"] + h["losses"] == 2, "one pair an iteration")
        shown = spsa("show", "--dir", whole)
        check(shown.returncode == 0 and f"--param lmr_divisor={round(theta[0])}" in shown.stdout and
              f"--param aspiration_delta={round(theta[1])}" in shown.stdout, f"show prints theta: {shown.stdout}")

        # Stopped by SIGTERM after its first iteration, then gone on with:
        # the same values as the run never stopped.
        stopped = tmp / "stopped"
        first = subprocess.Popen(SPSA + ["run", "--dir", str(stopped)] + settings, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while first.poll() is None and time.monotonic() < deadline:
            try:
                if json.loads((stopped / "spsa.json").read_text())["history"]:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.02)
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=60)
        kept = json.loads((stopped / "spsa.json").read_text())["history"]
        if first.returncode == 130:
            check("interrupted" in err and 1 <= len(kept) < 4, f"SIGTERM keeps the iterations played: {err}")
        else:  # finished before the signal arrived (a fast machine)
            check(first.returncode == 0, f"the run stopped: {err}")
        again = spsa("run", "--dir", stopped, *settings)
        check(again.returncode == 0, f"the same command goes on: {again.stderr}")
        check(json.loads((stopped / "spsa.json").read_text())["history"] == history,
              "a run stopped and gone on ends where one never stopped does")

        # Refusals, each with its reason.
        other = spsa("run", "--dir", whole, *settings[:-2], "--pairs", "2", "--bin-dir", bin_dir)
        check(other.returncode == 2 and "other settings (pairs)" in other.stderr, f"other settings: {other.stderr}")
        damaged = tmp / "damaged"
        damaged.mkdir()
        (damaged / "spsa.json").write_text('{"version": 1, "theta": "x"}')
        bad = spsa("run", "--dir", damaged, *settings)
        check(bad.returncode == 2 and "not a state file" in bad.stderr, f"a damaged state file: {bad.stderr}")
        forged = json.loads((whole / "spsa.json").read_text())
        forged["history"][2]["signs"][0] = 2
        (damaged / "spsa.json").write_text(json.dumps(forged))
        bad = spsa("show", "--dir", damaged)
        check(bad.returncode == 2 and "not a state file" in bad.stderr, f"a sign that is not +-1: {bad.stderr}")
        for words, says in ((["--param", "no_such_value=3"], "has no value no_such_value"),
                            (["--param", "lmr_divisor=900"], "at most half the range"),
                            (["--param", "lmr_divisor=20:5000"], "START must lie in"),
                            (["--param", "lmr_divisor"], "not NAME=C_END"),
                            (["--param", "lmr_divisor=20", "--option", "Hsh=16"], "unknown option 'Hsh'"),
                            (["--param", "lmr_divisor=20", "--option", "Hash=lots"], "option Hash 'lots'")):
            refused = spsa("run", "--dir", tmp / "new", *words, "--iterations", "1", "--bin-dir", bin_dir)
            check(refused.returncode == 2 and says in refused.stderr, f"{words}: {refused.stderr}")
        # An engine that fails every game: refused, no run kept.
        failing = tmp / "failing"
        failing.mkdir()
        (failing / "gobblet").write_text(f"#!/bin/sh\n[ \"$1\" = --params ] && exec {bin_dir / 'gobblet'} --params\n"
                                         "exit 1\n")
        (failing / "gobblet").chmod(0o755)
        (failing / "gobblet-match").symlink_to(bin_dir / "gobblet-match")
        crashed = spsa("run", "--dir", tmp / "crashed", "--param", "lmr_divisor=20", "--iterations", "2", "--nodes",
                       "300", "--bin-dir", failing)
        check(crashed.returncode == 2 and "a game ended by crash" in crashed.stderr and
              not (tmp / "crashed" / "spsa.json").exists(), f"an engine that crashes: {crashed.stderr}")
        missing = spsa("run", "--dir", tmp / "new", "--param", "lmr_divisor=20", "--iterations", "1", "--bin-dir",
                       tmp / "nowhere")
        check(missing.returncode == 2 and "no such program" in missing.stderr, f"no programs: {missing.stderr}")
    print("spsa: schedule, resume and refusals checked")


if __name__ == "__main__":
    main()
