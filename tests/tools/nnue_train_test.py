#!/usr/bin/env python3
"""The net's whole path on tiny data: gobblet-datagen makes 40 games;
tools/nnue/train.py trains 2 epochs with a checkpoint, goes on from it for a
third, and writes a net; the engine loads it (EvalFile) and evaluates every
position of the data exactly as the trainer's model of the engine's integer
arithmetic does (the same features, the same quantisation); a damaged copy
is refused and the net in use stays. The trainer refuses, with the reason
and without running it, a checkpoint whose unpickling would run code, and
stops on a data file the readers refuse. A warm start (--init) reads a
net's weights back exactly: the built-in net, read and exported, has the
same integers.

    nnue_train_test.py BIN_DIR
"""

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "nnue"))
sys.path.insert(0, str(ROOT / "tools" / "datagen"))

try:
    import numpy as np
    import torch  # noqa: F401
except ImportError as e:  # the set-up script installs python3-torch and python3-numpy
    print(f"skipped: {e} (tools/setup.sh deps installs python3-torch)")
    sys.exit(77)

import train  # noqa: E402
import training_data  # noqa: E402

LETTERS = "SMLX"


def position_text(record):
    """The engine's position text (docs/notation.md) of a 4x4 record."""
    ranks = []
    for rank in range(3, -1, -1):
        text, empty = "", 0
        for file in range(4):
            square = rank * 4 + file
            stack = ""
            for size in range(4):
                for player in range(2):
                    if int(record["pieces"][player][size]) >> square & 1:
                        letter = LETTERS[size]
                        stack += letter if player == 0 else letter.lower()
            if not stack:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += stack if len(stack) == 1 else f"[{stack}]"
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks) + f" {int(record['stm']) + 1}"


def engine_evaluations(program, net, positions):
    """The `eval net` value of each position, and the engine's other answers."""
    commands = [f"setoption name EvalFile value {net}"]
    for text in positions:
        commands += [f"position fen {text}", "eval"]
    out = subprocess.run([program], input="\n".join(commands + ["quit"]) + "\n", capture_output=True, text=True,
                         timeout=120).stdout
    values = [int(line.split()[4]) for line in out.splitlines() if line.startswith("info string eval net ")]
    return values, out


class RunsCode:
    """Unpickled, makes the directory `marker`: what a hostile checkpoint could do."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def check(condition, what):
    if not condition:
        sys.exit(f"FAILED: {what}")


def main():
    bin_dir = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = tmp / "tiny.gdata"
        made = subprocess.run([str(bin_dir / "gobblet-datagen"), "--out", str(data), "--games", "40", "--nodes",
                               "2000", "--hash", "1", "--quiet"], capture_output=True, text=True, timeout=300)
        check(made.returncode == 0, made.stderr)
        trainer = [sys.executable, str(ROOT / "tools" / "nnue" / "train.py"), str(data), "--batch", "128",
                   "--threads", "1", "--checkpoint", str(tmp / "ck.pt"), "--out", str(tmp / "net.gnn")]
        first = subprocess.run(trainer + ["--epochs", "2"], capture_output=True, text=True, timeout=300)
        check(first.returncode == 0 and "epoch 2:" in first.stdout, first.stdout + first.stderr)
        again = subprocess.run(trainer + ["--epochs", "3"], capture_output=True, text=True, timeout=300)
        check(again.returncode == 0 and "going on from" in again.stdout and "epoch 3:" in again.stdout
              and "epoch 1:" not in again.stdout, again.stdout + again.stderr)
        net_bytes = (tmp / "net.gnn").read_bytes()

        _, records = training_data.read(str(data))
        records = records[:60]
        x = train.features_of(records)
        x_other = x[:, train.other_perspective()]
        want = train.quantised_eval(net_bytes, x, x_other)
        got, out = engine_evaluations(str(bin_dir / "gobblet"), tmp / "net.gnn", [position_text(r) for r in records])
        check("error" not in out, out[-2000:])
        check(len(got) == len(records), f"{len(got)} evaluations of {len(records)} positions:\n{out[-2000:]}")
        differ = [i for i in range(len(got)) if got[i] != want[i]]
        check(not differ, f"the engine and the trainer disagree at {differ[:5]}: "
                          f"{[(got[i], int(want[i])) for i in differ[:5]]}")
        check(len(set(got)) > 5, f"a net that says nothing: {got}")

        damaged = bytearray(net_bytes)
        damaged[-1] ^= 1
        (tmp / "damaged.gnn").write_bytes(bytes(damaged))
        _, out = engine_evaluations(str(bin_dir / "gobblet"), tmp / "damaged.gnn", [])
        check("info string error: option EvalFile: net file" in out and "checksum" in out, out[-2000:])

        # A checkpoint that runs code when unpickled, as torch.save writes one
        # (with all a checkpoint holds besides), and as a bare pickle.
        marker = tmp / "code-ran"
        net = train.Net()
        optimiser = torch.optim.Adam(net.parameters())
        hostile = {"net": net.state_dict(), "optimiser": optimiser.state_dict(),
                   "schedule": torch.optim.lr_scheduler.ExponentialLR(optimiser, gamma=1.0).state_dict(),
                   "epoch": 1, "extra": RunsCode(str(marker))}
        torch.save(hostile, tmp / "hostile.pt")
        (tmp / "hostile.pickle").write_bytes(pickle.dumps(RunsCode(str(marker))))
        for name in ("hostile.pt", "hostile.pickle"):
            refused = subprocess.run(trainer[:-4] + ["--checkpoint", str(tmp / name), "--out", str(tmp / "h.gnn"),
                                                     "--epochs", "1"], capture_output=True, text=True, timeout=300)
            check(refused.returncode != 0 and "not a checkpoint of this trainer" in refused.stderr,
                  f"{name}: {refused.returncode}: {refused.stdout}{refused.stderr}")
            check(not marker.exists(), f"loading {name} ran its code")
            check(not (tmp / "h.gnn").exists(), f"{name}: a net was written")

        # Data the readers refuse (two pieces of size 3 on one square) stops
        # the trainer, naming the file and the record.
        damaged = bytearray(data.read_bytes())
        damaged[training_data.HEADER_SIZE + 6:training_data.HEADER_SIZE + 8] = b"\x01\x00"
        damaged[training_data.HEADER_SIZE + 14:training_data.HEADER_SIZE + 16] = b"\x01\x00"
        (tmp / "damaged.gdata").write_bytes(bytes(damaged))
        refused = subprocess.run([sys.executable, str(ROOT / "tools" / "nnue" / "train.py"), str(tmp / "damaged.gdata"),
                                  "--out", str(tmp / "d.gnn"), "--epochs", "1"], capture_output=True, text=True,
                                 timeout=300)
        check(refused.returncode != 0 and "damaged.gdata: record 0: two pieces of size 3 on one square"
              in refused.stderr, f"{refused.returncode}: {refused.stdout}{refused.stderr}")
        check(not (tmp / "d.gnn").exists(), "a net was written from refused data")

        # --init: the built-in net's weights, read and exported, are its integers.
        built_in = (ROOT / "search" / "nnue" / "default.gnn").read_bytes()
        net = train.Net()
        train.load_net_weights(net, built_in)
        check(all((a == b).all() for a, b in zip(train.net_integers(train.quantise(net, "")),
                                                  train.net_integers(built_in))),
              "train.py --init: the built-in net read and exported is another net")
    print(f"nnue_train: 7 checks passed ({len(records)} positions evaluated alike)")


if __name__ == "__main__":
    main()
