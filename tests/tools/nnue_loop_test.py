#!/usr/bin/env python3
"""The generation loop (tools/nnue/loop.py) on a tiny run: generation 1
starts from a deliberately weak net (the built-in net with its output
negated: it steers for what it thinks bad), self-plays 20 games at 300
nodes, trains 1 epoch and wins its SPRT against that net (H1 within 16
games at 300 nodes), so the loop adopts it. The run is stopped by SIGTERM
while the trainer runs (once its log exists) and the same command finishes
it without running the finished self-play again; then a changed setting,
a damaged state file, a net the engine refuses and a missing program are
each refused with the reason.

    nnue_loop_test.py BIN_DIR
"""

import json
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "datagen"))

try:
    import numpy  # noqa: F401
    import torch  # noqa: F401
except ImportError as e:  # the set-up script installs python3-torch and python3-numpy
    print(f"skipped: {e} (tools/setup.sh deps installs python3-torch)")
    sys.exit(77)

import training_data  # noqa: E402

LOOP = [sys.executable, str(ROOT / "tools" / "nnue" / "loop.py")]


def check(condition, what):
    if not condition:
        sys.exit(f"FAILED: {what}")


def negated_net(source, out):
    """The net of `source` with its output layer (b2, W2) negated and its checksum made again."""
    data = bytearray(source.read_bytes())
    payload_bytes, _, described = struct.unpack_from("<III", data, 48)
    start = 60 + described
    b2_at = start + 128 * 2 + 288 * 128 * 2 + 32 * 4 + 32 * 256
    struct.pack_into("<i", data, b2_at, -struct.unpack_from("<i", data, b2_at)[0])
    for i in range(32):
        at = b2_at + 4 + 2 * i
        struct.pack_into("<h", data, at, -struct.unpack_from("<h", data, at)[0])
    checksum = 2166136261
    for byte in data[start:start + payload_bytes]:
        checksum = ((checksum ^ byte) * 16777619) & 0xFFFFFFFF
    struct.pack_into("<I", data, 52, checksum)
    out.write_bytes(bytes(data))


def main():
    bin_dir = Path(sys.argv[1])

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        weak = tmp / "weak.gnn"
        negated_net(ROOT / "search" / "nnue" / "default.gnn", weak)
        loop_dir = tmp / "loop"
        settings = ["--net-0", str(weak), "--games", "20", "--nodes", "300", "--hash", "1", "--epochs", "1",
                    "--batch", "128", "--match-nodes", "300", "--elo0", "0", "--elo1", "200", "--alpha", "0.1",
                    "--beta", "0.1", "--max-games", "16"]
        command = LOOP + ["run", "--dir", str(loop_dir), "--generations", "1", "--bin-dir", str(bin_dir),
                          "--train-threads", "1"] + settings

        # Stopped by SIGTERM while the trainer runs (its log made: the
        # trainer is starting, PyTorch takes a second to load).
        first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        train_log = loop_dir / "gen-001" / "train.log"
        deadline = time.monotonic() + 120
        while not train_log.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        first.send_signal(signal.SIGTERM)
        out, err = first.communicate(timeout=120)
        check(first.returncode == -signal.SIGTERM and "SIGTERM: stopped in generation 1, step train" in out,
              f"the stopped run: {first.returncode}\n{out}{err}")
        state = json.loads((loop_dir / "state.json").read_text())
        steps = state["generations"][0]["steps"]
        check(steps["datagen"].get("done") and not steps["train"].get("done") and
              not (loop_dir / "gen-001" / "net.gnn").exists(), f"the state after SIGTERM: {steps}")
        data = loop_dir / "gen-001" / "data.gdata"
        data_made = data.stat().st_mtime_ns

        # The same command finishes the generation without a new self-play.
        again = subprocess.run(command, capture_output=True, text=True, timeout=300)
        check(again.returncode == 0, f"the run going on: {again.returncode}\n{again.stdout}{again.stderr}")
        check("generation 1: datagen done already" in again.stdout and "generation 1: train\n" in again.stdout
              and data.stat().st_mtime_ns == data_made and
              len(json.loads((loop_dir / "state.json").read_text())["generations"][0]["steps"]["datagen"]["runs"]) == 1,
              f"the self-play ran again:\n{again.stdout}")

        # Adopted on H1, and recorded: the record names the data's net by the
        # fingerprint the engine wrote into the data, and the new net by its file's.
        state = json.loads((loop_dir / "state.json").read_text())
        generation = state["generations"][0]
        check(generation["outcome"] == "adopted" and generation["steps"]["match"]["decision"] == "H1" and
              state["current"] == {"net": "gen-001/net.gnn", "generation": 1,
                                   "fingerprint": generation["steps"]["train"]["fingerprint"]},
              f"not adopted: {json.dumps(state)[:3000]}")
        header, records = training_data.read(str(data))
        record = (loop_dir / "record.md").read_text()
        printed = subprocess.run(LOOP + ["record", "--dir", str(loop_dir)], capture_output=True, text=True, timeout=60)
        check(printed.returncode == 0 and printed.stdout == record, f"loop.py record: {printed.stdout}{printed.stderr}")
        check("### Generation 1: adopted" in record and f"fingerprint {header['net']:016x}" in record and
              f"{header['games']} games, {len(records)} positions" in record and "H1 accepted" in record and
              "gobblet-match" in record and "train.py" in record and "gobblet-datagen" in record,
              f"the record:\n{record}")

        # A changed setting on the same DIR is refused, the state untouched.
        before = (loop_dir / "state.json").read_bytes()
        changed = subprocess.run(command[:-1] + ["17"], capture_output=True, text=True, timeout=60)
        check(changed.returncode == 1 and "was made with other settings: --max-games 16 there, 17 here"
              in changed.stderr and (loop_dir / "state.json").read_bytes() == before,
              f"a changed setting: {changed.returncode}\n{changed.stdout}{changed.stderr}")

        # A damaged state file: a clear error, for `run` and `record`.
        (loop_dir / "state.json").write_bytes(before[:len(before) // 2])
        for words in (command, LOOP + ["record", "--dir", str(loop_dir)]):
            refused = subprocess.run(words, capture_output=True, text=True, timeout=60)
            check(refused.returncode == 1 and "state.json: not a state file of tools/nnue/loop.py (not JSON"
                  in refused.stderr, f"a cut state file: {refused.returncode}\n{refused.stdout}{refused.stderr}")
        (loop_dir / "state.json").write_text(json.dumps({"version": 1, "settings": {"games": 20}}))
        refused = subprocess.run(command, capture_output=True, text=True, timeout=60)
        check(refused.returncode == 1 and "(its settings are not this loop's)" in refused.stderr,
              f"a foreign state file: {refused.returncode}\n{refused.stdout}{refused.stderr}")

        # A net the engine refuses, and a folder without the programs.
        damaged = bytearray(weak.read_bytes())
        damaged[-1] ^= 1
        (tmp / "damaged.gnn").write_bytes(bytes(damaged))
        refused = subprocess.run(LOOP + ["run", "--dir", str(tmp / "other"), "--generations", "1", "--bin-dir",
                                         str(bin_dir), "--net-0", str(tmp / "damaged.gnn")],
                                 capture_output=True, text=True, timeout=60)
        check(refused.returncode == 1 and "the engine refuses it" in refused.stderr and "checksum" in refused.stderr,
              f"a damaged net: {refused.returncode}\n{refused.stdout}{refused.stderr}")
        refused = subprocess.run(LOOP + ["run", "--dir", str(tmp / "other"), "--generations", "1", "--bin-dir",
                                         str(tmp)], capture_output=True, text=True, timeout=60)
        check(refused.returncode == 1 and "no gobblet, gobblet-datagen, gobblet-match" in refused.stderr,
              f"no programs: {refused.returncode}\n{refused.stdout}{refused.stderr}")
    print("nnue_loop: 10 checks passed")


if __name__ == "__main__":
    main()
