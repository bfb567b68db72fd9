#!/usr/bin/python3
"""Puzzle mode on the browser board (docs/board.md, "Puzzles"), in headless Chromium against
`gobblet --http 127.0.0.1:PORT`, as a person uses it, at a desktop's 1366 px and a phone's 390 px.

The puzzle is the first of the file the server serves (/puzzles.txt, the repository's
puzzles/puzzles.txt compiled in), read here from the server as the page reads it. Checks:
- The file is served as text/plain at /puzzles.txt.
- Puzzle (the header) shows the first puzzle's position, its id, rating and the player to move.
- A legal move other than the solution, clicked: "does not win" (the engine's prover asked),
  taken back: the puzzle's position again, no move in the list.
- Hint rings the piece of the solution (its square, or its size in the reserve).
- The proof's line played by clicking the person's moves: the board answers each with the line's
  defence, sending the engine no search (the recorded WebSocket); the last move solves it; the
  line is listed, and a click on its first move shows the position after it.
- On a 390x844 screen: Puzzle is in the header under the moves; the puzzle's words are in the
  status under the board, on the screen; Show solution lists the line and every move of it,
  clicked, shows its position; the last one is the solver's win; Next puzzle opens the file's next
  puzzle (the first again after the last).
- A file of the test's own (given to the page by a script run before the page's): a line whose
  position is markup and one of rating 9 skipped and said why, no element made; one whose line is
  not legal left out, said why, the next one opened (moves in any case read); off the line, a
  move that also wins (proved natively) accepted, the engine's defence, and the prover's winning
  moves played to the solve, each checked by the page.

pytest tests on one page of one headless Chromium (fixtures: conftest.py, and
board_connection_test.py's server). Run as a script, or with pytest itself:

  board_puzzle_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from board_driver import By, check, run_as_script
from board_test import RECORDER  # noqa: F401 (conftest reads it: the WebSocket recorded)
from board_connection_test import PHONE, page_url, phone_screen, rect, server  # noqa: F401 (fixtures, by name)

DESKTOP = (1366, 900)


def read_puzzles(url):
    """The puzzles the server serves at /puzzles.txt (its content type, and each line's fields)."""
    with urllib.request.urlopen(url + "puzzles.txt", timeout=10) as r:
        kind, text = r.headers.get("Content-Type", ""), r.read().decode("utf-8")
    puzzles = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pid, rating, position, solution, moves, plies = line.split("\t")
        puzzles.append({"id": int(pid), "rating": int(rating), "position": position, "solution": solution,
                        "line": moves.split(" "), "plies": int(plies)})
    return kind, puzzles


@pytest.fixture(scope="module")
def puzzles(page_url):
    kind, found = read_puzzles(page_url)
    check(kind.startswith("text/plain"), f"/puzzles.txt is served as {kind!r}")
    check(found, "no puzzle in /puzzles.txt")
    return found


@pytest.fixture(autouse=True)
def desktop(b):
    """Each test starts on a desktop's window, and leaves one."""
    b.d.set_window_size(*DESKTOP)
    yield
    b.d.set_window_size(*DESKTOP)


def legal_moves(binary, position):
    """The legal moves at `position`, as the engine lists them over stdin."""
    out = subprocess.run([binary], input=f"position fen {position}\nmoves\nquit\n", capture_output=True, text=True,
                         timeout=30).stdout
    line = next(l for l in out.splitlines() if l.startswith("moves"))
    return line.split()[1:]


def losing_move(binary, p):
    """A legal move of puzzle `p` other than its solution that the engine's prover (stdin) shows to
    lose soonest: the page's prover, given a few seconds, then surely finds it does not win."""
    found = []
    for move in legal_moves(binary, p["position"]):
        if move == p["solution"]:
            continue
        with subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as engine:
            engine.stdin.write(f"position fen {p['position']} moves {move}\ngo prove nodes 20000\n")
            engine.stdin.flush()
            for line in engine.stdout:  # (the proof's answer comes before its bestmove)
                m = re.match(r"info string proof win plies (\d+)", line)
                if m:
                    found.append((int(m.group(1)), move))
                if line.startswith("bestmove"):
                    break
            engine.stdin.write("quit\n")
            engine.stdin.flush()
    check(found, f"no other move of puzzle {p['id']} proved to lose")
    return min(found)[1]


def side_of(position, ply):
    """Who plays the move at `ply` of a line from `position`."""
    first = int(position.split()[1])
    return first if ply % 2 == 0 else 3 - first


def click_move(b, move, side):
    """Plays `move` for player `side` by clicking, as a person does: the reserve's size or the piece's
    square, then the target square."""
    if move[1] == "@":
        b.click(b.reserve(side, move[0].upper()))
    else:
        b.click(b.square(move[:2]))
    b.click(b.square(move[-2:]))


def text(b, element_id):
    return b.d.find_element(By.ID, element_id).text


def open_first_puzzle(b, p):
    b.load()
    b.click(b.d.find_element(By.ID, "puzzle-start"))
    b.wait("the first puzzle", lambda: b.body("fen") == p["position"]
           and f"Puzzle {p['id']} " in text(b, "puzzle-text"))
    b.wait("the person's turn", lambda: "Find the move that wins" in text(b, "puzzle-text"))


def sent_searches(b, start):
    """The `go` lines the page sent over the WebSocket since message `start`."""
    return [m for m in b.wire("sent")[start:] if m.split(" ")[0] == "go"]


def solve_by_clicking(b, p, wrong):
    """The puzzle `p` opened by the Puzzle button and solved as a person does: `wrong` (a legal move
    that does not win) judged and taken back, the hint, then the line's moves clicked, each answered
    by the line's defence. Where the page's WebSocket is recorded, no search is sent meanwhile."""
    side = side_of(p["position"], 0)
    open_first_puzzle(b, p)
    words = text(b, "puzzle-text")
    print(f"puzzle shown: {words!r}")
    check(f"rating {p['rating']} of 5" in words and f"player {side} to move and win" in words,
          f"the panel says {words!r}")
    check(b.status() == words, f"the status says {b.status()!r}, not the puzzle")
    check(b.moves() == [], f"moves in the list at the start: {b.moves()}")

    # A move that does not win: said, and taken back.
    click_move(b, wrong, side)
    b.wait("the judgement of the wrong move", lambda: "does not win" in text(b, "puzzle-text")
           or "not the proved move" in text(b, "puzzle-text"), timeout=60)
    words = text(b, "puzzle-text")
    print(f"after {wrong}: {words!r}")
    check(words.startswith(f"{wrong} does not win"), f"the wrong move {wrong} is judged {words!r}")
    b.wait("the position again", lambda: b.body("fen") == p["position"] and b.moves() == [])

    # The hint: the piece of the solution ringed.
    b.click(b.d.find_element(By.ID, "puzzle-hint"))
    b.wait("the hint", lambda: text(b, "puzzle-text").startswith("Hint:"))
    ringed = b.d.execute_script("return [...document.querySelectorAll('.puzzle-hint')]"
                                ".map((e) => e.dataset.sq || ('reserve-' + e.closest('.reserve').id.slice(-1) + ' '"
                                " + e.dataset.size))")
    solution = p["solution"]
    want = [f"reserve-{side} {solution[0]}"] if solution[1] == "@" else [solution[:2]]
    check(ringed == want, f"the hint rings {ringed}, the solution is {solution}")

    # The line, the person's moves clicked; the board answers with the line's defence, no search sent.
    wire = b.wire("sent")
    for i in range(0, len(p["line"]), 2):
        click_move(b, p["line"][i], side)
        played = p["line"][:i + 2]
        if i + 1 < len(p["line"]):
            b.wait(f"the defence {p['line'][i + 1]}", lambda: b.moves() == played
                   and "Your move" in text(b, "puzzle-text"))
            check(f"The best defence: {p['line'][i + 1]}" in text(b, "puzzle-text"), text(b, "puzzle-text"))
    b.wait("the solve", lambda: text(b, "puzzle-text").startswith("Solved"))
    check(b.moves() == p["line"], f"the game holds {b.moves()}, the line is {p['line']}")
    if wire is not None:
        check(not sent_searches(b, len(wire)), f"searches sent while the line was played: "
              f"{sent_searches(b, len(wire))}")
    check(f"player {side} wins" in text(b, "puzzle-text"), text(b, "puzzle-text"))
    listed = b.d.execute_script("return [...document.querySelectorAll('#puzzle-line .puzzle-move')]"
                                ".map((e) => e.textContent)")
    check(listed == p["line"], f"the line listed is {listed}")


def test_a_puzzle_solved_by_clicking(b, binary, puzzles, out_dir):
    p = puzzles[0]
    solve_by_clicking(b, p, losing_move(binary, p))
    b.d.save_screenshot(os.path.join(out_dir, "board-puzzle.png"))
    b.click(b.find('#puzzle-line [data-index="0"]'))
    b.wait("the line's first move shown", lambda: b.body("ply") == "1")
    check(b.d.execute_script("return document.querySelector('#puzzle-line .current').dataset.index") == "0",
          "the line's first move is not marked as shown")


def test_a_puzzle_on_a_phone_shown_and_stepped_through(b, puzzles, out_dir):
    p = puzzles[0]
    b.load()
    phone_screen(b)
    start = b.d.find_element(By.ID, "puzzle-start")
    check(start.is_displayed(), "no Puzzle button on a phone")
    b.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", start)
    b.click(start)
    b.wait("the first puzzle", lambda: b.body("fen") == p["position"]
           and "Find the move that wins" in text(b, "puzzle-text"))
    b.d.execute_script("window.scrollTo(0, 0)")
    status = rect(b, "status")
    check(0 <= status[0] and status[1] <= PHONE[1], f"the status is off the screen: {status}")
    check(b.status().startswith(f"Puzzle {p['id']} "), f"the status under the board says {b.status()!r}")
    panel, moves = rect(b, "puzzle-panel"), rect(b, "moves-panel")
    check(panel[1] <= moves[0] + 1, f"the puzzle panel {panel} is not above the moves {moves}")
    b.click(b.d.find_element(By.ID, "puzzle-solution"))
    b.wait("the solution shown", lambda: text(b, "puzzle-text").startswith(f"The solution of puzzle {p['id']}"))
    for i in range(len(p["line"])):
        b.click(b.find(f'#puzzle-line [data-index="{i}"]'))
        b.wait(f"the line's move {i + 1}", lambda: b.body("ply") == str(i + 1))
        check(b.moves()[:i + 1] == p["line"][:i + 1], f"the line's moves {b.moves()}")
    winner = side_of(p["position"], 0)
    b.wait("the win at the line's end", lambda: b.status().startswith(f"Player {winner} wins"))
    b.d.save_screenshot(os.path.join(out_dir, "board-puzzle-phone.png"))
    b.click(b.d.find_element(By.ID, "puzzle-next"))
    nxt = puzzles[1 % len(puzzles)]
    b.wait("the next puzzle", lambda: b.body("fen") == nxt["position"]
           and text(b, "puzzle-text").startswith(f"Puzzle {nxt['id']} "))


# A puzzle file of this test's own, given to the page in place of the served one (a script the
# browser runs before the page's: the page itself has no hook): a puzzle of player 2's (the engine's
# side as the page starts: the person solves it all the same) whose solver's second move has other
# winning moves than the line's (its moves partly in the wrong case: read as the engine writes
# them), a line whose position carries markup, one of rating 9, one whose line is not legal (c1c2
# moves from an empty square: the puzzle is left out, said, and the next one opened).
OWN_PUZZLE = "[lX][Lx][lX]1/[lX]xm1/[Sm]M[Mx]L/[Sm]L2 2"
OWN_LINE = ["b3b2", "a3d4", "a3b3", "M@a3", "c2b1"]
OWN_FILE = "\n".join([
    "# the test's own puzzles",
    "\t".join(["1", "2", "<img src=x onerror=window.__ran=1>", "b3b2", "b3b2", "1"]),
    "\t".join(["2", "9", OWN_PUZZLE, "b3b2", " ".join(OWN_LINE), "5"]),
    "\t".join(["4", "3", OWN_PUZZLE, "b3b2", "b3b2 c1c2 a3b3 M@a3 c2b1", "5"]),
    "\t".join(["3", "3", OWN_PUZZLE, "B3B2", " ".join([OWN_LINE[0], OWN_LINE[1].upper()] + OWN_LINE[2:]), "5"]),
])
FETCH_OWN_FILE = """
(() => {
  const text = %s, real = window.fetch.bind(window);
  window.fetch = (url, ...rest) => (String(url).endsWith('puzzles.txt')
    ? Promise.resolve(new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain' } }))
    : real(url, ...rest));
})();
"""


def proved_win(binary, position):
    """The winning move the engine's prover (stdin) finds at `position`, or None."""
    with subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as engine:
        engine.stdin.write(f"position fen {position}\ngo prove movetime 5000\n")
        engine.stdin.flush()
        best = None
        for line in engine.stdout:
            if line.startswith("bestmove"):
                best = line.split()[1]
                break
        engine.stdin.write("quit\n")
        engine.stdin.flush()
    return None if best in (None, "(none)") else best


def test_an_untrusted_file_and_a_winning_move_off_the_line(b, binary):
    """The page reads a file of this test's: the lines that are not puzzles are skipped, said why, and
    make no element (markup in a position); a puzzle whose line is not legal is left out, said why;
    the next one is opened (its moves in the wrong case read as the engine's); gone back to the start
    before the defence, the defence comes all the same; a reload takes it up again;
    a move at the start, gone back to, is not played, the puzzle's position shown again; player 2 (the engine's side
    in the players chosen) to move. Off the line: after the line's first move and defence, another
    move that wins (S@b3, proved natively) is accepted as also winning, the engine defends, and the
    win the prover (stdin) finds, played move by move, each checked by the page, solves it."""
    import json
    script = b.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                 {"source": FETCH_OWN_FILE % json.dumps(OWN_FILE)})["identifier"]
    try:
        b.load()
        b.click(b.d.find_element(By.ID, "puzzle-start"))
        b.wait("the own file's puzzle", lambda: b.body("fen") == OWN_PUZZLE
               and "Find the move that wins" in text(b, "puzzle-text"))
        note = text(b, "puzzle-note")
        print(f"the file's note: {note!r}")
        check(note.startswith("2 puzzles; 2 lines skipped (line 2: '<img src=x onerror=window.__ran=1>' is not a "
                              "position text") and "line 3: the rating '9' is not 1 to 5" in note, note)
        check("Puzzle 4 left out: its line is not legal at move 2 (" in note, note)
        check(text(b, "puzzle-text").startswith("Puzzle 3 · rating 3 of 5"), text(b, "puzzle-text"))
        check(not b.d.execute_script("return window.__ran || document.querySelectorAll('img').length"),
              "the file's markup made an element or ran")
        check(b.d.execute_script("return document.getElementById('p2').value") == "engine", "player 2 is a person")
        check(not b.d.find_element(By.ID, "engine-move").is_displayed(), "Engine, move is offered in a puzzle")
        click_move(b, OWN_LINE[0], 2)
        # Gone back to the start before the defence (half a second): the defence comes all the same.
        b.d.execute_script("document.getElementById('nav-start').click()")
        b.wait("the defence", lambda: b.moves() == OWN_LINE[:2] and "Your move" in text(b, "puzzle-text")
               and b.body("ply") == "2")
        # A reload: the puzzle is taken up again where it stood, Engine, move (the solver's side) not offered.
        b.d.refresh()
        b.wait("the puzzle after a reload", lambda: b.body("ready") == "1" and b.moves() == OWN_LINE[:2]
               and text(b, "puzzle-text").startswith("Puzzle 3 · ") and "Your move" in text(b, "puzzle-text"))
        check(not b.d.find_element(By.ID, "engine-move").is_displayed(), "Engine, move is offered after a reload")
        # Back at the start in the move list, another move: not played, the puzzle's position again.
        other = next(m for m in legal_moves(binary, OWN_PUZZLE) if m != OWN_LINE[0] and "@" not in m)
        b.click(b.d.find_element(By.ID, "nav-start"))
        b.wait("the start", lambda: b.body("ply") == "0")
        click_move(b, other, 2)
        b.wait(f"{other} not played", lambda: b.body("ply") == "2"
               and text(b, "puzzle-text").startswith("Back to the puzzle"))
        check(b.moves() == OWN_LINE[:2] and "Your move" in text(b, "puzzle-text"),
              f"after {other} at the start: {b.moves()}, {text(b, 'puzzle-text')!r}")
        click_move(b, "S@b3", 2)
        b.wait("S@b3 judged", lambda: "also wins" in text(b, "puzzle-text") or "not" in text(b, "puzzle-text"),
               timeout=60)
        check(text(b, "puzzle-text").startswith("S@b3 also wins (proved by the engine)"), text(b, "puzzle-text"))
        for _ in range(6):
            b.wait("the engine's defence or the solve", lambda: "Your move" in text(b, "puzzle-text")
                   or text(b, "puzzle-text").startswith("Solved"), timeout=60)
            if text(b, "puzzle-text").startswith("Solved"):
                break
            move = proved_win(binary, b.body("fen"))
            check(move, f"no proved win at {b.body('fen')}")
            before = len(b.moves())
            click_move(b, move, 2)
            b.wait(f"{move} taken", lambda: len(b.moves()) > before and "Checking" not in text(b, "puzzle-text"),
                   timeout=60)
        check(text(b, "puzzle-text").startswith("Solved: puzzle 3, player 2 wins"), text(b, "puzzle-text"))
        print(f"solved off the line: {b.moves()}")
        check(b.moves()[:3] == OWN_LINE[:2] + ["S@b3"] and len(b.moves()) % 2 == 1, f"the game: {b.moves()}")
    finally:
        b.d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})


def test_show_solution_while_the_defence_comes_gives_up(b, puzzles):
    """Show solution clicked in the half second before the line's defence: the puzzle is given up
    and stays given up (the proof's line listed, no more "Your move"), not taken up again by the
    defence that was coming."""
    # The first puzzle of the first rating whose first puzzle has a defence (a line of 3 plies or more).
    firsts = [next(q for q in puzzles if q["rating"] == r) for r in sorted({q["rating"] for q in puzzles})]
    p = next((q for q in firsts if len(q["line"]) >= 3), None)
    check(p is not None, "no rating of the file begins with a puzzle that has a defence")
    side = side_of(p["position"], 0)
    b.load()
    b.click(b.d.find_element(By.ID, "puzzle-start"))
    b.wait("a puzzle", lambda: "Find the move that wins" in text(b, "puzzle-text"))
    b.select("puzzle-rating", str(p["rating"]))
    b.click(b.d.find_element(By.ID, "puzzle-next"))
    b.wait(f"puzzle {p['id']}", lambda: b.body("fen") == p["position"] and f"Puzzle {p['id']} " in text(b, "puzzle-text")
           and "Find the move that wins" in text(b, "puzzle-text"))
    click_move(b, p["solution"], side)
    b.d.execute_script("document.getElementById('puzzle-solution').click()")
    # (Six times the board's delay before its defence: where the page waited less, a defence still
    # coming would be missed and the test pass; it never fails for a slow machine.)
    time.sleep(6 * 0.5)
    words = text(b, "puzzle-text")
    print(f"after Show solution: {words!r}, moves {b.moves()}")
    check(words.startswith(f"The solution of puzzle {p['id']}"), f"after Show solution the panel says {words!r}")
    check(b.moves() == p["line"][:1], f"the game after Show solution: {b.moves()}")
    check(b.d.find_element(By.ID, "puzzle-line-box").is_displayed(), "the proof's line is not listed")


def test_a_rating_without_puzzles_is_said(b):
    """A rating of which the file has no puzzle, chosen in the panel, then a normal game (New game):
    Puzzle says that there is none of it (the panel shown), it does not do nothing."""
    import json
    script = b.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                 {"source": FETCH_OWN_FILE % json.dumps(OWN_FILE)})["identifier"]
    try:
        b.load()
        b.click(b.d.find_element(By.ID, "puzzle-start"))
        b.wait("the own file's puzzle", lambda: "Find the move that wins" in text(b, "puzzle-text"))
        b.select("puzzle-rating", "1")
        b.click(b.d.find_element(By.ID, "new-game"))
        b.wait("a new game", lambda: b.body("fen") == "4/4/4/4 1" and b.moves() == [])
        b.click(b.d.find_element(By.ID, "puzzle-start"))
        b.wait("the panel's words", lambda: b.d.find_element(By.ID, "puzzle-note").is_displayed()
               and "None of rating 1" in text(b, "puzzle-note"), timeout=10)
        check(b.status().startswith("No puzzle of rating 1"), f"the status says {b.status()!r}")
        b.select("puzzle-rating", "0")  # (any: what was said of rating 1 goes)
        b.wait("the note of any rating", lambda: text(b, "puzzle-note").startswith("2 puzzles;")
               and "None of rating" not in text(b, "puzzle-note"))
    finally:
        b.d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
