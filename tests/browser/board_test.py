#!/usr/bin/python3
"""The browser board in a real browser: headless Chromium (Debian's
chromium + chromium-driver, driven with python3-selenium) against
`gobblet --http 127.0.0.1:0`.

Checks: the page loads with no console errors and its variant selector
lists the engine's variants (its handshake's Variant vars); a whole 3x3 game and a
whole 4x4 game against the engine played by clicking; with small 3x3 tablebases built here, the
win/draw/loss and distance shown for every legal move equal what `go` with
MultiPV reports over the protocol; an illegal drop is refused with the
engine's reason; a PGN is imported and navigated; a 10 MB paste is refused
at once (1 MB texts answered within 4 s); the move tree (a move from
ply 8 of 16 keeps plies 9-16 as a variation, in parentheses in the PGN;
promotion and deletion of a variation; ← → Home End along the line shown;
nested variations and comments round-trip through PGN import and export; a
comment with markup or `}` stays text); a 4x4 analysis shows its
depth growing and stops on demand; the controls under the analysis panel
stay put while the engine draws its lines; the page fits 360 and 1920 px. Hostile
input: links and PGN imports that smuggle a line end into a field (`%0A go
infinite`, `quit`) are refused with a message and none of it is sent (every
WebSocket message the page sends and receives is recorded, outside the page,
by a script Chromium runs before the page's own); markup in links and PGN
tags and comments creates no element and runs nothing. The token: a server
started with --token, the page opened with #token=T (or ?token=T) connects
and the token is gone from its address; opened without one, it asks for it.
Saves screenshots of a 4x4 and a 3x3 position in --out.

pytest tests, in the order below, on one page of one headless Chromium
(fixtures: conftest.py). Run as a script, or with pytest itself:

  board_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]
  python3 -m pytest tests/browser/board_test.py --bin ... --gobblet-tb ... --out DIR

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium
cannot start here; ctest reports it as skipped).
"""
import os
import re
import subprocess
import sys
import tempfile
import time
import shutil

import pytest

from board_driver import (Board, By, Failure, Keys, TIMEOUT, analyse_4x4, check, check_game_end, check_selector_lists,
                          handshake_variants, load_without_errors, play_game_by_clicking, play_tictactoe_by_clicking,
                          run_as_script)

# Runs in every document before the page's scripts (Chromium's DevTools
# protocol, so the page needs no test hook and the old page can be tested
# alike): records every WebSocket message sent and received in window.__wire.
RECORDER = """
(() => {
  const Native = window.WebSocket;
  const wire = { sent: [], sentAt: [], received: [] };  // (sentAt: performance.now() of each sent)
  Object.defineProperty(window, '__wire', { value: wire });
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => wire.received.push(String(e.data)));
    }
    send(data) {
      wire.sent.push(String(data));
      wire.sentAt.push(performance.now());
      return super.send(data);
    }
  };
})();
"""


# What ends a line, or has no business inside one.
LINE_BREAKING = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


def start_server(binary, tb_dir, token=None, extra=()):
    env = dict(os.environ, GOBBLET_TB_DIR=tb_dir)
    proc = subprocess.Popen([binary, "--http", "127.0.0.1:0", "--tablebase-dir", tb_dir]
                            + (["--token", token] if token else []) + list(extra),
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, text=True)
    line = proc.stderr.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise Failure(f"the server did not announce its address: {line!r}")
    return proc, int(m.group(1))


def stop_server(server):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.fixture(scope="module")
def tb_dir(tb_binary):
    """Small tablebases, built here, where the server looks for them (two 3x3 variants, a 4x4 member)."""
    path = tempfile.mkdtemp(prefix="gobblet-tb-")
    for variant, name in (("3x3:2,2,1", "3x3-2-2-1.gtb"), ("tictactoe", "3x3-1-5-0.gtb"), ("4x4:2,1", "4x4-2-1.gtb")):
        subprocess.run([tb_binary, "build", variant, "--out", os.path.join(path, name)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def page_url(binary, tb_dir):
    """`gobblet --http` on a free port: the page under test."""
    server, port = start_server(binary, tb_dir)
    yield f"http://127.0.0.1:{port}/"
    stop_server(server)


@pytest.fixture(scope="module")
def match_bin(binary):
    return os.path.join(os.path.dirname(binary), "gobblet-match")


TOKEN = "T0k-en_1"


@pytest.fixture(scope="module")
def token_url(binary, tb_dir):
    """A second server, started with --token TOKEN."""
    server, port = start_server(binary, tb_dir, token=TOKEN)
    yield f"http://127.0.0.1:{port}/"
    stop_server(server)


def engine_multipv(binary, tb_dir, variant, moves):
    """The tablebase marks as `go depth 1` with MultiPV reports them over the protocol (stdin)."""
    script = (f"setoption name Variant value {variant}\nsetoption name MultiPV value 256\n"
              f"position startpos moves {' '.join(moves)}\ngo depth 1\n")
    proc = subprocess.Popen([binary, "--tablebase-dir", tb_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    marks = {}
    for line in proc.stdout:
        if line.startswith("bestmove"):
            break
        m = re.match(r"info depth 1 .*multipv (\d+) score (cp|mate) (-?\d+) .*pv (\S+)", line)
        if m:
            kind, value, move = m.group(2), int(m.group(3)), m.group(4)
            marks[move] = "D" if kind == "cp" else ("W" if value > 0 else "L") + str(abs(value))
    proc.stdin.close()
    proc.wait(timeout=TIMEOUT)
    return marks


def test_loads_without_errors(b, binary):
    load_without_errors(b)
    out = subprocess.run([binary], input="ugi\nquit\n", capture_output=True, text=True, timeout=TIMEOUT).stdout
    check_selector_lists(b, handshake_variants(out.splitlines(), "the engine"), "the engine")


def engine_answer(binary, variant, moves, query):
    """What the engine answers to `query` after `moves` (stdin), without the word 'response'."""
    script = (f"setoption name Variant value {variant}\nposition startpos moves {' '.join(moves)}\n{query}\nquit\n")
    out = subprocess.run([binary], input=script, capture_output=True, text=True, timeout=TIMEOUT).stdout
    answers = [l[len("response "):] for l in out.splitlines() if l.startswith("response ")]
    check(len(answers) == 1, f"one response to {query!r} expected, got {out!r}")
    return answers[0]


def test_full_3x3_game_by_clicking(b, binary):
    moves = play_tictactoe_by_clicking(b)
    # The squares lit as the winning line are the engine's (`query line`), none after a draw;
    # how it ended, in the engine's words (`query reason`).
    check_game_end(b, "tictactoe", moves, lambda variant, moves, query: engine_answer(binary, variant, moves, query))


def test_full_4x4_game_by_clicking(b):
    """Player 1 clicks the first lit piece and its first lit target every turn; the engine plays 2."""
    play_game_by_clicking(b, "gobblet", label="4x4")


def test_tablebase_marks_equal_multipv(b, binary, tb_dir):
    b.load("#variant=3x3%3A2%2C2%2C1&moves=M%40b2,S%40a1")
    b.wait("the tablebase marks", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    shown = {r.get_attribute("data-move"): r.find_element(By.CSS_SELECTOR, ".mark").text
             for r in b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr")}
    expected = engine_multipv(binary, tb_dir, "3x3:2,2,1", ["M@b2", "S@a1"])
    print(f"tablebase marks: {len(shown)} moves, e.g. {sorted(shown.items())[:4]}")
    check(expected, "the engine reported no lines")
    check(shown == expected, f"marks differ from go/MultiPV:\n page   {shown}\n engine {expected}")
    # On the board too: pick the M reserve, every lit target carries its move's mark.
    b.click(b.reserve(1, "M"))
    for sq in b.targets():
        label = b.d.find_element(By.CSS_SELECTOR, f'[data-sq="{sq}"] .mark').text
        check(label == expected[f"M@{sq}"], f"board mark on {sq}: {label} != {expected[f'M@{sq}']}")
        # The target's dot (or ring) itself says the result (it was the same green for all).
        dot = b.d.find_element(By.CSS_SELECTOR, f'[data-sq="{sq}"] .target-dot, [data-sq="{sq}"] .target-ring').get_attribute("class")
        check(f"target-{label[0]}" in dot.split(), f"the target on {sq} ({label}) is drawn as {dot!r}")


def test_tablebase_marks_where_a_search_probes_nothing(b, binary, tb_dir):
    """Every move loses in 2 here: a depth-1 search proves it without probing (tbhits 0), and the
    page, which read the values from such a search, lost its marks and the chart its point. It asks
    the engine's `query values` now."""
    moves = ["S@a1", "M@b2", "S@c3", "M@a3", "M@c1"]
    b.load("#variant=3x3%3A2%2C2%2C1&moves=" + ",".join(m.replace("@", "%40") for m in moves))
    b.wait("the tablebase marks", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    shown = {r.get_attribute("data-move"): r.find_element(By.CSS_SELECTOR, ".mark").text
             for r in b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr")}
    expected = engine_multipv(binary, tb_dir, "3x3:2,2,1", moves)
    print(f"marks near the end: {sorted(shown.items())[:4]} ...")
    check(expected and shown == expected, f"marks differ:\n page   {shown}\n engine {expected}")
    b.wait("the value history", lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#graph .graph-point.exact"))
           == len(moves) + 1)


def test_illegal_drop_is_refused(b):
    b.load("#variant=gobblers&moves=M%40b2,L%40a1")
    b.idle()
    before = b.body("fen")
    b.click(b.reserve(2, "S"))  # the other player's reserve: nothing picked (it picked one's own S)
    check(not b.targets() and "player 2's reserve" in b.status(), f"{b.targets()} {b.status()!r}")
    b.click(b.reserve(1, "S"))
    b.click(b.reserve(1, "S"))  # picked again: put down (as on lichess; it stayed picked)
    check(not b.targets(), f"a reserve piece clicked twice is still picked: {b.targets()}")
    b.click(b.reserve(1, "S"))
    check(b.targets() and "a1" not in b.targets(), "a1 (a large piece) must not be lit for a small piece")
    b.click(b.square("a1"))
    b.wait("the refusal", lambda: b.status().startswith("Refused"))
    print(f"illegal drop: {b.status()}")
    check(b.status().count("S@a1") == 1, f"the refusal names the move, once: {b.status()!r}")
    check(re.match(r"Refused: ply \d+: ", b.status()), f"the refusal calls a ply a ply: {b.status()!r}")
    check("a piece gobbles only a smaller one: a1 shows an L" in b.status(),
          f"the refusal does not say why (the engine said only 'illegal move'): {b.status()!r}")
    check(b.body("fen") == before and len(b.moves()) == 2, "the refused move changed the game")


def test_missing_tablebase_hint(b):
    """A 3x3 game without a tablebase says so and how to get one (gobblers has none in this test's
    folder); a game with one shows its marks and no hint."""
    b.load("#variant=gobblers")
    b.wait("the hint", lambda: b.d.find_element(By.ID, "tb-hint").is_displayed())
    hint = b.d.find_element(By.ID, "tb-hint").text
    print(f"hint: {hint!r}")
    check("gobblers" in hint and "gobblet-tb build" in hint, f"the hint reads {hint!r}")
    b.load("#variant=3x3%3A2%2C2%2C1")
    b.wait("the tablebase marks", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    check(not b.d.find_element(By.ID, "tb-hint").is_displayed(), "a hint beside the marks")


def test_eval_bar(b, binary, tb_dir):
    """The evaluation bar beside the board says the value of the position shown: here (player 2 to
    move, every move loses in 2, by the engine's go/MultiPV) player 1 wins in 2: full, 'W2'; at the
    start of 3x3:2,2,1, a draw: half, 'D'."""
    moves = ["S@a1", "M@b2", "S@c3", "M@a3", "M@c1"]
    marks = engine_multipv(binary, tb_dir, "3x3:2,2,1", moves)
    check(marks and set(marks.values()) == {"L2"}, f"the engine's values for player 2 here: {marks} (every move "
                                                   f"losing in 2 expected)")
    b.load("#variant=3x3%3A2%2C2%2C1&moves=" + ",".join(m.replace("@", "%40") for m in moves))
    bar = lambda: b.d.execute_script(
        "const b = document.getElementById('eval-bar');"
        "return [b.getAttribute('aria-valuenow'), document.getElementById('eval-text').textContent,"
        " b.getAttribute('aria-valuetext')];")
    b.wait("the bar", lambda: bar()[1] == "W2")
    check(bar() == ["100", "W2", "player 1 wins in 2 plies"], f"the bar says {bar()}")
    b.load("#variant=3x3%3A2%2C2%2C1")
    b.wait("the bar at the start", lambda: bar()[1] == "D")
    check(bar()[0] == "50" and bar()[2] == "a draw", f"the bar at the start says {bar()}")
    # A finished game: the result (it stayed even, with no analysis, after a player had won).
    b.load("#variant=gobblers&moves=L%40b2,S%40a1,L%40c3,M%40a3,M%40b3,S%40c1,b3a1")
    b.wait("the end of the game", lambda: "wins" in b.status())
    b.wait("the bar at the end", lambda: bar()[1] == "1-0")
    check(bar() == ["100", "1-0", "player 1 has won"], f"the bar at the end says {bar()}")


def test_chart_height_shows_the_distance(b):
    """In the value chart, a sooner win is drawn higher: player 1's exact wins in 2, 3, ... plies at
    strictly rising heights (they were all drawn at the edge)."""
    moves = ["S@a1", "M@b2", "S@c3", "M@a3", "M@c1"]
    b.load("#variant=3x3%3A2%2C2%2C1&moves=" + ",".join(m.replace("@", "%40") for m in moves))
    b.wait("the value history", lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#graph .graph-point.exact"))
           == len(moves) + 1)
    points = b.d.execute_script(
        "return [...document.querySelectorAll('#graph .graph-point.exact')].map((c) =>"
        " [Number(c.getAttribute('cy')), c.querySelector('title').textContent]);")
    wins = sorted((int(m.group(1)), cy) for cy, title in points
                  for m in [re.search(r"player 1 wins in (\d+) pl", title)] if m)
    print(f"chart: {points}")
    check(len({d for d, _ in wins}) >= 2, f"two distances of player 1's wins expected in the chart: {points}")
    heights = [cy for _, cy in wins]
    check(all(a < b for a, b in zip(heights, heights[1:])), f"sooner wins are not drawn higher: {wins}")
    # The band is used whole: the game's farthest proven win (either player's) at its inner edge,
    # 0.55 of the half-height (44 units) from the axis; on a fixed 1-40 scale it was far inside.
    proven = [(int(m.group(1)), abs(cy - 50)) for cy, title in points
              for m in [re.search(r"wins in (\d+) pl", title)] if m]
    farthest = max(proven)
    check(farthest[1] <= 0.56 * 44, f"the farthest win ({farthest[0]} plies) is drawn {farthest[1]:.1f} units from the "
          f"axis, not at the band's inner edge ({0.55 * 44:.1f})")
    check("ply 0" in b.d.find_element(By.ID, "graph-axes").text, "the chart's axes are not named")


CONTRAST = """
const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
const lum = (c) => { const v = rgb(c).map((x) => { x /= 255; return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const bgOf = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
                        if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; };
const out = {};
const label = document.querySelector('#board .square .piece.p1 ~ .size-label');
if (label) out.p1Label = ratio(getComputedStyle(label).fill, getComputedStyle(label.parentNode.querySelector('.piece.p1')).fill);
for (const k of ['W', 'D', 'L']) { const m = document.querySelector(`#tb-moves .tb-${k} .mark`);
  if (m) out['mark' + k] = ratio(getComputedStyle(m).color, bgOf(m)); }
const cur = document.querySelector('#move-list .move.current');
if (cur) out.currentMove = ratio(getComputedStyle(cur).color, bgOf(cur));
const sel = document.querySelector('#board .cell.selected');
const light = document.querySelector('#board .cell.light:not(.selected):not(.last)');
if (sel && light) { const ring = getComputedStyle(sel).stroke;  // no ring: the fill is all that marks it
  out.selectedRing = ratio(ring === 'none' ? getComputedStyle(sel).fill : ring, getComputedStyle(light).fill); }
return out;
"""


def test_contrast(b):
    """WCAG AA: text at 4.5:1 (the p1 pieces' white letters, the W/D/L marks, the current move),
    the selected square's ring at 3:1 against a light square (its fill alone was 1.14:1)."""
    b.load("#variant=3x3%3A2%2C2%2C1&moves=M%40b2,S%40a1,S%40c3")
    b.select("p2", "human")
    b.wait("the tablebase marks", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    b.click(b.square("a1"))  # player 2's S, to move after 3 plies: the square is selected
    ratios = b.d.execute_script(CONTRAST)
    print(f"contrast: { {k: round(v, 2) for k, v in ratios.items()} }")
    for key in ("p1Label", "currentMove", "selectedRing"):
        check(key in ratios, f"nothing measured for {key}: {ratios}")
    check(any(k.startswith("mark") for k in ratios), f"no mark measured: {ratios}")
    low = {k: round(v, 2) for k, v in ratios.items() if v < (3.0 if k == "selectedRing" else 4.5)}
    check(not low, f"below WCAG AA: {low}")


def test_refused_variant_keeps_the_game(b):
    """A variant the engine refuses: its reason stays on show, the selector and the board stay on the game."""
    b.load("#variant=gobblers&moves=M%40b2")
    b.idle()
    fen = b.body("fen")
    b.select("variant", "custom")
    b.d.execute_script("const f = document.getElementById('custom-variant'); f.value = '3x3:9,9,9';"
                       "f.dispatchEvent(new Event('change'));")
    b.wait("the refusal", lambda: "3x3:9,9,9" in b.status() or "per size" in b.status())
    time.sleep(1.5)  # what the page does after the refusal must not replace its reason
    status = b.status()
    chosen = b.d.execute_script("return document.getElementById('variant').value")
    print(f"refused variant: {status!r}; selector {chosen!r}; board {b.body('fen')!r}")
    check(b.d.find_element(By.ID, "status").get_attribute("class") == "error" and status != "Player 1 to move.",
          f"the refusal's reason is gone: {status!r}")
    check(chosen == "gobblers", f"the selector shows {chosen!r}, the game is gobblers")
    check(b.body("fen") == fen, f"the board changed: {b.body('fen')!r} (was {fen!r})")


PGN = """[Event "test"]
[Site "?"]
[Variant "gobblers"]
[Result "1-0"]

1. L@b2 S@a1 2. L@c3 {a comment} M@a3 3. M@b3 S@c1 4. b3a1 1-0
"""


CUTEGAMES_PGN = """[Event "?"]
[Site "CuteGames"]
[Date "??"]
[Round "1"]
[White "gobblet-a"]
[Black "gobblet-b"]
[Result "1-0"]
[FEN "4/4/4/4 1"]
[Winner "gobblet-a"]
[Loser "gobblet-b"]
[PlyCount "7"]

1. X@a1 X@d4 2. X@a2 X@d3 3. X@a3 X@d2 4. L@a4 1-0


[Event "?"]
[Site "CuteGames"]
[Result "0-1"]
[FEN "4/4/4/4 1"]

1. X@b2 X@c3 0-1
"""


def test_pgn_import_and_navigation(b):
    b.load()
    b.d.find_element(By.ID, "io-text").clear()
    b.d.find_element(By.ID, "io-text").send_keys(PGN)
    b.click(b.d.find_element(By.ID, "import"))
    b.wait("the imported game", lambda: len(b.moves()) == 7)
    check(b.moves() == ["L@b2", "S@a1", "L@c3", "M@a3", "M@b3", "S@c1", "b3a1"], f"moves: {b.moves()}")
    b.wait("the last position", lambda: b.body("ply") == "7")
    b.wait("the result", lambda: "Player 1 wins" in b.status())
    b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    b.wait("one ply back", lambda: b.body("ply") == "6")
    b.click(b.d.find_element(By.ID, "nav-start"))
    b.wait("the start", lambda: b.body("ply") == "0" and b.body("fen") == "3/3/3 1")
    b.click(b.d.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="3"]'))
    b.wait("ply 3", lambda: b.body("ply") == "3" and b.body("fen") == "2L/1L1/s2 2")
    b.click(b.d.find_element(By.ID, "nav-end"))
    b.wait("the end", lambda: b.body("ply") == "7")
    b.click(b.d.find_element(By.ID, "export-pgn"))
    exported = b.d.find_element(By.ID, "io-text").get_attribute("value")
    check('[Variant "gobblers"]' in exported and "4. b3a1 1-0" in exported, f"exported PGN:\n{exported}")
    # A file as cutegames writes it (no Variant tag, the FEN names the board, two games): the first game.
    b.d.find_element(By.ID, "io-text").clear()
    b.d.find_element(By.ID, "io-text").send_keys(CUTEGAMES_PGN)
    b.click(b.d.find_element(By.ID, "import"))
    b.wait("the cutegames game", lambda: b.moves() == ["X@a1", "X@d4", "X@a2", "X@d3", "X@a3", "X@d2", "L@a4"])
    b.wait("its end", lambda: "Player 1 wins" in b.status())
    b.click(b.d.find_element(By.ID, "nav-start"))
    b.wait("the 4x4 start", lambda: b.body("fen") == "4/4/4/4 1")
    # The evaluation graph over the game: every position before the end gets a point.
    b.click(b.d.find_element(By.ID, "evaluate"))
    b.wait("the evaluation graph", lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#graph .graph-point")) == 7)
    # A [Variant] tag in another spelling the engine reads (an alias): the selector shows the engine's name.
    b.d.find_element(By.ID, "io-text").clear()
    b.d.find_element(By.ID, "io-text").send_keys(PGN.replace('"gobblers"', '"Gobblet Gobblers"'))
    b.click(b.d.find_element(By.ID, "import"))
    b.wait("the game with an alias", lambda: b.moves() == ["L@b2", "S@a1", "L@c3", "M@a3", "M@b3", "S@c1", "b3a1"]
           and b.d.execute_script("return document.getElementById('variant').value") == "gobblers")


def test_4x4_analysis(b, out_dir):
    analyse_4x4(b, os.path.join(out_dir, "board-4x4.png"))


def test_arrows_for_the_top_lines(b):
    """An analysis with three lines draws an arrow for each line's first move (line 1 first); a drop
    is drawn with its piece's letter."""
    b.load("#variant=gobblet&moves=X%40a1,X%40d4")
    b.select("p1", "human")
    b.select("p2", "human")
    b.select("multipv", "3")
    b.idle()
    b.click(b.d.find_element(By.ID, "analyse"))
    snapshot = lambda: b.d.execute_script(
        "const arrows = [...document.querySelectorAll('#board g.best')].map((g) =>"
        "  [g.dataset.move, (g.querySelector('.best-label') || {}).textContent || null]);"
        "const firsts = [...document.querySelectorAll('#lines li')].map((li) =>"
        "  (li.querySelector('.pv-move') || {}).textContent);"
        "return [arrows, firsts];")
    b.wait("three arrows", lambda: len(snapshot()[0]) == 3)
    arrows, firsts = snapshot()
    print(f"arrows {arrows}; lines start {firsts}")
    expected = list(dict.fromkeys(firsts))[:3]
    check([m for m, _ in arrows] == expected, f"arrows {arrows} for lines starting {firsts}")
    for move, label in arrows:
        check(label == (move[0] if move[1] == "@" else None), f"the arrow of {move} is labelled {label!r}")
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis to stop", lambda: b.status() == "Analysis stopped.")


# 20 plies of a 4x4 game (legal: the engine's own moves at depth 3).
LONG_4X4 = "X@d4 X@a4 X@a1 X@c3 X@d1 X@d3 L@a3 d3a3 M@a2 L@b4 d4b4 L@d4 L@b1 a4b1 a1d4 M@b2 M@c1 M@c4 L@b3 c3b3"


def lines_shown(b):
    """(the fen the analysis lines say they are of, [first move of each line], the position shown)."""
    return b.d.execute_script(
        "const l = document.getElementById('lines');"
        "return [l.dataset.fen || null, [...l.querySelectorAll('li')].map((li) => "
        "(li.querySelector('.pv-move') || {}).textContent || ''), document.body.dataset.fen];")


def engine_legal_moves(binary, fen):
    out = subprocess.run([binary], input=f"position fen {fen}\nmoves\nquit\n", capture_output=True, text=True,
                         timeout=TIMEOUT).stdout
    return [l.split()[1:] for l in out.splitlines() if l.startswith("moves")][0]


def test_analysis_belongs_to_the_position_shown(b, binary):
    """While an analysis runs, stepping back shows no line of the position left (they stayed: after a
    move, after a jump, after an import), and every line shown is of the position on the board; a
    line's move previewed leaves the analysis running and its lines as they were."""
    b.load("#variant=gobblet&moves=" + ",".join(m.replace("@", "%40") for m in LONG_4X4.split()[:8]))
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()
    b.click(b.d.find_element(By.ID, "analyse"))
    depth = lambda: int(b.d.find_element(By.ID, "search-stats").get_attribute("data-depth") or 0)
    b.wait("the analysis", lambda: depth() >= 3)
    for step in range(3):
        b.click(b.d.find_element(By.ID, "nav-back"))
        for _ in range(15):  # right after the step, and while the new analysis starts
            fen, firsts, shown = lines_shown(b)
            check(not firsts or fen == shown, f"lines of {fen!r} shown at {shown!r}")
            time.sleep(0.05)
        b.wait("the analysis of the new position", lambda: lines_shown(b)[1] and depth() >= 2)
        fen, firsts, shown = lines_shown(b)
        legal = engine_legal_moves(binary, shown)
        check(fen == shown and all(m in legal for m in firsts), f"lines {firsts} of {fen!r} at {shown!r}")
    text = b.d.find_element(By.ID, "search-stats").text
    check(re.match(r"depth \d+: [\d,.]+ (M )?nodes", text), f"search statistics read {text!r}")
    # One script call: the lines are redrawn at each iteration, an element found may be gone at the click.
    searches = len([m for m in b.wire("sent") if m.startswith("go ")])
    depth_before = depth()
    before = b.d.execute_script("const l = document.getElementById('lines'), t = l.innerText;"
                                "l.querySelector('li .pv-move').click(); return t;")
    b.wait("the preview", lambda: b.status().startswith("Preview after"))
    time.sleep(1.5)
    check(b.d.find_element(By.ID, "analyse").text == "Stop", "the preview stopped the analysis")
    check(b.d.execute_script("return document.getElementById('lines').innerText") == before,
          "the lines changed under the preview")
    b.click(b.square("a1"))  # (a click on the board ends the preview)
    b.wait("the analysis of the board's position again",
           lambda: lines_shown(b)[1] and lines_shown(b)[0] == lines_shown(b)[2] and depth() >= 2)
    # The analysis went on under the preview: not started again (it was: stop, go, from depth 1).
    again = len([m for m in b.wire("sent") if m.startswith("go ")])
    check(again == searches and depth() >= depth_before,
          f"after the preview: {again - searches} new searches, depth {depth_before} -> {depth()}")
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis to stop", lambda: b.status() == "Analysis stopped.")


def test_3x3_screenshot(b, out_dir):
    b.load("#variant=3x3%3A2%2C2%2C1&moves=M%40b2,S%40a1,S%40c3,M%40a3")
    b.wait("the tablebase marks", lambda: b.d.find_elements(By.CSS_SELECTOR, "#tb-moves tbody tr"))
    # The value history: every position of the game gets its exact value (5 points, all exact).
    b.wait("the value history", lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#graph .graph-point.exact")) == 5)
    b.click(b.reserve(1, "M"))
    b.wait("lit targets", lambda: b.targets())
    b.d.save_screenshot(os.path.join(out_dir, "board-3x3.png"))


def test_widths(b, out_dir):
    for width in (360, 1920):
        b.d.set_window_size(width, 1000)
        b.load("#variant=gobblet&moves=X%40a1,X%40d4")
        overflow = b.d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, f"the page is {overflow} px wider than a {width} px window")
        b.d.save_screenshot(os.path.join(out_dir, f"board-{width}px.png"))
    b.d.set_window_size(1280, 900)
    # At 1280 px the header holds every control on one row, the custom variant's field shown too
    # (the engine-time selector wrapped to a second row).
    b.load("#variant=3x3:2,2,1")
    b.wait("the custom variant's field", lambda: b.d.find_element(By.ID, "custom-variant").is_displayed())
    tops = b.d.execute_script("return [...document.querySelectorAll('header > *')].filter((e) => e.offsetParent)"
                              ".map((e) => Math.round(e.getBoundingClientRect().top + e.offsetHeight / 2))")
    check(max(tops) - min(tops) <= 4, f"the header wraps at 1280 px: middles of its controls at {tops}")


def test_picking_does_not_scroll_the_page(b):
    """Phone width: picking a piece of a long game leaves the page where it is (the move list used
    to be scrolled into view with the whole page, 300-500 px), and the current move is in the list's view."""
    b.d.set_window_size(390, 844)
    try:
        moves = LONG_4X4.split()
        b.load("#variant=gobblet&moves=" + ",".join(m.replace("@", "%40") for m in moves) + "&ply=10")
        b.idle()
        b.d.execute_script("document.getElementById('board').scrollIntoView({ block: 'start' })")
        before = b.d.execute_script("return window.scrollY")
        b.click(b.find("#reserve-1 .reserve-piece.legal"))
        b.wait("lit targets", lambda: b.targets())
        after = b.d.execute_script("return window.scrollY")
        print(f"phone width: page at {before} px before the pick, {after} px after")
        check(after == before, f"picking a piece scrolled the page from {before} to {after} px")
        visible = b.d.execute_script(
            "const l = document.getElementById('move-list'), c = l.querySelector('.current');"
            "const a = l.getBoundingClientRect(), r = c.getBoundingClientRect();"
            "return r.top >= a.top - 1 && r.bottom <= a.bottom + 1;")
        check(visible, "the current move is not in the move list's view")
    finally:
        b.d.set_window_size(1280, 900)


TONE_COUNTER = """
(() => {
  window.__tones = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) { window.__tones += 1; return start.apply(this, a); };
})();
"""


LINE_16 = LONG_4X4.split()[:16]


def test_the_move_list_stays_under_the_finger(b):
    """On a phone, with an analysis running, tapping moves in the list leaves the list where it is on
    the screen (the analysis lines above it were cleared and filled again, and the list jumped by
    about 200 px at every tap)."""
    b.d.set_window_size(390, 844)
    try:
        b.load("#variant=gobblet&moves=" + ",".join(m.replace("@", "%40") for m in LINE_16[:10]))
        b.select("p1", "human")
        b.select("p2", "human")
        b.idle()
        b.click(b.d.find_element(By.ID, "analyse"))
        b.wait("the analysis", lambda: b.d.execute_script("return document.querySelectorAll('#lines li').length") > 0)
        top = lambda: b.d.execute_script("return document.getElementById('move-list').getBoundingClientRect().top")
        # The lines keep growing for a while (their moves wrap as the search deepens): a click
        # is aimed at where a move is, so the page must have stopped moving before each.
        def steady():
            first = top()
            time.sleep(0.3)
            return abs(top() - first) < 1
        b.wait("the lines to settle", steady)
        b.d.execute_script("window.scrollBy(0, arguments[0])", top() - 400)
        time.sleep(0.5)
        # Where the list is at the touch (the lines above may still be growing until then).
        b.d.execute_script("document.addEventListener('pointerdown', () => { window.__listAtTouch ="
                           " document.getElementById('move-list').getBoundingClientRect().top; }, true)")
        tops = []
        for ply in (4, 7, 5, 9, 3, 8, 2, 10):
            b.click(b.find(f'#move-list .move[data-ply="{ply}"]'))
            before = b.d.execute_script("return window.__listAtTouch")
            b.wait(f"the analysis of ply {ply}", lambda: b.body("ply") == str(ply) and b.d.execute_script(
                "return document.querySelectorAll('#lines li').length") > 0)
            time.sleep(0.8)
            tops.append(round(top() - before))
            b.wait("the lines to settle", steady)
        print(f"the list moved by {tops} px at eight taps")
        below = b.d.execute_script("const s = document.body.lastElementChild.getBoundingClientRect();"
                                   "return s.top >= document.getElementById('move-list').getBoundingClientRect().bottom;")
        check(below, "the room made at the page's end is not below the move list")
        check(all(abs(t) <= 2 for t in tops), f"the move list moved under the finger by {tops} px")
        # A scroll of the person's own lets the list go: the analysis started again does not
        # scroll the page back to it.
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(b.d).scroll_by_amount(0, -5000).perform()
        b.wait("the top of the page", lambda: b.d.execute_script("return window.scrollY") == 0)
        time.sleep(0.3)
        b.d.execute_script("document.getElementById('analyse').click()")
        b.d.execute_script("document.getElementById('analyse').click()")
        b.wait("the lines again", lambda: b.d.execute_script("return document.querySelectorAll('#lines li').length") > 0)
        time.sleep(0.8)
        y = b.d.execute_script("return window.scrollY")
        check(y <= 2, f"the page was scrolled back to the list ({y} px) after the person scrolled away")
        b.click(b.d.find_element(By.ID, "analyse"))
    finally:
        b.d.set_window_size(1280, 900)


def test_touch_targets(b):
    """At a phone's width every button, selector and move (of the game and of the analysis lines)
    is at least 44 px each way, and the board comes first (the settings after it)."""
    b.d.set_window_size(390, 844)
    try:
        b.load("#variant=gobblet&moves=X%40a1,X%40d4,X%40b2")
        b.select("p2", "human")
        b.idle()
        b.click(b.d.find_element(By.ID, "analyse"))
        b.wait("the analysis lines", lambda: b.d.find_elements(By.CSS_SELECTOR, "#lines .pv-move"))
        small = b.d.execute_script(
            "return [...document.querySelectorAll('button, select, #lines .pv-move, #move-list .move')]"
            ".filter((e) => e.offsetParent !== null && !e.closest('dialog'))"
            ".map((e) => [e.id || e.className || e.tagName, e.textContent.trim().slice(0, 12),"
            "  Math.round(e.getBoundingClientRect().width), Math.round(e.getBoundingClientRect().height)])"
            ".filter(([, , w, h]) => w < 44 || h < 44);")
        b.click(b.d.find_element(By.ID, "analyse"))
        check(not small, f"touch targets under 44 px at 390 px wide: {small[:8]}")
        # The board first: at the top of the page, above the settings.
        board_top = b.d.execute_script("return document.getElementById('board').getBoundingClientRect().top + scrollY")
        header_top = b.d.execute_script("return document.querySelector('header').getBoundingClientRect().top + scrollY")
        check(board_top < header_top and board_top < 150, f"the board starts at {board_top} px, the settings at {header_top}")
    finally:
        b.d.set_window_size(1280, 900)


def test_drag_feedback(b):
    """Dragging a piece: it follows the pointer, the legal target under it is lit, the drop plays."""
    from selenium.webdriver.common.action_chains import ActionChains
    b.load("#variant=gobblers")
    b.new_game("gobblers", p1="human", p2="human", start_fen="3/3/3 1")
    b.idle()
    # Offsets from the reserve piece's centre, measured before: the board is drawn anew at the pick.
    centre = "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];"
    start = b.d.execute_script(centre, b.reserve(1, "M"))
    a1, b2 = (b.d.execute_script(centre, b.square(sq)) for sq in ("a1", "b2"))
    actions = ActionChains(b.d)
    actions.click_and_hold(b.reserve(1, "M"))
    actions.move_by_offset(int(a1[0] - start[0]), int(a1[1] - start[1]))
    actions.move_by_offset(int(b2[0] - a1[0]), int(b2[1] - a1[1])).perform()
    state = b.d.execute_script(
        "const g = document.querySelector('#board .ghost');"
        "return [g ? g.textContent : null, [...document.querySelectorAll('#board .square.drag-over')]"
        ".map((e) => e.dataset.sq)];")
    print(f"while dragging: ghost {state[0]!r}, lit {state[1]}")
    ActionChains(b.d).release().perform()
    check(state == ["M", ["b2"]], f"while dragging M over b2: ghost {state[0]!r}, lit {state[1]}")
    b.wait("the drop", lambda: b.moves() == ["M@b2"])
    check(not b.d.find_elements(By.CSS_SELECTOR, "#board .ghost"), "the dragged piece stays after the drop")
    # A piece already picked, then dragged, plays too (the press put it down, and the drag did nothing).
    b.idle()
    b.click(b.reserve(2, "S"))
    start = b.d.execute_script(centre, b.reserve(2, "S"))
    a1 = b.d.execute_script(centre, b.square("a1"))
    ActionChains(b.d).click_and_hold(b.reserve(2, "S")).move_by_offset(
        int(a1[0] - start[0]), int(a1[1] - start[1])).release().perform()
    b.wait("the drop of the piece picked before", lambda: b.moves() == ["M@b2", "S@a1"])


def test_flip(b):
    """Flip (button or f): the board from player 2's side: a1 at the top right, player 1's reserve
    above the board; the arrows keys still go the way they point; flipping back restores it."""
    b.load("#variant=gobblet&moves=X%40a1")
    top = lambda sel: b.d.execute_script(f"return document.querySelector('{sel}').getBoundingClientRect().top")
    left = lambda sel: b.d.execute_script(f"return document.querySelector('{sel}').getBoundingClientRect().left")
    check(top('#board [data-sq="a1"]') > top('#board [data-sq="a4"]'), "a1 is not below a4 before the flip")
    b.click(b.d.find_element(By.ID, "flip"))
    b.wait("the flip", lambda: top('#board [data-sq="a1"]') < top('#board [data-sq="a4"]'))
    check(left('#board [data-sq="a1"]') > left('#board [data-sq="d1"]'), "a1 is not right of d1 when flipped")
    check(top("#side-1") < top("#board-wrap") < top("#side-2"), "player 1's reserve is not above the board")
    b.d.execute_script("document.querySelector('#board [data-sq=\"b2\"]').focus()")
    b.d.switch_to.active_element.send_keys(Keys.ARROW_UP)
    up = b.d.execute_script("return document.activeElement.dataset.sq")
    check(up == "b1", f"ArrowUp on a flipped board went from b2 to {up}, not to b1 (the square above on screen)")
    b.d.find_element(By.TAG_NAME, "body").send_keys("f")
    b.wait("the flip back", lambda: top('#board [data-sq="a1"]') > top('#board [data-sq="a4"]'))


def test_sound(b):
    """Sound is off unless turned on: no tone at a move; on (and kept on across visits), one per move."""
    script = b.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TONE_COUNTER})
    try:
        b.load("#variant=gobblers")
        b.new_game("gobblers", p1="human", p2="human", start_fen="3/3/3 1")
        b.idle()
        check(not b.d.find_element(By.ID, "sound").is_selected(), "Sound is on by default")
        b.click(b.reserve(1, "M"))
        b.click(b.square("b2"))
        b.wait("the move", lambda: b.moves() == ["M@b2"])
        check(b.d.execute_script("return window.__tones") == 0, "a tone with Sound off")
        b.click(b.d.find_element(By.ID, "sound"))
        b.load("#variant=gobblers")  # a new visit: the setting stays
        b.new_game("gobblers", p1="human", p2="human", start_fen="3/3/3 1")
        b.idle()
        check(b.d.find_element(By.ID, "sound").is_selected(), "Sound was not kept")
        b.click(b.reserve(1, "M"))
        b.click(b.square("b2"))
        b.wait("the move", lambda: b.moves() == ["M@b2"])
        check(b.d.execute_script("return window.__tones") == 1, "no tone (or more than one) with Sound on")
        b.click(b.d.find_element(By.ID, "sound"))
    finally:
        b.d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_stack_description_follows_the_move(b):
    """The stack shown under the board is the position's after a move lands on the square clicked."""
    b.load("#variant=gobblers")
    b.new_game("gobblers", p1="human", p2="human", start_fen="3/3/3 1")
    b.idle()
    b.click(b.reserve(1, "M"))
    b.wait("lit targets", lambda: "b2" in b.targets())
    b.click(b.square("b2"))
    b.wait("the move", lambda: b.moves() == ["M@b2"])
    b.idle()
    text = b.d.find_element(By.ID, "stack-info").text
    print(f"stack after M@b2: {text!r}")
    check(text == "b2: M\u00b9", f"the stack of b2 after M@b2 reads {text!r}")


def test_keyboard_play(b):
    """A move made with the keyboard alone: Enter on a reserve piece, the arrows to the target,
    Enter to play; the squares say what they hold (aria-label)."""
    b.load("#variant=gobblers")
    b.new_game("gobblers", p1="human", p2="human", start_fen="3/3/3 1")
    b.idle()
    b.reserve(1, "M").send_keys(Keys.ENTER)
    active = lambda: b.d.execute_script("const a = document.activeElement; return a && a.dataset ? a.dataset.sq || null : null")
    b.wait("the keyboard on the board", lambda: active())
    for _ in range(8):  # from the first square the piece may go to, to b2
        sq = active()
        if sq == "b2":
            break
        key = Keys.ARROW_RIGHT if sq[0] < "b" else Keys.ARROW_LEFT if sq[0] > "b" else \
            Keys.ARROW_UP if sq[1] < "2" else Keys.ARROW_DOWN
        b.d.switch_to.active_element.send_keys(key)
        b.wait("the focus to move", lambda: active() != sq)
    check(active() == "b2", f"the arrows did not reach b2: {active()}")
    b.d.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait("the move", lambda: b.moves() == ["M@b2"])
    b.wait("the focus kept on the board", lambda: active() == "b2")
    label = b.d.find_element(By.CSS_SELECTOR, '#board [data-sq="b2"]').get_attribute("aria-label")
    check(label.startswith("b2: M"), f"b2's label reads {label!r}")
    b.d.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    b.wait("a1 or a2 reached by the arrow", lambda: active() == "a2")
    check(b.body("ply") == "1", "the arrow on the board stepped through the game instead")


def test_export_copy_and_download(b):
    """An exported PGN is copied to the clipboard and downloaded as gobblet-game.pgn, both holding
    exactly the text exported."""
    b.load("#variant=gobblers&moves=M%40b2,S%40a1")
    b.idle()
    b.click(b.d.find_element(By.ID, "export-pgn"))
    text = b.d.execute_script("return document.getElementById('io-text').value")
    check("M@b2" in text and "[Variant" in text, f"the PGN export reads {text!r}")
    folder = tempfile.mkdtemp(prefix="gobblet-downloads-")
    try:
        b.d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
        b.d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
                                                         "origin": b.url.rstrip("/")})
        b.click(b.d.find_element(By.ID, "io-copy"))
        b.wait("the copy", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Copied"))
        copied = b.d.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('ERROR ' + e));")
        check(copied == text, f"the clipboard holds {copied!r}")
        b.click(b.d.find_element(By.ID, "io-download"))
        path = os.path.join(folder, "gobblet-game.pgn")
        b.wait("the download", lambda: os.path.isfile(path) and os.path.getsize(path) == len(text.encode()))
        with open(path, encoding="utf-8") as f:
            check(f.read() == text, "the downloaded file differs from the text exported")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def movetext(pgn):
    """A PGN's moves, variations and comments on one line (tags and the result left out)."""
    body = " ".join(l for l in pgn.splitlines() if l.strip() and not l.startswith("["))
    return re.sub(r"\s*(\*|1-0|0-1|1/2-1/2)$", "", re.sub(r"\s+", " ", body).strip())


def export_pgn(b):
    b.click(b.d.find_element(By.ID, "export-pgn"))
    return b.d.execute_script("return document.getElementById('io-text').value")


def variation_moves(b):
    """Each variation of the move list (outermost first, in order) as its moves."""
    return b.d.execute_script(
        "return [...document.querySelectorAll('#move-list .variation')].map((v) =>"
        " [...v.querySelectorAll(':scope > .move')].map((e) => e.textContent.trim()))")


def branch_at_ply_8(b):
    """The first 16 plies of LONG_4X4 opened (two people), ply 8 clicked in the move list, and a
    legal move other than the game's 9th played there with the mouse. Returns (the move played,
    {ply: fen} of the old line at plies 9, 10 and 16)."""
    b.load("#variant=gobblet&moves=" + ",".join(m.replace("@", "%40") for m in LINE_16))
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()
    fens = {}
    for ply in (16, 10, 9, 8):
        b.click(b.find(f'#move-list .move[data-ply="{ply}"]'))
        b.wait(f"ply {ply}", lambda: b.body("ply") == str(ply) and b.body("fen") != fens.get(ply + 1))
        b.idle()
        fens[ply] = b.body("fen")
    piece = b.find("#reserve-1 .reserve-piece.legal")
    size = piece.get_attribute("data-size")
    b.click(piece)
    target = next(t for t in b.targets() if f"{size}@{t}" != LINE_16[8])
    b.click(b.square(target))
    played = f"{size}@{target}"
    b.wait("the move from ply 8", lambda: b.body("ply") == "9" and b.moves() == LINE_16[:8] + [played])
    b.idle()
    return played, fens


def test_a_move_from_ply_8_keeps_a_variation(b):
    """A move from ply 8 of a 16-ply game keeps plies 9-16: shown as a variation in the move list,
    and in parentheses in the exported PGN (the page used to delete them)."""
    played, _ = branch_at_ply_8(b)
    check(variation_moves(b) == [LINE_16[8:]], f"the variations shown: {variation_moves(b)}")
    text = movetext(export_pgn(b))
    print(f"after a move from ply 8: {text}")
    old = "(5. M@a2 L@b4 6. d4b4 L@d4 7. L@b1 a4b1 8. a1d4 M@b2)"
    check(f"4. L@a3 d3a3 5. {played} {old}" in text, f"the PGN's moves: {text}")


def test_promote_a_variation(b):
    """Promoting the variation makes it the main line: the export's order changes."""
    played, fens = branch_at_ply_8(b)
    b.click(b.d.find_elements(By.CSS_SELECTOR, "#move-list .variation .move")[0])
    b.wait("the variation's first move", lambda: b.body("ply") == "9" and b.body("fen") == fens[9])
    b.click(b.d.find_element(By.ID, "promote"))
    b.wait("the variation promoted", lambda: b.moves() == LINE_16)
    check(variation_moves(b) == [[played]], f"the variations shown: {variation_moves(b)}")
    text = movetext(export_pgn(b))
    check(f"5. M@a2 (5. {played}) 5... L@b4" in text, f"the PGN after promotion: {text}")
    check(not b.d.find_element(By.ID, "promote").is_displayed(), "Promote offered on the main line")


def test_delete_a_variation(b):
    """Deleting the variation removes it from the list and the export."""
    played, fens = branch_at_ply_8(b)
    b.click(b.d.find_elements(By.CSS_SELECTOR, "#move-list .variation .move")[2])
    b.wait("the variation's third move", lambda: b.body("ply") == "11")
    b.click(b.d.find_element(By.ID, "delete-variation"))
    b.wait("the variation deleted", lambda: not variation_moves(b))
    b.wait("the position it started from", lambda: b.body("ply") == "8")
    check(b.moves() == LINE_16[:8] + [played], f"the main line after the deletion: {b.moves()}")
    text = movetext(export_pgn(b))
    check("(" not in text and "M@a2" not in text, f"the PGN after the deletion: {text}")


def test_navigation_keys_follow_the_line(b):
    """In a variation, ← → Home End step along it (not along the main line)."""
    played, fens = branch_at_ply_8(b)
    b.click(b.d.find_elements(By.CSS_SELECTOR, "#move-list .variation .move")[1])
    b.wait("the variation's second move", lambda: b.body("ply") == "10" and b.body("fen") == fens[10])
    body = b.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    b.wait("one back, in the variation", lambda: b.body("ply") == "9" and b.body("fen") == fens[9])
    body.send_keys(Keys.END)
    b.wait("the variation's end", lambda: b.body("ply") == "16" and b.body("fen") == fens[16])
    check(b.d.find_elements(By.CSS_SELECTOR, "#move-list .variation .move.current"), "the current move is not in the variation")
    body.send_keys(Keys.HOME)
    b.wait("the start", lambda: b.body("ply") == "0")
    body.send_keys(Keys.ARROW_RIGHT)
    b.wait("forward from the start", lambda: b.body("ply") == "1")
    body.send_keys(Keys.END)
    b.wait("the end of the line played", lambda: b.body("ply") == "9" and b.moves()[-1] == played)
    check(b.d.find_element(By.CSS_SELECTOR, "#move-list .move.current").text == played, "End left the line played")


NESTED_PGN = """[Variant "gobblers"]

{Start} 1. L@b2 {centre} (1. M@b2 S@a1 (1... L@a1 {big} 2. S@c3) 2. L@c3) 1... S@a1
2. L@c3 M@a3 (2... S@c1 {blocks} 3. M@a3) 3. M@b3 S@c1 4. b3a1 *
"""


def bestmoves(b):
    return len([m for m in b.wire("received") if m.startswith("bestmove")])


def l_b2_against_the_engine(b, time_control):
    """A new gobblers game, the person player 1 and the engine player 2 at `time_control`: L@b2 played,
    and the engine's answer waited for."""
    b.load()
    b.new_game("gobblers", p1="human", p2="engine", time_control=time_control)
    b.idle()
    b.click(b.reserve(1, "L"))
    b.click(b.square("b2"))
    b.wait("the engine's answer", lambda: len(b.moves()) == 2 and b.body("ply") == "2")
    b.idle()


def clock_seconds(b, player):
    m, sec = b.d.find_element(By.ID, f"clock-{player}").text.split(":")
    return int(m) * 60 + int(sec)


def comment_of(b, move):
    """The comment after `move` in the exported PGN's movetext ('' if none)."""
    m = re.search(re.escape(move) + r" \{([^}]*)\}", movetext(export_pgn(b)))
    return m.group(1) if m else ""


def test_move_menu(b):
    """A move's menu in the move list (right click, as on lichess): 'Make main line' on a
    variation's move promotes its line, 'Delete from here' on a main-line move removes it and all
    after it, 'Comment' shows the move with the comment field ready; the keyboard moves in the
    menu and Escape closes it. (There was no menu, and no way to delete from a main-line move.)"""
    from selenium.webdriver.common.action_chains import ActionChains
    played, fens = branch_at_ply_8(b)
    menu = b.d.find_element(By.ID, "move-menu")
    ActionChains(b.d).context_click(b.d.find_elements(By.CSS_SELECTOR, "#move-list .variation .move")[1]).perform()
    b.wait("the menu", menu.is_displayed)
    b.click(menu.find_element(By.CSS_SELECTOR, '[data-action="promote"]'))
    b.wait("the variation promoted", lambda: b.moves() == LINE_16)
    check(not menu.is_displayed(), "the menu stays open after a choice")
    ActionChains(b.d).context_click(b.d.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="12"]')).perform()
    b.wait("the menu", menu.is_displayed)
    check(not menu.find_element(By.CSS_SELECTOR, '[data-action="promote"]').is_displayed(),
          "'Make main line' offered on the main line")
    focused = lambda: b.d.execute_script("return document.activeElement.dataset.action || ''")
    check(focused() == "delete", f"the menu's first item is not focused: {focused()!r}")
    b.d.switch_to.active_element.send_keys(Keys.ARROW_LEFT)  # taken by the menu: the game does not step
    b.d.switch_to.active_element.send_keys(Keys.END)
    check(focused() == "comment" and b.body("ply") == "9" and menu.is_displayed(),
          f"keys in the menu: {focused()!r}, ply {b.body('ply')}")
    b.d.switch_to.active_element.send_keys(Keys.HOME)
    b.d.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait("plies 12-16 deleted", lambda: b.moves() == LINE_16[:11])
    b.wait("the focus back on the move shown", lambda: b.d.execute_script(
        "return document.activeElement.matches('#move-list .move.current')"))
    check(variation_moves(b) == [[played]], f"the variation was touched: {variation_moves(b)}")
    ActionChains(b.d).context_click(b.d.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="3"]')).perform()
    b.wait("the menu", menu.is_displayed)
    b.d.switch_to.active_element.send_keys(Keys.ESCAPE)
    b.wait("the menu closed by Escape", lambda: not menu.is_displayed())
    ActionChains(b.d).context_click(b.d.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="3"]')).perform()
    b.wait("the menu", menu.is_displayed)
    b.d.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    check(focused() == "comment", f"ArrowDown went to {focused()!r}")
    b.d.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait("ply 3 with the comment field", lambda: b.body("ply") == "3"
           and b.d.execute_script("return document.activeElement.id") == "comment")
    b.d.switch_to.active_element.send_keys("on move 2")
    b.d.find_element(By.ID, "status").click()
    check(comment_of(b, LINE_16[2]) == "on move 2", f"the comment: {movetext(export_pgn(b))}")
    # The ⋯ button (touch screens have no right click) opens the menu for the move shown.
    b.click(b.d.find_element(By.ID, "move-actions"))
    b.wait("the menu from the button", menu.is_displayed)
    b.click(menu.find_element(By.CSS_SELECTOR, '[data-action="delete"]'))
    b.wait("plies 3-11 deleted", lambda: b.moves() == LINE_16[:2] and b.body("ply") == "2")


def test_pgn_variations_and_comments_round_trip(b, match_bin):
    """A PGN with nested variations and comments is imported into the tree (the list shows them)
    and exported with the same moves, variations and comments; imported again, the same. The
    export is read by `gobblet-match --replay` (its main line, re-refereed: consistent)."""
    b.load("#variant=gobblers")
    b.idle()
    b.import_text(NESTED_PGN)
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Imported"))
    b.wait("the main line", lambda: b.moves() == ["L@b2", "S@a1", "L@c3", "M@a3", "M@b3", "S@c1", "b3a1"])
    check(variation_moves(b) == [["M@b2", "S@a1", "L@c3"], ["L@a1", "S@c3"], ["S@c1", "M@a3"]],
          f"the variations shown: {variation_moves(b)}")
    comments = b.d.execute_script("return [...document.querySelectorAll('#move-list .comment')].map((e) => e.textContent)")
    check(comments == ["Start", "centre", "big", "blocks"], f"the comments shown: {comments}")
    first = export_pgn(b)
    print(f"exported: {movetext(first)}")
    check(movetext(first) == movetext(NESTED_PGN), f"exported:\n{movetext(first)}\nimported:\n{movetext(NESTED_PGN)}")
    b.import_text(first)
    b.wait("the import of the export", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Imported"))
    check(movetext(export_pgn(b)) == movetext(NESTED_PGN), "the export of the export differs")
    with tempfile.NamedTemporaryFile("w", suffix=".pgn") as f:
        f.write(first)
        f.flush()
        replay = subprocess.run([match_bin, "--replay", f.name], capture_output=True, text=True, timeout=60)
    print(f"gobblet-match --replay of the export: {replay.stdout.strip()} {replay.stderr.strip()}")
    check(replay.returncode == 0 and "1 consistent" in replay.stdout, "gobblet-match does not read the export")


def test_comment_with_markup_is_text(b):
    """A comment typed on a move is shown as text, makes no element, and is exported with its `}`
    escaped: read back, it adds no move and keeps its text."""
    b.load("#variant=gobblers&moves=L%40b2,S%40a1")
    b.idle()
    hostile = "<img src=x onerror=window.__xss='c'>} 2. L@c3 {<b>x</b>"
    field = b.d.find_element(By.ID, "comment")
    field.send_keys(hostile + Keys.ENTER)
    b.wait("the comment shown", lambda: b.d.execute_script(
        "return [...document.querySelectorAll('#move-list .comment')].map((e) => e.textContent)") == [hostile])
    made = b.d.execute_script("return document.querySelectorAll('#move-list img, #move-list b').length")
    check(made == 0 and b.d.execute_script("return window.__xss === undefined"), "the comment made an element")
    text = export_pgn(b)
    print(f"exported comment: {movetext(text)}")
    check(movetext(text).count("}") == 1 and movetext(text).endswith("}"), f"the comment's }} is not escaped: {text}")
    b.import_text(text)
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Imported"))
    check(b.moves() == ["L@b2", "S@a1"], f"the comment's text became moves: {b.moves()}")
    shown = b.d.execute_script("return [...document.querySelectorAll('#move-list .comment')].map((e) => e.textContent)")
    check(len(shown) == 1 and shown[0].startswith("<img") and "L@c3" in shown[0], f"the comment read back: {shown}")
    check(b.d.execute_script("return document.querySelectorAll('#move-list img, #move-list b').length") == 0,
          "the comment read back made an element")


def test_wrapped_comment_with_brackets_round_trips(b):
    """A comment whose words start with `[` (as `{ [%eval 0.3] }` does) is exported wrapped, so that
    a line of the PGN starts with one of them; imported again, that line is still the comment's,
    not the tags of a next game (the import cut the text there and refused it)."""
    b.load("#variant=gobblers&moves=L%40b2,S%40a1")
    b.idle()
    comment = " ".join(f"[w{i}]" for i in range(40))
    b.d.find_element(By.ID, "comment").send_keys(comment + Keys.ENTER)
    b.wait("the comment shown", lambda: b.d.execute_script(
        "return [...document.querySelectorAll('#move-list .comment')].map((e) => e.textContent)") == [comment])
    text = export_pgn(b)
    check(any(l.startswith("[w") for l in text.splitlines()), f"no line of the export starts with [: {text!r}")
    b.import_text(text)
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith(("Imported", "Not imported")))
    status = b.d.find_element(By.ID, "io-status").text
    check(status.startswith("Imported"), f"the export was not read back: {status!r}")
    shown = b.d.execute_script("return [...document.querySelectorAll('#move-list .comment')].map((e) => e.textContent)")
    check(shown == [comment] and b.moves() == ["L@b2", "S@a1"], f"read back: {b.moves()} {shown}")


def test_huge_link_is_refused_at_once(b):
    """A link of 100,000 moves is refused with its reason within seconds (its lines were built by
    copying each path: some 5e9 copies, and the tab hung before anything reached the engine)."""
    moves = ",".join(["a1b1", "b1a1"] * 50000)
    started = time.monotonic()
    b.load("#variant=gobblers&moves=" + moves.replace("@", "%40"),
           until=lambda: "refused" in b.status())
    b.wait("the refusal", lambda: "more than 5000 moves" in b.status())
    took = time.monotonic() - started
    print(f"huge link: {b.status()!r} after {took:.1f} s")
    check(b.moves() == [], f"the refused link left moves: {len(b.moves())}")


# The import's answers are timed against the page's own pace in the same run,
# not against the clock (the machine may be loaded): a refusal "at once"
# comes before a 1 MB text has been read (a 10 MB move list once was parsed
# first: 7-11 s, where 1 MB of tags reads in 0.5-1.7 s on a loaded 2-core
# machine), and a 1 MB text is answered within SMALL_IMPORTS times a small
# game's import (4 to 6 of them idle).
SMALL_IMPORTS = 40


def paste_and_import(b, script):
    """Puts the text `script` makes (JavaScript run in the page: 10 MB would be slow through
    WebDriver) into the import box as a paste does (the value, then an `input` event), then clicks
    Import as a person. Returns (the import's status, the wall seconds from the paste to it)."""
    b.d.execute_script("document.getElementById('io-status').textContent = '';")
    started = time.monotonic()
    b.d.execute_script("const box = document.getElementById('io-text');"
                       f"box.value = {script};"
                       "box.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste' }));")
    b.click(b.d.find_element(By.ID, "import"))
    status = lambda: b.d.find_element(By.ID, "io-status").text
    b.wait("the import's answer", lambda: status().startswith(("Imported", "Not imported")))
    return status(), time.monotonic() - started


def test_huge_paste_is_refused_at_once(b):
    """A 10 MB paste into Import is refused at once with the limit (it was parsed first: the page
    hung for some 10 s before refusing it), nothing of it is sent, and the board answers a click
    right after; a text just under the limit (1 MB) is answered within seconds, refused (more
    moves than a game may hold) or imported."""
    b.load("#variant=gobblers")
    b.new_game("gobblers", p1="human", p2="human", start_fen="3/3/3 1")
    b.idle()
    before = len(b.wire("sent"))
    status, took = paste_and_import(b, "'1. S@a1 S@b2 2. M@c3 M@a2 '.repeat(400000)")  # 10.4 M characters
    print(f"10 MB paste: {status!r} after {took:.2f} s")
    check(status.startswith("Not imported") and "at most 1,000,000 characters" in status, f"the refusal: {status!r}")
    left = b.d.execute_script("return document.getElementById('io-text').value.length")
    check(left == 0, f"the refused paste left {left} characters in the box")
    check(not b.wire("sent")[before:], f"the page sent {b.wire('sent')[before:][:3]} for a refused paste")
    # The board answers a click at once: the piece picked lights its targets.
    started = time.monotonic()
    b.click(b.reserve(1, "S"))
    b.wait("the targets of the piece picked", lambda: b.targets(), timeout=60)
    clicked = time.monotonic() - started
    print(f"a click after the refusal: {len(b.targets())} targets lit after {clicked:.2f} s")
    b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    # The page's pace in this run: a small game's import.
    small_status, small = paste_and_import(b, "'1. L@b2 S@a1 *'")
    print(f"a small game: {small_status!r} after {small:.2f} s")
    check(small_status == "Imported 2 moves.", f"the small game: {small_status!r}")
    # Just under the limit: a move list of more moves than a game may hold (read up to its limit,
    # not to the end), and a game under a megabyte of tags in lines of 79 characters (as the PGN
    # export wraps them: the browser lays out a megabyte of much shorter lines for over a second).
    status, took_moves = paste_and_import(b, "'1. S@a1 S@b2 2. M@c3 M@a2 '.repeat(38000)")
    print(f"1 MB move list: {status!r} after {took_moves:.2f} s")
    check(took_moves < SMALL_IMPORTS * small and "more than 5000 moves" in status, f"after {took_moves:.1f} s: {status!r}")
    status, took_tags = paste_and_import(b, "('[Annotator \"' + 'x'.repeat(64) + '\"]\\n').repeat(12600)"
                                            " + '\\n1. L@b2 S@a1 *\\n'")
    print(f"1 MB of tags: {status!r} after {took_tags:.2f} s")
    check(took_tags < SMALL_IMPORTS * small and status == "Imported 2 moves.", f"after {took_tags:.1f} s: {status!r}")
    b.wait("the imported game", lambda: b.moves() == ["L@b2", "S@a1"])
    # The 10 MB refusal, and the click after it, came before a megabyte could be read.
    check(took < took_tags, f"a 10 MB paste was answered after {took:.1f} s, 1 MB read in {took_tags:.1f} s")
    check(clicked < took_tags, f"the click after the refusal was answered after {clicked:.1f} s")


def test_replayed_move_is_answered_by_the_engine(b):
    """Against the engine, the person's move from an earlier position is answered by the engine even
    when it is the move the game already holds there (the page followed the stored move and waited:
    the engine did not answer and the person could move the engine's pieces). A position reached by
    navigation, the engine to move, is browsed: the engine waits, and "Engine, move" lets it play there."""
    l_b2_against_the_engine(b, "movetime 300")
    b.click(b.d.find_element(By.ID, "nav-start"))
    b.wait("the start", lambda: b.body("ply") == "0")
    b.idle()
    searches = bestmoves(b)
    b.click(b.reserve(1, "L"))
    b.click(b.square("b2"))
    b.wait("the engine's answer to the replayed move",
           lambda: b.body("ply") == "2" and bestmoves(b) > searches, timeout=20)
    b.idle()
    check(b.status().startswith("Player 1 to move"), f"after the engine's answer the status reads {b.status()!r}")
    print(f"replayed L@b2: the engine answered, the game reads {b.moves()}")
    # Navigation to a position with the engine to move: browsed, then played on with "Engine, move".
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.wait("ply 1", lambda: b.body("ply") == "1")
    b.idle()
    searches = bestmoves(b)
    button = b.d.find_element(By.ID, "engine-move")
    check(button.is_displayed(), f"no 'Engine, move' at an earlier position of the engine's: {b.status()!r}")
    check(bestmoves(b) == searches and b.body("ply") == "1", "the engine moved on navigation")
    b.click(button)
    b.wait("the engine's move from ply 1", lambda: b.body("ply") == "2" and bestmoves(b) > searches, timeout=20)
    b.idle()
    check(not button.is_displayed(), "'Engine, move' still offered on the person's turn")


def test_a_comment_stays_on_its_move(b):
    """A comment being typed stays on the move it was begun on: a move played on the board meanwhile
    (the piece picked before) or the engine's answer arriving neither moves it to the new move nor
    wipes it (the first landed on the new move, the second emptied the field)."""
    b.load("#variant=gobblers&moves=L%40b2,S%40a1")
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()
    b.click(b.reserve(1, "M"))
    field = b.d.find_element(By.ID, "comment")
    field.send_keys("typed on S@a1")
    b.click(b.square("c3"))
    b.wait("the move", lambda: b.moves() == ["L@b2", "S@a1", "M@c3"])
    b.idle()
    check(comment_of(b, "S@a1") == "typed on S@a1" and comment_of(b, "M@c3") == "",
          f"the comment went elsewhere: {movetext(export_pgn(b))}")
    # Against the engine: typed while it thinks (4x4 with a 1-minute clock: it thinks some 8 s); its
    # answer arrives during the typing.
    b.new_game("gobblet", p1="human", p2="engine", time_control="clock 60000 1000")
    b.idle()
    b.click(b.reserve(1, "X"))
    b.click(b.square("b2"))
    b.wait("the engine to think", lambda: "thinking" in b.status())
    field = b.d.find_element(By.ID, "comment")
    field.click()
    field.send_keys("my first move")
    check(len(b.moves()) == 1, "the engine answered before the comment was typed: no check made")
    b.wait("the engine's answer", lambda: len(b.moves()) == 2)
    check(field.get_attribute("value") == "my first move",
          f"the engine's answer changed the field to {field.get_attribute('value')!r}")
    field.send_keys(", the centre")
    b.d.find_element(By.ID, "status").click()  # leaves the field
    b.wait("the field to show the move shown", lambda: field.get_attribute("placeholder").endswith(b.moves()[1]))
    engine_move = b.moves()[1]
    check(comment_of(b, "X@b2") == "my first move, the centre" and comment_of(b, engine_move) == "",
          f"the comment went elsewhere: {movetext(export_pgn(b))}")


def test_browsing_against_the_engine(b):
    """Against the engine, browsing the game: the clock of the side to move keeps running (it
    stopped, so thinking while browsing was free); at an earlier position with the engine to move
    the person cannot move the engine's pieces (it could, though the page said the engine waits)."""
    l_b2_against_the_engine(b, "clock 60000 1000")
    before = clock_seconds(b, 1)
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.wait("ply 1", lambda: b.body("ply") == "1")
    b.idle()
    time.sleep(2.6)
    after = clock_seconds(b, 1)
    check(before - after >= 2, f"player 1's clock while browsing: {before} s, 2.6 s later {after} s")
    b.click(b.reserve(2, "S"))
    check(not b.targets(), f"the engine's piece was picked at a browsed position: targets {b.targets()}")
    check("is the engine" in b.status(), f"the status reads {b.status()!r}")
    b.click(b.d.find_element(By.ID, "nav-back"))
    b.wait("ply 0", lambda: b.body("ply") == "0")
    b.click(b.reserve(1, "M"))
    b.click(b.square("a1"))
    b.wait("the engine's answer", lambda: b.body("ply") == "2" and b.moves()[0] == "M@a1")


def test_take_back_from_a_position_text(b):
    """Take back against the engine in a game started from a position text goes back to the
    person's turn (it removed only the engine's move, which the engine played again)."""
    b.load()
    b.new_game("gobblers", p1="human", p2="engine", time_control="movetime 300")
    b.import_text("3/1s1/3 1")
    b.wait("the position", lambda: b.body("fen") == "3/1s1/3 1")
    b.idle()
    b.click(b.reserve(1, "L"))
    b.click(b.square(b.targets()[0]))
    b.wait("the engine's answer", lambda: len(b.moves()) == 2 and b.body("ply") == "2")
    b.idle()
    b.click(b.d.find_element(By.ID, "take-back"))
    b.wait("the person's turn at the start", lambda: b.body("ply") == "0")
    time.sleep(1.0)
    check(b.body("ply") == "0" and b.status().startswith("Player 1 to move"),
          f"after the take back: ply {b.body('ply')}, {b.status()!r}, moves {b.moves()}")


def test_previews_while_the_engine_thinks(b):
    """A preview of the engine's line while it thinks stops its search and its clock (the clock ran
    on); back on the board it thinks again. A preview ended before it is shown (a line's move, then
    End at once) does not leave the engine stalled (it said "thinking" for good)."""
    b.load()
    b.new_game("gobblet", p1="human", p2="engine", time_control="clock 60000 1000")
    b.idle()
    b.click(b.reserve(1, "X"))
    b.click(b.square("b2"))
    b.wait("the engine's line", lambda: "thinking" in b.status() and b.d.find_elements(By.CSS_SELECTOR, "#lines .pv-move"))
    b.d.execute_script("document.querySelector('#lines .pv-move').click()")
    b.wait("the preview", lambda: b.status().startswith("Preview after"))
    before = clock_seconds(b, 2)
    time.sleep(2.6)
    check(clock_seconds(b, 2) >= before - 1, f"the engine's clock ran under a preview: {before} s, then {clock_seconds(b, 2)} s")
    b.click(b.square("d4"))
    b.wait("the engine to think again", lambda: "thinking" in b.status())
    b.wait("its line", lambda: b.d.find_elements(By.CSS_SELECTOR, "#lines .pv-move"))
    b.d.execute_script("document.querySelector('#lines .pv-move').click(); document.getElementById('nav-end').click();")
    b.wait("the engine's move after all", lambda: len(b.moves()) == 2, timeout=40)


# Every animation frame: where the controls under the analysis panel stand, and whether the
# engine's lines are drawn (window.__frames).
WATCH_CONTROLS = """
window.__frames = [];
const ids = ['nav-back', 'nav-end', 'review', 'evaluate'];
(function frame() {
  window.__frames.push({ at: ids.map((id) => { const r = document.getElementById(id).getBoundingClientRect();
                                                return `${id} ${Math.round(r.x)},${Math.round(r.y)}`; }).join(' '),
                         lines: document.querySelectorAll('#lines .pv-move').length,
                         stats: document.getElementById('search-stats').textContent !== '' });
  requestAnimationFrame(frame);
})();
"""


def test_the_controls_stay_put_while_the_engine_thinks(b):
    """What the engine draws while it thinks over its move (its lines, its depth and time) moves no
    control under it: a click aimed at "Review game" or "‹" then lands there (they moved down by
    40-80 px as the lines were drawn, and a click aimed just before went elsewhere, lost)."""
    b.load()
    # (3 s a move: depths enough that frames fall between the engine's lines on a loaded machine too.)
    b.new_game("gobblet", p1="human", p2="engine", time_control="movetime 3000")
    b.idle()
    b.click(b.reserve(1, "X"))
    b.click(b.square("b2"))
    b.wait("the person's move", lambda: len(b.moves()) >= 1)  # (its row in the move list: the person's doing)
    b.d.execute_script(WATCH_CONTROLS)
    b.wait("the engine's answer", lambda: len(b.moves()) == 2)
    frames = b.d.execute_script("return window.__frames")
    check(any(f["lines"] and f["stats"] for f in frames), "no frame showed the engine's lines: nothing was checked")
    places = list(dict.fromkeys(f["at"] for f in frames))
    check(len(places) == 1, f"the controls moved while the engine thought: {places}")


def test_the_engine_clock_and_the_flag(b):
    """The engine's clock runs only while it searches: browsing back while it thinks stops its
    search and its clock (its time ran out while nothing searched); back at the end it thinks
    again, and "Engine, move" is not offered meanwhile. A flag ends the game: no move
    is taken after it, the engine plays none (it played at 0:00 and the person could go on)."""
    b.load()
    # (On a loaded machine the engine's answer can come before the click back lands: then the
    # position after it is shown, and the game is begun again; three tries.)
    for attempt in range(3):
        b.new_game("gobblet", p1="human", p2="engine", time_control="clock 60000 1000")  # (4x4: it thinks ~7 s)
        b.idle()
        b.click(b.reserve(1, "X"))
        b.click(b.square("b2"))
        b.wait("the engine to think", lambda: "thinking" in b.status())
        b.click(b.d.find_element(By.ID, "nav-back"))
        b.wait("ply 0, or the engine's answer", lambda: b.body("ply") == "0" or len(b.moves()) == 2)
        if b.body("ply") == "0":
            break
        print(f"try {attempt + 1}: the engine answered ({b.moves()}) before the click back landed")
    check(b.body("ply") == "0" and len(b.moves()) == 1, "the engine answered before the browsing each time: no check made")
    before = clock_seconds(b, 2)
    time.sleep(2.6)
    check(clock_seconds(b, 2) >= before - 1, f"the engine's clock ran while it did not search: {before} s, then "
          f"{clock_seconds(b, 2)} s")
    # Back at the end the engine thinks again; "Engine, move" is not offered meanwhile.
    b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    b.wait("the engine to think again", lambda: "thinking" in b.status())
    check(not b.d.find_element(By.ID, "engine-move").is_displayed(), "'Engine, move' offered while the engine thinks")
    # The flag: a 3-second clock; the person plays the first move (the clocks start there), the
    # engine answers, then the person does not move.
    b.d.execute_script("const o = document.createElement('option'); o.value = 'clock 3000 0';"
                       "o.textContent = '3 s'; document.getElementById('time').append(o);")
    b.new_game("gobblers", p1="human", p2="engine", time_control="clock 3000 0")
    b.idle()
    b.click(b.reserve(1, "L"))
    b.click(b.square("b2"))
    b.wait("player 1's flag", lambda: "Player 1 ran out of time" in b.status(), timeout=15)
    played = b.moves()
    check(len(played) == 2, f"the person's first move and the engine's answer expected before the flag: {played}")
    b.click(b.reserve(1, "L"))
    check(not b.targets() and "ran out of time" in b.status(), f"a move after the flag: {b.targets()} {b.status()!r}")
    b.click(b.d.find_element(By.ID, "nav-start"))
    time.sleep(1.0)
    check(b.moves() == played and "ran out of time" in b.status(), f"after the flag: {b.moves()} {b.status()!r}")
    body = b.d.find_element(By.TAG_NAME, "body")
    body.send_keys("l")
    b.wait("the analysis", lambda: b.d.execute_script("return document.querySelectorAll('#lines li').length") > 0)
    body.send_keys(Keys.SPACE)
    time.sleep(1.0)
    check(b.moves() == played, f"Space played a move after the flag: {b.moves()}")
    body.send_keys("l")
    # A flag while analysing (two people): said, and the analysis shown stopped (it said "Analysis stopped.").
    # (Player 1 moves first: player 2's clock runs.)
    b.new_game("gobblers", p1="human", p2="human", time_control="clock 3000 0")
    b.idle()
    b.click(b.reserve(1, "L"))
    b.click(b.square("b2"))
    b.wait("the first move", lambda: b.body("ply") == "1")
    b.d.find_element(By.TAG_NAME, "body").send_keys("l")
    b.wait("the flag", lambda: "ran out of time" in b.status(), timeout=15)
    time.sleep(1.0)
    check("ran out of time" in b.status() and b.d.find_element(By.ID, "analyse").text == "Analyse",
          f"after a flag while analysing: {b.status()!r}, the button {b.d.find_element(By.ID, 'analyse').text!r}")
    b.d.execute_script("document.querySelector('#time option[value=\"clock 3000 0\"]').remove()")
    # In a game opened from a link, with the engine waiting, its clock does not run (it did), and the
    # person may move for it.
    b.select("p1", "human")
    b.select("p2", "engine")
    b.select("time", "clock 60000 1000")
    b.load("#variant=gobblers&moves=L%40b2")
    b.idle()
    before = clock_seconds(b, 2)
    time.sleep(2.6)
    check(clock_seconds(b, 2) >= before - 1, f"the waiting engine's clock ran: {before} s, then {clock_seconds(b, 2)} s")
    b.click(b.reserve(2, "S"))
    check(b.targets(), f"no move for player 2 (the engine, waiting) in a linked game: {b.status()!r}")


def test_a_move_clicked_while_typing_a_comment(b):
    """A move of the list clicked (at a person's pace) while the comment field has the focus is
    shown at once (the field's blur redrew the list between press and release: the click was lost)."""
    from selenium.webdriver.common.action_chains import ActionChains
    b.load("#variant=gobblers&moves=L%40b2,S%40a1,M%40c3,S%40c1")
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()
    field = b.d.find_element(By.ID, "comment")
    field.click()
    field.send_keys("note")
    move = b.d.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="3"]')
    ActionChains(b.d).move_to_element(move).click_and_hold().pause(0.15).release().perform()
    b.wait("ply 3 after one click", lambda: b.body("ply") == "3", timeout=5)
    check(comment_of(b, "S@c1") == "note", f"the comment: {movetext(export_pgn(b))}")


def test_a_mark_chosen_while_the_engine_answers(b):
    """A mark (!? …) chosen while the engine's answer arrives goes on the move shown when the Mark
    field took the focus, not on the engine's move."""
    from selenium.webdriver.support.ui import Select
    b.load()
    b.new_game("gobblet", p1="human", p2="engine", time_control="clock 60000 1000")
    b.idle()
    b.click(b.reserve(1, "X"))
    b.click(b.square("b2"))
    b.wait("the engine to think", lambda: "thinking" in b.status())
    b.d.find_element(By.ID, "comment").click()
    b.d.switch_to.active_element.send_keys(Keys.TAB)
    check(b.d.execute_script("return document.activeElement.id") == "glyph", "Tab did not reach the Mark field")
    check(len(b.moves()) == 1, "the engine answered before the mark was chosen: no check made")
    b.wait("the engine's answer", lambda: len(b.moves()) == 2)
    Select(b.d.find_element(By.ID, "glyph")).select_by_value("5")
    b.d.find_element(By.ID, "status").click()
    text = movetext(export_pgn(b))
    check(text.startswith("1. X@b2 $5 ") and text.count("$") == 1, f"the mark went elsewhere: {text}")


def test_player_2_first_is_numbered_1_dots(b):
    """A game from a position with player 2 to move numbers its first move `1...` (as gobblet-match
    writes it and PGN readers expect), in the move list, the PGN and the move-list export; the page
    numbered it `1. <player 2's move> <player 1's move>`."""
    pgn = '[Variant "gobblers"]\n[FEN "3/1L1/3 2"]\n\n1... S@a1 2. M@c3 S@c1 (2... M@a3) *\n'
    b.load("#variant=gobblers")
    b.idle()
    b.import_text(pgn)
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith(("Imported", "Not imported")))
    b.wait("the game", lambda: b.moves() == ["S@a1", "M@c3", "S@c1"])
    nums = b.d.execute_script("return [...document.querySelectorAll('#move-list > li > .num')].map((e) => e.textContent)")
    check(nums == ["1\u2026", "2."], f"the move list's numbers: {nums}")
    text = movetext(export_pgn(b))
    print(f"player 2 first, exported: {text}")
    check(text == "1... S@a1 2. M@c3 S@c1 (2... M@a3)", f"the PGN's moves: {text}")
    b.click(b.d.find_element(By.ID, "export-moves"))
    listed = b.d.execute_script("return document.getElementById('io-text').value")
    check(listed == "1... S@a1 2. M@c3 S@c1", f"the move list exported: {listed!r}")
    # Imported without its position, it would be another game (player 1 playing S@a1 from the start).
    b.import_text(listed)
    b.wait("the refusal", lambda: b.d.find_element(By.ID, "io-status").text.startswith(("Imported", "Not imported")))
    status = b.d.find_element(By.ID, "io-status").text
    check(status.startswith("Not imported") and "1..." in status, f"the bare 1... list: {status!r}")
    b.import_text("2... S@a1 3. M@c3")
    b.wait("the refusal", lambda: "'2...'" in b.d.find_element(By.ID, "io-status").text)


ANNOTATED_PGN = """[Variant "gobblers"]

1. L@b2! $14 ; the centre, a line comment
S@a1?! 2. L@c3 $200 (2. M@c3?? $4) *
"""


def test_annotation_glyphs_and_line_comments(b):
    """NAGs (`$14`), move suffixes (`!`, `?!`, read as $1, $6) and `;` comments of an imported PGN are
    kept: shown in the move list and exported (they were dropped); a move is marked with the Mark
    selector, and the mark exported as its NAG. The game imported with the engine (player 2) to move
    stays as written: the engine waits (it added its move to the imported game)."""
    b.load("#variant=gobblers")
    b.select("p1", "human")
    b.select("p2", "engine")
    b.idle()
    b.import_text(ANNOTATED_PGN)
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith(("Imported", "Not imported")))
    b.wait("the game", lambda: b.moves() == ["L@b2", "S@a1", "L@c3"])
    b.idle()
    check(b.moves() == ["L@b2", "S@a1", "L@c3"] and "waits" in b.status(),
          f"after the import: {b.moves()}, {b.status()!r}")
    shown = b.d.execute_script("return [...document.querySelectorAll('#move-list .glyph')].map((e) => e.textContent)")
    check(shown == ["! +=", "?!", "$200", "??"], f"the glyphs shown: {shown}")
    text = movetext(export_pgn(b))
    print(f"annotated, exported: {text}")
    check(text == "1. L@b2 $1 $14 {the centre, a line comment} 1... S@a1 $6 2. L@c3 $200 (2. M@c3 $4)",
          f"the PGN's moves: {text}")
    b.click(b.d.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="2"]'))
    b.wait("ply 2", lambda: b.body("ply") == "2")
    check(b.d.find_element(By.ID, "glyph").get_attribute("value") == "6", "the Mark selector does not show ?!")
    b.select("glyph", "3")
    text = movetext(export_pgn(b))
    check("1... S@a1 $3 2." in text, f"the mark !! is not exported: {text}")
    b.import_text(ANNOTATED_PGN.replace("$200", "$256"))
    b.wait("the refusal", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Not imported"))
    status = b.d.find_element(By.ID, "io-status").text
    check("$256" in status, f"the refusal of $256 reads {status!r}")
    # What is said right after a '(' is about the variation's first move (it went to the move before).
    b.import_text('[Variant "gobblers"]\n\n1. L@b2 {main} S@a1 ({why not} $4 S@c1 ; short\n) *\n')
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Imported"))
    text = movetext(export_pgn(b))
    check(text == "1. L@b2 {main} 1... S@a1 (1... S@c1 $4 {why not short})", f"after a '(': {text}")
    # An empty variation keeps what was said in it, on the move before; '(' right after '(' is refused.
    b.import_text('[Variant "gobblers"]\n\n1. L@b2 M@a1 ( {before} $5 ) 2. S@c3 *\n')
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Imported"))
    text = movetext(export_pgn(b))
    check(text == "1. L@b2 M@a1 $5 {before} 2. S@c3", f"an empty variation's comment: {text}")
    b.import_text('[Variant "gobblers"]\n\n1. L@b2 M@a1 ( {A} ( {B} 1... M@c3 ) 1... S@a1 ) *\n')
    b.wait("the refusal", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Not imported"))
    # A ';' comment holding '{' does not hide the next game's tags from the first game's end.
    b.import_text('1. L@b2 ; see { here\n1... S@a1 *\n\n[Variant "gobblers"]\n[FEN "3/1L1/3 2"]\n\n1... S@c3 *\n')
    b.wait("the import", lambda: b.d.find_element(By.ID, "io-status").text.startswith(("Imported", "Not imported")))
    status = b.d.find_element(By.ID, "io-status").text
    check(status.startswith("Imported") and b.moves() == ["L@b2", "S@a1"], f"{status!r}, {b.moves()}")
    # A comment longer than the field takes is refused, with the reason.
    b.import_text('[Variant "gobblers"]\n\n1. L@b2 {' + "x" * 2001 + '} *\n')
    b.wait("the refusal", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Not imported"))
    status = b.d.find_element(By.ID, "io-status").text
    check("longer than 2000" in status, f"the refusal of a long comment reads {status!r}")


def test_help_panel(b):
    """'?' opens the help panel (how to play, the keys), Escape closes it."""
    b.load()
    b.d.find_element(By.TAG_NAME, "body").send_keys("?")
    b.wait("the help panel", lambda: b.d.execute_script("return document.getElementById('help').open"))
    text = b.d.find_element(By.ID, "help").text
    check("Enter or Space" in text and "gobbles" in text, f"the help panel reads {text[:120]!r}")
    b.d.switch_to.active_element.send_keys(Keys.ESCAPE)
    b.wait("the panel to close", lambda: not b.d.execute_script("return document.getElementById('help').open"))
    # On a phone the panel fits the screen and opens at its title (it was 494 px wide in 390, the
    # keys' descriptions off the screen, and it opened scrolled to its Close button).
    b.d.set_window_size(390, 844)
    try:
        b.load()
        b.click(b.d.find_element(By.ID, "help-open"))
        b.wait("the help panel", lambda: b.d.execute_script("return document.getElementById('help').open"))
        box = b.d.execute_script("const h = document.getElementById('help'), r = h.getBoundingClientRect();"
                                 "const t = document.getElementById('help-title').getBoundingClientRect();"
                                 "return [r.left, r.right, window.innerWidth, h.scrollTop, t.top - r.top];")
        print(f"help panel at 390 px: left {box[0]:.0f}, right {box[1]:.0f} of {box[2]}, scrolled {box[3]}")
        check(box[0] >= 0 and box[1] <= box[2] and box[3] == 0 and box[4] >= 0,
              f"the help panel on a phone: left, right, width, scrollTop, title offset = {box}")
        widest = b.d.execute_script("return Math.max(...[...document.querySelectorAll('#help td, #help th, #help p')]"
                                    ".map((e) => e.getBoundingClientRect().right))")
        check(widest <= box[2], f"help text runs off the screen to x = {widest}")
    finally:
        b.d.set_window_size(1280, 900)


def test_lichess_keys(b):
    """Lichess's keys beside ← → Home End: ↑ ↓ go to the line's start and end, l starts and stops the
    analysis, Space plays the analysis's best move (none of them did anything)."""
    b.load("#variant=gobblet&moves=X%40a1,X%40d4,X%40b2")
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()
    body = b.d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_UP)
    b.wait("the start", lambda: b.body("ply") == "0")
    body.send_keys(Keys.ARROW_DOWN)
    b.wait("the end", lambda: b.body("ply") == "3")
    # One column (the board above the list): ↑ ↓ are left to scroll the page.
    b.d.set_window_size(800, 900)
    try:
        b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_UP)
        time.sleep(0.5)
        check(b.body("ply") == "3", f"↑ took the game to ply {b.body('ply')} on a one-column page")
    finally:
        b.d.set_window_size(1280, 900)
    body = b.d.find_element(By.TAG_NAME, "body")
    body.send_keys("l")
    b.wait("the analysis", lambda: b.d.find_element(By.ID, "analyse").text == "Stop"
           and b.d.execute_script("return document.querySelectorAll('#lines li').length") > 0)
    b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    b.wait("the best move played", lambda: b.body("ply") == "4")
    # (The best line may change between a look at it and the key: any first move line 1 had counts.)
    firsts = {m.group(1) for l in b.wire("received") for m in [re.search(r" multipv 1 .* pv (\S+)", l)] if m}
    check(b.moves()[-1] in firsts, f"Space played {b.moves()[-1]}; line 1 began with {sorted(firsts)}")
    b.d.find_element(By.TAG_NAME, "body").send_keys("l")
    b.wait("the analysis stopped", lambda: b.d.find_element(By.ID, "analyse").text == "Analyse")


def test_link_opens_the_game_as_shared(b):
    """Opening a link shows its game: the engine does not move in it until asked, and the settings
    chosen before (players, time) stay."""
    b.load("#variant=gobblers")
    b.select("p2", "engine")
    b.select("time", "movetime 300")
    b.load("#variant=gobblers&moves=M%40b2")  # player 2, the engine, to move
    time.sleep(2.5)
    check(b.moves() == ["M@b2"], f"the engine moved as the link opened: {b.moves()}")
    check("waits" in b.status(), f"the page does not say the engine waits: {b.status()!r}")
    b.click(b.d.find_element(By.ID, "engine-move"))
    b.wait("the engine's move", lambda: len(b.moves()) == 2)
    b.select("p2", "human")
    b.select("time", "movetime 3000")
    b.load("#variant=gobblers&moves=M%40b2")
    kept = [b.d.execute_script(f"return document.getElementById('{i}').value") for i in ("p2", "time")]
    check(kept == ["human", "movetime 3000"], f"the settings were reset by opening a link: {kept}")
    b.select("p2", "engine")
    b.select("time", "movetime 300")


def check_nothing_injected(b, what, markers=("go infinite", "quit")):
    """No message the page sent holds a line end or a control character, none of its lines is one
    of `markers` (commands smuggled in), and no search answered (no info depth, no bestmove)."""
    sent = b.wire("sent")
    check(sent is not None, "the WebSocket recorder is not installed")
    broken = [m for m in sent if LINE_BREAKING.search(m)]
    check(not broken, f"{what}: the page sent messages holding line ends or control characters: {broken}")
    lines = [l.strip() for m in sent for l in LINE_BREAKING.split(m)]
    injected = [l for l in lines if l in markers]
    check(not injected, f"{what}: injected lines reached the engine: {injected}")
    searched = [m for m in b.wire("received") if m.startswith(("info depth", "bestmove"))]
    check(not searched, f"{what}: a search ran: {searched[:3]}")


HOSTILE_LINKS = [
    # a valid position text, then a line of its own
    ("#variant=gobblers&fen=3%2F3%2F3%201%0Ago%20infinite", "fen"),
    ("#variant=gobblers&fen=3%2F3%2F3%201%0D%0Ago%20infinite", "fen"),
    ("#variant=gobblers&moves=a1%0Aquit", "moves"),
    ("#variant=gobblers&moves=L%40b2,S%40a1%0Ago%20infinite", "moves"),
    ("#variant=gobblers%0Ago%20infinite", "variant"),
]


def test_hostile_links_inject_nothing(b):
    for fragment, field in HOSTILE_LINKS:
        # (A page that sends what it is given may never get ready: the search it started refuses its next setoption.)
        b.load(fragment, until=lambda: any(LINE_BREAKING.search(m) for m in b.wire("sent")))
        check_nothing_injected(b, f"link {fragment}")
        b.wait(f"the refusal of the link {fragment}",
               lambda: "link" in b.status() and "error" in b.d.find_element(By.ID, "status").get_attribute("class"))
        print(f"refused link ({field}): {b.status()}")
        check(b.body("fen") == "4/4/4/4 1", f"the default game expected after a refused link, got {b.body('fen')!r}")


HOSTILE_PGNS = [
    '[Variant "gobblers"]\n[FEN "3/3/3 1\ngo infinite"]\n\n1. L@b2 *\n',
    '[Variant "gobblers"]\n[FEN "3/3/3 1\r\ngo infinite"]\n\n1. L@b2 *\n',
    '[Variant "gobblers\nquit"]\n\n1. L@b2 *\n',
    '[Variant "gobblers"]\n[FEN "3/3/3 1\u2028go infinite"]\n\n1. L@b2 *\n',
]


def test_hostile_pgn_injects_nothing(b):
    b.load()
    b.idle()
    for text in HOSTILE_PGNS:
        before = len(b.wire("sent"))
        b.import_text(text)
        b.wait("the import's refusal", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Not imported"))
        check_nothing_injected(b, f"import {text!r}")
        sent = b.wire("sent")[before:]
        check(not sent, f"import {text!r}: the page sent {sent} for a refused import")
        print(f"refused import: {b.d.find_element(By.ID, 'io-status').text}")


XSS = "<img src=x onerror=window.__xss='{}'><script>window.__xss='{}'</script>"


XSS_PGN = f"""[Event "{XSS.format('event', 'event')}"]
[White "{XSS.format('white', 'white')}"]
[Variant "gobblers"]

1. L@b2 {{{XSS.format('comment', 'comment')}}} S@a1 ; {XSS.format('line', 'line')}
*
"""


def test_hostile_markup_makes_no_element(b):
    """Markup in links and PGN tags and comments is text: no element is made of it, no script runs,
    and none of it is sent to the engine."""
    def no_markup(what):
        made = b.d.execute_script(
            "return [...document.querySelectorAll('img, iframe, object, embed, script, image')]"
            ".filter((e) => !(e.tagName === 'SCRIPT' && e.getAttribute('src') === 'app.js')).map((e) => e.outerHTML)")
        check(not made, f"{what}: elements made of hostile text: {made}")
        ran = b.d.execute_script("return window.__xss === undefined ? null : String(window.__xss)")
        check(ran is None, f"{what}: hostile script ran ({ran})")
        sent = [m for m in b.wire("sent") if "<" in m or ">" in m]
        check(not sent, f"{what}: hostile text sent to the engine: {sent}")

    q = lambda text: re.sub(r"[^A-Za-z0-9]", lambda m: "%{:02X}".format(ord(m.group(0))), text)
    for fragment in (f"#variant={q(XSS.format('variant', 'variant'))}",
                     f"#variant=gobblers&fen={q(XSS.format('fen', 'fen'))}",
                     f"#variant=gobblers&moves=L%40b2,{q(XSS.format('moves', 'moves'))}"):
        b.load(fragment)
        b.wait("the link's refusal", lambda: "link" in b.status())
        no_markup(f"link {fragment}")
    b.import_text(XSS_PGN)
    b.wait("the game of the PGN with markup in its tags and comments", lambda: b.moves() == ["L@b2", "S@a1"])
    no_markup("PGN with markup in its tags and comments")
    b.import_text(XSS_PGN.replace('[Variant "gobblers"]', f'[Variant "{XSS.format("tag", "tag")}"]'))
    b.wait("the import's refusal", lambda: b.d.find_element(By.ID, "io-status").text.startswith("Not imported"))
    no_markup("PGN with markup in its Variant tag")


def test_token(driver, token_url):
    """A server started with --token: the page takes the token from its address's fragment (or a
    query still given), drops it from the address at once, and asks for it when none is given."""
    d, url, token = driver, token_url, TOKEN
    b = Board(d, url)
    for address, fen in ((f"#token={token}&variant=gobblers&moves=L%40b2,S%40a1", "3/1L1/s2 1"),
                         (f"?token={token}", "4/4/4/4 1"),
                         (f"?token={token}#variant=tictactoe", "3/3/3 1")):
        b.load(address)
        b.wait(f"the game of {address}", lambda: b.body("fen") == fen)
        href = d.execute_script("return location.href")
        check(token not in href and "token" not in href, f"opened as {address}, the address is still {href}")
        print(f"token: {address} -> {href}")
    d.get("about:blank")
    d.get(url)
    form_shown = lambda: d.find_element(By.ID, "token-form").is_displayed()
    b.wait("the page to ask for the token", form_shown)
    check(b.body("ready") == "", "connected without the token")
    print(f"token: asked: {b.status()}")
    # A wrong token: asked again, with the engine's words.
    d.find_element(By.ID, "token").send_keys("wrong")
    d.find_element(By.CSS_SELECTOR, "#token-form button").click()
    b.wait("the page to ask again", lambda: "auth wrong" in b.wire("sent") and form_shown())
    check("authentication" in b.status(), f"the engine's reason expected, got {b.status()!r}")
    d.find_element(By.ID, "token").send_keys(token)
    d.find_element(By.CSS_SELECTOR, "#token-form button").click()
    b.wait("the page to connect with the token entered", lambda: b.body("ready") == "1")
    check(b.body("fen") == "4/4/4/4 1" and not form_shown(), "the 4x4 start expected once connected")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
