#!/usr/bin/python3
"""The browser board's evaluation bar and the analysis lines: one value of a position, from its most
certain source (issue 62), in headless Chromium against `gobblet --http 127.0.0.1:0` with small 3x3
tablebases built here (board_test.py's server).

Checks, as a person reads the page, each of which the page of before failed:
- Before any search the bar claims nothing: at the 4x4 start, and after a move, it is empty and says
  "no evaluation yet" (it showed the static evaluation's chances: 41 % for player 1 at the start,
  where a search gives player 1 the better chances).
- After an analysis the bar gives the best line's chances; a step to a position no one searched
  shows no value (it showed that position's static guess), a step back the analysed one's again,
  and a preview of a line's position shows no value rather than the game position's.
- Exact values read exact: a 3x3 draw the tablebase knows stays "D" ("a draw") while an analysis
  runs (the search's line replaced it with "0%" for player 1); a win proved by Prove is the bar's
  value ("W≤1", player 1 wins in at most 1 ply, proved), and stays through an analysis.
- An estimate never reads certain: in a lopsided 4x4 position that no search proves, no line reads
  100 % or 0 % and neither does the bar (the bar said "0%" for player 1's 1 per mille, a line
  "D 0%").

pytest tests on one page of one headless Chromium (fixtures: conftest.py, and board_test.py's
server with its tablebases). Run as a script, or with pytest itself:

  board_bar_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import re
import time
import sys

from board_driver import By, TIMEOUT, check, run_as_script
# The server with its 3x3 tablebases (fixtures), the WebSocket recorder, the engine's MultiPV marks.
from board_test import RECORDER, engine_multipv, page_url, tb_dir  # noqa: F401 (fixtures are used by name)
from board_analysis_test import CHANCES, analysis_button, depth, open_for_analysis, snapshot, stop_analysis

# The bar as a person and a screen reader get it: its number, its words, whether it is filled.
BAR = """
const bar = document.getElementById('eval-bar');
return {text: document.getElementById('eval-text').textContent, says: bar.getAttribute('aria-valuetext'),
        now: bar.getAttribute('aria-valuenow'), fill: document.getElementById('eval-fill').style.height,
        known: bar.dataset.known || null};
"""


def bar(b):
    return b.d.execute_script(BAR)


def check_no_value(b, where, words="no evaluation yet"):
    """The bar shows no value: no number, no fill, no side favoured, and says so."""
    shown = bar(b)
    print(f"{where}: bar {shown}")
    check("%" not in shown["text"] and not re.match(r"^[WLD]", shown["text"]),
          f"{where}: the bar reads {shown['text']!r} where nothing was searched")
    check((shown["says"] or "").startswith(words), f"{where}: the bar says {shown['says']!r}")
    check(shown["now"] is None, f"{where}: the bar's meter stands at {shown['now']} with no value")
    check(shown["fill"] in ("0%", "0.0%"), f"{where}: player 1's colour fills {shown['fill']} of the bar")


def check_bar_is_best_line(b, where):
    """Player 1 to move: the bar's number and words are the best line's chances (its W, D, L)."""
    # (The analysis may still run, and the bar is drawn at the next frame
    # after the lines: both are read again, for up to 10 s, until they agree;
    # a bar that shows another value never does.)
    best_line = lambda: (lambda s: s["lines"][0]["value"] if s["lines"] else "")(snapshot(b))
    deadline = time.monotonic() + 10
    while True:
        best, shown = best_line(), bar(b)
        m = CHANCES.match(best)
        if time.monotonic() > deadline or (m and shown["text"] == f"{m.group(1)}%"):
            break
        time.sleep(0.1)
    print(f"{where}: best line {best!r}; bar {shown}")
    m = CHANCES.match(best)
    check(m, f"{where}: the best line reads {best!r}, not chances")
    win, draw, loss = m.groups()
    check(shown["text"] == f"{win}%", f"{where}: the bar reads {shown['text']!r}, the best line {best!r}")
    check(shown["says"] == f"player 1 wins {win}%, draw {draw}%, player 2 wins {loss}%",
          f"{where}: the bar says {shown['says']!r}, the best line {best!r}")
    return shown


def test_no_value_before_a_search(b):
    """The 4x4 start, nothing searched: the bar favours no one and says why; after a person's move,
    the same at the new position."""
    open_for_analysis(b, "gobblet", [], multipv="1")
    check_no_value(b, "the start")
    b.click(b.reserve(1, "X"))
    b.click(b.square("b2"))
    b.wait("the move", lambda: b.body("ply") == "1")
    b.idle()
    check_no_value(b, "after X@b2")


def test_the_bar_is_the_value_of_the_position_shown(b):
    """An analysis of a position: the bar is its best line. The next position, not searched: no
    value; back: the analysed value. A line's position previewed: no value (not the game
    position's); the preview ended: the line's again."""
    open_for_analysis(b, "gobblet", ["X@a1", "X@d4", "X@b2"], multipv="2")
    check_no_value(b, "ply 3, not searched")
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.wait("ply 2", lambda: b.body("ply") == "2")
    check_no_value(b, "ply 2, not searched")
    b.click(analysis_button(b))
    b.wait("the analysis at depth 4", lambda: depth(b) >= 4 and snapshot(b)["lines"], timeout=TIMEOUT)
    check_bar_is_best_line(b, "ply 2, analysing")
    # A line's second position previewed (player 1 to move again there).
    b.d.execute_script("document.querySelectorAll('#lines li')[0].querySelectorAll('.pv-move')[1].click()")
    b.wait("the preview", lambda: b.status().startswith("Preview after"))
    check_no_value(b, "a line's position previewed", "no evaluation of this previewed position")
    b.click(b.square("c2"))  # (a click on the board ends the preview)
    b.wait("the preview's end", lambda: b.body("ply") == "2" and not b.status().startswith("Preview"))
    b.wait("the bar back on the analysis", lambda: "%" in bar(b)["text"])
    stop_analysis(b)
    analysed = check_bar_is_best_line(b, "ply 2, analysed")
    b.click(b.d.find_element(By.ID, "nav-forward"))
    b.wait("ply 3", lambda: b.body("ply") == "3")
    b.idle()
    check_no_value(b, "ply 3 after the analysis of ply 2")
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.wait("ply 2 again", lambda: b.body("ply") == "2")
    b.idle()
    again = bar(b)
    check(again["text"] == analysed["text"] and again["says"] == analysed["says"],
          f"back at ply 2 the bar reads {again}, after its analysis {analysed}")


def test_a_tablebase_draw_stays_exact_through_an_analysis(b, binary, tb_dir):
    """3x3:2,2,1 after S@a1 and M@b2, a draw with best play by the tablebase (the engine's own `go`
    over stdin says so): the bar is an exact draw, "D", before and while an analysis runs, and no
    line reads a percentage."""
    moves = ["S@a1", "M@b2"]
    marks = engine_multipv(binary, tb_dir, "3x3:2,2,1", moves)
    check(marks and "D" in marks.values() and not any(m.startswith("W") for m in marks.values()),
          f"the engine's exact values after {moves}: {marks} (a draw with best play expected)")
    open_for_analysis(b, "3x3:2,2,1", moves)
    b.wait("the tablebase's value", lambda: bar(b)["text"] == "D")
    check(bar(b)["says"] == "a draw", f"the bar says {bar(b)['says']!r}")
    b.click(analysis_button(b))
    b.wait("the lines", lambda: len(snapshot(b)["lines"]) == 3)
    s = snapshot(b)
    shown = bar(b)
    stop_analysis(b)
    print(f"3x3 draw: lines {[l['value'] for l in s['lines']]}; bar {shown}")
    check(shown["text"] == "D" and shown["says"] == "a draw", f"analysing, the bar reads {shown}")
    check(s["lines"][0]["value"] == "draw (exact)", f"the best line reads {s['lines'][0]['value']!r}")
    check(not any("%" in l["value"] for l in s["lines"]), f"an exact line in per cent: {s['lines']}")


def test_a_proof_is_the_positions_value(b):
    """4x4, player 1 wins in one: before anything is searched the bar is empty (it read "100%", the
    static guess); Prove: the bar is the proof's, exact; an analysis after it leaves it."""
    moves = ["X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"]
    open_for_analysis(b, "gobblet", moves, multipv="1")
    check_no_value(b, "a win in one, not searched")
    b.click(b.d.find_element(By.ID, "prove"))
    b.wait("the proof's value", lambda: bar(b)["text"] == "W≤1")
    shown = bar(b)
    print(f"proved: bar {shown}")
    check(shown["says"] == "player 1 wins in at most 1 ply (proved)", f"the bar says {shown['says']!r}")
    check(shown["now"] == "100" and shown["fill"] in ("100%", "100.0%"), f"the proved win fills {shown}")
    b.click(analysis_button(b))
    b.wait("the analysis's line", lambda: snapshot(b)["lines"] and depth(b) >= 1)
    stop_analysis(b)
    check(bar(b)["text"] == "W≤1", f"after an analysis the bar reads {bar(b)}")


# A lopsided 4x4 position that no search to depth 9 decides: player 2, to move, wins with chances of
# 997-999 per mille at every depth from 3 to 9 (the engine over stdin; checked below on the
# engine's own lines as the page received them).
LOPSIDED = ["X@d4", "X@d1", "X@c2", "X@c3", "L@d2", "X@a4", "X@a1", "d1d2", "M@c4", "L@b4", "d4b4", "L@a2",
            "a1a2", "M@d3", "L@c1", "L@c4", "M@b1", "a4c1", "L@d1"]


def chances_of(info):
    """The per mille chances of an engine's info line, or None."""
    words = info.split()
    return [int(x) for x in words[words.index("wdl") + 1:words.index("wdl") + 4]] if "wdl" in words else None


def test_an_estimate_never_reads_certain(b):
    """Player 2's chances round to 100 % but are no proof: no line reads 100 % or 0 %, and neither
    does the bar (player 1's "<1%")."""
    open_for_analysis(b, "gobblet", LOPSIDED, multipv="3")
    b.click(analysis_button(b))
    b.wait("three lines at depth 3", lambda: depth(b) >= 3 and len(snapshot(b)["lines"]) == 3)
    s = snapshot(b)
    shown = bar(b)
    stop_analysis(b)
    values = [l["value"] for l in s["lines"]]
    print(f"lopsided: lines {values}; bar {shown}; engine {s['infos'][-3:]}")
    best = [i for i in s["infos"] if " multipv 1 " in i and " score cp " in i]
    check(best and max(chances_of(best[-1])) >= 995,
          f"the position is not lopsided enough to test (a share of 995 per mille or more): {s['infos'][-3:]}")
    for value in values:
        check(not re.search(r"\b(100|0)%", value), f"a line of an estimate reads {value!r}")
    check(CHANCES.match(values[0]), f"the best line reads {values[0]!r}, not chances")
    check(shown["text"] == "<1%", f"player 1's chance of an estimate reads {shown['text']!r}")
    check(not re.search(r"\b(100|0)%", shown["says"] or ""), f"the bar of an estimate says {shown['says']!r}")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
