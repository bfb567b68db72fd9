#!/usr/bin/python3
"""The small defects players found on the browser board (issue 62), in headless Chromium against
`gobblet --http 127.0.0.1:PORT`, at a desktop's 1366 px and a phone's 390 px, as a person sees it:

  arrows     the analysis arrows have heads; the board's letters (the pieces' sizes, the
             coordinates) are drawn over them; two drops to one square stand side by side (they
             were lines without heads, over the letters, one drop hiding the other)
  bar        the evaluation bar's number is written across it, at least 12 px (it was turned on
             its side, 9 px)
  levels     docs/board.md quotes the level selector's figures as the page shows them (it said
             `full ~1940`, the page `full ~2160`)
  PGN        a game against the engine names it with its level and Elo, the person "You", and its
             [TimeControl] (it said "Player 1", "Player 2"); gobblet-match reads it
  New game   empties the Import/Export box (it held the game before)
  phone      Settings unfolds onto the screen; a refusal moves nothing below the status (the move
             list went down 70 px); the banner of a lost engine lies over the page (it pushed it
             down 90 px); the analysis lines are all seen without scrolling inside their box (one
             of three was, in a 136 px box holding 443 px)

pytest tests on one page of one headless Chromium (fixtures: conftest.py, board_connection_test.py's
server). Run as a script:

  board_layout_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest

from board_driver import By, check, play_game_by_clicking, run_as_script
from board_test import LONG_4X4, RECORDER  # noqa: F401 (RECORDER: conftest reads it)
# The server a test may kill and start again (fixtures are used by name), a phone's screen.
from board_connection_test import (PHONE, page_url, phone_screen, rect, server,  # noqa: F401
                                   visible_alerts, connection_errors_only)

DESKTOP = (1366, 900)
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "board.md")


@pytest.fixture(scope="module")
def match_bin(binary):
    return os.path.join(os.path.dirname(binary), "gobblet-match")


@pytest.fixture(autouse=True)
def desktop(b):
    """Each test starts on a desktop's window, and leaves one."""
    b.d.set_window_size(*DESKTOP)
    yield
    b.d.set_window_size(*DESKTOP)


def open_game(b, variant, moves=(), multipv=None):
    """The position after `moves`, both players people."""
    b.load(f"#variant={variant}&moves=" + ",".join(m.replace("@", "%40") for m in moves))
    b.select("p1", "human")
    b.select("p2", "human")
    if multipv:
        b.select("multipv", multipv)
    b.idle()


# ---- the arrows ------------------------------------------------------------------------------------

# The board's arrows drawn by the page's own drawing (draw.js drawArrows) for `moves`, and what a
# person sees of them: each arrow's parts (its shaft, its head, a drop's ring and letter) with their
# boxes in the board's units, and the board's letters with theirs, in the order they are painted.
ARROWS = """
const [moves, done] = [arguments[0], arguments[arguments.length - 1]];
import('./draw.js').then((draw) => {
  const svg = document.getElementById('board');
  const n = Number(document.body.dataset.fen.split(' ')[0].split('/').length);
  draw.drawArrows(svg, n, moves, 1, 4);
  const all = [...svg.querySelectorAll('*')];
  const box = (e) => { const r = e.getBBox(); return [r.x, r.y, r.x + r.width, r.y + r.height]; };
  const arrows = [...svg.querySelectorAll('g.best')].map((g) => ({
    move: g.dataset.move,
    heads: g.querySelectorAll('.best-head').length,
    parts: [...g.children].map((e) => ({ kind: e.getAttribute('class'), box: box(e), at: all.indexOf(e),
      text: e.tagName === 'text' ? e.textContent : null })),
  }));
  const letters = [...svg.querySelectorAll('text')].filter((t) => !t.closest('g.best')).map((t) => ({
    text: t.textContent, x: t.getAttribute('x'), y: t.getAttribute('y'), box: box(t), at: all.indexOf(t),
    kind: t.getAttribute('class') }));
  done({ arrows, letters });
});
"""


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_arrows_have_heads_keep_letters_readable_and_drops_to_one_square_apart(b, out_dir):
    """Three arrows on a 4x4 board (player 1 to move, an X on a1): a board move from a1 (over its
    letter), and two drops to b1 (by the file letter b). Each has a head; every letter of the board
    an arrow crosses is painted again after the arrows; the two drops' shafts and letters stand
    apart."""
    open_game(b, "gobblet", ["X@a1", "X@d4"])
    drawn = b.d.execute_async_script(ARROWS, ["a1b2", "X@b1", "L@b1"])
    arrows, letters = drawn["arrows"], drawn["letters"]
    print("arrows: " + "; ".join(f"{a['move']}: {[(p['kind'], [round(x) for x in p['box']]) for p in a['parts']]}"
                                 for a in arrows))
    check([a["move"] for a in arrows] == ["a1b2", "X@b1", "L@b1"], f"arrows drawn: {[a['move'] for a in arrows]}")
    headless = [a["move"] for a in arrows if a["heads"] != 1]
    check(not headless, f"arrows without a head: {headless}")
    # The letters an arrow crosses are painted again over every arrow (the same letter, at the same place).
    last_arrow = max(p["at"] for a in arrows for p in a["parts"])
    shapes = [(a["move"], p) for a in arrows for p in a["parts"] if p["kind"] != "best-label"]
    crossed = [(t, m) for t in letters if t["at"] < last_arrow for m, p in shapes if overlap(t["box"], p["box"])]
    check(crossed, "no letter crossed by an arrow here: the test does not test")
    hidden = [(t["text"], t["kind"], m) for t, m in crossed
              if not any(u["at"] > last_arrow and (u["text"], u["x"], u["y"]) == (t["text"], t["x"], t["y"])
                         for u in letters)]
    print(f"letters crossed: {[(t['text'], m) for t, m in crossed]}")
    check(not hidden, f"letters under an arrow, not drawn over it: {hidden}")
    # The two drops to b1: apart, each letter clear of the other drop.
    drops = {a["move"]: a for a in arrows if "@" in a["move"]}
    shaft = lambda m: next(p["box"] for p in drops[m]["parts"] if p["kind"] == "best-shaft")
    label = lambda m: next(p for p in drops[m]["parts"] if p["kind"] == "best-label")
    apart = abs((shaft("X@b1")[0] + shaft("X@b1")[2]) / 2 - (shaft("L@b1")[0] + shaft("L@b1")[2]) / 2)
    print(f"two drops to b1: shafts {apart:.0f} units apart; letters at {label('X@b1')['box']}, {label('L@b1')['box']}")
    check(apart >= 20, f"the drops to b1 overlap: their shafts {apart:.0f} units apart")
    check(not overlap(label("X@b1")["box"], label("L@b1")["box"]), "the drops' letters overlap")
    check([label(m)["text"] for m in ("X@b1", "L@b1")] == ["X", "L"], "the drops' letters")
    b.d.find_element(By.ID, "board").screenshot(os.path.join(out_dir, "board-arrows.png"))
    b.d.execute_script("document.getElementById('board').querySelectorAll('.best, .best-letters')"
                       ".forEach((e) => e.remove())")


# ---- the bar's number ----------------------------------------------------------------------------

def bar_number(b):
    """The bar's number as drawn: its text, writing mode, font size (px), its box and the bar's
    [left, top, right, bottom], and whether it is cut (wider than the bar)."""
    return b.d.execute_script(
        "const t = document.getElementById('eval-text'), bar = document.getElementById('eval-bar');"
        "const range = document.createRange(); range.selectNodeContents(t);"
        "const r = range.getBoundingClientRect(), a = bar.getBoundingClientRect(), s = getComputedStyle(t);"
        "return { text: t.textContent, mode: s.writingMode, size: parseFloat(s.fontSize),"
        "  box: [r.left, r.top, r.right, r.bottom], bar: [a.left, a.top, a.right, a.bottom] };")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_bars_number_is_across_it_and_readable(b, screen):
    """The bar's number (a finished game's `1-0`, then the widest it can show, `100%`): written
    across the bar, at least 12 px high, wider than high, whole inside the bar."""
    if screen == "phone":
        phone_screen(b)
    b.load("#variant=gobblers&moves=L%40b2,S%40a1,L%40c3,M%40a3,M%40b3,S%40c1,b3a1")
    b.wait("the bar at the end", lambda: bar_number(b)["text"] == "1-0")
    for text in ("1-0", "100%"):
        b.d.execute_script("document.getElementById('eval-text').textContent = arguments[0]", text)
        n = bar_number(b)
        width, height = n["box"][2] - n["box"][0], n["box"][3] - n["box"][1]
        print(f"{screen}: {text!r} {n['mode']} {n['size']} px, {width:.0f}x{height:.0f} in a bar "
              f"{n['bar'][2] - n['bar'][0]:.0f} px wide")
        check(n["mode"] == "horizontal-tb", f"the bar's number is written {n['mode']}")
        check(n["size"] >= 12, f"the bar's number is {n['size']} px")
        check(width > height, f"{text!r} is {width:.0f} px wide, {height:.0f} px high: not across the bar")
        check(n["box"][0] >= n["bar"][0] - 0.5 and n["box"][2] <= n["bar"][2] + 0.5,
              f"{text!r} ({n['box']}) is cut by the bar ({n['bar']})")


# ---- the levels' figures -------------------------------------------------------------------------

def test_the_docs_quote_the_level_labels_the_page_shows(b):
    """docs/board.md's `full ~N` … `0 ~M` are the level selector's first and last labels."""
    b.load()
    labels = b.d.execute_script("return [...document.getElementById('level').options].map((o) => o.textContent)")
    with open(DOCS, encoding="utf-8") as f:
        m = re.search(r"`(full ~\d+)` … `(\d+ ~\d+)`", f.read())
    check(m, "docs/board.md quotes no level figures")
    print(f"the page's levels: {labels}; docs/board.md: {m.groups()}")
    check(list(m.groups()) == [labels[0], labels[-1]], f"docs/board.md says {m.groups()}, the page {labels}")


# ---- the PGN of a game against the engine --------------------------------------------------------

def tag(pgn, name):
    m = re.search(rf'^\[{name} "([^"]*)"\]$', pgn, re.M)
    return m.group(1) if m else None


def test_the_pgn_names_the_engine_its_level_and_the_time_control(b, match_bin):
    """A game of the person against the engine at level 13, 1 min + 1 s, to its end: the PGN names the person
    "You", the engine "gobblet (level 13, ~1660)", and [TimeControl "60+1"]; at 0.3 s a move,
    `movetime=0.3`; the engine playing player 1, it is White. gobblet-match reads the export back
    (the moves re-refereed: consistent)."""
    b.load()
    b.select("level", "13")
    try:
        play_game_by_clicking(b, "gobblers", time_control="clock 60000 1000")
        b.click(b.d.find_element(By.ID, "export-pgn"))
        pgn = b.d.execute_script("return document.getElementById('io-text').value")
        print(pgn)
        names = (tag(pgn, "White"), tag(pgn, "Black"), tag(pgn, "TimeControl"))
        check(names == ("You", "gobblet (level 13, ~1660)", "60+1"), f"the PGN's players and time control: {names}")
        with tempfile.NamedTemporaryFile("w", suffix=".pgn") as f:
            f.write(pgn)
            f.flush()
            replay = subprocess.run([match_bin, "--replay", f.name], capture_output=True, text=True, timeout=60)
        print(f"gobblet-match --replay: {replay.stdout.strip()} {replay.stderr.strip()}")
        check(replay.returncode == 0 and "1 consistent" in replay.stdout, "gobblet-match does not read the export")
        b.select("time", "movetime 300")
        b.select("p1", "engine")
        b.select("p2", "human")
        b.click(b.d.find_element(By.ID, "export-pgn"))
        pgn = b.d.execute_script("return document.getElementById('io-text').value")
        names = (tag(pgn, "White"), tag(pgn, "Black"), tag(pgn, "TimeControl"))
        check(names == ("gobblet (level 13, ~1660)", "You", "movetime=0.3"), f"the PGN's players and time: {names}")
    finally:
        b.select("p1", "human")
        b.select("level", "20")


# ---- New game and the Import/Export box ---------------------------------------------------------

def test_new_game_empties_the_import_export_box(b):
    """A game's PGN exported into the box; New game: the box no longer holds it."""
    open_game(b, "gobblers", ["L@b2", "S@a1"])
    b.click(b.d.find_element(By.ID, "export-pgn"))
    box = lambda: b.d.execute_script("return document.getElementById('io-text').value")
    check("L@b2" in box(), f"the export: {box()!r}")
    b.click(b.d.find_element(By.ID, "new-game"))
    b.wait("the new game", lambda: b.body("ply") == "0" and not b.moves())
    print(f"after New game the box holds {box()!r}, its note {b.io_status()!r}")
    check(box() == "", f"the box still holds the game before: {box()!r}")


# ---- a phone -------------------------------------------------------------------------------------

def test_phone_settings_unfold_onto_the_screen(b, out_dir):
    """390x844, the page at its top: Settings unfolds the players', time and level selectors on the
    screen; the help says where the header (New game, the selectors) is on a phone."""
    phone_screen(b)
    open_game(b, "gobblet", LONG_4X4.split()[:16])
    b.d.execute_script("window.scrollTo(0, 0)")
    b.click(b.d.find_element(By.ID, "settings-toggle"))
    b.wait("the settings unfolded", lambda: b.d.find_element(By.ID, "p1").is_displayed())
    time.sleep(0.3)
    boxes = {i: rect(b, i) for i in ("p1", "p2", "time", "level", "new-game")}
    b.d.save_screenshot(os.path.join(out_dir, "board-phone-settings.png"))
    print("unfolded: " + ", ".join(f"{k} {v[0]:.0f}-{v[1]:.0f}" for k, v in boxes.items()))
    off = {k: [round(x) for x in v] for k, v in boxes.items() if not (v[0] >= 0 and v[1] <= PHONE[1])}
    check(not off, f"off a 390x844 screen when Settings unfolds them: {off}")
    b.click(b.d.find_element(By.ID, "settings-toggle"))
    b.wait("the settings folded", lambda: not b.d.find_element(By.ID, "p1").is_displayed())
    help_text = b.d.execute_script("return document.getElementById('help').textContent.replace(/\\s+/g, ' ')")
    check("on a phone the header" in help_text, "the help does not say where the header is on a phone")


def test_phone_a_refusal_moves_nothing_below_it(b, out_dir):
    """390x844: an illegal drop refused with the engine's reason (three lines of text on a phone)
    moves neither the navigation nor the move list."""
    phone_screen(b)
    open_game(b, "gobblers", ["M@b2", "L@a1"])
    b.d.execute_script("window.scrollTo(0, 0)")
    before = {i: rect(b, i) for i in ("nav-start", "move-list", "stack-info")}
    b.click(b.reserve(1, "S"))
    b.click(b.square("a1"))
    b.wait("the refusal", lambda: b.status().startswith("Refused"))
    after = {i: rect(b, i) for i in before}
    status = rect(b, "status")
    print(f"refusal ({status[1] - status[0]:.0f} px high): {b.status()!r}; "
          + ", ".join(f"{k} {before[k][0]:.0f} -> {after[k][0]:.0f}" for k in before))
    b.d.save_screenshot(os.path.join(out_dir, "board-phone-refusal.png"))
    moved = {k: round(after[k][0] - before[k][0]) for k in before if abs(after[k][0] - before[k][0]) > 0.5}
    check(not moved, f"the refusal moved what is below it (px): {moved}")
    check(status[1] <= before["nav-start"][0] + 0.5 or b.d.execute_script(
        "const s = document.getElementById('status'); return getComputedStyle(s).backgroundColor !== 'rgba(0, 0, 0, 0)'"),
          "the refusal is written over the controls below it, with nothing behind it")


def test_phone_the_lost_engines_banner_lies_over_the_page(b, server, out_dir):
    """390x844: the server killed: the banner is on the screen and moves nothing of the page (it
    pushed it down 90 px); a new server on the same port: it goes."""
    phone_screen(b)
    open_game(b, "gobblet", ["X@a1", "X@d4"])
    b.d.execute_script("window.scrollTo(0, 0)")
    before = {i: rect(b, i) for i in ("board", "nav-start")}
    server.kill()
    try:
        b.wait("the banner", lambda: visible_alerts(b), timeout=10)
        time.sleep(0.3)
        after = {i: rect(b, i) for i in before}
        banner = rect(b, "connection-box")
        print(f"banner at {banner[0]:.0f}-{banner[1]:.0f} px; "
              + ", ".join(f"{k} {before[k][0]:.0f} -> {after[k][0]:.0f}" for k in before))
        b.d.save_screenshot(os.path.join(out_dir, "board-phone-engine-away.png"))
        check(banner[0] >= 0 and banner[1] <= PHONE[1], f"the banner is at {banner}, off the screen")
        moved = {k: round(after[k][0] - before[k][0]) for k in before if abs(after[k][0] - before[k][0]) > 0.5}
        check(not moved, f"the banner moved the page (px): {moved}")
    finally:
        server.start()
    b.wait("the page to reconnect", lambda: not visible_alerts(b), timeout=40)
    connection_errors_only(b, server.port)


def test_phone_analysis_lines_are_all_seen(b):
    """390x844, a 4x4 analysis of three lines: each line is whole inside the lines' box, which
    scrolls nothing inside it (one line of three was seen, in a 136 px box holding 443 px)."""
    phone_screen(b)
    open_game(b, "gobblet", LONG_4X4.split()[:8], multipv="3")
    b.click(b.d.find_element(By.ID, "analyse"))
    try:
        b.wait("three lines of several moves", lambda: b.d.execute_script(
            "return [...document.querySelectorAll('#lines li')].filter((l) =>"
            " l.querySelectorAll('.pv-move').length >= 4).length") == 3)
        seen = b.d.execute_script(
            "const box = document.getElementById('lines-box'), r = box.getBoundingClientRect();"
            "return { scroll: box.scrollHeight, client: box.clientHeight, lines: [...box.querySelectorAll('li')]"
            "  .map((l) => { const q = l.getBoundingClientRect(); return [q.top - r.top, q.bottom - r.top]; }) };")
        print(f"the lines' box: {seen['client']} px showing, {seen['scroll']} px of lines; "
              f"lines at {[[round(x) for x in l] for l in seen['lines']]}")
        check(seen["scroll"] <= seen["client"] + 1, f"the box scrolls: {seen['scroll']} px in {seen['client']} px")
        hidden = [l for l in seen["lines"] if l[0] < -0.5 or l[1] > seen["client"] + 0.5]
        check(not hidden, f"lines outside the box's view: {hidden}")
    finally:
        b.click(b.d.find_element(By.ID, "analyse"))
        b.wait("the analysis to stop", lambda: b.d.find_element(By.ID, "analyse").text == "Analyse")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
