#!/usr/bin/env python3
"""Reads gobblet-datagen's training data files (docs/datagen.md) into numpy
arrays: the one Python reader of the format, for the WDL fit and the
trainer. It refuses exactly what the C++ reader (readTrainingData,
tools/datagen/training_data.cpp) refuses, check for check, naming the file
and, for a record, its number and what is wrong with it.

    tools/datagen/training_data.py FILE...

prints each file's games and positions, or why it is refused (exit 1).
"""

import re
import sys

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
VARIANT_NAME_BYTES = 24
MAX_SIZES = 4


class FormatError(Exception):
    """A file that is not training data of this version."""


# ---- Variant names (engine/variant.h: Variant::parse, kNamedVariants) ----
# A variant is (board side, sizes, per size or stacks, moving, 4x4 stacks).
# The names and aliases are kNamedVariants'; datagen_test runs this reader
# on a file of each of them, so that the two lists cannot drift apart.

NAMED_VARIANTS = [  # (name, aliases, variant, canonical)
    ("gobblet", ("4x4", "gobblet 4x4"), (4, 4, 3, True, True), True),
    ("gobblers", ("gobblet gobblers", "gobblet-gobblers"), (3, 3, 2, True, False), True),
    ("tictactoe", ("tic-tac-toe", "tic tac toe"), (3, 1, 5, False, False), False),
]
FAMILY_FORM = "3x3:<sizes>,<per_size>,<move 0|1>"
FAMILY_4X4_FORM = "4x4:<sizes>,<stacks>"
FAMILY_FIELDS = (("sizes", 1, 3), ("per_size", 1, 9), ("move", 0, 1))
FAMILY_4X4_FIELDS = (("sizes", 1, 4), ("stacks", 1, 3))


def quote_word(word):
    """engine/printable_text.h's quoteWord: in single quotes, bytes outside
    printable ASCII, the quote and the backslash as \\xNN, cut at 48 bytes."""
    shown = "".join(chr(c) if 0x20 <= c < 0x7F and c not in b"'\\" else f"\\x{c:02x}" for c in word[:48])
    return f"'{shown}{'...' if len(word) > 48 else ''}'"


def _integer(text, low, high, what):
    """engine/bounded_integer.h's parseBoundedInteger on bytes."""
    if re.fullmatch(rb"\+?[0-9]+|-[0-9]+", text) is None:
        raise ValueError(f"{what} {quote_word(text)} is not an integer")
    value = int(text)
    if not low <= value <= high or not -2**63 <= value < 2**63:
        raise ValueError(f"{what} {quote_word(text)} is out of range [{low}, {high}]")
    return value


def variant_name(variant):
    """Variant::name(): the canonical name."""
    for name, _, named, canonical in NAMED_VARIANTS:
        if canonical and named == variant:
            return name
    n, sizes, per_size, moving, stacks = variant
    return f"4x4:{sizes},{per_size}" if stacks else f"3x3:{sizes},{per_size},{1 if moving else 0}"


def parse_variant(text):
    """Variant::parse on the bytes of a name: the variant, or ValueError with the reason."""
    shown = text.decode("ascii", "backslashreplace")
    lower = b" ".join(re.split(rb"[ \t]+", text.lower().strip(b" \t")))
    for name, aliases, variant, _ in NAMED_VARIANTS:
        if lower.decode("latin-1") in (name, *aliases):
            return variant
    for prefix, fields in ((b"4x4:", FAMILY_4X4_FIELDS), (b"3x3:", FAMILY_FIELDS)):
        if not lower.startswith(prefix):
            continue
        parts = lower[len(prefix):].split(b",")
        if len(parts) != len(fields):
            raise ValueError(f"variant '{shown}': expected {len(fields)} numbers after '{prefix.decode()}'")
        try:
            values = [_integer(part.strip(b" \t\n\v\f\r"), low, high, what)
                      for part, (what, low, high) in zip(parts, fields)]
        except ValueError as e:
            raise ValueError(f"variant '{shown}': {e}") from None
        if prefix == b"4x4:":
            return (4, values[0], values[1], True, True)
        return (3, values[0], values[1], values[2] == 1, False)
    expected = ", ".join(name for name, _, _, _ in NAMED_VARIANTS) + f", {FAMILY_FORM} or {FAMILY_4X4_FORM}"
    raise ValueError(f"unknown variant '{shown}' (expected {expected})")


# ---- The checks of a record (training_data.cpp: positionOf, readFile) ----

def _bad_positions(records, variant):
    """Which records are not a position of `variant` or have a result out of range (vectorised)."""
    n, sizes, per_size, _, stacks = variant
    on_board = (1 << (n * n)) - 1
    pieces = records["pieces"].astype(np.uint32)
    bad = (records["stm"] > 1) | (records["result"] < -1) | (records["result"] > 1)
    previous = np.zeros((len(records), 2), dtype=np.int64)
    for s in range(MAX_SIZES):
        bad |= (pieces[:, 0, s] & pieces[:, 1, s]) != 0
        if s >= sizes:
            bad |= (pieces[:, 0, s] | pieces[:, 1, s]) != 0
            continue
        bad |= ((pieces[:, 0, s] | pieces[:, 1, s]) & ~np.uint32(on_board)) != 0
        placed = np.unpackbits(pieces[:, :, s].astype("<u4").view(np.uint8).reshape(-1, 2, 4), axis=2).sum(axis=2)
        if stacks:
            bad |= np.any((placed < previous) | (placed > per_size), axis=1)
            previous = placed
        else:
            bad |= np.any(placed > per_size, axis=1)
    return bad


def _why_bad(record, variant):
    """The C++ reader's reason for refusing `record`, its checks in its order."""
    n, sizes, per_size, _, stacks = variant
    name = variant_name(variant)
    if record["stm"] > 1:
        return f"side to move {int(record['stm'])}"
    pieces = [[int(record["pieces"][p][s]) for s in range(MAX_SIZES)] for p in range(2)]
    for s in range(MAX_SIZES):
        if pieces[0][s] & pieces[1][s]:
            return f"two pieces of size {s} on one square"
        for p in range(2):
            if pieces[p][s] and (s >= sizes or pieces[p][s] >> (n * n)):
                return f"a piece of size {s} the {name} board cannot hold"
    for p in range(2):
        placed = [bin(pieces[p][s]).count("1") for s in range(sizes)]
        if any(c > per_size for c in placed) or (stacks and placed != sorted(placed)):
            return f"more pieces than {name} gives a player"
    return f"result {int(record['result'])}"


def read(path):
    """(header as a dict, records as a numpy structured array of RECORD) of
    the finished games of `path` (records of unfinished games and a record
    cut short are left out, as docs/datagen.md says). header["variant"] is
    the variant's canonical name. FormatError if the C++ reader refuses the
    file, with the same reason."""
    with open(path, "rb") as f:
        head = f.read(HEADER_SIZE)
        if len(head) < HEADER_SIZE or head[:8] != MAGIC:
            raise FormatError(f"{path}: not a gobblet training data file (no GOBDATA header)")
        h = np.frombuffer(head, dtype=HEADER)[0]
        if int(h["version"]) != VERSION:
            raise FormatError(f"{path}: training data format version {int(h['version'])}; "
                              f"this program reads version {VERSION}")
        if int(h["header_size"]) != HEADER_SIZE or int(h["record_size"]) != RECORD_SIZE:
            raise FormatError(f"{path}: header size {int(h['header_size'])} and record size "
                              f"{int(h['record_size'])}; version {VERSION} has {HEADER_SIZE} and {RECORD_SIZE}")
        name = head[24:24 + VARIANT_NAME_BYTES]
        if b"\0" not in name:
            raise FormatError(f"{path}: the variant name is not terminated")
        try:
            variant = parse_variant(name[:name.index(b"\0")])
        except ValueError as e:
            raise FormatError(f"{path}: the variant: {e}") from None
        body = f.read()
    whole = len(body) // RECORD_SIZE
    records = np.frombuffer(body[:whole * RECORD_SIZE], dtype=RECORD)
    header = {name: int(h[name]) for name in HEADER.names if name not in ("magic", "zero", "variant", "reserved")}
    header["variant"] = variant_name(variant)
    # Every whole record is in game order, finished or not; the records of
    # finished games (a prefix, given the order) are positions of the
    # variant with a result of 1, 0 or -1. The first record refused is named.
    game = records["game"].astype(np.int64)
    out_of_order = np.nonzero(np.diff(game) < 0)[0] + 1
    finished = game < header["games"]
    bad = np.nonzero(finished & _bad_positions(records, variant))[0]
    first = min([int(a[0]) for a in (out_of_order, bad) if len(a)], default=None)
    if first is not None:
        if len(out_of_order) and first == out_of_order[0]:
            why = f"game {int(game[first])} after game {int(game[first - 1])}"
        else:
            why = _why_bad(records[first], variant)
        raise FormatError(f"{path}: record {first}: {why}")
    return header, records[finished]


def pieces_on_board(records):
    """How many pieces each record has on the board (both players)."""
    counts = np.zeros(len(records), dtype=np.int64)
    for p in range(2):
        for s in range(4):
            masks = records["pieces"][:, p, s].astype(np.uint32)
            counts += np.unpackbits(masks.view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1).astype(np.int64)
    return counts


def main():
    refused = 0
    for path in sys.argv[1:]:
        try:
            header, records = read(path)
        except (OSError, FormatError) as e:
            print(f"training_data: {e}", file=sys.stderr)
            refused += 1
            continue
        print(f"{path}: {header['variant']}, {header['games']} games finished, {len(records)} positions")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
