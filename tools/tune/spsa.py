#!/usr/bin/env python3
"""SPSA tuning of the search's values (kSearchParamTable, `gobblet --params`) by self-play.

    tools/tune/spsa.py run --dir DIR --param NAME=C_END[:START] ... --iterations N [options]
    tools/tune/spsa.py show --dir DIR

Simultaneous perturbation stochastic approximation, with fishtest's schedule.
Each iteration k (1..N) draws a sign d_i = +-1 for every tuned value and plays
a match of --pairs game pairs (each opening with both colours, gobblet-match)
between the engine with theta + c_k d ("plus") and the engine with
theta - c_k d ("minus"), both rounded to the integers the engine takes and
held in the value's range; then, with r = plus's wins - its losses,

    theta_i += a_k r / (c_k d_i),
    c_k = c_i k^-0.101 N^0.101 (c_i = C_END: the perturbation at the end),
    a_k = R_END c_i^2 (A + N)^0.602 (A + k)^-0.602,  A = N / 10,

so that a_k / c_k^2 is R_END (--r-end, 0.002) at the end. A value's range and
its start (the engine's default unless :START) come from `gobblet --params` of
the engine tuned (its own word, not a copy here).

DIR/spsa.json holds the settings, theta and every iteration played, written
whole after each one: the same command goes on from there after an
interruption (SIGINT or SIGTERM stop the match under way; that iteration is
played again from its start, with the same signs and openings), and a
command with other settings is refused. Each iteration's match is appended
to DIR/matches.log. `show` prints theta, the engine's --param words for it
and how theta moved.

The result is a candidate, not a gain: SPRT it against the defaults
(docs/search.md, "Tuning and testing a change") before it becomes one.
"""

import argparse
import json
import math
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time

STATE_VERSION = 1
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from state_file import write_atomically  # noqa: E402

ALPHA, GAMMA = 0.602, 0.101
# The settings a run keeps from its first command (others are refused on a resume).
FIXED = ("params", "iterations", "pairs", "tc", "nodes", "random_plies", "seed", "r_end", "options")


class SpsaError(Exception):
    """What stops the run, said to the user as it is."""


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived."""


def engine_params(engine):
    """{name: (value, low, high)} from `ENGINE --params` (lines `name value (default d) [low, high] what`)."""
    try:
        out = subprocess.run([engine, "--params"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SpsaError(f"{engine} --params: {e}") from None
    if out.returncode != 0:
        raise SpsaError(f"{engine} --params: exit code {out.returncode}: {out.stderr.strip()}")
    table = {}
    for line in out.stdout.splitlines():
        found = re.match(r"^(\w+) (-?\d+) \(default -?\d+\) \[(-?\d+), (-?\d+)\]", line)
        if found:
            table[found.group(1)] = tuple(int(found.group(i)) for i in (2, 3, 4))
    if not table:
        raise SpsaError(f"{engine} --params printed no values")
    return table


def check_options(engine, options):
    """Refuses an option (NAME=VALUE) the engine does not take, in the
    engine's own words: each is set once as a game would set it, and any
    `info string error` the engine answers is the refusal (an unknown name
    or a bad value would otherwise be ignored in every game)."""
    if not options:
        return
    script = "uci\n" + "".join("setoption name {} value {}\n".format(*o.split("=", 1)) for o in options)
    try:
        out = subprocess.run([engine], input=script + "isready\nquit\n", capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SpsaError(f"{engine}: {e}") from None
    for line in out.stdout.splitlines():
        if line.startswith("info string error"):
            raise SpsaError(f"--option: the engine refuses it: {line[len('info string error'):].lstrip(': ')}")
    if "readyok" not in out.stdout.split():
        raise SpsaError(f"{engine}: no readyok after the options (exit code {out.returncode})")


def parse_param(text, table):
    """NAME=C_END[:START] -> {name, c_end, start, low, high}, checked against the engine's table."""
    found = re.match(r"^(\w+)=([0-9.eE+-]+)(?::(-?[0-9.eE+-]+))?$", text)
    if not found:
        raise SpsaError(f"--param {text}: not NAME=C_END or NAME=C_END:START")
    name = found.group(1)
    if name not in table:
        raise SpsaError(f"--param {text}: the engine has no value {name} (gobblet --params lists them)")
    value, low, high = table[name]
    try:
        c_end = float(found.group(2))
        start = float(found.group(3)) if found.group(3) is not None else float(value)
    except ValueError:
        raise SpsaError(f"--param {text}: not a number") from None
    if not (math.isfinite(c_end) and 0.5 <= c_end <= (high - low) / 2):
        raise SpsaError(f"--param {text}: C_END must be at least 0.5 (the engine takes integers) and at most half "
                        f"the range [{low}, {high}]")
    if not (math.isfinite(start) and low <= start <= high):
        raise SpsaError(f"--param {text}: START must lie in [{low}, {high}]")
    return {"name": name, "c_end": c_end, "start": start, "low": low, "high": high}


def load_state(path):
    """DIR/spsa.json, checked; None where there is none."""
    try:
        with open(path) as f:
            state = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SpsaError(f"{path}: not a state file of tools/tune/spsa.py ({e})") from None
    if not consistent(state):
        raise SpsaError(f"{path}: not a state file of tools/tune/spsa.py, or edited (restore it, or use another "
                        "--dir)")
    return state


def consistent(state):
    """Whether `state` is a run this script wrote: its settings, theta within the ranges and each
    iteration's record, the last one's theta the state's."""
    def whole(x, low=0):
        return type(x) is int and x >= low

    def numbers(values, count):
        return (isinstance(values, list) and len(values) == count and
                all(type(t) in (int, float) and math.isfinite(t) for t in values))

    def inside(values, params):
        return all(p["low"] <= t <= p["high"] for t, p in zip(values, params))

    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        return False
    settings = state.get("settings")
    if not isinstance(settings, dict) or set(settings) != set(FIXED) or not whole(settings["iterations"], 1):
        return False
    params = settings["params"]
    if not (isinstance(params, list) and params and
            all(isinstance(p, dict) and isinstance(p.get("name"), str) and
                numbers([p.get(x) for x in ("c_end", "start", "low", "high")], 4) and p["c_end"] > 0 and
                p["low"] <= p["start"] <= p["high"] for p in params)):
        return False
    theta, history = state.get("theta"), state.get("history")
    if not (numbers(theta, len(params)) and inside(theta, params) and isinstance(history, list) and
            len(history) <= settings["iterations"]):
        return False
    for i, h in enumerate(history):
        if not (isinstance(h, dict) and h.get("k") == i + 1 and type(h["k"]) is int and
                all(whole(h.get(x)) for x in ("wins", "draws", "losses")) and numbers(h.get("theta"), len(params))
                and inside(h["theta"], params) and isinstance(h.get("signs"), list) and
                len(h["signs"]) == len(params) and all(d in (-1, 1) and type(d) is int for d in h["signs"])):
            return False
    last = history[-1]["theta"] if history else [p["start"] for p in params]
    return all(abs(t - x) < 0.01 for t, x in zip(theta, last))


def schedule(p, k, n):
    """(c_k, a_k) of value p at iteration k of n."""
    c = p["c_end"] * n ** GAMMA / k ** GAMMA
    big_a = n / 10
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** ALPHA / (big_a + k) ** ALPHA
    return c, a


def clamp(x, p):
    return min(max(x, p["low"]), p["high"])


def engine_command(engine, params, values):
    """The engine's command line with --param NAME=VALUE for each tuned value (rounded)."""
    return shlex.join([engine] + [w for p, v in zip(params, values) for w in ("--param", f"{p['name']}={round(v)}")])


class Runner:
    """Runs one match at a time; SIGINT or SIGTERM end it and interrupt the run."""

    def __init__(self):
        self.child = None
        self.signal = None
        self.signalled = 0.0
        signal.signal(signal.SIGINT, self.on_signal)
        signal.signal(signal.SIGTERM, self.on_signal)

    def on_signal(self, number, _frame):
        self.signal = number
        self.signalled = time.monotonic()
        if self.child is not None and self.child.poll() is None:
            self.child.send_signal(signal.SIGTERM)

    def run(self, command, log):
        """The match's output (also appended to `log`); Interrupted at a signal."""
        if self.signal is not None:
            raise Interrupted()
        with open(log, "a") as f:
            f.write(f"$ {shlex.join(command)}\n")
            f.flush()
            self.child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True, errors="replace",
                                          start_new_session=True)
            if self.signal is not None:
                self.child.send_signal(signal.SIGTERM)
            while True:  # a match that outlives a signal by 30 s is killed
                try:
                    out, _ = self.child.communicate(timeout=1)
                    break
                except subprocess.TimeoutExpired:
                    if self.signal is not None and time.monotonic() - self.signalled > 30:
                        self.child.kill()
            f.write(out)
            code = self.child.returncode
            self.child = None
        if self.signal is not None:
            raise Interrupted()
        return code, out


def play(runner, state, k, a, directory):
    """Iteration k: its signs, the match, theta moved; the history's record of it."""
    s = state["settings"]
    params = [dict(p, r_end=s["r_end"]) for p in s["params"]]
    n = s["iterations"]
    draw = random.Random(f"{s['seed']}:{k}")
    signs = [draw.choice((-1, 1)) for _ in params]
    steps = [schedule(p, k, n) for p in params]
    plus = [clamp(t + c * d, p) for t, (c, _), d, p in zip(state["theta"], steps, signs, params)]
    minus = [clamp(t - c * d, p) for t, (c, _), d, p in zip(state["theta"], steps, signs, params)]
    match = os.path.join(a.bin_dir, "gobblet-match")
    engine = os.path.join(a.bin_dir, "gobblet")
    limits = ["--nodes", str(s["nodes"])] if s["nodes"] else ["--tc", s["tc"]]
    options = [f"option.{o}" for o in s["options"]]
    command = ([match, "--engine", f"cmd={engine_command(engine, params, plus)}", "name=plus", "--engine",
                f"cmd={engine_command(engine, params, minus)}", "name=minus"] + limits +
               (["--each"] + options if options else []) +
               ["--games", str(2 * s["pairs"]), "--concurrency", str(a.concurrency), "--random-plies",
                str(s["random_plies"]), "--seed", str(s["seed"] * 100003 + k)])
    code, out = runner.run(command, os.path.join(directory, "matches.log"))
    table = re.search(r"^plus vs minus +(\d+) +(\d+) +(\d+) +(\d+) ", out, re.M)
    if code != 0 or not table:
        tail = "\n".join(out.rstrip().splitlines()[-6:])
        raise SpsaError(f"iteration {k}: gobblet-match ended with exit code {code} and no result table:\n{tail}")
    # A game an engine lost by failing (or, under a node limit, by its clock)
    # says nothing about the values: the iteration is refused.
    failing = "crash|unresponsive|illegal-move" + ("|time-forfeit" if s["nodes"] else "")
    failed = re.search(rf"^game \d+/\d+: .*\(({failing})\)", out, re.M)
    if failed:
        raise SpsaError(f"iteration {k}: a game ended by {failed.group(1)} ({os.path.join(directory, 'matches.log')}"
                        f"):\n{failed.group(0)}")
    games, wins, draws, losses = (int(table.group(i)) for i in range(1, 5))
    if games != 2 * s["pairs"]:
        raise SpsaError(f"iteration {k}: {games} games played of {2 * s['pairs']}")
    r = wins - losses
    state["theta"] = [clamp(t + ak * r / (c * d), p) for t, (c, ak), d, p in zip(state["theta"], steps, signs, params)]
    return {"k": k, "signs": signs, "wins": wins, "draws": draws, "losses": losses,
            "theta": [round(t, 3) for t in state["theta"]]}


def show(state, out=sys.stdout):
    """Theta, its --param words and its path (every tenth of the iterations)."""
    s = state["settings"]
    history = state["history"]
    wins = sum(h["wins"] for h in history)
    draws = sum(h["draws"] for h in history)
    losses = sum(h["losses"] for h in history)
    print(f"iterations {len(history)} of {s['iterations']}, games {wins + draws + losses} "
          f"(plus against minus: {wins}-{draws}-{losses})", file=out)
    names = [p["name"] for p in s["params"]]
    width = max(len(x) for x in names + ["k"])
    print(f"{'k':>6} " + " ".join(f"{x:>{width}}" for x in names), file=out)
    print(f"{0:>6} " + " ".join(f"{p['start']:>{width}.1f}" for p in s["params"]), file=out)
    every = max(1, s["iterations"] // 10)
    for h in history:
        if h["k"] % every == 0 or h["k"] == len(history):
            print(f"{h['k']:>6} " + " ".join(f"{t:>{width}.1f}" for t in h["theta"]), file=out)
    words = " ".join(f"--param {p['name']}={round(t)}" for p, t in zip(s["params"], state["theta"]))
    print(f"theta: {words}", file=out)


def run(a):
    runner = Runner()  # from here on, SIGINT and SIGTERM end the run cleanly
    engine = os.path.join(a.bin_dir, "gobblet")
    for program in (engine, os.path.join(a.bin_dir, "gobblet-match")):
        if not os.access(program, os.X_OK):
            raise SpsaError(f"{program}: no such program (build it, or say where with --bin-dir)")
    try:
        os.makedirs(a.dir, exist_ok=True)
    except OSError as e:
        raise SpsaError(f"--dir {a.dir}: {e.strerror or e}") from None
    path = os.path.join(a.dir, "spsa.json")
    state = load_state(path)
    if not a.param and state is None:
        raise SpsaError("--param: give at least one value to tune")
    table = engine_params(engine)
    check_options(engine, a.option)
    params = [parse_param(t, table) for t in a.param]
    if len({p["name"] for p in params}) != len(params):
        raise SpsaError("--param: a value is named twice")
    settings = {"params": params, "iterations": a.iterations, "pairs": a.pairs, "tc": a.tc, "nodes": a.nodes,
                "random_plies": a.random_plies, "seed": a.seed, "r_end": a.r_end, "options": a.option}
    if state is None:
        # Written once its first iteration is played: settings the match
        # runner refuses leave no run behind.
        state = {"version": STATE_VERSION, "settings": settings, "theta": [p["start"] for p in params],
                 "history": []}
    elif state["settings"] != settings:
        changed = [k for k in FIXED if state["settings"][k] != settings[k]]
        raise SpsaError(f"{a.dir} holds a run with other settings ({', '.join(changed)}): give the same "
                        "command to go on, or use another --dir")
    try:
        for k in range(len(state["history"]) + 1, a.iterations + 1):
            state["history"].append(play(runner, state, k, a, a.dir))
            write_atomically(path, json.dumps(state, indent=1) + "\n")
            if not a.quiet:
                h = state["history"][-1]
                print(f"iteration {k}/{a.iterations}: {h['wins']}-{h['draws']}-{h['losses']} theta "
                      + " ".join(f"{t:.1f}" for t in h["theta"]), flush=True)
    except Interrupted:
        kept = len(state["history"])
        print(f"interrupted: {kept} iterations kept in {path}; the same command goes on" if kept else
              "interrupted before its first iteration was played: nothing kept", file=sys.stderr)
        return 130
    show(state)
    return 0


def parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__[
                                    __doc__.index("Simultaneous"):])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play iterations (going on from DIR/spsa.json)")
    r.add_argument("--dir", required=True, help="the run's folder")
    r.add_argument("--param", action="append", default=[], metavar="NAME=C_END[:START]",
                   help="a value to tune, its perturbation at the end and its start (repeatable)")
    r.add_argument("--iterations", type=int, required=True, help="iterations N (the schedule's length)")
    r.add_argument("--pairs", type=int, default=4, help="game pairs an iteration (default 4)")
    r.add_argument("--tc", default="1+0.01", help="the clock, BASE+INC seconds (default 1+0.01)")
    r.add_argument("--nodes", type=int, default=0, help="nodes a move instead of a clock (0: the clock)")
    r.add_argument("--random-plies", type=int, default=4, help="random opening plies (default 4)")
    r.add_argument("--seed", type=int, default=1, help="seed of the signs and openings (default 1)")
    r.add_argument("--r-end", type=float, default=0.002, help="a_k / c_k^2 at the end (default 0.002)")
    r.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an engine option for both sides, e.g. Hash=16 (repeatable)")
    r.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    r.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "release", "bin"), help="the programs' folder")
    r.add_argument("--quiet", action="store_true", help="no line per iteration")
    v = sub.add_parser("show", help="theta and its path")
    v.add_argument("--dir", required=True)
    return p


def main():
    a = parser().parse_args()
    try:
        if a.command == "show":
            state = load_state(os.path.join(a.dir, "spsa.json"))
            if state is None:
                raise SpsaError(f"{a.dir}: no run there (no spsa.json)")
            show(state)
            return 0
        # gobblet-match's own ranges (docs/match.md), so that no iteration is refused by it.
        for name, low, high in (("iterations", 1, 10**7), ("pairs", 1, 5 * 10**6), ("concurrency", 1, 256),
                                ("nodes", 0, 10**12), ("random_plies", 0, 200), ("seed", 0, 2**40)):
            if not low <= getattr(a, name) <= high:
                raise SpsaError(f"--{name.replace('_', '-')}: from {low} to {high}")
        if not (math.isfinite(a.r_end) and a.r_end > 0):
            raise SpsaError("--r-end: above 0")
        if not re.match(r"^\d{1,6}(\.\d+)?\+\d{1,6}(\.\d+)?$", a.tc) or not any(
                float(x) > 0 for x in a.tc.split("+")):
            raise SpsaError(f"--tc {a.tc}: not BASE+INC seconds (not both 0)")
        for o in a.option:
            if not re.match(r"^\w[\w ]*=\S*$", o):
                raise SpsaError(f"--option {o}: not NAME=VALUE")
        return run(a)
    except SpsaError as e:
        print(f"spsa.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
