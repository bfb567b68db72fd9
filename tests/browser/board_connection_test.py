#!/usr/bin/python3
"""The browser board when the engine goes away, on a phone, and while it searches (issue 39), in
headless Chromium against `gobblet --http 127.0.0.1:PORT`, as a person uses it:

  M4   the server killed in the middle of a game: a banner says the connection is lost and stays
       (clicks do not overwrite it), the controls that need the engine are disabled and say that
       they wait, and once a new server answers on the same port the page reconnects by itself,
       gives the new session the game (its moves sent again) and play goes on (it said so once,
       in the status line the next click overwrote; then moves, Analyse and New game did nothing).
  M5   on a phone (390x844) the board and the move navigation are on the screen together, with
       the current move of the list (the navigation was at 938-982 px of 844); the settings are
       folded away behind a button.
  L13  on a phone the help panel's Close button is on the screen when it opens (it was below it).
  L11  between two depths of an analysis the panel still moves: the time searched ticks
       (nothing changed for seconds between depths).
  L16  a clock starts at the game's first move (it ran from the new game on).

pytest tests on one page of one headless Chromium (fixtures: conftest.py). Run as a script:

  board_connection_test.py --bin build/release/bin/gobblet --gobblet-tb build/release/bin/gobblet-tb --out DIR [-k NAME]

As a script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium cannot start here).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from board_driver import By, Failure, check, run_as_script
from board_test import LONG_4X4, RECORDER, clock_seconds  # noqa: F401 (RECORDER: conftest reads it)

PHONE = (390, 844)
DESKTOP = (1280, 900)


class Server:
    """`gobblet --http 127.0.0.1:PORT`, which a test may kill and start again on the same port."""

    def __init__(self, binary):
        self.binary = binary
        self.tb_dir = tempfile.mkdtemp(prefix="gobblet-no-tb-")
        self.proc = None
        self.port = 0
        self.start()

    def start(self):
        self.proc = subprocess.Popen([self.binary, "--http", f"127.0.0.1:{self.port}", "--tablebase-dir", self.tb_dir],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.proc.kill()
            raise Failure(f"the server did not announce its address: {line!r}")
        self.port = int(m.group(1))

    def kill(self):
        """Gone at once, as a crash or a killed process goes: no goodbye to its sockets."""
        self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.tb_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def server(binary):
    s = Server(binary)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def page_url(server):
    return f"http://127.0.0.1:{server.port}/"


# ---- helpers: what a person sees ----------------------------------------------------------------

def phone_screen(b):
    """A window whose page is a phone's screen, 390x844 (the window's frame taken into account)."""
    frame = b.d.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight]")
    b.d.set_window_size(PHONE[0] + frame[0], PHONE[1] + frame[1])
    b.wait("a phone's screen", lambda: b.d.execute_script("return [innerWidth, innerHeight]") == list(PHONE))


def rect(b, element_id):
    """The element's box on the screen: [top, bottom, left, right] (viewport px)."""
    return b.d.execute_script("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                              "return [r.top, r.bottom, r.left, r.right];", element_id)


def on_screen(box, width, height):
    top, bottom, left, right = box
    return top >= 0 and bottom <= height and left >= 0 and right <= width and bottom > top


def visible_alerts(b):
    """The text of every alert (role="alert") a person sees."""
    return b.d.execute_script(
        "return [...document.querySelectorAll('[role=alert]')].filter((e) => e.offsetParent !== null"
        " && e.getClientRects().length).map((e) => e.textContent.trim())")


def play_first_legal(b, player):
    """Player `player` drops the first legal piece of its reserve on the first lit square."""
    b.click(b.find(f"#reserve-{player} .reserve-piece.legal"))
    targets = b.targets()
    check(targets, "no legal target lit after picking a piece")
    ply = int(b.body("ply"))
    b.click(b.square(targets[0]))
    b.wait("the move to be played", lambda: int(b.body("ply") or 0) > ply)


def load_long_game(b, plies=16):
    moves = LONG_4X4.split()[:plies]
    b.load("#variant=gobblet&moves=" + ",".join(m.replace("@", "%40") for m in moves))
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()


# ---- L16: the clock starts at the first move ----------------------------------------------------

def test_l16_the_clock_starts_at_the_first_move(b):
    """A new game with a clock: neither clock runs before the first move (player 1's ran from the
    new game on); after it, player 2's runs and player 1's stays."""
    b.load()
    b.new_game("gobblers", p1="human", p2="human", time_control="clock 60000 1000")
    b.idle()
    start = (clock_seconds(b, 1), clock_seconds(b, 2))
    check(start == (60, 60), f"a new 1-minute game shows {start}")
    time.sleep(2.6)
    before = (clock_seconds(b, 1), clock_seconds(b, 2))
    print(f"clocks 2.6 s after the new game, before any move: {before}")
    check(before == (60, 60), f"a clock ran before the first move: {before} s")
    play_first_legal(b, 1)
    time.sleep(2.6)
    after = (clock_seconds(b, 1), clock_seconds(b, 2))
    print(f"clocks 2.6 s after the first move: {after}")
    check(after[0] >= 60 and after[1] <= 58, f"after the first move: player 1 {after[0]} s, player 2 {after[1]} s")


# ---- L11: progress between depths ----------------------------------------------------------------

def test_l11_the_analysis_shows_progress_between_depths(b):
    """A 4x4 analysis: the time it has searched ticks on the panel (at least every second, and
    equal within 1.5 s to the time since the page sent its `go`, by the page's own clock: on a
    loaded machine the `go` may leave a second or more after the click), while the depth itself
    changes only now and then;
    and within one depth the node count grows too, from the engine's `info nodes … time …` lines
    (sent once a second while an iteration runs)."""
    load_long_game(b, plies=8)
    stats = lambda: b.d.execute_script(  # the page's clock (ms), the panel's figures under the Analyse button
        "return [performance.now(), "
        "document.getElementById('search-row').textContent.replace(/\\s+/g, ' ').trim()]")
    depth = lambda: int(b.d.find_element(By.ID, "search-stats").get_attribute("data-depth") or 0)
    sent_before = len(b.wire("sent"))
    clicked = time.monotonic()
    b.click(b.d.find_element(By.ID, "analyse"))
    try:
        b.wait("a first depth", lambda: depth() >= 1)
        sent, sent_at = b.wire("sent"), b.d.execute_script("return window.__wire.sentAt.slice()")
        go_at = next((at for message, at in zip(sent[sent_before:], sent_at[sent_before:])
                      if any(line.startswith("go ") for line in message.splitlines())), None)
        check(go_at is not None, f"no go sent for the analysis: {sent[sent_before:]}")
        samples = []  # (seconds since the page sent go, by the page's clock; the panel's line)
        counted = set()  # (depth, the time of the node count shown: "… nodes at 6.2 s")
        while time.monotonic() - clicked < 10:
            now, line = stats()
            samples.append(((now - go_at) / 1000, line))
            at = re.search(r"nodes at (\d+(?:\.\d+)?) s", samples[-1][1])
            if at:
                counted.add((depth(), at.group(1)))
            time.sleep(0.2)
        changes = [t for (t, s), (_, before) in zip(samples[1:], samples) if s != before]
        gaps = [round(b2 - a2, 1) for a2, b2 in zip([samples[0][0]] + changes, changes + [samples[-1][0]])]
        print(f"analysis panel: {samples[-1][1]!r}; {len(changes)} changes in {samples[-1][0]:.1f} s, "
              f"longest still {max(gaps)} s")
        check(max(gaps) <= 1.6, f"the panel stood still for {max(gaps)} s during the search (changes at {changes})")
        # The time shown is the time searched.
        seconds = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?) ?s\b", samples[-1][1])]
        check(any(abs(x - samples[-1][0]) <= 1.5 for x in seconds),
              f"no time searched shown ({samples[-1][1]!r}) after {samples[-1][0]:.1f} s")
        depths = [d for d, _ in counted]
        check(any(depths.count(d) > 1 for d in depths),
              f"the node count never grew within a depth (depth, counted at): {sorted(counted)}")
    finally:
        b.click(b.d.find_element(By.ID, "analyse"))
        b.wait("the analysis to stop", lambda: b.d.find_element(By.ID, "analyse").text == "Analyse")


# ---- M5 and L13: a phone -------------------------------------------------------------------------

def test_m5_board_and_navigation_on_a_phone_screen(b, out_dir):
    """390x844, a game of 16 plies at the top of the page: the board, the navigation buttons and
    the current move of the list are all on the screen (the navigation was at 938-982 px); the
    game's settings (players, engine time) are folded away until their button is pressed."""
    phone_screen(b)
    try:
        load_long_game(b)
        b.d.execute_script("window.scrollTo(0, 0)")
        width, height = b.d.execute_script("return [window.innerWidth, window.innerHeight]")
        boxes = {name: rect(b, name) for name in ("board", "nav-start", "nav-back", "nav-forward", "nav-end")}
        current = b.d.execute_script("const r = document.querySelector('#move-list .move.current')"
                                     ".getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right];")
        print(f"phone {width}x{height}: " + ", ".join(f"{k} {v[0]:.0f}-{v[1]:.0f}" for k, v in boxes.items())
              + f", current move {current[0]:.0f}-{current[1]:.0f}")
        off = {k: [round(x) for x in v] for k, v in boxes.items() if not on_screen(v, width, height)}
        check(not off, f"off a {width}x{height} screen: {off}")
        check(on_screen(current, width, height), f"the current move is at {current}, off the screen")
        b.d.save_screenshot(os.path.join(out_dir, "board-phone.png"))
        # The navigation works from there, and the page stays where it is.
        b.click(b.d.find_element(By.ID, "nav-back"))
        b.wait("ply 15", lambda: b.body("ply") == "15")
        check(b.d.execute_script("return window.scrollY") == 0, "the page scrolled")
        # The settings: folded away, a button unfolds them.
        shown = lambda: [i for i in ("p1", "p2", "time") if b.d.find_element(By.ID, i).is_displayed()]
        check(not shown(), f"settings shown on the phone's page: {shown()}")
        toggle = [e for e in b.d.find_elements(By.CSS_SELECTOR, "button, summary")
                  if e.is_displayed() and "settings" in e.text.lower()]
        check(len(toggle) == 1, f"one Settings button expected, got {[e.text for e in toggle]}")
        b.click(toggle[0])
        b.wait("the settings unfolded", lambda: len(shown()) == 3)
        check(toggle[0].get_attribute("aria-expanded") in ("true", None), "the button says it is folded")
        b.click(toggle[0])
        b.wait("the settings folded", lambda: not shown())
    finally:
        b.d.set_window_size(*DESKTOP)


def test_l13_help_close_button_on_a_phone_screen(b):
    """390x844: the help panel opens with its Close button on the screen and not covered; it closes."""
    phone_screen(b)
    try:
        b.load()
        b.click(b.d.find_element(By.ID, "help-open"))
        b.wait("the help panel", lambda: b.d.execute_script("return document.getElementById('help').open"))
        close = b.d.find_element(By.CSS_SELECTOR, "#help form button")
        width, height = b.d.execute_script("return [window.innerWidth, window.innerHeight]")
        box = b.d.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return [r.top, r.bottom, r.left, r.right];", close)
        print(f"help's Close at {box[0]:.0f}-{box[1]:.0f} px of {height}")
        check(on_screen(box, width, height), f"the Close button is at {[round(x) for x in box]}, off the screen")
        hit = b.d.execute_script("const [t, bt, l, r] = arguments[1];"
                                 "const e = document.elementFromPoint((l + r) / 2, (t + bt) / 2);"
                                 "return e === arguments[0] || arguments[0].contains(e);", close, box)
        check(hit, "the Close button is covered")
        b.click(close)
        b.wait("the panel to close", lambda: not b.d.execute_script("return document.getElementById('help').open"))
    finally:
        b.d.set_window_size(*DESKTOP)


# ---- M4: the connection lost and found again -----------------------------------------------------

def connection_errors_only(b, port):
    """The console's errors (read, so that the after-test check does not see them): each must be the
    browser's own report of a connection to the killed server that failed."""
    errors = b.console_errors()
    other = [e for e in errors if f"127.0.0.1:{port}" not in e.get("message", "")
             or not re.search(r"ERR_CONNECTION_REFUSED|connection|WebSocket", e.get("message", ""))]
    check(not other, f"console errors besides the failed connections: {other}")
    return len(errors)


def test_m4_the_connection_lost_and_restored(b, server, out_dir):
    """A game against the engine; the server killed: a banner that stays, controls that wait; a new
    server on the same port: the page reconnects by itself, gives it the game, and play goes on."""
    b.load()
    b.new_game("gobblet", p1="human", p2="engine", time_control="movetime 300")
    for _ in range(2):
        b.idle()
        play_first_legal(b, 1)
        b.wait("the engine's answer", lambda: len(b.moves()) % 2 == 0)
    b.idle()
    moves, fen = b.moves(), b.body("fen")
    print(f"before the kill: {moves} ({fen})")
    sent_before = len(b.wire("sent"))

    server.kill()
    b.wait("a banner saying the connection is lost",
           lambda: any(re.search(r"connection|engine", a, re.I) for a in visible_alerts(b)), timeout=10)
    banner = visible_alerts(b)
    print(f"banner: {banner}")
    # The controls that need the engine say that they wait.
    for control in ("new-game", "analyse"):
        e = b.d.find_element(By.ID, control)
        check(not e.is_enabled() and re.search(r"wait", e.get_attribute("title") or "", re.I),
              f"{control} while the engine is away: enabled {e.is_enabled()}, title {e.get_attribute('title')!r}")
    # A person clicks around: the banner stays, the board says it waits, nothing is played.
    b.click(b.find("#reserve-1 .reserve-piece"))
    b.click(b.square("b2"))
    b.d.execute_script("document.getElementById('new-game').click(); document.getElementById('analyse').click()")
    time.sleep(1.5)
    check(any(re.search(r"connection|engine", a, re.I) for a in visible_alerts(b)),
          f"the banner went away while the engine is still gone: {visible_alerts(b)}")
    check(re.search(r"wait", b.status(), re.I), f"a click on the board while the engine is away: {b.status()!r}")
    check(b.moves() == moves, f"the game changed while the engine was away: {b.moves()}")
    b.d.save_screenshot(os.path.join(out_dir, "board-engine-away.png"))

    server.start()  # the same port
    b.wait("the page to reconnect by itself", lambda: not visible_alerts(b), timeout=40)
    b.idle()
    check(b.moves() == moves and b.body("fen") == fen, f"after reconnecting: {b.moves()} ({b.body('fen')})")
    sent = b.wire("sent")[sent_before:]
    main_line = "position startpos moves " + " ".join(moves)
    check(main_line in sent, f"the game's moves were not given to the new session: {sent[-12:]}")
    for control in ("new-game", "analyse"):
        check(b.d.find_element(By.ID, control).is_enabled(), f"{control} still disabled after reconnecting")
    # Play goes on: the person's move, the engine's answer.
    play_first_legal(b, 1)
    b.wait("the engine's answer after reconnecting", lambda: len(b.moves()) == len(moves) + 2)
    b.idle()
    # An analysis running when the server goes: it goes on on the new session by itself.
    lines = lambda: b.d.execute_script("return document.querySelectorAll('#lines li').length")
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis", lambda: lines() > 0)
    server.kill()
    b.wait("the banner again", lambda: visible_alerts(b), timeout=10)
    sent_before = len(b.wire("sent"))
    server.start()
    b.wait("the page to reconnect again", lambda: not visible_alerts(b), timeout=40)
    b.wait("the analysis again, on the new session", lambda: lines() > 0 and "go infinite" in b.wire("sent")[sent_before:])
    check(b.d.find_element(By.ID, "analyse").text == "Stop", "the analysis is not shown running")
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis to stop", lambda: b.d.find_element(By.ID, "analyse").text == "Analyse")
    print(f"after reconnecting: {b.moves()}; {connection_errors_only(b, server.port)} failed connections logged")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
