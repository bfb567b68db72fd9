"""Shared fixtures: the repository's files, the C++ programs (GOBBLET_BIN_DIR),
and a hang guard for the tests that wait on threads."""

import faulthandler
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]

# The tests never see the user's tablebases: an Engine looks for the
# variant's file where gobblet does, and this points that at nothing (the
# tests of the default lookup set their own).
os.environ["GOBBLET_TB_DIR"] = str(Path(os.environ.get("TMPDIR", "/tmp")) / "gobblet-tests-no-tablebases")


@pytest.fixture(autouse=True)
def hang_guard():
    """A test that hangs (a stop that never arrives) fails with tracebacks
    instead of blocking the test run; no test is near this bound."""
    faulthandler.dump_traceback_later(600, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def documented_perft():
    """{variant name: [perft(1), perft(2), ...]} from the table in docs/notation.md."""
    table = {}
    text = (REPOSITORY / "docs" / "notation.md").read_text()
    for match in re.finditer(r"^\| ([\w:,]+) \|((?: \d+ \|)+)\s*$", text, re.MULTILINE):
        table[match.group(1)] = [int(cell) for cell in match.group(2).split("|") if cell.strip()]
    return table


@pytest.fixture
def cpp_program():
    """The path of a C++ program of the build (GOBBLET_BIN_DIR, or on PATH)."""

    def find(name):
        bin_dir = os.environ.get("GOBBLET_BIN_DIR")
        path = Path(bin_dir) / name if bin_dir else shutil.which(name)
        if not path or not Path(path).is_file():
            pytest.skip(f"{name} not found: set GOBBLET_BIN_DIR to the build's bin folder")
        return str(path)

    return find


def interrupt(call):
    """Runs `call` (Python code using the module) in a child interpreter,
    sends it SIGINT (Ctrl-C) 0.3 s after it started, and returns what it
    printed ("interrupted\n" if the call raised KeyboardInterrupt) and the
    seconds from the signal to its exit."""
    # The child takes Ctrl-C as an interactive Python does, even where it
    # was started with SIGINT ignored (a background job of a script).
    script = ("import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
              "import gobblet\nprint('started', flush=True)\ntry:\n    " + call +
              "\nexcept KeyboardInterrupt:\n    print('interrupted', flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, _ = child.communicate(timeout=60)
        return out, time.monotonic() - sent
    finally:
        child.kill()
