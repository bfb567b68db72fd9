"""What the tools' resumable scripts (tools/nnue/loop.py, tools/tune/spsa.py)
share: their state files are written whole or not at all."""

import os


def write_atomically(path, text):
    """Writes `text` to `path` whole or not at all: a temporary file, synced, then renamed over it."""
    with open(path + ".tmp", "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(path + ".tmp", path)
