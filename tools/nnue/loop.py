#!/usr/bin/env python3
"""The net's generation loop as one resumable command: self-play with the
current net, train the next, check it, SPRT it against the current net,
adopt it only on H1 (docs/nnue.md, "The generation loop").

    tools/nnue/loop.py run --dir DIR --generations N [settings...]
    tools/nnue/loop.py record --dir DIR

A generation g (1, 2, ...) is four steps, each a program of the project run
in DIR, its output in gen-NNN/STEP.log:

    datagen  gobblet-datagen --net CURRENT --out gen-NNN/data.gdata   (goes on with its file)
    train    train.py gen-NNN/data.gdata --checkpoint gen-NNN/train.ck --out gen-NNN/net.gnn
             (with the data of the --data-window generations up to this one; fresh by
             default, or --init CURRENT with --start warm; goes on from its checkpoint)
    check    the engine loads gen-NNN/net.gnn (EvalFile): a net it refuses stops the loop
    match    gobblet-match candidate (EvalFile=gen-NNN/net.gnn) against current, an SPRT,
             --record gen-NNN/match.txt (--resume it when it exists)

then the decision: H1 adopts the candidate (it is the current net from
then on); H0 or no decision keeps the current net, and the loop stops
there (--on-reject stop, the default) or goes on with the next
generation (--on-reject continue).

DIR/state.json (plain JSON, written to a temporary file and renamed) holds
the settings, the current net and each step's outcome. The same command
goes on where a run stopped, whatever stopped it: a finished step is never
run again, the step under way goes on from its files (datagen's and the
match's own resumption, the trainer's checkpoint) or, for the check, runs
again. A DIR made with other settings is refused, naming them; the
settings that may change are --generations, the threads, the match's
concurrency, the trainer's device, --on-reject and the programs' places.
SIGINT or SIGTERM stop the step under way (it is signalled), save the
state and end the run with that signal.

DIR/record.md (and `loop.py record --dir DIR`) is a Markdown block per
generation: the commands run, the data, the net's fingerprint (FNV-1a 64 of
its file, the engine's netFingerprint), the training time, the SPRT's
command and result: what docs/nnue.md records of each generation.
"""

import argparse
import fcntl
import importlib.util
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "datagen"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from state_file import write_atomically  # noqa: E402

try:
    import training_data  # noqa: E402 (numpy)
except ImportError as e:
    sys.exit(f"loop: {e}: the loop needs numpy (and PyTorch): run it with Debian's /usr/bin/python3")

STATE_VERSION = 1
STEPS = ("datagen", "train", "check", "match")
# What a finished step's record holds: key -> its types.
STEP_RECORD = {
    "datagen": {"command": (str,), "games": (int,), "positions": (int,)},
    "train": {"command": (str,), "fingerprint": (str,), "positions_kept": (int, type(None))},
    "check": {},
    "match": {"command": (str,), "games": (int,), "wins": (int,), "draws": (int,), "losses": (int,), "elo": (str,),
              "sprt": (str,), "decision": (str,)},
}
PROGRAMS = ("gobblet", "gobblet-datagen", "gobblet-match")

# The settings a DIR is made with: name -> (type, default, help). A run on
# an existing DIR must give the same values.
FIXED = {
    "net_0": (str, "built-in", "the first current net: built-in (the engine's) or a .gnn file (copied into DIR)"),
    "seed": (int, 1, "seed of the games: generation g's data uses seed+g, its match seed+g"),
    "games": (int, 30000, "self-play games per generation"),
    "nodes": (int, 20000, "nodes of each self-play move's search (0: no limit)"),
    "depth": (int, 0, "depth of each self-play move's search (0: no limit)"),
    "random_plies": (int, 8, "random plies opening each self-play game"),
    "hash": (int, 16, "transposition table of each self-play game (MiB)"),
    "data_window": (int, 1, "train on the data of the last K generations (this one's and K-1 before)"),
    "start": (str, "fresh", "fresh (random weights) or warm (from the current net: train.py --init)"),
    "epochs": (int, 80, "training epochs"),
    "batch": (int, 16384, "training batch"),
    "lr": (float, 2e-3, "learning rate"),
    "lr_decay": (float, 0.96, "learning rate factor after each epoch"),
    "blend": (float, 0.75, "train.py --lambda: the weight of the score in the target"),
    "tc": (str, "5+0.05", "the SPRT's time control (BASE+INC seconds; not with --match-nodes)"),
    "match_nodes": (int, 0, "the SPRT's nodes a move instead of a time control (0: --tc)"),
    "match_random_plies": (int, 4, "random plies opening each SPRT game"),
    "elo0": (float, 0.0, "the SPRT's H0"),
    "elo1": (float, 10.0, "the SPRT's H1"),
    "alpha": (float, 0.05, "the SPRT's alpha"),
    "beta": (float, 0.05, "the SPRT's beta"),
    "max_games": (int, 20000, "the SPRT's games at most (no decision by then: not adopted)"),
}
# Settings that may change between runs on one DIR.
FREE = {
    "generations": (int, None, "generations the loop reaches (those done count)"),
    "threads": (int, 1, "self-play games at once"),
    "train_threads": (int, 0, "torch threads (0: torch's default)"),
    "device": (str, "cpu", "training device: cpu, or cuda where PyTorch has a GPU"),
    "concurrency": (int, 1, "SPRT games at once"),
    "on_reject": (str, "stop", "after a generation not adopted: stop, or continue with the next"),
    "bin_dir": (str, os.path.join(ROOT, "build", "release", "bin"), "the programs' folder"),
}


class LoopError(Exception):
    """What stops the loop, said to the user as it is."""


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived; the state is saved by whoever catches it."""


def option_name(key):
    """The command-line option of a setting's key."""
    return "--" + ("net-0" if key == "net_0" else "lambda" if key == "blend" else key.replace("_", "-"))


def fnv1a64(data):
    """netFingerprint() of search/eval_file.h: FNV-1a 64 of a net file's bytes, never 0."""
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h or 1


def fingerprint_text(value):
    """A fingerprint as the record writes it: 16 hex digits."""
    return f"{value:016x}"


# ---- The state file ----

def load_state(path):
    """DIR/state.json, checked: LoopError naming what is wrong for anything this loop did not write."""
    def bad(why):
        return LoopError(f"{path}: not a state file of tools/nnue/loop.py ({why}); restore it, or start the loop in "
                         "another --dir (each generation's files are kept in its gen-NNN folder)")
    try:
        with open(path) as f:
            state = json.load(f)
    except UnicodeDecodeError as e:
        raise bad(f"not text: {e}") from None
    except json.JSONDecodeError as e:
        raise bad(f"not JSON: {e}") from None
    except FileNotFoundError:
        raise LoopError(f"{os.path.dirname(path)}: no loop there (no state.json)") from None
    except OSError as e:
        raise LoopError(f"{path}: {e.strerror}") from None
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        raise bad(f"no \"version\": {STATE_VERSION}")
    settings, current, generations = state.get("settings"), state.get("current"), state.get("generations")
    if not isinstance(settings, dict) or set(settings) != set(FIXED):
        raise bad("its settings are not this loop's")
    for key, (kind, _, _) in FIXED.items():
        if not isinstance(settings[key], kind) or isinstance(settings[key], bool):
            raise bad(f"setting {key} is not a {kind.__name__}")
    if not (isinstance(current, dict) and isinstance(current.get("net"), str) and
            isinstance(current.get("fingerprint"), (str, type(None))) and isinstance(current.get("generation"), int)):
        raise bad("no current net")
    if not isinstance(generations, list):
        raise bad("no list of generations")
    for i, g in enumerate(generations):
        if not (isinstance(g, dict) and g.get("number") == i + 1 and isinstance(g.get("steps"), dict) and
                all(isinstance(g["steps"].get(s, {}), dict) for s in STEPS) and
                isinstance(g.get("net_before"), dict) and isinstance(g["net_before"].get("net"), str)):
            raise bad(f"generation {i + 1} is not a generation's record")
        for step, fields in STEP_RECORD.items():
            record = g["steps"].get(step, {})
            whole = all(k in record and isinstance(record[k], types) for k, types in fields.items())
            if record.get("done") and not whole:
                raise bad(f"generation {i + 1}'s step {step} is not a finished step's record")
        if g.get("outcome") is not None and not (isinstance(g["outcome"], str) and g["steps"]["match"].get("done")):
            raise bad(f"generation {i + 1}'s outcome is not a decided generation's")
    return state


def save_state(directory, state):
    """DIR/state.json := state, atomically."""
    write_atomically(os.path.join(directory, "state.json"), json.dumps(state, indent=1) + "\n")


# ---- Running the steps ----

def end_with_parent():
    """In a step's program before it starts: SIGTERM when the loop dies, even by SIGKILL (Linux's
    PR_SET_PDEATHSIG; elsewhere nothing), so that no step goes on without its loop (and holds its files)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Runner:
    """Runs the programs of the steps one at a time; SIGINT or SIGTERM signal the one under way."""

    def __init__(self, directory):
        self.directory = directory
        self.child = None
        self.child_is_trainer = False
        self.signal = None
        signal.signal(signal.SIGINT, self.on_signal)
        signal.signal(signal.SIGTERM, self.on_signal)

    def on_signal(self, number, _frame):
        """The handler of SIGINT and SIGTERM: noted, and passed to the program under way."""
        self.signal = number
        child = self.child
        if child is not None and child.poll() is None:
            # The trainer (Python) ends at SIGTERM without a traceback; the
            # others take either signal as the end of their run.
            child.send_signal(signal.SIGTERM if self.child_is_trainer else number)

    def check_signal(self):
        """Interrupted once a signal has arrived."""
        if self.signal is not None:
            raise Interrupted()

    def run(self, command, log_path, trainer=False):
        """Runs `command` in DIR with its output appended to log_path; its exit code."""
        self.check_signal()
        with open(os.path.join(self.directory, log_path), "a") as log:
            log.write(f"$ {shlex.join(command)}\n")
            log.flush()
            self.child_is_trainer = trainer
            self.child = subprocess.Popen(command, cwd=self.directory, stdin=subprocess.DEVNULL, stdout=log,
                                          stderr=subprocess.STDOUT, start_new_session=True,
                                          preexec_fn=end_with_parent)
            if self.signal is not None:  # arrived before self.child was set
                self.child.send_signal(signal.SIGTERM)
            code = self.child.wait()
            self.child = None
        self.check_signal()
        return code


def log_tail(directory, log_path, lines=6):
    """The last lines of a step's log, for an error message ("" if it cannot be read)."""
    try:
        with open(os.path.join(directory, log_path), errors="replace") as f:
            return "".join(f.readlines()[-lines:]).rstrip()
    except OSError:
        return ""


class Loop:
    """One run of the loop on DIR: its state, its steps, its log (DIR/loop.log and standard output)."""

    def __init__(self, args, directory):
        self.args = args
        self.directory = directory
        self.bin_dir = os.path.abspath(args.bin_dir)
        self.runner = Runner(directory)
        self.log_file = open(os.path.join(directory, "loop.log"), "a")

    def say(self, text):
        """Prints `text` and appends it, timed, to DIR/loop.log."""
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}"
        print(text, flush=True)
        self.log_file.write(line + "\n")
        self.log_file.flush()

    def program(self, name):
        """The path of one of the project's programs."""
        return os.path.join(self.bin_dir, name)

    # -- the state --

    def open_state(self):
        """DIR's state, made (with the first net checked) if DIR has none; LoopError if it was made with other
        settings."""
        path = os.path.join(self.directory, "state.json")
        wanted = {key: getattr(self.args, key) for key in FIXED}
        if not os.path.exists(path):
            net = wanted["net_0"]
            fingerprint = None
            if net != "built-in":
                try:
                    with open(net, "rb") as f:
                        data = f.read(2 << 20)
                except OSError as e:
                    raise LoopError(f"--net-0 {net}: {e.strerror}") from None
                os.makedirs(os.path.join(self.directory, "gen-000"), exist_ok=True)
                write_bytes = os.path.join(self.directory, "gen-000", "net.gnn")
                with open(write_bytes + ".tmp", "wb") as f:
                    f.write(data)
                os.replace(write_bytes + ".tmp", write_bytes)
                self.check_net("gen-000/net.gnn", f"--net-0 {net}")
                net, fingerprint = "gen-000/net.gnn", fingerprint_text(fnv1a64(data))
            state = {"version": STATE_VERSION, "settings": wanted,
                     "current": {"net": net, "fingerprint": fingerprint, "generation": 0}, "generations": []}
            save_state(self.directory, state)
            self.say(f"loop: started {self.directory} from the net {net}")
            return state
        state = load_state(path)
        differ = [key for key in FIXED if state["settings"][key] != wanted[key]]
        if differ:
            raise LoopError(f"{self.directory} was made with other settings: " + ", ".join(
                f"{option_name(k)} {state['settings'][k]!r} there, {wanted[k]!r} here" for k in differ) +
                "; give the same ones (or another --dir)")
        return state

    def check_net(self, net, what):
        """The engine loads `net` (EvalFile) without an error, else LoopError with the engine's reason."""
        try:
            out = subprocess.run([self.program("gobblet")], input=f"setoption name EvalFile value {net}\nquit\n",
                                 cwd=self.directory, capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired) as e:
            raise LoopError(f"the engine could not check {what}: {e}") from None
        errors = [line for line in out.splitlines() if line.startswith("info string error")]
        if errors:
            raise LoopError(f"{what}: the engine refuses it: {errors[0][len('info string error: '):]}")

    # -- the steps --

    def commands(self, g, state):
        """Each step's command of generation g (paths relative to DIR)."""
        s, a = state["settings"], self.args
        folder = f"gen-{g['number']:03d}"
        before = g["net_before"]["net"]
        datagen = [self.program("gobblet-datagen"), "--out", f"{folder}/data.gdata", "--games", str(s["games"]),
                   "--threads", str(a.threads), "--nodes", str(s["nodes"]), "--depth", str(s["depth"]),
                   "--random-plies", str(s["random_plies"]), "--hash", str(s["hash"]),
                   "--seed", str(s["seed"] + g["number"]), "--net", before, "--quiet"]
        data = [f"gen-{n:03d}/data.gdata" for n in range(max(1, g["number"] - s["data_window"] + 1), g["number"] + 1)]
        train = [sys.executable, os.path.join(ROOT, "tools", "nnue", "train.py")] + data + ["--out",
                 f"{folder}/net.gnn", "--checkpoint", f"{folder}/train.ck", "--epochs", str(s["epochs"]), "--batch",
                 str(s["batch"]), "--lr", repr(s["lr"]), "--lr-decay", repr(s["lr_decay"]), "--lambda",
                 repr(s["blend"]), "--seed", str(s["seed"] + g["number"]), "--threads", str(a.train_threads),
                 "--device", a.device]
        if s["start"] == "warm":
            train += ["--init", os.path.join(ROOT, "search", "nnue", "default.gnn") if before == "built-in" else before]
        engine = f"cmd={self.program('gobblet')}"
        current = ["--engine", engine, "name=current"] + ([] if before == "built-in" else [f"option.EvalFile={before}"])
        limits = ["--nodes", str(s["match_nodes"])] if s["match_nodes"] else ["--tc", s["tc"]]
        match = ([self.program("gobblet-match"), "--engine", engine, "name=candidate",
                  f"option.EvalFile={folder}/net.gnn"] + current + limits +
                 ["--random-plies", str(s["match_random_plies"]), "--games", str(s["max_games"]), "--concurrency",
                  str(a.concurrency), "--sprt", f"elo0={s['elo0']:g}", f"elo1={s['elo1']:g}", f"alpha={s['alpha']:g}",
                  f"beta={s['beta']:g}", "--seed", str(s["seed"] + g["number"]), "--record", f"{folder}/match.txt"])
        return {"datagen": datagen, "train": train, "match": match}

    def run_step(self, state, g, step, command, log_path, trainer=False):
        """Runs a step's program, its time added to the step's record even when interrupted."""
        record = g["steps"].setdefault(step, {})
        record.setdefault("runs", []).append(shlex.join(command))
        save_state(self.directory, state)
        began = time.monotonic()
        try:
            return self.runner.run(command, log_path, trainer)
        finally:
            record["seconds"] = round(record.get("seconds", 0) + time.monotonic() - began, 1)
            save_state(self.directory, state)

    def failed(self, g, step, code, log_path):
        """The LoopError of a step's program that failed, with the end of its output."""
        tail = log_tail(self.directory, log_path)
        return LoopError(f"generation {g['number']}, step {step}: the program ended with exit code {code} "
                         f"(its output: {log_path}):\n{tail}")

    def datagen(self, state, g, command):
        """Self-play with the current net (gobblet-datagen goes on with its file); the data's header must name
        that net's fingerprint."""
        folder = f"gen-{g['number']:03d}"
        log_path = f"{folder}/datagen.log"
        code = self.run_step(state, g, "datagen", command, log_path)
        if code != 0:
            raise self.failed(g, "datagen", code, log_path)
        try:
            header, records = training_data.read(os.path.join(self.directory, folder, "data.gdata"))
        except (OSError, training_data.FormatError) as e:
            raise LoopError(f"generation {g['number']}: its data: {e}") from None
        made_with = fingerprint_text(header["net"])
        known = g["net_before"]["fingerprint"]
        if known is not None and known != made_with:
            raise LoopError(f"generation {g['number']}: its data was made with the net {made_with}, not the current "
                            f"net {known} ({g['net_before']['net']})")
        if known is None:  # the built-in net: the engine's own word for its fingerprint
            g["net_before"]["fingerprint"] = made_with
            if state["current"]["net"] == g["net_before"]["net"]:
                state["current"]["fingerprint"] = made_with
        step = g["steps"]["datagen"]
        step.update(done=True, command=shlex.join(command), games=int(header["games"]), positions=int(len(records)))

    def train(self, state, g, command):
        """The trainer (it goes on from its checkpoint) and the new net's fingerprint."""
        folder = f"gen-{g['number']:03d}"
        log_path = f"{folder}/train.log"
        before = g["net_before"]
        if state["settings"]["start"] == "warm" and before["net"] == "built-in":
            with open(os.path.join(ROOT, "search", "nnue", "default.gnn"), "rb") as f:
                source = fingerprint_text(fnv1a64(f.read()))
            if source != before["fingerprint"]:
                raise LoopError(f"--start warm: search/nnue/default.gnn (fingerprint {source}) is not the engine's "
                                f"built-in net ({before['fingerprint']}): rebuild the programs ({self.bin_dir})")
        code = self.run_step(state, g, "train", command, log_path, trainer=True)
        if code != 0:
            raise self.failed(g, "train", code, log_path)
        kept = None
        with open(os.path.join(self.directory, log_path), errors="replace") as f:
            for line in f:
                found = re.match(r"positions: (\d+) undecided quiet", line)
                if found:
                    kept = int(found.group(1))
        with open(os.path.join(self.directory, folder, "net.gnn"), "rb") as f:
            fingerprint = fingerprint_text(fnv1a64(f.read()))
        g["steps"]["train"].update(done=True, command=shlex.join(command), positions_kept=kept,
                                   fingerprint=fingerprint)

    def check(self, state, g):
        """The engine loads the new net, else LoopError with its reason."""
        folder = f"gen-{g['number']:03d}"
        self.runner.check_signal()
        self.check_net(f"{folder}/net.gnn", f"generation {g['number']}'s net {folder}/net.gnn")
        g["steps"]["check"] = {"done": True}

    def match(self, state, g, command):
        """The SPRT (gobblet-match --resume when its record exists) and its result, read from its table."""
        folder = f"gen-{g['number']:03d}"
        log_path = f"{folder}/match.log"
        record = os.path.join(self.directory, folder, "match.txt")
        run = list(command)
        if os.path.exists(record):
            with open(record, errors="replace") as f:
                first = f.readline()
            if first.startswith("# gobblet-match match:"):
                run[-2] = "--resume"
            else:  # stopped before it wrote its match line: nothing to keep
                os.remove(record)
        code = self.run_step(state, g, "match", run, log_path)
        if code != 0:
            raise self.failed(g, "match", code, log_path)
        with open(os.path.join(self.directory, log_path), errors="replace") as f:
            text = f.read()
        text = text[text.rfind("\n$ ") + 1:]  # this run's output
        table = re.search(r"^candidate vs current +(\d+) +(\d+) +(\d+) +(\d+) +([\d.]+) +(.+?) +([\d.]+%)$", text, re.M)
        sprt = re.search(r"^SPRT [^:]*: (LLR .*)$", text, re.M)
        if not table or not sprt:
            raise LoopError(f"generation {g['number']}: no final table and SPRT line in {log_path}")
        verdict = sprt.group(1)
        decision = "H1" if "H1 accepted" in verdict else "H0" if "H0 accepted" in verdict else "none"
        g["steps"]["match"].update(done=True, command=shlex.join(command), games=int(table.group(1)),
                                   wins=int(table.group(2)), draws=int(table.group(3)), losses=int(table.group(4)),
                                   elo=table.group(6), sprt=verdict, decision=decision)

    # -- the loop --

    def generation(self, state, number):
        """Generation `number`: its record, made (with the current net) if new."""
        if number <= len(state["generations"]):
            return state["generations"][number - 1]
        g = {"number": number, "net_before": dict(state["current"]), "steps": {}, "outcome": None}
        state["generations"].append(g)
        os.makedirs(os.path.join(self.directory, f"gen-{number:03d}"), exist_ok=True)
        save_state(self.directory, state)
        return g

    def run(self):
        """The generations up to --generations, each step that is not done; ends the process with the
        signal after SIGINT or SIGTERM, the state saved."""
        state = self.open_state()
        try:
            for number in range(1, self.args.generations + 1):
                g = self.generation(state, number)
                if g["outcome"] is not None:
                    self.say(f"generation {number}: done already ({g['outcome']})")
                    if g["outcome"] != "adopted" and self.args.on_reject == "stop":
                        break
                    continue
                commands = self.commands(g, state)
                for step in STEPS:
                    if g["steps"].get(step, {}).get("done"):
                        self.say(f"generation {number}: {step} done already")
                        continue
                    self.say(f"generation {number}: {step}")
                    self.current_step = (number, step)
                    if step == "check":
                        self.check(state, g)
                    else:
                        getattr(self, step)(state, g, commands[step])
                    save_state(self.directory, state)
                match = g["steps"]["match"]
                adopted = match["decision"] == "H1"
                g["outcome"] = "adopted" if adopted else "kept the net before" + (
                    " (H0)" if match["decision"] == "H0" else " (no decision)")
                if adopted:
                    folder = f"gen-{number:03d}"
                    state["current"] = {"net": f"{folder}/net.gnn", "fingerprint": g["steps"]["train"]["fingerprint"],
                                        "generation": number}
                save_state(self.directory, state)
                write_atomically(os.path.join(self.directory, "record.md"), record_text(state))
                self.say(f"generation {number}: {match['sprt']}: {g['outcome']}; the current net is "
                         f"{state['current']['net']}")
                if not adopted and self.args.on_reject == "stop":
                    self.say(f"loop: stopped after generation {number} (--on-reject stop)")
                    break
        except Interrupted:
            save_state(self.directory, state)
            write_atomically(os.path.join(self.directory, "record.md"), record_text(state))
            name = signal.Signals(self.runner.signal).name
            where = getattr(self, "current_step", None)
            self.say(f"loop: {name}: stopped" + (f" in generation {where[0]}, step {where[1]}" if where else "") +
                     "; the state is saved and the same command goes on")
            signal.signal(self.runner.signal, signal.SIG_DFL)
            os.kill(os.getpid(), self.runner.signal)
        write_atomically(os.path.join(self.directory, "record.md"), record_text(state))
        self.say(f"loop: the current net is {state['current']['net']} (generation {state['current']['generation']})")


# ---- The record ----

def duration(seconds):
    """Seconds as the record shows them: 5s, 3m07s, 2h05m."""
    s = int(seconds + 0.5)
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def loop_command(state):
    """The loop's command that made `state`, every setting given (the defaults may change)."""
    words = ["tools/nnue/loop.py", "run", "--dir", "DIR", "--generations", str(len(state["generations"]) or 1)]
    for key in FIXED:
        if not (key == "tc" and state["settings"]["match_nodes"]) and not (key == "match_nodes" and
                                                                           not state["settings"]["match_nodes"]):
            value = state["settings"][key]
            words += [option_name(key), f"{value:g}" if isinstance(value, float) else str(value)]
    return shlex.join(words)


def record_text(state):
    """The Markdown record of every generation of `state`."""
    s = state["settings"]
    out = [f"Loop: `{loop_command(state)}` (with the threads, device and concurrency of the commands below); the "
           f"commands ran in DIR. Current net: {state['current']['net']} (generation {state['current']['generation']}"
           f", fingerprint {state['current']['fingerprint'] or 'not known yet'}).", ""]
    for g in state["generations"]:
        steps = g["steps"]
        data, train, match = steps.get("datagen", {}), steps.get("train", {}), steps.get("match", {})
        running = next((step for step in STEPS if not steps.get(step, {}).get("done")), None)
        outcome = g["outcome"] or (f"under way (step {running})" if running else "under way")
        out += [f"### Generation {g['number']}: {outcome}", "",
                "| | |", "|---|---|",
                f"| net before | {g['net_before']['net']}, fingerprint {g['net_before']['fingerprint'] or '?'} |"]
        if data.get("done"):
            out.append(f"| data | {data['games']:,} games, {data['positions']:,} positions "
                       f"(seed {s['seed'] + g['number']}, nodes {s['nodes']}, depth {s['depth']}); "
                       f"{duration(data.get('seconds', 0))} |")
        if train.get("done"):
            kept = train["positions_kept"]
            window = (f", the data of generations {max(1, g['number'] - s['data_window'] + 1)} to {g['number']}"
                      if s["data_window"] > 1 else "")
            out.append(f"| training | {s['start']}{window}, epochs {s['epochs']}, lambda {s['blend']}, "
                       f"{kept:,} undecided quiet positions; {duration(train.get('seconds', 0))} |"
                       if kept is not None else f"| training | {duration(train.get('seconds', 0))} |")
            out.append(f"| net | gen-{g['number']:03d}/net.gnn, fingerprint {train['fingerprint']} |")
        if match.get("done"):
            out.append(f"| SPRT [{s['elo0']:g}, {s['elo1']:g}] | {match['games']:,} games, W-D-L "
                       f"{match['wins']}-{match['draws']}-{match['losses']}, Elo {match['elo']}, {match['sprt']}; "
                       f"{duration(match.get('seconds', 0))} |")
        commands = [steps[step]["command"] for step in ("datagen", "train", "match") if steps.get(step, {}).get("done")]
        if commands:
            out += ["", "```sh"] + commands + ["```"]
        out.append("")
    return "\n".join(out)


# ---- The command line ----

def positive(kind, low):
    """An argparse type: a `kind` of at least `low`."""
    def parse(text):
        value = kind(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{text}: at least {low}")
        return value
    return parse


def parser():
    """The command line: run (the settings of FIXED and FREE) and record."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = p.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run (or go on with) the loop in DIR")
    run.add_argument("--dir", required=True, help="the loop's folder (made if missing)")
    low = {"data_window": 1, "games": 1, "epochs": 1, "batch": 1, "max_games": 2, "generations": 1, "threads": 1,
           "concurrency": 1, "hash": 1}  # the other integers: at least 0
    for key, (kind, default, help_text) in {**FIXED, **FREE}.items():
        kwargs = {"dest": key, "help": help_text + (f" (default {default})" if default is not None else ""),
                  "metavar": {"net_0": "NET", "tc": "BASE+INC", "bin_dir": "DIR", "device": "DEVICE"}.get(
                      key, {int: "N", float: "X", str: None}[kind])}
        if kind is int:
            kwargs["type"] = positive(int, low.get(key, 0))
        elif kind is float:
            kwargs["type"] = float
        if key == "start":
            kwargs["choices"] = ("fresh", "warm")
        elif key == "on_reject":
            kwargs["choices"] = ("stop", "continue")
        if default is None:
            kwargs["required"] = True
        else:
            kwargs["default"] = default
        run.add_argument(option_name(key), **kwargs)
    record = commands.add_parser("record", help="print DIR's record of its generations (Markdown)")
    record.add_argument("--dir", required=True)
    return p


def main():
    """The command; 0 when done, 1 with the reason on standard error, or the signal that stopped it."""
    args = parser().parse_args()
    try:
        if args.command == "record":
            print(record_text(load_state(os.path.join(args.dir, "state.json"))), end="")
            return 0
        if args.nodes == 0 and args.depth == 0:
            raise LoopError("--nodes 0 and --depth 0: each self-play search would never end")
        if not args.match_nodes and not re.fullmatch(r"\d+(\.\d+)?(\+\d+(\.\d+)?)?", args.tc):
            raise LoopError(f"--tc {args.tc!r}: BASE+INC in seconds (5+0.05), or give --match-nodes")
        if args.match_nodes:
            args.tc = ""
        if importlib.util.find_spec("torch") is None:
            raise LoopError(f"this Python ({sys.executable}) has no PyTorch, which the trainer needs: run the loop "
                            "with one that has (Debian's /usr/bin/python3 with python3-torch: tools/setup.sh deps)")
        missing = [name for name in PROGRAMS if not os.access(os.path.join(args.bin_dir, name), os.X_OK)]
        if missing:
            raise LoopError(f"{args.bin_dir}: no {', '.join(missing)} (build them: cmake --build build/release "
                            f"--target {' '.join(missing)}; or give --bin-dir)")
        directory = os.path.abspath(args.dir)
        if os.path.exists(directory) and not os.path.isdir(directory):
            raise LoopError(f"--dir {args.dir}: not a folder")
        os.makedirs(directory, exist_ok=True)
        lock = open(os.path.join(directory, "lock"), "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LoopError(f"{directory} is in use by another run of the loop") from None
        Loop(args, directory).run()
        return 0
    except LoopError as e:
        print(f"loop: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # DIR not a folder, a full disk: the state file is the last one written whole
        print(f"loop: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
