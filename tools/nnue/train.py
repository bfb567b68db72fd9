#!/usr/bin/env python3
"""Trains the engine's net (search/nnue/network.h) on gobblet-datagen files
and writes it as a .gnn file the engine loads (EvalFile): PyTorch on the
CPU, Debian's python3-torch. docs/nnue.md gives the commands that made the
shipped net.

    tools/nnue/train.py DATA... --out NET.gnn [--epochs N] [--batch N] [--lr X]
                        [--lambda L] [--seed S] [--checkpoint FILE] [--max-positions N]
                        [--lr-decay G] [--device cpu|cuda] [--init NET.gnn]

What it learns from: the undecided, quiet positions of the files (flags in
docs/datagen.md), each with the target

    lambda * sigmoid(score / S) + (1 - lambda) * result      (result: 1 won, 0.5 drawn, 0 lost)

for the side to move, S the scale that best predicts the results from the
scores (fitted first, printed). The net's output o (centi-units / 100) is
trained so that sigmoid(100 o / S) meets the target (mean squared error).
Each batch is seen through one of the 8 symmetries of the board, drawn at
random; the colour swap needs no augmentation, as the features are the
side to move's and the other side's (search/nnue/board_features.h). The games of
every tenth game number are held out for validation.

--device cuda trains on a GPU where PyTorch has one (the net and its
export are the same arithmetic; Debian's python3-torch is CPU-only).
--lr-decay G multiplies the learning rate by G after each epoch.
--init NET.gnn starts from that net's weights (its integers over their
scales: a warm start) instead of random ones; a checkpoint, when there is
one, still wins.

--checkpoint FILE saves the model and the optimiser after each epoch and,
if FILE exists, goes on from it. The checkpoint is plain data, never a
pickle: a numpy .npz of the tensors (read with allow_pickle=False) and a
JSON text of the rest, so that loading one, from anyone, runs no code (a
torch.save file, which torch.load unpickles, is refused). A data file the
reader refuses (tools/datagen/training_data.py) stops the trainer with the
reason, before any training. The export quantises as network.h says.
"""

import argparse
import json
import math
import os
import sys
import time
import zipfile

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datagen"))
import training_data  # noqa: E402

FEATURES, HIDDEN, L1 = 288, 128, 32
ONE, WEIGHT_ONE = 127, 64
W1_LIMIT = 127 / WEIGHT_ONE


# ---- Features (search/nnue/board_features.h) ----

def square_map(symmetry):
    """The 4x4 board's square permutation of symmetry 0..7 (rotations, then mirrored)."""
    out = []
    for square in range(16):
        f, r = square % 4, square // 4
        for _ in range(symmetry % 4):
            f, r = r, 3 - f
        if symmetry >= 4:
            f = 3 - f
        out.append(r * 4 + f)
    return out


def feature_permutation(symmetry):
    """Feature index -> feature index under a symmetry (reserves stay)."""
    squares = square_map(symmetry)
    perm = np.arange(FEATURES)
    for block in range(16):  # piece and top blocks: (kind, rel, size) x 16 squares
        for sq in range(16):
            perm[block * 16 + sq] = block * 16 + squares[sq]
    return perm


def other_perspective():
    """Feature index -> the same feature seen by the other player (own and their swapped)."""
    perm = np.arange(FEATURES)
    for i in range(256):
        kind, rest = divmod(i, 128)
        rel, within = divmod(rest, 64)
        perm[i] = kind * 128 + (1 - rel) * 64 + within
    for i in range(32):
        rel, within = divmod(i, 16)
        perm[256 + i] = 256 + (1 - rel) * 16 + within
    return perm


def features_of(records):
    """[N, 288] uint8: the active features of each record's position for its side to move."""
    n = len(records)
    x = np.zeros((n, FEATURES), dtype=np.uint8)
    stm = records["stm"].astype(np.int64)
    rows = np.arange(n)
    bits = np.unpackbits(records["pieces"].astype("<u2").view(np.uint8).reshape(n, 2, 4, 2), axis=3,
                         bitorder="little").reshape(n, 2, 4, 16)  # [n, player, size, square]
    top_size = np.full((n, 16), -1)
    top_owner = np.zeros((n, 16), dtype=np.int64)
    for size in range(4):  # larger sizes overwrite: the top is the largest piece
        for player in range(2):
            on = bits[:, player, size, :] == 1
            top_size = np.where(on, size, top_size)
            top_owner = np.where(on, player, top_owner)
    for player in range(2):
        rel = (player != stm).astype(np.int64)  # per record
        for size in range(4):
            on = bits[:, player, size, :]
            for sq in range(16):
                x[rows, rel * 64 + size * 16 + sq] |= on[:, sq]
            placed = on.sum(axis=1).astype(np.int64)
            x[rows, 256 + rel * 16 + size * 4 + np.minimum(placed, 3)] = 1
    for sq in range(16):
        has = top_size[:, sq] >= 0
        rel = (top_owner[:, sq] != stm).astype(np.int64)
        index = 128 + rel * 64 + np.maximum(top_size[:, sq], 0) * 16 + sq
        x[rows[has], index[has]] = 1
    return x


# ---- The model ----

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ft = torch.nn.Linear(FEATURES, HIDDEN)
        self.l1 = torch.nn.Linear(2 * HIDDEN, L1)
        self.l2 = torch.nn.Linear(L1, 1)

    def forward(self, us, them):
        a = torch.cat([self.ft(us), self.ft(them)], dim=1).clamp(0, 1)
        return self.l2(self.l1(a).clamp(0, 1)).squeeze(1)

    def clip(self):
        with torch.no_grad():
            self.l1.weight.clamp_(-W1_LIMIT, W1_LIMIT)


def fit_scale(score, result):
    """The S for which sigmoid(score / S) best predicts the results (log-likelihood, draws a half)."""
    best = (math.inf, 100.0)
    y = (result + 1) / 2
    for s in np.geomspace(5, 1000, 200):
        p = np.clip(1 / (1 + np.exp(-np.clip(score / s, -60, 60))), 1e-9, 1 - 1e-9)
        nll = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        best = min(best, (nll, s))
    return best[1]


def quantise(net, description):
    """The .gnn bytes of `net` (network.h's layout)."""
    import struct
    def values(tensor):
        return tensor.detach().cpu().numpy()
    ft_w = values(net.ft.weight).T  # [288, 128]
    b0 = np.round(values(net.ft.bias) * ONE).astype(np.int16)
    w0 = np.round(ft_w * ONE).astype(np.int16)
    b1 = np.round(values(net.l1.bias) * ONE * WEIGHT_ONE).astype(np.int32)
    w1 = np.clip(np.round(values(net.l1.weight) * WEIGHT_ONE), -127, 127).astype(np.int8)
    b2 = np.int32(round(float(values(net.l2.bias)[0]) * ONE * WEIGHT_ONE))
    w2 = np.round(values(net.l2.weight)[0] * WEIGHT_ONE).astype(np.int16)
    payload = (b0.astype("<i2").tobytes() + w0.astype("<i2").tobytes() + b1.astype("<i4").tobytes() +
               w1.tobytes() + struct.pack("<i", int(b2)) + w2.astype("<i2").tobytes())
    text = description.encode("utf-8")[:1024]
    checksum = 2166136261
    for byte in payload:
        checksum = ((checksum ^ byte) * 16777619) & 0xFFFFFFFF
    header = (b"GOBNNUE\0" + struct.pack("<IIII", 1, FEATURES, HIDDEN, L1) + b"gobblet".ljust(24, b"\0") +
              struct.pack("<III", len(payload), checksum, len(text)))
    return header + text + payload


def net_integers(net_bytes):
    """The integers of a .gnn file (network.h's layout): b0, w0 [288, 128], b1, w1 [32, 256], b2, w2, as
    int64 arrays. ValueError, with the reason, for bytes that are not a net of these sizes (the engine's
    own checks, EvalFile, are stricter: see docs/nnue.md)."""
    import struct
    header = 60
    if len(net_bytes) < header or net_bytes[:8] != b"GOBNNUE\0":
        raise ValueError("not a net file (no GOBNNUE header)")
    sizes = struct.unpack_from("<IIII", net_bytes, 8)
    if sizes != (1, FEATURES, HIDDEN, L1):
        raise ValueError(f"version and sizes {sizes}, not (1, {FEATURES}, {HIDDEN}, {L1})")
    payload, _, described = struct.unpack_from("<III", net_bytes, 48)
    if len(net_bytes) != header + described + payload:
        raise ValueError(f"{len(net_bytes)} bytes, not the {header + described + payload} its header says")
    at = header + described

    def take(dtype, count):
        nonlocal at
        a = np.frombuffer(net_bytes, dtype=dtype, count=count, offset=at)
        at += a.nbytes
        return a.astype(np.int64)
    b0, w0 = take("<i2", HIDDEN), take("<i2", FEATURES * HIDDEN).reshape(FEATURES, HIDDEN)
    b1, w1 = take("<i4", L1), take("i1", L1 * 2 * HIDDEN).reshape(L1, 2 * HIDDEN)
    b2, w2 = take("<i4", 1)[0], take("<i2", L1)
    return b0, w0, b1, w1, b2, w2


def load_net_weights(net, net_bytes):
    """Sets `net`'s weights to those a .gnn file holds (the inverse of quantise: its integers over their
    scales), for a warm start. ValueError for bytes net_integers refuses."""
    b0, w0, b1, w1, b2, w2 = net_integers(net_bytes)
    with torch.no_grad():
        for param, value in ((net.ft.weight, w0.T / ONE), (net.ft.bias, b0 / ONE), (net.l1.weight, w1 / WEIGHT_ONE),
                             (net.l1.bias, b1 / (ONE * WEIGHT_ONE)), (net.l2.weight, w2.reshape(1, L1) / WEIGHT_ONE),
                             (net.l2.bias, np.array([b2]) / (ONE * WEIGHT_ONE))):
            param.copy_(torch.from_numpy(np.asarray(value, dtype=np.float32)))


def quantised_eval(net_bytes, x_us, x_them):
    """The engine's integer evaluation (network.h) of feature rows, in centi-units: for tests."""
    b0, w0, b1, w1, b2, w2 = net_integers(net_bytes)
    acc = np.concatenate([x_us.astype(np.int64) @ w0 + b0, x_them.astype(np.int64) @ w0 + b0], axis=1)
    inp = np.clip(acc, 0, ONE)
    hidden = np.clip((inp @ w1.T + b1) >> 6, 0, ONE)
    total = hidden @ w2 + b2
    scaled = total * 100
    return np.sign(scaled) * (np.abs(scaled) // (ONE * WEIGHT_ONE))  # C++'s division, toward zero


# ---- Checkpoints: plain data, loaded without running code ----

class CheckpointError(Exception):
    """A file that is not a checkpoint of this trainer."""


def save_checkpoint(path, state):
    """Writes `state` (dicts with str or int keys, lists, tuples, numbers,
    strings, None, tensors) to `path` as an .npz: each tensor an array, the
    rest a JSON text ("structure") that names them."""
    arrays = {}

    def encode(value):
        if isinstance(value, torch.Tensor):
            name = f"tensor{len(arrays)}"
            arrays[name] = value.detach().cpu().numpy()
            return {"tensor": name}
        if isinstance(value, dict):
            if not all(isinstance(k, (str, int)) for k in value):
                raise TypeError(f"a checkpoint's dict keys are str or int: {list(value)[:5]}")
            return {"dict": [[k, encode(v)] for k, v in value.items()]}
        if isinstance(value, (list, tuple)):
            return {"tuple" if isinstance(value, tuple) else "list": [encode(v) for v in value]}
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        raise TypeError(f"a checkpoint holds no {type(value).__name__}")

    structure = json.dumps(encode(state))
    arrays["structure"] = np.frombuffer(structure.encode("utf-8"), dtype=np.uint8)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def load_checkpoint(path):
    """What save_checkpoint wrote; CheckpointError, with the reason, for
    anything else. Nothing in the file is unpickled or run."""
    try:
        files = np.load(path, allow_pickle=False)
        if not isinstance(files, np.lib.npyio.NpzFile):
            raise CheckpointError("not an .npz")
        with files:
            if "structure" not in files.files:
                raise CheckpointError("no checkpoint structure in it")
            structure = json.loads(files["structure"].tobytes().decode("utf-8"))

            def decode(value):
                if value is None or isinstance(value, (bool, int, float, str)):
                    return value
                if isinstance(value, dict) and len(value) == 1:
                    (kind, inner), = value.items()
                    if kind == "tensor" and isinstance(inner, str) and inner in files.files:
                        return torch.from_numpy(np.array(files[inner]))
                    if kind == "dict" and isinstance(inner, list) and all(
                            isinstance(p, list) and len(p) == 2 and isinstance(p[0], (str, int)) for p in inner):
                        return {k: decode(v) for k, v in inner}
                    if kind in ("list", "tuple") and isinstance(inner, list):
                        items = [decode(v) for v in inner]
                        return tuple(items) if kind == "tuple" else items
                raise CheckpointError(f"an entry it cannot hold: {str(value)[:80]}")

            return decode(structure)
    except CheckpointError:
        raise
    except (OSError, ValueError, KeyError, EOFError, RecursionError, zipfile.BadZipFile) as e:
        raise CheckpointError(str(e)) from None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", help="gobblet-datagen files")
    parser.add_argument("--out", required=True, help="the .gnn file to write")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=8192)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--lambda", dest="blend", type=float, default=0.5, help="weight of the score in the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint", help="save after each epoch; go on from it if it exists")
    parser.add_argument("--max-positions", type=int, default=0, help="use at most this many (0: all)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--lr-decay", type=float, default=1.0, help="learning rate factor after each epoch")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda where PyTorch has a GPU")
    parser.add_argument("--init", help="a .gnn net to start from (a warm start; default: random weights)")
    args = parser.parse_args()
    if args.device != "cpu" and not (args.device.startswith("cuda") and torch.cuda.is_available()):
        sys.exit(f"train: device {args.device!r}: this PyTorch has {'a GPU' if torch.cuda.is_available() else 'no GPU'}"
                 "; use --device cpu or cuda")
    device = torch.device(args.device)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    parts, names = [], []
    for path in args.data:
        try:
            header, records = training_data.read(path)
        except (OSError, training_data.FormatError) as e:
            sys.exit(f"train: {e}")
        if header["variant"] != "gobblet":
            sys.exit(f"train: {path}: variant {header['variant']}: the net is 4x4 Gobblet's")
        keep = (records["flags"] & training_data.DECIDED) == 0
        keep &= (records["flags"] & training_data.QUIET) != 0
        parts.append(records[keep])
        names.append(f"{os.path.basename(path)} ({header['games']} games, seed {header['seed']}, "
                     f"nodes {header['nodes']}, depth {header['depth']})")
    records = np.concatenate(parts)
    if args.max_positions and len(records) > args.max_positions:
        records = records[:args.max_positions]
    if len(records) < 20:
        sys.exit(f"train: {len(records)} undecided quiet positions: too few")
    score = records["score"].astype(np.float64)
    result = records["result"].astype(np.float64)
    scale = fit_scale(score, result)
    target = args.blend / (1 + np.exp(-score / scale)) + (1 - args.blend) * (result + 1) / 2
    x = torch.from_numpy(features_of(records)).to(device)
    held = torch.from_numpy(records["game"] % 10 == 0)
    target = torch.from_numpy(target.astype(np.float32)).to(device)
    train_rows = torch.nonzero(~held).squeeze(1)
    valid_rows = torch.nonzero(held).squeeze(1)
    print(f"positions: {len(records)} undecided quiet ({len(train_rows)} training, {len(valid_rows)} validation) "
          f"from {'; '.join(names)}; score scale S = {scale:.1f}", flush=True)

    other = torch.from_numpy(other_perspective()).to(device)
    symmetries = [torch.from_numpy(feature_permutation(s)).to(device) for s in range(8)]
    net = Net().to(device)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.ExponentialLR(optimiser, gamma=args.lr_decay)
    first_epoch = 0
    if args.init:
        try:
            with open(args.init, "rb") as f:
                load_net_weights(net, f.read(2 << 20))
        except (OSError, ValueError) as e:
            sys.exit(f"train: --init {args.init}: {e}")
    if args.checkpoint and os.path.exists(args.checkpoint):
        try:
            saved = load_checkpoint(args.checkpoint)
            if not isinstance(saved, dict) or not isinstance(saved.get("epoch"), int):
                raise CheckpointError("not the trainer's net, optimiser, schedule and epoch")
            net.load_state_dict(saved["net"])
            optimiser.load_state_dict(saved["optimiser"])
            schedule.load_state_dict(saved["schedule"])
        except (CheckpointError, KeyError, TypeError, ValueError, RuntimeError) as e:
            sys.exit(f"train: {args.checkpoint}: not a checkpoint of this trainer ({e}); a checkpoint is an .npz "
                     "that train.py --checkpoint wrote (a pickle, as torch.save writes, is never loaded: it could "
                     "run any code); give another --checkpoint file to start afresh")
        first_epoch = saved["epoch"]
        print(f"going on from {args.checkpoint} after epoch {first_epoch}", flush=True)

    def loss_of(rows, symmetry):
        batch = x[rows].float()
        if symmetry:
            batch = batch[:, symmetries[symmetry]]
        out = net(batch, batch[:, other])
        return torch.mean((torch.sigmoid(100 * out / scale) - target[rows]) ** 2)

    for epoch in range(first_epoch, args.epochs):
        began = time.time()
        order = train_rows[torch.from_numpy(rng.permutation(len(train_rows)))].to(device)
        total, batches = 0.0, 0
        for start in range(0, len(order), args.batch):
            rows = order[start:start + args.batch]
            loss = loss_of(rows, int(rng.integers(8)))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            net.clip()
            total += loss.item()
            batches += 1
        schedule.step()
        with torch.no_grad():
            valid = float(loss_of(valid_rows.to(device), 0)) if len(valid_rows) else float("nan")
        print(f"epoch {epoch + 1}: training loss {total / max(batches, 1):.6f}, validation {valid:.6f} "
              f"({time.time() - began:.1f} s)", flush=True)
        if args.checkpoint:
            save_checkpoint(args.checkpoint + ".tmp", {"net": net.state_dict(), "optimiser": optimiser.state_dict(),
                                                       "schedule": schedule.state_dict(), "epoch": epoch + 1})
            os.replace(args.checkpoint + ".tmp", args.checkpoint)

    description = (f"gobblet net {FEATURES}x{HIDDEN}x{L1}: tools/nnue/train.py --epochs {args.epochs} --batch "
                   f"{args.batch} --lr {args.lr} --lr-decay {args.lr_decay} --lambda {args.blend} --seed {args.seed}"
                   f"{' --init ' + os.path.basename(args.init) if args.init else ''} on {len(records)} "
                   f"positions of {'; '.join(names)}; S = {scale:.1f}")
    data = quantise(net, description)
    with open(args.out + ".tmp", "wb") as f:
        f.write(data)
    os.replace(args.out + ".tmp", args.out)
    print(f"wrote {args.out} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
