#!/usr/bin/python3
"""The browser board (`gobblet --http 127.0.0.1:0 --tablebase-dir DIR`) when a 3x3 variant's
tablebase file is there but cannot be read (issue 39, H1): the variant is never refused for it.

Checks: with a truncated gobblers.gtb in the server's tablebase folder, a `#variant=gobblers` link
is taken (it was refused: "The link's game was refused: tablebase file '…': truncated …", since the
engine said the file's problem as an error line) and choosing gobblers in the selector starts a
gobblers game (it fell back to 4x4); the game is played (a move clicked, the engine's answer)
without exact values; the page says why there are none and how to get them ("its file … is
damaged ('gobblet-tb build gobblers' makes it anew)") in a note that stays through the moves, and
no refusal. The engine itself still tells the file's problem (an `info string warning:` line, no
error line) and plays on.

The same server reads a proof database of gobblers (`--proof-db`, made here by `gobblet-prove prove
--db`): at the start, which it holds, the page says at once, with no search and no Prove button,
that player 1 wins in at most N plies and with which move, and the bar shows the proved win; after
that move, that player 2 loses; after a board move since the last drop (where a repetition could
matter, so the database is not used) it says nothing of a proof. A second database, of
tic-tac-toe, holds its start for both sides (`gobblet-prove prove --draw --db`): the page says at
once that it is a proved draw, with the side to move's move, and the bar shows the proved draw
(issue 61). The page offers no "Load proof
database…" (the static site's, docs/wasm.md: a server's engine reads the files its server names).

pytest tests, in the order below, on one page of one headless Chromium (fixtures: conftest.py).
Run as a script, or with pytest itself:

  board_tablebase_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from board_driver import By, TIMEOUT, check, run_as_script

from board_test import start_server, stop_server  # noqa: E402  (the board's own server helpers)


@pytest.fixture(scope="module")
def tb_dir(tb_binary):
    """A tablebase folder whose gobblers.gtb is cut short: the first 4 KiB of a real tablebase
    file (3x3:2,2,1's, built here), as a download or a copy that stopped would leave it."""
    path = tempfile.mkdtemp(prefix="gobblet-tb-cut-")
    whole = os.path.join(path, "whole.gtb")
    subprocess.run([tb_binary, "build", "3x3:2,2,1", "--out", whole], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(whole, "rb") as f:
        head = f.read(4096)
    os.remove(whole)
    with open(os.path.join(path, "gobblers.gtb"), "wb") as f:
        f.write(head)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def proof_db(binary):
    """A proof database of gobblers holding the start's win and the positions its strategy reaches
    by a drop, made by the prover."""
    path = tempfile.mkdtemp(prefix="gobblet-pdb-")
    db = os.path.join(path, "gobblers.pdb")
    subprocess.run([os.path.join(os.path.dirname(binary), "gobblet-prove"), "prove", "--variant", "gobblers",
                    "--db", db], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    yield db
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def draw_db(binary):
    """A proof database of tic-tac-toe holding its start for both sides (a draw: two not-lost
    certificates), made by the prover."""
    path = tempfile.mkdtemp(prefix="gobblet-pdb-draw-")
    db = os.path.join(path, "tictactoe.pdb")
    subprocess.run([os.path.join(os.path.dirname(binary), "gobblet-prove"), "prove", "--variant", "tictactoe",
                    "--draw", "--db", db], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=TIMEOUT)
    yield db
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def page_url(binary, tb_dir, proof_db, draw_db):
    """`gobblet --http` on a free port, its tablebase folder tb_dir, its proof databases proof_db
    and draw_db: the page under test."""
    server, port = start_server(binary, tb_dir, extra=["--proof-db", proof_db, "--proof-db", draw_db])
    yield f"http://127.0.0.1:{port}/"
    stop_server(server)


def hint(b):
    """The note under the analysis about the tablebase: its text if shown, else None."""
    e = b.d.find_element(By.ID, "tb-hint")
    return e.text if e.is_displayed() else None


def check_note_says_why_and_how(b):
    """The note is on the screen, says why gobblers has no exact values and how to get them."""
    b.wait("the note about the tablebase", lambda: hint(b))
    note = hint(b)
    check("gobblers" in note and "damaged" in note and "gobblet-tb build gobblers" in note,
          f"the note does not say why there are no exact values and how to get them: {note!r}")
    check(b.d.find_element(By.ID, "tb").get_attribute("hidden") is not None,
          "exact values are shown from a file that cannot be read")
    return note


def play_a_move(b):
    """The person (player 1) clicks a legal drop; waits for the engine's answer (ply 2)."""
    b.idle()
    b.click(b.d.find_elements(By.CSS_SELECTOR, "#reserve-1 .reserve-piece.legal")[0])
    targets = b.targets()
    check(targets, "no legal target lit after picking a piece")
    b.click(b.square(targets[0]))
    b.wait("the engine's answer", lambda: b.body("ply") == "2")
    b.idle()


def test_engine_warns_and_plays_on(binary, tb_dir):
    """The engine says what is wrong with the file as a warning, not as an error line that a
    front end takes for the refusal of the variant it chose, and plays gobblers without it."""
    script = "setoption name Variant value gobblers\nisready\nposition startpos\ngo depth 3\nquit\n"
    out = subprocess.run([binary, "--tablebase-dir", tb_dir], input=script, capture_output=True, text=True,
                         timeout=TIMEOUT).stdout.splitlines()
    warnings = [l for l in out if l.startswith("info string warning: ")]
    errors = [l for l in out if l.startswith("info string error")]
    print(f"engine: {warnings}")
    check(not errors, f"the engine answers the variant's choice with an error line: {errors}")
    check(warnings and "gobblers.gtb" in warnings[0] and "truncated" in warnings[0],
          f"the engine does not say what is wrong with the file: {out}")
    check(any(re.match(r"bestmove [A-Z]@[a-c][1-3]$", l) for l in out), f"no move without the file: {out}")


def test_link_to_gobblers_is_played_without_exact_values(b):
    """A `#variant=gobblers` link: the game is taken (not refused), played, and the note stays."""
    b.load("#variant=gobblers")
    check("refused" not in b.status(), f"the link's game was refused: {b.status()!r}")
    check(b.body("fen") == "3/3/3 1" and b.d.execute_script("return document.getElementById('variant').value")
          == "gobblers", f"not a gobblers game: {b.body('fen')!r}, status {b.status()!r}")
    note = check_note_says_why_and_how(b)
    print(f"note: {note!r}")
    b.select("p1", "human")
    b.select("p2", "engine")
    b.select("time", "movetime 300")
    play_a_move(b)
    check(hint(b) == note, f"the note did not stay through the moves: {hint(b)!r}")
    check("refused" not in b.status().lower(), f"status after the moves: {b.status()!r}")


def test_choosing_gobblers_starts_a_gobblers_game(b):
    """From the 4x4 start, gobblers chosen in the selector: a gobblers game (it fell back to 4x4)."""
    b.load("#variant=gobblet")
    check(b.body("fen") == "4/4/4/4 1", f"the 4x4 start expected, got {b.body('fen')!r}")
    b.new_game("gobblers", p1="human", p2="engine", start_fen="3/3/3 1")
    check("refused" not in b.status().lower(), f"the variant was refused: {b.status()!r}")
    check_note_says_why_and_how(b)
    play_a_move(b)
    check(hint(b), "the note went away after the moves")


def proof_said(b):
    """The proof panel's text ('' where hidden)."""
    e = b.d.find_element(By.ID, "proof")
    return e.text if e.is_displayed() else ""


def bar_text(b):
    return b.d.find_element(By.ID, "eval-text").text


def test_a_position_the_proof_database_holds_is_shown_proved_at_once(b):
    """The start, held by the server's database: proved at once, with its move; the bar shows it.
    After that move the other side's loss; after a board move since the last drop, nothing."""
    b.load("#variant=gobblers")
    check(not b.d.find_element(By.ID, "proof-load").is_displayed(), "the server's page offers to load a file")
    b.wait("the database's proof of the start", lambda: "Proved (proof database)" in proof_said(b))
    said = proof_said(b)
    print(f"start: {said!r}, bar {bar_text(b)!r}")
    m = re.search(r"player 1 wins in at most (\d+) plies, starting with ([SML]@[a-c][1-3])\.", said)
    check(m and int(m.group(1)) >= 13, f"the start's proof is not said as a win of player 1: {said!r}")
    plies, move = int(m.group(1)), m.group(2)
    b.wait("the bar's proved value", lambda: bar_text(b) == f"W≤{plies}")
    b.load("#variant=gobblers&moves=" + move.replace("@", "%40"))
    b.wait("the database's proof after the move", lambda: "player 2 loses in at most" in proof_said(b))
    print(f"after {move}: {proof_said(b)!r}")
    b.load("#variant=gobblers&moves=L%40b2,L%40a1,M%40c2,a1a3,S%40c3,a3a1")
    b.wait("the position after a board move", lambda: b.body("ply") == "6")
    b.idle()
    check("Proved" not in proof_said(b), f"a proof is said where a repetition could matter: {proof_said(b)!r}")



def test_a_draw_the_proof_database_holds_is_shown_proved_at_once(b):
    """Tic-tac-toe's start, held by the server's database for both sides: a proved draw at once,
    with the side to move's move, and the bar's exact value a proved draw; after that move (a
    position the database does not hold), nothing."""
    b.load("#variant=tictactoe")
    b.wait("the database's draw of the start", lambda: "Proved (proof database): a draw" in proof_said(b))
    said = proof_said(b)
    print(f"start: {said!r}, bar {bar_text(b)!r}")
    m = re.fullmatch(r"Proved \(proof database\): a draw — neither side can win; player 1 holds it starting with "
                     r"(S@[a-c][1-3])\.", said)
    check(m, f"the start's draw is not said as one: {said!r}")
    b.wait("the bar's proved draw",
           lambda: b.d.execute_script("return document.getElementById('eval-bar').getAttribute('aria-valuetext')")
           == "a draw (proved)")
    b.load("#variant=tictactoe&moves=" + m.group(1).replace("@", "%40"))
    b.wait("the position after the move", lambda: b.body("ply") == "1")
    b.idle()
    check("Proved (proof database)" not in proof_said(b), f"a proof said after the move: {proof_said(b)!r}")

if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
