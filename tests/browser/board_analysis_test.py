#!/usr/bin/python3
"""The browser board's analysis panel, its arrows and its evaluation bar (issue 39: item 2
"Chances", and the defects L8, L15, M6, M7), in headless Chromium against `gobblet --http
127.0.0.1:0` with small 3x3 tablebases built here.

Checks, each of which the page of before failed:
- Chances (item 2): the page asks the engine for its chances (UCI_ShowWDL) and every analysis line
  gives them for the player to move, whom the panel names ("W 58% D 3% L 39%", the engine's `wdl`
  of that line rounded to whole per cent; it showed "+23 cp"); the help says what the lines and the
  bar show, in chances, and whose (it spoke of centipawns).
- L8, one view and one unit: with player 2 to move, the bar (player 1's side, by colour) gives the
  same chances as the best line, turned (player 2's win there is player 2's part of the bar); it
  said "-0.2" where the line said "-23 cp", both from player 1's side while the help said "from the
  side to move".
- M6: the analysis stays on at a finished position, which shows its result instead of lines, and
  goes on when a position before it is shown (it turned itself off there, for good).
- M7: the arrows of the best moves stay through a pick and a put-down, in 4x4 and in 3x3 (they
  vanished at any pick; in 3x3, whose search says nothing more, they never came back).
- L15: a 3x3 analysis with a tablebase says its values are exact (not "depth 100"), each line's
  value is the tablebase's value of its first move (as the engine's own `go` with MultiPV reports
  it), and its moves are a line of best play to the end, not one move.

pytest tests on one page of one headless Chromium (fixtures: conftest.py, and board_test.py's
server with its tablebases). Run as a script, or with pytest itself:

  board_analysis_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import re
import subprocess
import sys
import time

from board_driver import By, TIMEOUT, check, run_as_script
# The server with its 3x3 tablebases (fixtures), the WebSocket recorder, the engine's MultiPV marks.
from board_test import RECORDER, engine_multipv, page_url, tb_dir  # noqa: F401 (fixtures are used by name)

CHANCES = re.compile(r"^W (<1|>99|\d+)% D (<1|>99|\d+)% L (<1|>99|\d+)%$")
DECIDED = re.compile(r"^(win|loss) in \d+ pl(y|ies)$")


def link(variant, moves):
    return f"#variant={variant}&moves=" + ",".join(m.replace("@", "%40") for m in moves)


def open_for_analysis(b, variant, moves, multipv="3"):
    """The position after `moves`, both players people, `multipv` lines."""
    b.load(link(variant, moves))
    b.select("p1", "human")
    b.select("p2", "human")
    b.select("multipv", multipv)
    b.idle()


def analysis_button(b):
    return b.d.find_element(By.ID, "analyse")


def depth(b):
    return int(b.d.find_element(By.ID, "search-stats").get_attribute("data-depth") or 0)


def stop_analysis(b):
    if analysis_button(b).text == "Stop":
        b.click(analysis_button(b))
    b.wait("the analysis to stop", lambda: analysis_button(b).text == "Analyse")


# One snapshot of the panel, the bar and the engine's last lines (one script: the page cannot
# redraw in the middle of it, and the recorder hears each message before the page does).
SNAPSHOT = """
const lines = [...document.querySelectorAll('#lines li')].map((li) => ({
  value: (li.querySelector('.score') || {}).textContent || '',
  moves: [...li.querySelectorAll('.pv-move')].map((m) => m.textContent),
  multipv: li.dataset.multipv || null,
}));
const bar = document.getElementById('eval-bar');
const infos = (window.__wire ? window.__wire.received : []).filter((m) => m.startsWith('info depth'));
return {
  lines, fen: document.getElementById('lines').dataset.fen || null, shown: document.body.dataset.fen,
  caption: (document.getElementById('lines-view') || {}).textContent || '',
  stats: document.getElementById('search-stats').textContent,
  barText: document.getElementById('eval-text').textContent,
  barSays: bar.getAttribute('aria-valuetext'), barNow: bar.getAttribute('aria-valuenow'),
  infos: infos.slice(-12),
  arrows: [...document.querySelectorAll('#board g.best')].map((g) => g.dataset.move),
};
"""


def snapshot(b):
    return b.d.execute_script(SNAPSHOT)


def last_wdl(infos, multipv):
    """The `wdl W D L` of the engine's last info line of rank `multipv`, or None."""
    for line in reversed(infos):
        words = line.split()
        rank = words[words.index("multipv") + 1] if "multipv" in words else "1"
        if rank == str(multipv):
            if "wdl" not in words:
                return None
            i = words.index("wdl")
            return [int(x) for x in words[i + 1:i + 4]]
    return None


def percent_of(text):
    return {"<1": 0.5, ">99": 99.5}.get(text, None) if text in ("<1", ">99") else int(text)


def check_rounded(shown, wdl, what):
    """The percentages `shown` (texts of CHANCES' groups) are the engine's per mille `wdl`, rounded
    (within a point: the page's percentages sum to 100)."""
    for text, per_mille in zip(shown, wdl):
        check(abs(percent_of(text) - per_mille / 10) <= 1.0, f"{what}: {shown} shown for the engine's {wdl}")


def test_help_says_what_the_screen_shows(b):
    """The help speaks of chances for the player to move in the lines, of the bar's colours from
    player 1's side, and of no centipawns."""
    b.load()
    b.click(b.d.find_element(By.ID, "help-open"))
    text = b.d.find_element(By.ID, "help").text
    b.d.execute_script("document.getElementById('help').close()")
    print(f"help: {text[:600]!r}")
    check("cp" not in text.split() and "+28 cp" not in text, "the help still speaks of centipawns (cp)")
    for words in ("chances", "player to move", "W 58% D 3% L 39%", "player 1's side", "win in 5"):
        check(words in text, f"the help does not say {words!r}")


def test_chances_beside_each_line(b):
    """The page switches the engine's chances on; each line gives the player to move's chances,
    the engine's `wdl` rounded, and the panel says whose they are."""
    open_for_analysis(b, "gobblet", ["X@a1", "X@d4"])
    b.click(analysis_button(b))
    b.wait("three lines at depth 3", lambda: depth(b) >= 3 and len(snapshot(b)["lines"]) == 3)
    sent = b.wire("sent")
    check("setoption name UCI_ShowWDL value true" in sent, f"the page did not ask for chances: {sent[:12]}")
    s = snapshot(b)
    stop_analysis(b)
    print(f"lines: {[l['value'] for l in s['lines']]}; caption {s['caption']!r}; engine: {s['infos'][-3:]}")
    check("Player 1 to move" in s["caption"], f"the panel does not say whose chances: {s['caption']!r}")
    for line in s["lines"]:
        m = CHANCES.match(line["value"])
        check(m or DECIDED.match(line["value"]), f"line {line['multipv']} reads {line['value']!r}, not chances")
        wdl = last_wdl(s["infos"], line["multipv"])
        check(wdl is not None, f"no wdl in the engine's lines: {s['infos'][-3:]}")
        if m:
            check_rounded(m.groups(), wdl, f"line {line['multipv']}")


def test_one_view_one_unit(b):
    """Player 2 to move: the best line's chances are player 2's; the bar gives the same chances from
    player 1's side (its number player 1's chance to win, the line's L), and nowhere a score in cp."""
    open_for_analysis(b, "gobblet", ["X@a1", "X@d4", "X@b2"])
    b.click(analysis_button(b))
    b.wait("the lines at depth 3", lambda: depth(b) >= 3 and snapshot(b)["lines"])
    s = snapshot(b)
    stop_analysis(b)
    best = s["lines"][0]["value"]
    print(f"best line {best!r}; bar {s['barText']!r}, {s['barSays']!r}; caption {s['caption']!r}")
    check("Player 2 to move" in s["caption"], f"the panel does not say whose chances: {s['caption']!r}")
    m = CHANCES.match(best)
    check(m, f"the best line reads {best!r}, not chances")
    win, draw, loss = m.groups()
    check(s["barSays"] == f"player 1 wins {loss}%, draw {draw}%, player 2 wins {win}%",
          f"the bar says {s['barSays']!r} where the best line (player 2's) says {best!r}")
    check(s["barText"] == f"{loss}%", f"the bar's number {s['barText']!r}: player 1's chance is {loss}%")
    # The fill is player 1's points, a draw half, from the engine's per mille (not from the rounded
    # percentages, which can put it a point off), rounded half up as the page's Math.round does.
    wdl = last_wdl(s["infos"], 1)
    check(wdl is not None, f"no wdl in the engine's lines: {s['infos'][-3:]}")
    check_rounded((win, draw, loss), wdl, "the best line")
    points = (2 * wdl[2] + wdl[1] + 10) // 20
    check(int(s["barNow"]) == points,
          f"the bar's fill {s['barNow']} for player 1's {wdl[2]} and the draws' {wdl[1]} per mille")
    check("cp" not in best + s["barText"] + s["barSays"], "a score in cp beside the chances")


def test_analysis_resumes_after_a_finished_position(b):
    """Analysing the move before the end of a finished game, step to the end: the analysis stays on
    and shows the result, searching nothing; step back: it analyses again."""
    finished = ["L@b2", "S@a1", "L@c3", "M@a3", "M@b3", "S@c1", "b3a1"]  # player 1 wins on the a1-b2-c3 diagonal
    open_for_analysis(b, "gobblers", finished, multipv="1")
    check("wins" in b.status(), f"the game is not over: {b.status()!r}")
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.idle()
    b.click(analysis_button(b))
    b.wait("the analysis before the end", lambda: snapshot(b)["lines"] and snapshot(b)["lines"][0]["moves"])
    b.click(b.d.find_element(By.ID, "nav-forward"))
    b.wait("the end of the game", lambda: b.body("ply") == str(len(finished)))
    searches = len([m for m in b.wire("sent") if m.startswith("go ")])
    time.sleep(1.0)
    s = snapshot(b)
    print(f"at the end: {b.status()!r}, button {analysis_button(b).text!r}, panel {s['lines']}")
    check(analysis_button(b).text == "Stop", "the analysis turned itself off at the finished position")
    panel = b.d.find_element(By.ID, "lines").text
    check("Player 1 wins" in panel, f"the panel does not show the result: {panel!r}")
    check(not s["arrows"], f"arrows at a finished position: {s['arrows']}")
    check(len([m for m in b.wire("sent") if m.startswith("go ")]) == searches, "a search at the finished position")
    for _ in range(2):  # back, to the end again, back
        b.click(b.d.find_element(By.ID, "nav-back"))
        b.wait("the analysis of the position before the end",
               lambda: (lambda s: s["lines"] and s["lines"][0]["moves"] and s["fen"] == s["shown"])(snapshot(b)))
        check(analysis_button(b).text == "Stop", "the analysis is off after stepping back")
        b.click(b.d.find_element(By.ID, "nav-forward"))
        b.wait("the result again", lambda: "Player 1 wins" in b.d.find_element(By.ID, "lines").text)
    stop_analysis(b)


def arrows_through_a_pick(b, label, wait_back):
    """Picks player 1's first legal reserve piece and puts it down again: the arrows of the analysis
    are there after each (at once, or within `wait_back` seconds), as they were before."""
    before = snapshot(b)["arrows"]
    check(before, f"{label}: no arrows before the pick")
    piece = b.d.find_elements(By.CSS_SELECTOR, "#reserve-1 .reserve-piece.legal")[0]
    b.click(piece)
    check(b.targets(), f"{label}: the pick lit no target")
    for what in ("the pick", "the put-down"):
        end = time.monotonic() + wait_back
        while not snapshot(b)["arrows"] and time.monotonic() < end:
            time.sleep(0.05)
        arrows = snapshot(b)["arrows"]
        print(f"{label}: arrows {before} before, {arrows} after {what}")
        check(arrows, f"{label}: the arrows are gone after {what}")
        if what == "the pick":
            b.click(b.d.find_elements(By.CSS_SELECTOR, "#reserve-1 .reserve-piece.selected")[0])
            check(not b.targets(), f"{label}: the piece was not put down")


def test_arrows_stay_through_picks(b):
    """4x4 (an analysis deep enough that its lines come seldom): the arrows are there right after a
    pick and a put-down. 3x3 with a tablebase (its search says nothing more once done): they are
    there, and stay, after each."""
    open_for_analysis(b, "gobblet", ["X@a1", "X@d4"])
    b.click(analysis_button(b))
    b.wait("a deep analysis with its arrows", lambda: depth(b) >= 7 and snapshot(b)["arrows"], timeout=60)
    arrows_through_a_pick(b, "4x4", wait_back=0)
    stop_analysis(b)
    open_for_analysis(b, "3x3:2,2,1", ["S@a1", "M@b2"])
    b.click(analysis_button(b))
    b.wait("the 3x3 arrows", lambda: len(snapshot(b)["arrows"]) == 3)
    time.sleep(0.5)  # (the search is done: nothing more comes from it)
    arrows_through_a_pick(b, "3x3", wait_back=1.5)
    stop_analysis(b)


def exact_lines(b, binary, tb_dir, moves):
    """Analyses 3x3:2,2,1 after `moves` with its tablebase until three lines of more than one move
    are shown; checks that the panel says exact, not a depth, and that each line's value is the
    engine's exact value of its first move (its `go` with MultiPV over the protocol) and its length
    that of best play (a win or a loss in N plies: N moves, at most 12). Returns the snapshot."""
    marks = engine_multipv(binary, tb_dir, "3x3:2,2,1", moves)
    check(len(marks) >= 3, f"the engine's exact values: {marks}")
    open_for_analysis(b, "3x3:2,2,1", moves)
    b.click(analysis_button(b))
    b.wait("three lines of more than one move",
           lambda: (lambda s: len(s["lines"]) == 3 and all(len(l["moves"]) > 1 for l in s["lines"]))(snapshot(b)))
    s = snapshot(b)
    print(f"3x3 lines: {[(l['value'], l['moves']) for l in s['lines']]}; stats {s['stats']!r}; caption {s['caption']!r}")
    check("depth 100" not in s["stats"] and "exact" in s["stats"], f"the statistics read {s['stats']!r}")
    side = 1 + len(moves) % 2
    check(f"Player {side} to move" in s["caption"], f"the caption reads {s['caption']!r}")
    words = {"W": "win in {} plies", "L": "loss in {} plies"}
    for line in s["lines"]:
        mark = marks[line["moves"][0]]
        expected = "draw (exact)" if mark == "D" else words[mark[0]].format(int(mark[1:]))
        check(line["value"] == expected, f"line {line['moves']} reads {line['value']!r}; the engine's value {mark}")
        if mark != "D":
            check(len(line["moves"]) == min(12, int(mark[1:])),
                  f"line {line['moves']}: {len(line['moves'])} moves for a result in {mark[1:]} plies")
    return s


def test_3x3_lines_are_exact(b, binary, tb_dir):
    """3x3:2,2,1 with its tablebase: after S@a1 (a win in 17 plies and draws for player 2) and where
    every move of player 2 loses in 2 plies, the lines are exact and of best play; the last move of
    a lost line, previewed, is a finished game."""
    exact_lines(b, binary, tb_dir, ["S@a1"])
    stop_analysis(b)
    s = exact_lines(b, binary, tb_dir, ["S@a1", "M@b2", "S@c3", "M@a3", "M@c1"])
    line = s["lines"][0]
    b.d.execute_script("const ms = document.querySelectorAll('#lines li')[0].querySelectorAll('.pv-move');"
                       "ms[ms.length - 1].click();")
    b.wait("the preview", lambda: b.status().startswith("Preview after"))
    lit = b.d.execute_script("return document.querySelectorAll('.square .cell.line').length")
    print(f"preview of {line['moves']}: {lit} squares of a winning line lit")
    check(lit >= 3, f"the line {line['moves']} does not end the game")
    b.click(b.square("b2"))  # (a click on the board ends the preview)
    stop_analysis(b)


def proof_text(b):
    e = b.d.find_element(By.ID, "proof")
    return e.text if e.is_displayed() else None


def engine_prove(binary, script):
    """The engine's own lines (over stdin) for `script`, which ends with a `go prove`, up to its
    bestmove; stdin stays open until then (its end would stop the proof)."""
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    engine.stdin.write(script)
    engine.stdin.flush()
    said = []
    for line in engine.stdout:
        said.append(line)
        if line.startswith("bestmove"):
            break
    engine.stdin.close()
    engine.wait(timeout=TIMEOUT)
    return "".join(said)


def press_prove(b):
    """Prove pressed: the proof's words, once it says "Proved"."""
    b.click(b.d.find_element(By.ID, "prove"))
    b.wait("the proof", lambda: (proof_text(b) or "").startswith("Proved"))
    text = proof_text(b)
    print(f"proof shown: {text!r}")
    return text


def test_prove_says_proved_win_where_the_search_gives_a_score(b, binary):
    """The Prove button (issue 38 item 3): the engine's prover on the position shown. A win in one
    is "Proved: player 1 wins in at most 1 ply, starting with L@d1", the move the engine's own
    `go prove` names and one that ends the game; Prove while analysing turns the analysis off; the
    answer belongs to its position (gone when another is shown); the 4x4 start is beyond reach and
    says so."""
    moves = ["X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"]
    said = engine_prove(binary, f"position startpos moves {' '.join(moves)}\ngo prove nodes 100000\n")
    engine_best = [l.split()[1] for l in said.splitlines() if l.startswith("bestmove")]
    check(engine_best and engine_best[0] != "(none)", f"the engine's go prove: {said!r}")
    open_for_analysis(b, "gobblet", moves, multipv="1")
    b.click(analysis_button(b))
    b.wait("the analysis", lambda: depth(b) >= 1)
    text = press_prove(b)
    check(text.startswith(f"Proved: player 1 wins in at most 1 ply, starting with {engine_best[0]} "
                          "(its certificate of 1 position checked;"), f"the proof says {text!r}")
    check(analysis_button(b).text == "Analyse", "the analysis is still on beside the proof")
    # Another position: the answer was about the one before.
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.wait("the position before", lambda: b.body("ply") == str(len(moves) - 1))
    b.wait("the proof gone", lambda: proof_text(b) is None)
    # The start of 4x4 Gobblet: no proof within the button's 5 s.
    open_for_analysis(b, "gobblet", [], multipv="1")
    b.click(b.d.find_element(By.ID, "prove"))
    b.wait("the prover's answer", lambda: (proof_text(b) or "").startswith("No proof"), timeout=TIMEOUT + 10)
    check(re.match(r"No proof within 5 s \(.+\): the position is beyond the prover's reach", proof_text(b)),
          f"the answer: {proof_text(b)!r}")
    check(b.d.find_element(By.ID, "prove").text == "Prove", "the button still says it proves")


def test_prove_says_a_proved_draw_in_words(b, binary):
    """The Prove button at tic-tac-toe's start (issue 61): the prover proves neither side wins and
    the not-lost prover proves each side cannot lose, both certificates checked (the engine's own
    `go prove` gives their sizes): "Proved: a draw — neither side can win (certificates of X and Y
    positions checked; …)"; the draw is the position's value, the bar's, proved."""
    said = engine_prove(binary, "setoption name Variant value tictactoe\nposition startpos\ngo prove movetime 5000\n")
    sizes = re.search(r"^info string proof draw .* certificates (\d+) and (\d+) checked$", said, re.M)
    check(sizes, f"the engine's go prove: {said!r}")
    open_for_analysis(b, "tictactoe", [], multipv="1")
    text = press_prove(b)
    check(text.startswith(f"Proved: a draw — neither side can win (certificates of {sizes[1]} and {sizes[2]} "
                          "positions checked;"), f"the proof says {text!r}")
    b.wait("the bar's proved draw",
           lambda: b.d.execute_script("return document.getElementById('eval-bar').getAttribute('aria-valuetext')")
           == "a draw (proved)")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
