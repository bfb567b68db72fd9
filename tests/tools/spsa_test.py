#!/usr/bin/env python3
"""The SPSA tuner (tools/tune/spsa.py) on tiny runs at a few hundred nodes a
move: every iteration's engines and theta follow the documented schedule
(recomputed here from the history and the match log), a run stopped by
SIGTERM goes on to the same values as one never stopped, `show` prints the
engine's words for theta, and wrong settings, a damaged state file, an
unknown value and a missing program are refused with the reason.

    spsa_test.py BIN_DIR
"""

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


def main():
    bin_dir = Path(sys.argv[1])
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
                            (["--param", "lmr_divisor"], "not NAME=C_END")):
            refused = spsa("run", "--dir", tmp / "new", *words, "--iterations", "1", "--bin-dir", bin_dir)
            check(refused.returncode == 2 and says in refused.stderr, f"{words}: {refused.stderr}")
        missing = spsa("run", "--dir", tmp / "new", "--param", "lmr_divisor=20", "--iterations", "1", "--bin-dir",
                       tmp / "nowhere")
        check(missing.returncode == 2 and "no such program" in missing.stderr, f"no programs: {missing.stderr}")
    print("spsa: schedule, resume and refusals checked")


if __name__ == "__main__":
    main()
