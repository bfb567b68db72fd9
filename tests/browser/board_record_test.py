#!/usr/bin/python3
"""The browser board keeps the game record (issue 39, item 4), in headless Chromium against
`gobblet --http 127.0.0.1:0`, as a person uses it:

  M2   a move from an earlier position of a game record being explored (an imported finished
       game; a game played on the board to its end) becomes a variation: the main line, its
       result and the PGN's game stay, and the engine does not answer (it answered at once, and
       the new line became the game, exported with [Result "*"]); "Engine, move" plays one move.
  M3   a PGN's tags (the seven of every PGN, TimeControl, unknown ones, in their order) and its
       result round-trip through Import and Export PGN (they read "Player 1", "Player 2", *); a
       line end inside a tag's value stays text on one line and reaches nothing.
  L10  the whole record (moves, variations, comments, marks, tags, the variant, the position
       shown) survives a reload and the tab opened again at its address (a reload kept only the
       line of the address); New game starts afresh; a link to another game opens that game. A
       record in the browser's storage that is corrupt, forged, illegal or too long is refused
       with a note and a new game, sends nothing of it to the engine, and is replaced.

pytest tests on one page of one headless Chromium (fixtures: conftest.py). Run as a script:

  board_record_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import json
import re
import shutil
import sys
import tempfile
import time

import pytest

from board_driver import By, Keys, check, play_tictactoe_by_clicking, run_as_script
from board_test import LINE_BREAKING, RECORDER, start_server, stop_server  # noqa: F401 (RECORDER: conftest reads it)


@pytest.fixture(scope="module")
def page_url(binary):
    """`gobblet --http` on a free port (no tablebase: none is needed here)."""
    tb_dir = tempfile.mkdtemp(prefix="gobblet-no-tb-")
    server, port = start_server(binary, tb_dir)
    yield f"http://127.0.0.1:{port}/"
    stop_server(server)
    shutil.rmtree(tb_dir, ignore_errors=True)


# ---- helpers: what a person reads on the page ------------------------------------------------

def tag_lines(pgn):
    return [l for l in pgn.splitlines() if l.startswith("[")]


def movetext(pgn):
    """A PGN's movetext on one line, the result included."""
    return re.sub(r"\s+", " ", " ".join(l for l in pgn.splitlines() if l.strip() and not l.startswith("["))).strip()


def variation_moves(b):
    """Each variation of the move list (outermost first) as its moves."""
    return b.d.execute_script(
        "return [...document.querySelectorAll('#move-list .variation')].map((v) =>"
        " [...v.querySelectorAll(':scope > .move')].map((e) => e.textContent.trim()))")


def comments(b):
    return b.d.execute_script("return [...document.querySelectorAll('#move-list .comment')].map((e) => e.textContent)")


def glyphs(b):
    return b.d.execute_script("return [...document.querySelectorAll('#move-list .glyph')].map((e) => e.textContent)")


def current_move(b):
    """The move shown in the move list: its text and whether it is inside a variation."""
    return b.d.execute_script(
        "const e = document.querySelector('#move-list .move.current');"
        "return e ? [e.textContent.trim(), Boolean(e.closest('.variation'))] : null")


def bestmoves(b):
    return len([m for m in b.wire("received") if m.startswith("bestmove")])


def status_is_error(b):
    return "error" in b.d.find_element(By.ID, "status").get_attribute("class")


def go_to_ply(b, ply):
    b.click(b.find(f'#move-list .move[data-ply="{ply}"]'))
    b.wait(f"ply {ply}", lambda: b.body("ply") == str(ply))
    b.idle()


def play_other_move(b, player, avoid):
    """Player `player` drops the first legal piece of its reserve on the first lit square that
    does not make the move `avoid`. Returns the move."""
    piece = b.find(f"#reserve-{player} .reserve-piece.legal")
    size = piece.get_attribute("data-size")
    b.click(piece)
    target = next(t for t in b.targets() if f"{size}@{t}" != avoid)
    b.click(b.square(target))
    return f"{size}@{target}"


def no_engine_answer(b, searches, ply, what):
    """The engine answered nothing (no new bestmove), and the position shown stays at `ply`, for
    longer than the engine takes to answer (movetime 300)."""
    time.sleep(1.0)
    check(bestmoves(b) == searches and b.body("ply") == str(ply),
          f"{what}: the engine answered ({bestmoves(b) - searches} bestmove), ply {b.body('ply')}, moves {b.moves()}")


def reload(b):
    """The browser's Reload: the same address, a new document."""
    b.d.refresh()
    b.wait("the page to connect again", lambda: b.body("ready") == "1")
    b.idle()


# ---- M2: a move from an earlier position of a record is a variation ----------------------------

FINISHED_PGN = """[Event "Club night"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[Variant "gobblers"]

1. L@b2 S@a1 2. L@c3 M@a3 3. M@b3 S@c1 4. b3a1 1-0
"""
FINISHED_MAIN = ["L@b2", "S@a1", "L@c3", "M@a3", "M@b3", "S@c1", "b3a1"]


def test_m2_a_move_in_an_imported_finished_game_is_a_variation(b):
    """In an imported finished game against the engine, a move at ply 4 becomes a variation: the
    main line and its result stay (list and PGN), and the engine does not answer; "Engine, move"
    plays one move, in the variation."""
    b.load("#variant=gobblers")
    b.select("p1", "human")
    b.select("p2", "engine")
    b.select("time", "movetime 300")
    b.idle()
    b.import_game(FINISHED_PGN)
    b.wait("the game", lambda: b.moves() == FINISHED_MAIN and b.body("ply") == "7")
    b.idle()
    go_to_ply(b, 4)
    searches = bestmoves(b)
    played = play_other_move(b, 1, avoid=FINISHED_MAIN[4])
    b.wait("the move from ply 4", lambda: int(b.body("ply") or 0) >= 5)
    b.idle()
    no_engine_answer(b, searches, 5, "a move in an imported finished game")
    check(b.moves() == FINISHED_MAIN, f"the main line changed: {b.moves()}")
    check(variation_moves(b) == [[played]], f"the variations: {variation_moves(b)}")
    check(current_move(b) == [played, True], f"the move shown: {current_move(b)}")
    check("waits" in b.status(), f"the status: {b.status()!r}")
    pgn = b.export_pgn()
    print(f"after a move from ply 4: {movetext(pgn)}")
    check(movetext(pgn) == f"1. L@b2 S@a1 2. L@c3 M@a3 3. M@b3 (3. {played}) 3... S@c1 4. b3a1 1-0",
          f"the PGN's moves: {movetext(pgn)}")
    check('[Result "1-0"]' in tag_lines(pgn), f"the PGN's tags: {tag_lines(pgn)}")
    # "Engine, move" plays one move there, in the variation; the main line stays.
    b.click(b.d.find_element(By.ID, "engine-move"))
    b.wait("the engine's move", lambda: b.body("ply") == "6" and bestmoves(b) > searches, timeout=20)
    b.idle()
    check(b.moves() == FINISHED_MAIN and len(variation_moves(b)) == 1 and len(variation_moves(b)[0]) == 2
          and variation_moves(b)[0][0] == played, f"after Engine, move: {b.moves()}, {variation_moves(b)}")


def test_m2_a_finished_game_played_on_the_board_is_explored(b):
    """A tic-tac-toe game played against the engine to its end is a record: back at ply 2, the
    person's other move is a variation and the engine does not answer it."""
    b.load("#variant=tictactoe")
    main = play_tictactoe_by_clicking(b)
    result = movetext(b.export_pgn()).split()[-1]
    go_to_ply(b, 2)
    searches = bestmoves(b)
    played = play_other_move(b, 1, avoid=main[2])
    b.wait("the move from ply 2", lambda: int(b.body("ply") or 0) >= 3)
    b.idle()
    no_engine_answer(b, searches, 3, "a move in a finished game")
    check(b.moves() == main and variation_moves(b) == [[played]],
          f"the game {main} became {b.moves()}, variations {variation_moves(b)}")
    check(movetext(b.export_pgn()).split()[-1] == result, f"the result {result} became {movetext(b.export_pgn())}")


# ---- M3: tags and result round-trip ----------------------------------------------------------------

TAGGED_PGN = """[Event "Spring Open"]
[Site "Lyon"]
[Date "2024.03.09"]
[Round "4"]
[White "Ann Example"]
[Black "Bob \\"the Gobbler\\" Test"]
[Result "0-1"]
[TimeControl "300+2"]
[Annotator "line one
[Result \\"1-0\\"] line two"]
[Opening "Centre\u2028first"]
[Variant "gobblers"]

1. L@b2 S@a1 2. L@c3 {resigned} 0-1
"""
TAGGED_EXPORT = [
    '[Event "Spring Open"]', '[Site "Lyon"]', '[Date "2024.03.09"]', '[Round "4"]', '[White "Ann Example"]',
    '[Black "Bob \\"the Gobbler\\" Test"]', '[Result "0-1"]', '[Variant "gobblers"]', '[TimeControl "300+2"]',
    '[Annotator "line one [Result \\"1-0\\"] line two"]', '[Opening "Centre first"]',
]


def test_m3_tags_and_result_round_trip(b):
    """Every tag of an imported PGN and its result (a game resigned: 0-1 though not over on the
    board) are exported, in their order; a line end inside a tag's value is a space (the value
    stays one line and makes no tag of its own); exported and imported again, the same PGN; nothing
    with a line end is sent to the engine."""
    b.load("#variant=gobblers")
    b.idle()
    b.import_game(TAGGED_PGN)
    b.wait("the game", lambda: b.moves() == ["L@b2", "S@a1", "L@c3"])
    first = b.export_pgn()
    print("exported tags:\n  " + "\n  ".join(tag_lines(first)))
    check(tag_lines(first) == TAGGED_EXPORT, f"the exported tags: {tag_lines(first)}")
    check(movetext(first) == "1. L@b2 S@a1 2. L@c3 {resigned} 0-1", f"the exported moves: {movetext(first)}")
    check(not any(LINE_BREAKING.search(l) for l in first.split("\n")), f"a line end inside a line: {first!r}")
    b.import_game(first)
    check(b.export_pgn() == first, f"exported again:\n{b.export_pgn()}\nfirst:\n{first}")
    broken = [m for m in b.wire("sent") if LINE_BREAKING.search(m)]
    check(not broken, f"messages with line ends sent: {broken}")


# ---- L10: the record survives a reload ---------------------------------------------------------------

RECORD_PGN = """[Event "Study"]
[White "Ann"]
[Black "Bob"]
[Variant "gobblers"]

{Start} 1. L@b2 {centre} (1. M@b2 S@a1 (1... L@a1 {big} 2. S@c3) 2. L@c3) 1... S@a1 $6
2. L@c3 M@a3 (2... S@c1 {blocks} 3. M@a3) 3. M@b3 S@c1 *
"""


def record_seen(b):
    """What the page shows of the game: main line, variations, comments, marks, the position
    (text, ply, the move shown) and the variant selected."""
    return {"moves": b.moves(), "variations": variation_moves(b), "comments": comments(b), "glyphs": glyphs(b),
            "fen": b.body("fen"), "ply": b.body("ply"), "current": current_move(b),
            "variant": b.d.execute_script("return document.getElementById('variant').value")}


def test_l10_the_record_survives_a_reload(b):
    """An imported game with variations, comments and tags, a comment and a mark added in a
    variation, and a variation's position shown: after a reload, and after opening the tab again
    at its address, the page shows the same and exports the same PGN; the engine waits. A link to
    another game opens that game; New game starts afresh, and a reload keeps the new game."""
    b.load("#variant=gobblers")
    b.select("p1", "human")
    b.select("p2", "engine")
    b.idle()
    b.import_game(RECORD_PGN)
    b.click(b.d.find_elements(By.CSS_SELECTOR, "#move-list .variation .move")[3])  # 1... L@a1 {big} 2. S@c3: S@c3
    b.wait("the variation's move", lambda: current_move(b) == ["S@c3", True])
    b.idle()
    b.d.find_element(By.ID, "comment").send_keys("kept across a reload" + Keys.ENTER)
    b.select("glyph", "5")
    b.wait("the comment and mark", lambda: "kept across a reload" in comments(b) and "!?" in glyphs(b))
    before, pgn = record_seen(b), b.export_pgn()
    print(f"before the reload: {before}")
    reload(b)
    check(record_seen(b) == before, f"after a reload:\n  {record_seen(b)}\nbefore:\n  {before}")
    check(b.export_pgn() == pgn, f"the PGN after a reload:\n{b.export_pgn()}\nbefore:\n{pgn}")
    check(not status_is_error(b) and "waits" in b.status() and bestmoves(b) == 0, f"after a reload: {b.status()!r}")
    b.load(b.d.execute_script("return location.hash"))  # the tab closed, then opened again at its address
    check(record_seen(b) == before, f"the tab opened again:\n  {record_seen(b)}\nbefore:\n  {before}")
    # A link to another game opens it (and replaces the one kept).
    b.load("#variant=gobblers&moves=M%40a1")
    check(b.moves() == ["M@a1"] and not variation_moves(b), f"the link's game: {b.moves()}, {variation_moves(b)}")
    reload(b)
    check(b.moves() == ["M@a1"], f"the link's game after a reload: {b.moves()}")
    # New game starts afresh: a reload keeps the new game.
    b.import_game(RECORD_PGN)
    b.click(b.d.find_element(By.ID, "new-game"))
    b.wait("a new game", lambda: b.body("ply") == "0" and not b.moves())
    reload(b)
    check(not b.moves() and not comments(b) and b.body("fen") == "3/3/3 1",
          f"after New game and a reload: {b.moves()}, {comments(b)}, {b.body('fen')}")


# The address a forged record says it was shown at: opened there, the page restores it.
FORGED_LINK = "variant=gobblers&moves=L%40b2"


def forged(pgn, shown=()):
    return json.dumps({"format": 1, "pgn": pgn, "shown": list(shown), "explored": False, "link": FORGED_LINK})


# (what, the record, whether it is read only when the address shows it: else at any opening)
BAD_RECORDS = [
    ("not JSON", '{"format": 1, "pgn": ', False),
    ("not a record", json.dumps([1, 2, 3]), False),
    ("another format", json.dumps({"format": 99, "pgn": "", "shown": [], "explored": False, "link": ""}), False),
    ("a field of another type", json.dumps({"format": 1, "pgn": 7, "shown": [], "explored": False, "link": ""}),
     False),
    ("too long", None, False),  # (made in the page: a million and one characters)
    ("an illegal move", forged('[Variant "gobblers"]\n\n1. L@b2 S@b2 *\n'), True),
    ("a line end smuggled into a tag", forged('[Variant "gobblers"]\n[FEN "3/3/3 1\ngo infinite"]\n\n1. L@b2 *\n'),
     True),
    ("a line end smuggled into the variant", forged('[Variant "gobblers\nquit"]\n\n1. L@b2 *\n'), True),
    ("a position shown not in the game", forged('[Variant "gobblers"]\n\n1. L@b2 *\n', ["S@a1"]), True),
]


def test_l10_a_bad_record_is_refused(b):
    """A record in the browser's storage that is not a game of this page (unreadable, too long: at
    any opening; forged, with an illegal move or a line end smuggled into a tag: opened at the
    address it names) is refused: a note says why, a new game is shown, nothing of the record
    reaches the engine, no console error; the new game replaces it (opened again, no note)."""
    b.load()
    for what, text, at_its_address in BAD_RECORDS:
        if text is None:
            b.d.execute_script("localStorage.setItem('gobblet-board-game', 'x'.repeat(1000001))")
        else:
            b.d.execute_script("localStorage.setItem('gobblet-board-game', arguments[0])", text)
        fragment = "#" + FORGED_LINK if at_its_address else ""
        b.load(fragment)
        b.wait(f"the refusal of a record {what}", lambda: "kept in this browser was refused" in b.status())
        print(f"record {what}: {b.status()}")
        check(status_is_error(b), f"record {what}: the note is not shown as an error")
        check(b.body("fen") == "4/4/4/4 1" and not b.moves(), f"record {what}: {b.body('fen')}, {b.moves()}")
        sent = b.wire("sent")
        check(not [m for m in sent if LINE_BREAKING.search(m) or m.strip() in ("go infinite", "quit")],
              f"record {what}: sent {sent}")
        check(not [m for m in b.wire("received") if m.startswith(("info depth", "bestmove"))],
              f"record {what}: a search ran")
        b.load(fragment)
        check("refused" not in b.status() and not status_is_error(b),
              f"record {what}: refused again on the next opening: {b.status()!r}")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
