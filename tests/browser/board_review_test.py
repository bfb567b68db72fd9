#!/usr/bin/python3
"""The browser board's game review (issue 39, item 3), in headless Chromium against `gobblet
--http 127.0.0.1:0` with the small 3x3 tablebases of board_test.py.

Checks, each of which the page of before failed (it had no review):
- A 4x4 game with a known blunder (player 2 leaves player 1's line open, player 1 wins at once):
  "Review game" marks that move ?? (every mark the class of the review's own searches, read off
  the wire, replayed over stdin on an engine made fresh as the review makes it), shows its
  progress ("move k of n") and each player's accuracy, starts no search but its own (`go nodes
  100000`, `go nodes 1000000`) and makes the engine play no move; the PGN export holds the NAG
  ($4), and importing that PGN keeps the mark.
- A full-strength game (gobblet-match) lost by one move that a depth-10 search over stdin says
  loses more than 0.1: the review (its engine made fresh: Threads 1, Hash 16, uginewgame) marks it
  a mistake or a blunder (the page of before called it "good" or an inaccuracy), every mark as the
  replayed searches give it; the chart has a point for every position (before: none); the summary
  names the move that lost the game, and a click shows it (before: not named).
- "Learn from your mistakes" for player 2 steps to the position before the blunder, turns down a
  move that loses at once, and accepts the review's best move there, played as a variation.
- A longer 4x4 game: the review runs beside the board (the person steps through the game while
  it runs) and Cancel stops it, the marks found so far kept.
- A 3x3:2,2,1 game reviewed by its tablebase, without a search: a draw thrown into a loss is a
  blunder (??), a win thrown into a draw a mistake (?), each mark as the engine's own `query values`
  over stdin says.
- The engine level (the settings' selector, kept between visits): the engine plays its moves at
  the Skill Level chosen (`setoption name Skill Level value 3` before its search) and analyses at
  full strength (20); the level is there again after a reload.
- A long game (1,200 plies of 4x4:2,1, every position at most twice, reviewed by its tablebase):
  while the review runs, its progress says how long it has left ("Reviewing move 120 of 1200,
  about 30 s left…"), the move list is not drawn anew for each move judged (the page of before
  rebuilt the whole list at every move: a 5,000-ply game held the page half the time, a click
  waited seconds), the main thread is free most of the time with no block of a second or more,
  and a click on a move is answered without drawing the list anew; cancelled, the marks drawn
  move by move are as many as it says, each class with its glyph and its NAG in the PGN.
- With --site DIR (the static site, build/wasm/site): the same 4x4 game reviewed there, by the
  WebAssembly engine in its Web Worker, from a plain static server: the blunder marked, its NAG in
  the PGN (skipped without --site; tools/test.sh's static site run gives it).

pytest tests on one page of one headless Chromium (fixtures: conftest.py, and board_test.py's
server with its tablebases). Run as a script, or with pytest itself:

  board_review_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR
                       [--site build/wasm/site] [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import os
import random
import re
import subprocess
import sys
import time

import pytest

from board_driver import Board, By, Failure, check, run_as_script
# The server with its 3x3 tablebases (fixtures), the WebSocket recorder.
from board_test import RECORDER, page_url, tb_dir  # noqa: F401 (fixtures are used by name)
from board_connection_test import PHONE, phone_screen, rect

# The review's searches (review_run.js REVIEW_NODES, DEEP_NODES): every position, then the moves that matter.
REVIEW_GOS = ("go nodes 100000", "go nodes 1000000")
# The engine a review makes fresh: one thread, a table of 16 MiB, emptied (engine_session.js freshEngine).
FRESH_ENGINE = ["setoption name Threads value 1", "setoption name Hash value 16", "uginewgame"]

# Player 2's third move leaves a1-b1-c1's fourth square open: player 1 wins at once (L@d1).
BLUNDER_GAME = ["X@a1", "X@d4", "X@b1", "X@d3", "X@c1", "L@a4", "L@d1"]
BLUNDER_PLY = 6
BLUNDER_PGN = """[Event "review test"]
[Variant "gobblet"]

1. X@a1 X@d4 2. X@b1 X@d3 3. X@c1 L@a4 4. L@d1 *
"""

# A full-strength game (gobblet-match, the engine against itself at 0.1 s a move after three random
# plies): player 1 wins. Player 2's 12... a1c2 (ply 24) loses about 0.38 of their expected score at
# depth 10 over stdin (0.12 by the review of before: "an inaccuracy").
FULL_STRENGTH_GAME = """[Event "gobblet-match"]
[Variant "gobblet"]
[Result "1-0"]

1. X@d2 X@a1 2. d2c3 X@d1 3. X@c1 L@d3 4. X@c2 X@c4 5. L@d2 d1d2 6. c1d3 L@b4
7. c3b4 M@a2 8. M@b1 L@d1 9. d3d1 S@c3 10. b1c3 M@b3 11. S@a4 a2a4 12. c2b3
a1c2 13. L@b1 c4b1 14. b4d3 c2a3 15. L@c2 b1c2 16. M@c1 b4c1 17. M@b4 a3c3 18.
S@b2 1-0
"""
FULL_STRENGTH_PLIES = 35
LOSING_PLY = 24
LOSING_MOVE = "a1c2"


# ---- the engine over stdin: what the page's marks are checked against ----------------------

def stdin_engine(binary, tb_dir, lines, until):
    """Runs `binary` on stdin with `lines`; returns its output lines up to the first for which
    `until(line)` holds, per command group (a list of lists)."""
    proc = subprocess.Popen([binary, "--tablebase-dir", tb_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    answers = []
    try:
        for group in lines:
            for line in group:
                proc.stdin.write(line + "\n")
            proc.stdin.flush()
            got = []
            for line in proc.stdout:
                got.append(line.strip())
                if until(line):
                    break
            answers.append(got)
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=10)
    return answers


def review_searches(b, since):
    """The searches the page sent from wire message `since` on: [(position line, go line)], in order."""
    lines = sent_lines(b, since)
    return [(lines[k - 1], line) for k, line in enumerate(lines)
            if line.startswith("go") and k and lines[k - 1].startswith("position")]


def replayed_values(binary, tb_dir, searches):
    """`searches` (review_searches) replayed over stdin on an engine made fresh as the review makes it:
    {moves played: (best move, expected score W + D/2 of the side to move)}, the last search of
    each position."""
    groups = [["setoption name UCI_ShowWDL value true"] + FRESH_ENGINE + ["isready"]]
    groups += [[position, go] for position, go in searches]
    answers = stdin_engine(binary, tb_dir, groups, lambda l: l.startswith(("bestmove", "readyok")))
    values = {}
    for (position, _), got in zip(searches, answers[1:]):
        w = [l for l in got if l.startswith("info depth")][-1].split()
        wdl = [int(x) for x in w[w.index("wdl") + 1:w.index("wdl") + 4]]
        values[len(position.split(" moves ")[1].split()) if " moves " in position else 0] = (
            got[-1].split()[1], (wdl[0] + wdl[1] / 2) / 1000)
    return values


def expected_classes(values, moves):
    """Each move's class (docs/board.md, "Game review") from `values` (replayed_values); the move
    that ends the game (no value after it) wins it."""
    out = []
    for i, move in enumerate(moves):
        best, before = values[i]
        loss = max(0.0, before - (1 - values[i + 1][1] if i + 1 in values else 1.0))
        out.append("best" if move == best else "blunder" if loss >= 0.15 else "mistake" if loss >= 0.1
                   else "inaccuracy" if loss >= 0.05 else "good")
    return out


def depth10_score(binary, tb_dir, moves):
    """A depth-10 search's expected score (W + D/2) of the side to move after `moves` (the 4x4 game)."""
    got = stdin_engine(binary, tb_dir, [["setoption name UCI_ShowWDL value true", "isready"],
                                         [f"position startpos moves {' '.join(moves)}", "go depth 10"]],
                       lambda l: l.startswith(("bestmove", "readyok")))[1]
    w = [l for l in got if l.startswith("info depth")][-1].split()
    wdl = [int(x) for x in w[w.index("wdl") + 1:w.index("wdl") + 4]]
    return (wdl[0] + wdl[1] / 2) / 1000


def tablebase_values(binary, tb_dir, variant, moves):
    """`query values` for each position of the 3x3 game `moves` (before each move): dicts move -> value."""
    groups = [[f"setoption name Variant value {variant}", "isready"]]
    for i in range(len(moves)):
        groups.append([f"position startpos moves {' '.join(moves[:i])}".strip(), "query values"])
    answers = stdin_engine(binary, tb_dir, groups, lambda l: l.startswith(("response", "readyok")))
    out = []
    for got in answers[1:]:
        words = got[-1].split()[1:]
        out.append(dict(zip(words[::2], words[1::2])))
    return out


def exact_class(values, move):
    """The class of `move` by the tablebase's values at its position (docs/board.md, "Game review")."""
    def rank(v):
        return {"w": 0, "d": 1, "l": 2}[v[0]]
    best = min(values.values(), key=lambda v: (rank(v), int(v[1:] or 0) if v[0] == "w" else -int(v[1:] or 0)))
    played = values[move]
    if played[0] == best[0]:
        return "best" if played == best or played[0] == "d" else "good"
    return "blunder" if played[0] == "l" else "mistake"


def self_play(binary, tb_dir, plies):
    """A 4x4 game of the engine against itself, 3 plies deep, up to `plies` moves."""
    proc = subprocess.Popen([binary, "--tablebase-dir", tb_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    moves = []
    for _ in range(plies):
        proc.stdin.write(f"position startpos moves {' '.join(moves)}".strip() + "\ngo depth 3\n")
        proc.stdin.flush()
        best = next(line for line in proc.stdout if line.startswith("bestmove")).split()[1]
        if best == "(none)":
            break
        moves.append(best)
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    return moves


def long_game(binary, tb_dir, variant, plies, seed=1):
    """A legal game of `variant` of `plies` moves that never ends: at each turn a random move to a
    position not seen yet, else to one seen once (threefold repetition ends a game at the third
    time), never one where the game is over; the engine over stdin says which moves are legal,
    the positions (`query fen`) and whether the game is over."""
    proc = subprocess.Popen([binary, "--tablebase-dir", tb_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)

    def ask(*lines):
        proc.stdin.write("\n".join(lines) + "\nisready\n")
        proc.stdin.flush()
        got = []
        for line in proc.stdout:
            if line.strip() == "readyok":
                return got
            got.append(line.strip())
        raise Failure("the engine ended")

    rng = random.Random(seed)
    try:
        ask(f"setoption name Variant value {variant}")
        fen = ask("position startpos", "query fen")[0].split(" ", 1)[1]
        seen = {fen: 1}
        moves = []
        while len(moves) < plies:
            legal = ask(f"position fen {fen}", "moves")[0].split()[1:]
            rng.shuffle(legal)
            choice = None
            for move in legal:
                over, after = ask(f"position fen {fen} moves {move}", "query gameover", "query fen")
                after = after.split(" ", 1)[1]
                if over == "response false" and seen.get(after, 0) < 2 and (choice is None or not seen.get(after, 0)):
                    choice = (move, after)
                    if not seen.get(after, 0):
                        break
            check(choice, f"no move left to play after {len(moves)} plies")
            moves.append(choice[0])
            fen = choice[1]
            seen[fen] = seen.get(fen, 0) + 1
        # The whole game, as the page will send it: legal, and not over.
        check(ask(f"position startpos moves {' '.join(moves)}", "query gameover") == ["response false"],
              "the long game is not a legal unfinished game")
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=10)
    return moves


# ---- what a person reads on the page -------------------------------------------------------

def marks(b):
    """The main line's moves as the list shows them: [(move, review class or '', glyph text)]."""
    return [tuple(m) for m in b.d.execute_script("""
      return [...document.querySelectorAll('#move-list .move[data-ply]')].map((e) => {
        const next = e.nextElementSibling;
        return [e.textContent.trim(), e.dataset.review || '',
                next && next.classList.contains('glyph') ? next.textContent.trim() : ''];
      });""")]


def text_of(b, element_id):
    return b.d.find_element(By.ID, element_id).text


def review_running(b):
    return b.d.find_element(By.ID, "review-cancel").is_displayed()


# Every text #review-progress showed, from now on (a review of a few moves runs in well under a second).
WATCH_PROGRESS = """
window.__progress = [];
new MutationObserver(() => window.__progress.push(document.getElementById('review-progress').textContent))
  .observe(document.getElementById('review-progress'), { childList: true, characterData: true, subtree: true });
"""


def review(b):
    """Clicks Review game and waits for its end; returns the texts its progress showed."""
    b.d.execute_script(WATCH_PROGRESS)
    b.click(b.d.find_element(By.ID, "review"))
    b.wait("the review's end", lambda: text_of(b, "review-progress").startswith(("Review done", "Review stopped")),
           timeout=120)
    check(text_of(b, "review-progress").startswith("Review done"), f"the review: {text_of(b, 'review-progress')!r}")
    return b.d.execute_script("return window.__progress")


def open_people_game(b, variant):
    b.load(f"#variant={variant}")
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()


def learn_state(b):
    box = b.d.find_element(By.ID, "learn-box")
    return box.get_attribute("data-state") if box.is_displayed() else None


def play_by_clicking(b, side, move):
    """Picks the piece of `move` (a drop `L@d1` from `side`'s reserve, or a board move `d4d1`) and clicks its square."""
    if move[1] == "@":
        b.click(b.reserve(side, move[0]))
        b.click(b.square(move[2:4]))
    else:
        b.click(b.square(move[0:2]))
        b.click(b.square(move[2:4]))


# ---- the tests -----------------------------------------------------------------------------

def test_a_4x4_blunder_is_marked_and_exported(b, binary, tb_dir):
    open_people_game(b, "gobblet")
    b.import_game(BLUNDER_PGN)
    b.wait("the game", lambda: b.moves() == BLUNDER_GAME)
    b.idle()
    sent_before = len(b.wire("sent"))
    progress = review(b)
    print(f"4x4 review progress: {progress[:3]} … {progress[-1:]}")
    check(any(re.match(r"Reviewing move \d+ of 7", p) for p in progress), f"no progress shown: {progress}")
    shown = marks(b)
    print(f"4x4 review marks: {shown}")
    check(shown[BLUNDER_PLY - 1][1:] == ("blunder", "??"), f"the blunder {BLUNDER_GAME[BLUNDER_PLY - 1]} is marked {shown}")
    # The marks are the classes of the review's own searches replayed over stdin; its only searches.
    searches = review_searches(b, sent_before)
    check(searches and all(go in REVIEW_GOS for _, go in searches), f"searches sent during the review: {searches}")
    expected = expected_classes(replayed_values(binary, tb_dir, searches), BLUNDER_GAME)
    check([m[1] for m in shown] == expected, f"the marks {shown}, the replayed searches' {expected}")
    check(b.moves() == BLUNDER_GAME, f"the game changed: {b.moves()}")
    summary = text_of(b, "review-2")
    check(re.match(r"Player 2: accuracy \d+% · \d+ inacc\w+, \d+ mistakes?, \d+ blunders?$", summary),
          f"player 2's summary: {summary!r}")
    check(re.match(r"Player 1: accuracy \d+%", text_of(b, "review-1")), f"player 1's: {text_of(b, 'review-1')!r}")
    # The PGN holds the NAG; imported again, the mark is there.
    pgn = b.export_pgn()
    check(re.search(r"\bL@a4 \$4\b", pgn), f"no $4 after L@a4 in the PGN:\n{pgn}")
    b.import_game(pgn)
    b.wait("the game imported again", lambda: b.moves() == BLUNDER_GAME)
    again = marks(b)
    check(again[BLUNDER_PLY - 1][2] == "??", f"the imported PGN lost the mark: {again}")


def test_a_full_strength_loss_is_found_drawn_and_named(b, binary, tb_dir):
    """A full-strength game lost by one move: the review marks that move a mistake or a blunder,
    gets the classes of its searches replayed over stdin (the same node budgets from an emptied
    table give the same values on any engine), draws its values on the chart, and names the move
    that lost the game, a click away (on a phone's screen too, the board brought into view)."""
    open_people_game(b, "gobblet")
    b.import_game(FULL_STRENGTH_GAME)
    b.wait("the game", lambda: len(b.moves()) == FULL_STRENGTH_PLIES)
    moves = b.moves()
    check(moves[LOSING_PLY - 1] == LOSING_MOVE, f"the game: {moves}")
    # What the test stands on: at depth 10, the move loses more than 0.1 of player 2's expected score.
    before = depth10_score(binary, tb_dir, moves[:LOSING_PLY - 1])
    after = 1 - depth10_score(binary, tb_dir, moves[:LOSING_PLY])
    print(f"depth 10: player 2 at {before:.3f} before {LOSING_MOVE}, {after:.3f} after it")
    check(before - after > 0.1, f"{LOSING_MOVE} loses {before - after:.3f} at depth 10")
    b.idle()
    sent_before = len(b.wire("sent"))
    started = time.monotonic()
    review(b)
    print(f"full-strength game of {len(moves)} plies reviewed in {time.monotonic() - started:.1f} s")
    sent = sent_lines(b, sent_before)
    gos = [k for k, line in enumerate(sent) if line.startswith("go")]
    fresh = [k for k, line in enumerate(sent) if line == "uginewgame"]
    check(fresh and gos and fresh[0] < gos[0], "the review's engine was not made fresh before its searches")
    check(all(sent[k - len(FRESH_ENGINE) + 1 + i] == line for k in fresh[:1] for i, line in enumerate(FRESH_ENGINE)),
          f"the fresh engine's lines: {sent[fresh[0] - 2:fresh[0] + 1]}")
    searches = review_searches(b, sent_before)
    deep = [p for p, go in searches if go == REVIEW_GOS[1]]
    check(all(go in REVIEW_GOS for _, go in searches) and deep, f"the review's searches: {set(g for _, g in searches)}")
    shown = marks(b)
    print(f"marks: {[(i + 1, m[0], m[1]) for i, m in enumerate(shown) if m[1] not in ('best', 'good')]}")
    check(shown[LOSING_PLY - 1][1] in ("mistake", "blunder"), f"{LOSING_MOVE} is marked {shown[LOSING_PLY - 1]}")
    expected = expected_classes(replayed_values(binary, tb_dir, searches), moves)
    check([m[1] for m in shown] == expected, f"the marks {shown}, the replayed searches' {expected}")
    # The chart: a point for every position the review valued (all but the finished last one).
    plies = b.d.execute_script("""return [...document.querySelectorAll('#graph circle.graph-point title')]
      .map((t) => Number(/^ply (\\d+):/.exec(t.textContent)[1]));""")
    check(set(range(len(moves))) <= set(plies), f"the chart's points: plies {sorted(plies)}")
    # The move that lost the game, named; a click shows it.
    lost = text_of(b, "review-lost")
    check(lost.startswith(f"The move that lost the game: {LOSING_PLY // 2}\u2026 {LOSING_MOVE} (player 2, \u2212"),
          f"the summary: {lost!r}")
    b.click(b.d.find_element(By.ID, "review-lost-move"))
    b.wait("the move that lost shown", lambda: b.body("ply") == str(LOSING_PLY))
    # On a phone the summary is far below the board: a click on the move brings the board into view.
    size = b.d.get_window_size()
    try:
        phone_screen(b)
        b.click(b.d.find_element(By.ID, "nav-start"))
        b.wait("the start shown", lambda: b.body("ply") == "0")
        button = b.d.find_element(By.ID, "review-lost-move")
        b.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        b.click(button)
        b.wait("the move that lost shown on a phone", lambda: b.body("ply") == str(LOSING_PLY))
        board = rect(b, "board")
        check(board[0] >= 0 and board[1] <= PHONE[1], f"the board is off a phone's screen: {board}")
    finally:
        b.d.set_window_size(size["width"], size["height"])


def test_learn_from_your_mistakes(b, binary, tb_dir):
    open_people_game(b, "gobblet")
    b.import_game(BLUNDER_PGN)
    b.wait("the game", lambda: b.moves() == BLUNDER_GAME)
    b.idle()
    review(b)
    b.select("learn-side", "2")
    b.click(b.d.find_element(By.ID, "learn"))
    b.wait("the first question", lambda: learn_state(b) == "try")
    while "L@a4" not in text_of(b, "learn-text"):  # (player 2's earlier mistakes first)
        asked = text_of(b, "learn-text")
        check(b.d.find_element(By.ID, "learn-next").is_enabled(), f"L@a4 is not asked about: {asked!r}")
        b.click(b.d.find_element(By.ID, "learn-next"))
        b.wait("the next question", lambda: text_of(b, "learn-text") != asked)
    b.wait("the position before the blunder", lambda: b.body("ply") == str(BLUNDER_PLY - 1) and learn_state(b) == "try")
    text = text_of(b, "learn-text")
    check("L@a4" in text and "blunder" in text, f"the question: {text!r}")
    check(b.status() == text, f"the status under the board does not ask: {b.status()!r}")
    sent_before = len(b.wire("sent"))
    # A move that leaves d1 open loses at once: turned down, and not played.
    play_by_clicking(b, 2, "L@b2")
    b.wait("the try judged", lambda: learn_state(b) in ("wrong", "right"))
    check(learn_state(b) == "wrong", f"L@b2 was taken: {text_of(b, 'learn-text')!r}")
    check(b.body("ply") == str(BLUNDER_PLY - 1), "a wrong try was played")
    # The review's best move there (its mark's words) is right.
    title = b.d.execute_script("return document.querySelectorAll('#move-list .move[data-ply]')[arguments[0]].title",
                               BLUNDER_PLY - 1)
    best = re.search(r"the engine's best: (\S+)", title).group(1)
    play_by_clicking(b, 2, best)
    b.wait("the best move judged", lambda: learn_state(b) in ("wrong", "right") and "Checking" not in text_of(b, "learn-text")
           and best in text_of(b, "learn-text"))
    check(learn_state(b) == "right", f"the engine's best {best} was turned down: {text_of(b, 'learn-text')!r}")
    b.wait("the move played as a variation", lambda: b.body("ply") == str(BLUNDER_PLY))
    check(b.moves() == BLUNDER_GAME, f"the main line changed: {b.moves()}")
    gos = [line for line in b.wire("sent")[sent_before:] for line in line.split("\n") if line.startswith("go")]
    check(all(g in REVIEW_GOS for g in gos), f"the engine searched for something else: {set(gos)}")
    # Show answer: the best move, played at the position asked about.
    b.click(b.d.find_element(By.ID, "learn-answer"))
    b.wait("the answer", lambda: learn_state(b) == "answer" and b.body("ply") == str(BLUNDER_PLY))
    answer = re.search(r"best move here: (\S+)", text_of(b, "learn-text"))
    check(answer and answer.group(1) in [m.text for m in b.d.find_elements(By.CSS_SELECTOR, "#move-list .move")],
          f"the answer: {text_of(b, 'learn-text')!r}")
    b.click(b.d.find_element(By.ID, "learn-stop"))
    b.wait("learning to end", lambda: learn_state(b) is None)


def test_the_review_runs_beside_the_board_and_cancels(b, binary, tb_dir):
    moves = self_play(binary, tb_dir, 40)
    open_people_game(b, "gobblet")
    b.import_game("1. " + " ".join(moves) + " *")
    b.wait("the game", lambda: len(b.moves()) == len(moves))
    b.idle()
    b.click(b.d.find_element(By.ID, "review"))
    b.wait("the review under way", lambda: re.match(r"Reviewing move ([3-9]|\d\d+) of", text_of(b, "review-progress")))
    # The board answers meanwhile: a step to the start and back to the end.
    b.click(b.d.find_element(By.ID, "nav-start"))
    b.wait("the start shown", lambda: b.body("ply") == "0")
    b.click(b.d.find_element(By.ID, "nav-end"))
    b.wait("the end shown", lambda: b.body("ply") == str(len(moves)))
    check(review_running(b), f"the review ended on navigation: {text_of(b, 'review-progress')!r}")
    b.click(b.d.find_element(By.ID, "review-cancel"))
    b.wait("the review stopped", lambda: text_of(b, "review-progress").startswith("Review stopped"))
    said = text_of(b, "review-progress")
    print(f"cancelled: {said}")
    check("cancelled" in said, f"the review's end: {said!r}")
    judged = [m for m in marks(b) if m[1]]
    check(judged and len(judged) < len(moves), f"marks after a cancel: {len(judged)} of {len(moves)}")
    check(not review_running(b) and b.d.find_element(By.ID, "review").is_displayed(), "Review game is not back")


def test_a_game_against_the_engine_reviewed_is_a_record(b):
    """"Review game" while the engine thinks over its move in a game against it: the move it was
    searching is not played, and the game is a record after the review: the engine waits at its
    turn ("Engine, move" offered) and searches nothing but the review's positions."""
    b.load()
    # The page's longest thinking (5 min + 3 s: seconds a move), so that the click finds the search
    # running (3 s a move on a loaded machine once let the move be played first); the review stops it.
    b.new_game("gobblet", p1="human", p2="engine", time_control="clock 300000 3000")
    b.idle()
    sent_before = len(b.wire("sent"))
    play_by_clicking(b, 1, "X@a1")
    b.wait("the engine thinking", lambda: "thinking" in b.status())
    b.d.execute_script(WATCH_PROGRESS)
    b.click(b.d.find_element(By.ID, "review"))
    b.wait("the review's end", lambda: text_of(b, "review-progress").startswith(("Review done", "Review stopped")),
           timeout=120)
    check(text_of(b, "review-progress").startswith("Review done"), f"the review: {text_of(b, 'review-progress')!r}")
    b.idle()
    check("waits" in b.status() and b.d.find_element(By.ID, "engine-move").is_displayed(),
          f"the engine does not wait at its turn: {b.status()!r}")
    check(b.moves() == ["X@a1"], f"the engine played: {b.moves()}")
    gos = [line for line in b.wire("sent")[sent_before:] for line in line.split("\n") if line.startswith("go")]
    check(gos[1:] and all(g in REVIEW_GOS for g in gos[1:]), f"searches after the engine's: {gos}")
    check([m[1] != "" for m in marks(b)] == [True], f"the marks: {marks(b)}")


def test_a_3x3_game_is_reviewed_by_the_tablebase(b, binary, tb_dir):
    variant = "3x3:2,2,1"
    game = ["S@a1", "M@b2", "M@c3"]  # a draw thrown into a loss, then a win into a draw
    open_people_game(b, variant)
    b.import_game(f'[Variant "{variant}"]\n\n1. S@a1 M@b2 2. M@c3 *\n')
    b.wait("the game", lambda: b.moves() == game)
    b.idle()
    sent_before = len(b.wire("sent"))
    review(b)
    check("tablebase" in text_of(b, "review-progress"), f"not by the tablebase: {text_of(b, 'review-progress')!r}")
    values = tablebase_values(binary, tb_dir, variant, game)
    expected = [exact_class(v, m) for v, m in zip(values, game)]
    shown = marks(b)
    print(f"3x3 review: {shown}; the tablebase: {expected}")
    check(expected[:2] == ["blunder", "mistake"], f"the test's game is not what it says: {values}")
    check([m[1] for m in shown] == expected, f"the marks {shown}, the tablebase's {expected}")
    glyph = {"blunder": "??", "mistake": "?", "best": "\u2605", "good": ""}
    check([m[2] for m in shown] == [glyph[k] for k in expected], f"the glyphs {shown}")
    gos = [line for line in b.wire("sent")[sent_before:] for line in line.split("\n") if line.startswith("go")]
    check(not gos, f"a tablebase review searched: {gos}")
    pgn = b.export_pgn()
    check(re.search(r"1\. S@a1 \$4 M@b2 \$2 2\. M@c3 \*", pgn), f"the PGN's marks:\n{pgn}")


def sent_lines(b, since):
    return [line for message in b.wire("sent")[since:] for line in message.split("\n")]


def test_the_engine_plays_at_the_level_chosen(b):
    b.load()
    check(b.d.find_element(By.ID, "level").is_displayed(), "no level selector")
    b.select("level", "3")
    b.new_game("gobblet", p1="human", p2="engine", time_control="movetime 300")
    b.idle()
    sent_before = len(b.wire("sent"))
    play_by_clicking(b, 1, "X@a1")
    b.wait("the engine's answer", lambda: len(b.moves()) == 2)
    b.idle()
    sent = sent_lines(b, sent_before)
    go = next(i for i, line in enumerate(sent) if line.startswith("go "))
    levels = [line for line in sent[:go] if line.startswith("setoption name Skill Level")]
    check(levels[-1:] == ["setoption name Skill Level value 3"], f"before the engine's search: {sent[:go + 1]}")
    # The analysis is at full strength.
    sent_before = len(b.wire("sent"))
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis", lambda: "go infinite" in sent_lines(b, sent_before))
    sent = sent_lines(b, sent_before)
    levels = [line for line in sent[:sent.index("go infinite")] if line.startswith("setoption name Skill Level")]
    check(levels[-1:] == ["setoption name Skill Level value 20"], f"before the analysis: {sent}")
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis to stop", lambda: b.d.find_element(By.ID, "analyse").text == "Analyse")
    # Kept between visits.
    b.load()
    value = b.d.execute_script("return document.getElementById('level').value")
    check(value == "3", f"the level after a reload: {value!r}")
    b.select("level", "20")


# While the review runs: the main thread's long tasks (over 50 ms: [start, duration] in ms, the
# page's clock) and the nodes put into the move list, from now on.
WATCH_MAIN_THREAD = """
window.__watch = { since: performance.now(), long: [], added: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__watch.long.push([e.startTime, e.duration]);
}).observe({ type: 'longtask' });
new MutationObserver((records) => { for (const r of records) window.__watch.added += r.addedNodes.length; })
  .observe(document.getElementById('move-list'), { childList: true, subtree: true });
"""

LONG_GAME_PLIES = 1200


def main_thread_cpu(b):
    """The CPU time of the page's main thread so far, in seconds (Chromium's ThreadTime)."""
    b.d.execute_cdp_cmd("Performance.enable", {})
    metrics = b.d.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "ThreadTime")


def test_a_long_game_is_reviewed_with_the_page_free(b, binary, tb_dir):
    variant = "4x4:2,1"  # (its tablebase values each position at once: the page's own work is what is timed)
    moves = long_game(binary, tb_dir, variant, LONG_GAME_PLIES)
    open_people_game(b, variant)
    b.import_game(f'[Variant "{variant}"]\n\n' + " ".join(moves) + " *\n")
    b.wait("the long game", lambda: len(b.moves()) == len(moves), timeout=60)
    b.idle()
    b.click(b.d.find_element(By.ID, "review"))
    progress_rx = re.compile(rf"Reviewing move (\d+) of {len(moves)}")
    judged = lambda: int(progress_rx.match(text_of(b, "review-progress")).group(1)) - 1
    b.wait("the review under way", lambda: progress_rx.match(text_of(b, "review-progress")) and judged() >= 5,
           timeout=60)
    # Watched for some seconds while the review goes on (it does not end in them: a move a
    # frame at most would take 20 s, the page of before took seconds a move).
    b.d.execute_script(WATCH_MAIN_THREAD)
    first = judged()
    cpu_before = main_thread_cpu(b)
    time.sleep(6)
    watch, now, said = b.d.execute_script(
        "return [window.__watch, performance.now(), document.getElementById('review-progress').textContent]")
    cpu = 1000 * (main_thread_cpu(b) - cpu_before)
    print(f"long game: {said!r}; {watch['added']} nodes added to the list; long tasks (ms): "
          f"{sorted(round(d) for _, d in watch['long'])[-5:]} in {now - watch['since']:.0f} ms; "
          f"main thread CPU {cpu:.0f} ms; from move {first + 1}")
    m = re.match(rf"Reviewing move (\d+) of {len(moves)}, (about \d+ (s|min)|about \d+ h( \d+ min)?"
                 rf"|a few seconds) left…$", said)
    check(m, f"the progress does not say the time left: {said!r}")
    done = int(m.group(1)) - 1 - first
    check(done > 0, f"the review did not go on: {said!r}")
    # Each move judged adds its glyph at most, not the list anew (of {len(moves)} moves).
    check(watch["added"] <= 2 * done + 20, f"{watch['added']} nodes put into the move list for {done} moves judged")
    # Generous bounds: the main thread's own work under 100 ms of CPU a move judged (the page of
    # before took seconds), never blocked a second. CPU time, not its tasks' wall time: on a
    # loaded machine a task's wall time stretches while it waits for a core (there long tasks
    # filled half the window while the main thread had 0.7 s of CPU in 8 s).
    longest = max([d for _, d in watch["long"]], default=0)
    check(cpu < 100 * done, f"the main thread took {cpu:.0f} ms of CPU for {done} moves judged")
    check(longest < 1000, f"the main thread was blocked {longest:.0f} ms at once")
    # A click on a move is answered meanwhile: the move marked shown, the list not drawn anew
    # (the page of before drew its {len(moves)} moves at each step through the game).
    b.d.execute_script("window.__watch.added = 0")
    before = judged()
    start = time.monotonic()
    b.click(b.find('#move-list .move[data-ply="1"]'))
    b.wait("the first move shown", lambda: b.body("ply") == "1")
    print(f"a click during the review answered in {time.monotonic() - start:.2f} s")
    check(review_running(b), f"the review ended: {text_of(b, 'review-progress')!r}")
    added, current, said = b.d.execute_script(
        "return [window.__watch.added, [...document.querySelectorAll('#move-list .current')].map((e) => e.dataset.ply),"
        " document.getElementById('review-progress').textContent]")
    check(current == ["1"], f"the moves marked shown: {current}")
    meanwhile = int(progress_rx.match(said).group(1)) - 1 - before
    check(added <= 2 * meanwhile + 20, f"a step to the first move put {added} nodes into the move list "
          f"({meanwhile} moves judged meanwhile)")
    # Cancelled: the marks drawn move by move, as many as it says, each class with its glyph,
    # and the NAGs the PGN export writes for them.
    b.click(b.d.find_element(By.ID, "review-cancel"))
    b.wait("the review stopped", lambda: text_of(b, "review-progress").startswith("Review stopped"))
    said = text_of(b, "review-progress")
    kept = re.search(r"the (\d+) marks found are kept", said)
    check(kept, f"the review's end: {said!r}")
    drawn = marks(b)
    judged_moves = [m for m in drawn if m[1]]
    check(len(judged_moves) == int(kept.group(1)) and drawn[:len(judged_moves)] == judged_moves,
          f"{said!r}, the first {len(judged_moves)} moves marked")
    glyph = {"best": "\u2605", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??", "": ""}
    check(all(g == glyph[kind] for _, kind, g in drawn), f"a class drawn with another glyph: {drawn[:20]}")
    nag = {"inaccuracy": "$6", "mistake": "$2", "blunder": "$4"}
    exported = []
    for token in " ".join(l for l in b.export_pgn().splitlines() if not l.startswith("[")).split():
        if token.startswith("$"):
            exported[-1][1].append(token)
        elif len(exported) < len(moves) and token == moves[len(exported)]:
            exported.append((token, []))
    check([n for _, n in exported] == [[nag[kind]] if kind in nag else [] for _, kind, _ in drawn],
          "the PGN's NAGs are not the marks drawn")


def test_the_static_site_reviews_a_game(request, driver, b):
    """The static site's review, by its WebAssembly engine: the blunder marked, and the full-strength
    game given the same classes as on the served board (the same searches, the same values)."""
    site = request.config.getoption("site")
    if not site:
        pytest.skip("no --site: the static site's review is checked with --site build/wasm/site")
    open_people_game(b, "gobblet")
    b.import_game(FULL_STRENGTH_GAME)
    b.wait("the game", lambda: len(b.moves()) == FULL_STRENGTH_PLIES)
    b.idle()
    review(b)
    served = marks(b)
    from static_site_test import StaticServer  # (its plain `python3 -m http.server`)
    server = StaticServer(os.path.abspath(site))
    try:
        s = Board(driver, server.url)
        s.load("#variant=gobblet")
        s.select("p1", "human")
        s.select("p2", "human")
        s.idle()
        s.import_game(BLUNDER_PGN)
        s.wait("the game", lambda: s.moves() == BLUNDER_GAME)
        s.idle()
        progress = review(s)
        shown = marks(s)
        print(f"static site review: {shown}")
        check(any(re.match(r"Reviewing move \d+ of 7", p) for p in progress), f"no progress shown: {progress}")
        check(shown[BLUNDER_PLY - 1][1:] == ("blunder", "??"), f"the blunder is marked {shown}")
        check(re.search(r"\bL@a4 \$4\b", s.export_pgn()), "no $4 after L@a4 in the static site's PGN")
        check(s.moves() == BLUNDER_GAME, f"the game changed: {s.moves()}")
        s.import_game(FULL_STRENGTH_GAME)
        s.wait("the full-strength game", lambda: len(s.moves()) == FULL_STRENGTH_PLIES)
        s.idle()
        started = time.monotonic()
        review(s)
        print(f"static site: the full-strength game reviewed in {time.monotonic() - started:.1f} s")
        on_site = marks(s)
        check(on_site == served, "the classes differ between the boards: "
              f"{[(i + 1, a, c) for i, (a, c) in enumerate(zip(served, on_site)) if a != c]}")
        check(text_of(s, "review-lost") == text_of(b, "review-lost"),
              f"the move that lost the game: {text_of(s, 'review-lost')!r} on the site, {text_of(b, 'review-lost')!r}")
    finally:
        b.load()  # (the served page again, for the fixtures' checks)
        server.stop()


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
