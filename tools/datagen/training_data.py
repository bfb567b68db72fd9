"""Reads gobblet-datagen's training data files (docs/datagen.md) into numpy
arrays: the one Python reader of the format, for the WDL fit and the
trainer. Refuses, naming the file and the reason, what is not a file of
this version, as the C++ reader (tools/datagen/training_data.h) does.
"""

import numpy as np

MAGIC = b"GOBDATA\0"
VERSION = 1
HEADER_SIZE = 96
RECORD_SIZE = 32
DECIDED = 1
QUIET = 2

HEADER = np.dtype([("magic", "S8"), ("version", "<u4"), ("header_size", "<u4"), ("record_size", "<u4"),
                   ("zero", "<u4"), ("variant", "S24"), ("games", "<u8"), ("seed", "<u8"), ("nodes", "<u4"),
                   ("depth", "<u4"), ("random_plies", "<u4"), ("ply_limit", "<u4"), ("hash", "<u4"),
                   ("net", "<u8"), ("reserved", "V4")])
RECORD = np.dtype([("pieces", "<u2", (2, 4)), ("score", "<i2"), ("stm", "u1"), ("result", "i1"), ("depth", "u1"),
                   ("flags", "u1"), ("ply", "<u2"), ("game", "<u4"), ("move", "<u2"), ("zero", "<u2")])
assert HEADER.itemsize == HEADER_SIZE and RECORD.itemsize == RECORD_SIZE


class FormatError(Exception):
    """A file that is not training data of this version."""


def read(path):
    """(header as a dict, records as a numpy structured array of RECORD) of
    the finished games of `path` (records of unfinished games and a record
    cut short are left out, as docs/datagen.md says)."""
    with open(path, "rb") as f:
        head = f.read(HEADER_SIZE)
        if len(head) < HEADER_SIZE or head[:8] != MAGIC:
            raise FormatError(f"{path}: not a gobblet training data file (no GOBDATA header)")
        h = np.frombuffer(head, dtype=HEADER)[0]
        if int(h["version"]) != VERSION:
            raise FormatError(f"{path}: training data format version {int(h['version'])}; "
                              f"this reader reads version {VERSION}")
        if int(h["header_size"]) != HEADER_SIZE or int(h["record_size"]) != RECORD_SIZE:
            raise FormatError(f"{path}: header size {int(h['header_size'])} and record size "
                              f"{int(h['record_size'])}; version {VERSION} has {HEADER_SIZE} and {RECORD_SIZE}")
        body = f.read()
    whole = len(body) // RECORD_SIZE
    records = np.frombuffer(body[:whole * RECORD_SIZE], dtype=RECORD)
    header = {name: h[name] for name in HEADER.names if name not in ("magic", "zero", "reserved")}
    header["variant"] = bytes(h["variant"]).rstrip(b"\0").decode("ascii", "replace")
    header = {k: (int(v) if isinstance(v, np.integer) else v) for k, v in header.items()}
    records = records[records["game"] < header["games"]]
    if len(records) and (np.any(np.diff(records["game"].astype(np.int64)) < 0)):
        raise FormatError(f"{path}: records out of game order")
    bad = np.nonzero((records["result"] < -1) | (records["result"] > 1) | (records["stm"] > 1))[0]
    if len(bad):
        raise FormatError(f"{path}: record {int(bad[0])}: a result or side to move out of range")
    return header, records


def pieces_on_board(records):
    """How many pieces each record has on the board (both players)."""
    counts = np.zeros(len(records), dtype=np.int64)
    for p in range(2):
        for s in range(4):
            masks = records["pieces"][:, p, s].astype(np.uint32)
            counts += np.unpackbits(masks.view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1).astype(np.int64)
    return counts
