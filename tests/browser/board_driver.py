"""What the browser tests share: headless Chromium (Debian's chromium +
chromium-driver, driven with python3-selenium), the board page as a person
sees it (Board), whole games played by clicking, the 4x4 analysis, and an
engine spoken to directly from the page (PageEngine: the WebAssembly engine
in a Web Worker, or the server's /ugi over a WebSocket).

Used by board_test.py (the page served by `gobblet --http`),
static_site_test.py (the static site of build/wasm/site), their fixtures
(conftest.py) and tools/wasm/measure_site.py. start_browser raises Skipped
when python3-selenium or Chromium is missing or Chromium cannot start.
"""
import os
import re
import shutil
import tempfile
import time

SKIP = 77
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-proxy-server", "--disable-dev-shm-usage", "--window-size=1280,900"]
TIMEOUT = 30  # seconds for one thing to show up on a loaded machine


class Skipped(Exception):
    """The browser tests cannot run here; the message says why."""


SELENIUM_MISSING = None
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
except ImportError:
    SELENIUM_MISSING = "python3-selenium is not installed (tools/setup.sh installs it)"
    By = Keys = None


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def no_proxy_for_localhost():
    """The browser and urllib must reach 127.0.0.1 directly, whatever proxy the environment names."""
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        os.environ.pop(var, None)
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"


# What the tests add (conftest.py): one renderer process for the test's pages and about:blank
# alike. With each site in a process of its own, every Board.load (about:blank, then the page)
# started two renderer processes: half of a load's second on the loaded machine. What a page
# does does not depend on which process draws it.
TEST_FLAGS = ["--disable-site-isolation-trials"]


def start_browser(init_script=None, extra_flags=()):
    """Headless Chromium with its console log kept; `init_script` runs in every document before
    the page's own scripts; `extra_flags` are Chromium's, after CHROMIUM_FLAGS. Raises Skipped
    when Selenium or Chromium is missing or Chromium cannot start. Returns (driver, profile
    directory to remove)."""
    if SELENIUM_MISSING:
        raise Skipped(SELENIUM_MISSING)
    options = webdriver.ChromeOptions()
    for flag in [*CHROMIUM_FLAGS, *extra_flags]:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="gobblet-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.path.exists(options.binary_location) or not os.path.exists(driver_path):
        raise Skipped("chromium or chromedriver is not installed (tools/setup.sh installs them)")
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as e:  # Chromium cannot start here (no sandbox support, no shared memory...)
        shutil.rmtree(profile, ignore_errors=True)
        raise Skipped(f"Chromium cannot start: {str(e).splitlines()[0]}")
    if init_script:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": init_script})
    return driver, profile


class Board:
    """The page, as a person sees it."""

    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def wait(self, what, condition, timeout=TIMEOUT):
        # An element the page redraws while it is read is stale: read again.
        start = time.monotonic()
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())
        except Exception as e:
            io = self.d.find_element(By.ID, "io-status").text
            # Where the page stands, and (where the test records the WebSocket) its last words with
            # the engine: whether a click was taken, or an answer is still awaited.
            ply = self.d.execute_script("return document.body.dataset.ply")
            sent, received = self.wire("sent"), self.wire("received")
            wire = f"; last sent: {sent[-6:]}; last received: {received[-6:]}" if sent is not None else ""
            raise Failure(f"gave up waiting for {what} after {time.monotonic() - start:.1f} s "
                          f"({type(e).__name__}); status: {self.status()!r}; import/export: {io!r}; "
                          f"moves: {self.moves()}; ply shown: {ply}{wire}")

    def status(self):
        try:
            return self.d.find_element(By.ID, "status").text
        except Exception:
            return "?"

    def body(self, key):
        return self.d.execute_script(f"return document.body.dataset.{key} || ''")

    def select(self, element_id, value):
        self.d.execute_script(
            "const s = document.getElementById(arguments[0]); s.value = arguments[1];"
            "s.dispatchEvent(new Event('change'));", element_id, value)

    def find(self, css):
        """The element `css` selects, remembering how it was found: the board, the reserves and the
        move list are drawn anew on every change, so that click() can find a redrawn one again."""
        element = self.d.find_element(By.CSS_SELECTOR, css)
        element.found_by = css
        return element

    def click(self, element):
        """Clicks `element`; if the page drew it anew meanwhile (the same control in the same place,
        as a person sees it) and find() found it, clicks the one drawn now. If the page moved it
        between the driver's aim and its click (a line of the engine's output drawn just then: the
        click lands beside it), clicks again once it stands still, as a person would; a control that
        stays covered fails on the fifth try."""
        for attempt in range(5):
            try:
                element.click()
                return
            except ElementClickInterceptedException:
                if attempt == 4:
                    raise
                time.sleep(0.2)
            except StaleElementReferenceException:
                css = getattr(element, "found_by", None)
                if css is None or attempt == 4:
                    raise
                element = self.find(css)

    def square(self, sq):
        return self.find(f'[data-sq="{sq}"]')

    def reserve(self, player, size):
        return self.find(f'#reserve-{player} [data-size="{size}"]')

    def targets(self):
        return [e.get_attribute("data-sq") for e in self.d.find_elements(By.CSS_SELECTOR, ".square.target")]

    def moves(self):
        # The main line (variations are not numbered with data-ply). One script call: the list is
        # read as one snapshot, never half redrawn.
        return self.d.execute_script(
            "return [...document.querySelectorAll('#move-list .move[data-ply]')].map((e) => e.textContent.trim())")

    def load(self, fragment="", until=None):
        """Opens the page at `fragment` and waits until it has connected and loaded its game (or `until`)."""
        self.d.get("about:blank")  # a new document: only changing the #fragment would not reload
        self.d.get(self.url + fragment)
        self.wait("the page to connect", lambda: self.body("ready") == "1" or (until and until()))

    def new_game(self, variant, p1="human", p2="human", time_control="movetime 300", start_fen=None):
        """Chooses the players, the time and the variant; waits for a new game (with `start_fen`,
        for its start position: the page may show one of the old variant's until the engine has switched)."""
        self.select("p1", p1)
        self.select("p2", p2)
        self.select("time", time_control)
        self.select("variant", variant)
        self.wait(f"a new {variant} game", lambda: self.body("ply") == "0" and not self.moves()
                  and (start_fen is None or self.body("fen") == start_fen))

    def idle(self, player=None):
        """Waits until the page shows a settled position with the person to move (with `player`,
        that player: "Player 2 to move." also shows for a moment after the person's move, before
        the engine's search starts), or a game over."""
        side = str(player) if player else r"\d"
        self.wait(f"player {player or 'N'}'s turn",
                  lambda: re.match(rf"(Player {side} to move|Player {side} \(the engine\) to move: "
                                   r".*the engine waits|.*wins|Draw)", self.status()))

    def wire(self, way):
        """The WebSocket messages of this document so far, 'sent' or 'received' (board_test's WIRE_RECORDER)."""
        return self.d.execute_script(f"return window.__wire ? window.__wire.{way}.slice() : null")

    def import_text(self, text):
        """Puts `text` into the import box (as a paste would, line ends and all) and clicks Import."""
        self.d.execute_script("document.getElementById('io-text').value = arguments[0];"
                              "document.getElementById('io-status').textContent = '';", text)
        self.click(self.d.find_element(By.ID, "import"))

    def io_status(self):
        """What the import/export panel says."""
        return self.d.find_element(By.ID, "io-status").text

    def import_game(self, text):
        """Imports `text` as a person pastes it; fails unless the page says it was imported."""
        self.import_text(text)
        self.wait("the import", lambda: self.io_status().startswith(("Imported", "Not imported")))
        check(self.io_status().startswith("Imported"), f"the import was refused: {self.io_status()!r}")

    def export_pgn(self):
        """The PGN the Export button gives."""
        self.click(self.d.find_element(By.ID, "export-pgn"))
        return self.d.execute_script("return document.getElementById('io-text').value")

    def console_errors(self):
        return [e for e in self.d.get_log("browser") if e.get("level") == "SEVERE"]

    def selector_variants(self):
        return self.d.execute_script("return [...document.getElementById('variant').options].map((o) => o.value)")


def load_without_errors(b):
    """Loads the page: the 4x4 start, and no console error."""
    b.load()
    check(b.body("fen") == "4/4/4/4 1", f"4x4 start position expected, got {b.body('fen')!r}")
    errors = b.console_errors()
    check(not errors, f"console errors on load: {errors}")


def handshake_variants(lines, engine):
    """The vars of the one `option name Variant type combo default ... var ...` line of `engine`'s
    handshake `lines`, at least three."""
    combos = [l for l in lines if l.startswith("option name Variant type combo ")]
    check(len(combos) == 1, f"one Variant combo option expected in {engine}'s handshake, got {lines}")
    variants = combos[0].split(" var ")[1:]
    check(len(variants) >= 3, f"{engine} lists {variants}")
    return variants


def check_selector_lists(b, variants, engine):
    """The variant selector: the engine's variants in its order, then the entry for any other name."""
    listed = b.selector_variants()
    check(listed == variants + ["custom"], f"the selector lists {listed}, {engine} {variants}")


def play_tictactoe_by_clicking(b):
    """A tic-tac-toe game: the person (player 1) drops a small piece on the first lit square
    every turn, the engine plays 2, to the end. Returns the moves."""
    b.new_game("tictactoe", p1="human", p2="engine")
    for _ in range(9):
        b.idle(1)
        if re.search(r"wins|Draw", b.status()):
            break
        b.click(b.reserve(1, "S"))
        targets = b.targets()
        check(targets, "no legal target lit after picking a piece")
        ply = int(b.body("ply"))
        b.click(b.square(targets[0]))
        b.wait("the move to be played", lambda: int(b.body("ply") or 0) > ply)
    b.wait("the end of the game", lambda: re.search(r"wins|Draw", b.status()))
    print(f"3x3 game: {' '.join(b.moves())} -> {b.status()}")
    check(len(b.moves()) >= 5, "a tic-tac-toe game lasts at least 5 plies")
    return b.moves()


def play_game_by_clicking(b, variant, turns=60, time_control="movetime 300", label=None, start_fen=None):
    """Player 1 clicks the first lit piece (a reserve's, else one on the board) and its first lit
    target every turn; the engine plays 2, to the end of the game. Returns the moves."""
    b.new_game(variant, p1="human", p2="engine", time_control=time_control, start_fen=start_fen)
    for _ in range(turns):
        b.idle(1)
        if re.search(r"wins|Draw", b.status()):
            break
        pieces = b.d.find_elements(By.CSS_SELECTOR, "#reserve-1 .reserve-piece.legal")
        b.click(pieces[0] if pieces else b.d.find_elements(By.CSS_SELECTOR, ".square.source")[0])
        targets = b.targets()
        check(targets, "no legal target lit after picking a piece")
        ply = int(b.body("ply"))
        b.click(b.square(targets[0]))
        b.wait("the move to be played", lambda: int(b.body("ply") or 0) > ply)
    b.wait("the end of the game", lambda: re.search(r"wins|Draw", b.status()))
    print(f"{label or variant} game: {len(b.moves())} plies -> {b.status()}")
    return b.moves()


def analyse_4x4(b, screenshot):
    """A 4x4 analysis shows its depth growing and its best move, and stops on demand (the depth
    no longer grows). Saves a screenshot of it while it runs."""
    b.load("#variant=gobblet&moves=X%40a1,X%40d4,X%40b2,X%40c3")
    b.select("p1", "human")
    b.select("p2", "human")
    b.idle()
    b.click(b.d.find_element(By.ID, "analyse"))
    depth = lambda: int(b.d.find_element(By.ID, "search-stats").get_attribute("data-depth") or 0)
    b.wait("a first depth", lambda: depth() >= 1)
    first = depth()
    b.wait("the depth to grow", lambda: depth() > first + 1)
    b.wait("the best move arrow", lambda: b.d.find_elements(By.CSS_SELECTOR, "#board .best"))
    print(f"4x4 analysis: depth {first} -> {depth()}; {b.d.find_element(By.ID, 'lines').text.splitlines()[:1]}")
    b.d.save_screenshot(screenshot)
    b.click(b.d.find_element(By.ID, "analyse"))
    b.wait("the analysis to stop", lambda: b.status() == "Analysis stopped.")
    stopped = depth()
    time.sleep(1.0)
    check(depth() == stopped, "the depth still grows after stop")


# An engine the test talks to from the page: every line it sends is kept with the page's clock
# (performance.now(), ms) in window.__engines[i].log, as are the times it opened and closed.
_ENGINE_OPEN = """
const [kind, where, first] = arguments;
window.__engines = window.__engines || [];
const e = { log: [], opened: null, build: null, closed: null, error: null, made: performance.now() };
const keep = (data) => {
  const t = performance.now();
  for (const line of String(data).split('\\n')) if (line !== '') e.log.push([t, line]);
};
if (kind === 'worker') {
  e.port = new Worker(where);
  e.port.onmessage = (m) => {
    if (typeof m.data === 'string') keep(m.data);
    else if (m.data && m.data.opened) { e.opened = performance.now(); e.build = m.data.engine || null; }
    else if (m.data && 'closed' in m.data) e.closed = [performance.now(), String(m.data.closed)];
  };
  e.port.onerror = (m) => { e.error = String(m.message || 'an error in the worker'); };
  e.post = (line) => e.port.postMessage(line);
  e.end = () => e.port.terminate();
  for (const line of first) e.post(line);  // the worker keeps them until its engine is made
} else {
  e.port = new WebSocket(where);
  e.port.onopen = () => { e.opened = performance.now(); for (const line of first) e.post(line); };
  e.port.onmessage = (m) => keep(m.data);
  e.port.onerror = () => { e.error = 'WebSocket error'; };
  e.port.onclose = (m) => { e.closed = [performance.now(), String(m.reason || m.code)]; };
  e.post = (line) => e.port.send(line);
  e.end = () => e.port.close();
}
window.__engines.push(e);
return window.__engines.length - 1;
"""


# The static site's engine (docs/wasm.md, "Two engines"): the files of each build, which the
# worker script (engine_worker.js) loads one of.
WORKER_SCRIPT = "engine_worker.js"
ENGINE_BUILD_FILES = {"jspi": ("gobblet-engine.js", "gobblet-engine.wasm"),
                      "asyncify": ("gobblet-engine-asyncify.js", "gobblet-engine-asyncify.wasm")}


class PageEngine:
    """An engine spoken to by a script of the page: 'worker' (a Web Worker running `where`, e.g.
    engine_worker.js) or 'socket' (a WebSocket to `where`, e.g. ws://127.0.0.1:PORT/ugi).
    `first`: lines sent as soon as it can take them (a worker at once, a socket once open).
    Times are the page's clock in ms. A worker's state()["build"]: which build of the engine it
    loaded ('jspi' or 'asyncify', web/wasm/engine_worker.js)."""

    def __init__(self, driver, kind, where, timeout=TIMEOUT, first=(), wait_open=True):
        self.d = driver
        self.kind = kind
        self.index = driver.execute_script(_ENGINE_OPEN, kind, where, list(first))
        self.read = 0  # lines of the log already returned by lines()
        if wait_open:
            self.wait_for(lambda: self.state()["opened"] is not None, f"the {kind} engine to open", timeout)

    def wait_closed(self, timeout=TIMEOUT):
        """Waits until the engine has closed or failed; returns why (its closing note or error)."""
        def why():
            st = self.state()
            return (st["closed"][1] if st["closed"] else st["error"]) if st["closed"] or st["error"] else None
        return self._poll(why, "the engine to close", timeout, closing_fails=False)

    def state(self):
        return self.d.execute_script(
            "const e = window.__engines[arguments[0]];"
            "return { opened: e.opened, build: e.build, closed: e.closed, error: e.error, made: e.made,"
            " count: e.log.length };",
            self.index)

    def now(self):
        return self.d.execute_script("return performance.now()")

    def send(self, *lines):
        """Sends each line; returns the page's time just before the first was sent."""
        return self.d.execute_script(
            "const e = window.__engines[arguments[0]]; const t = performance.now();"
            "for (const l of arguments[1]) e.post(l); return t;", self.index, list(lines))

    def log(self, start=0):
        """[(ms, line)] the engine sent, from line `start` on."""
        return [(t, l) for t, l in self.d.execute_script(
            "return window.__engines[arguments[0]].log.slice(arguments[1])", self.index, start)]

    def wait_for(self, condition, what, timeout=TIMEOUT):
        """Polls condition() until it is true (returns its value); fails if the engine closes first."""
        return self._poll(condition, what, timeout, closing_fails=True)

    def _poll(self, condition, what, timeout, closing_fails):
        end = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            st = self.state()
            if closing_fails and (st["error"] or st["closed"]):
                raise Failure(f"waiting for {what}: the {self.kind} engine failed or closed: "
                              f"{st['error'] or st['closed']}; last lines: {self.log(max(0, st['count'] - 5))}")
            if time.monotonic() > end:
                raise Failure(f"gave up waiting for {what} after {timeout} s (opened: {st['opened']}); "
                              f"last lines: {self.log(max(0, st['count'] - 5))}")
            time.sleep(0.05)

    def until(self, pattern, what=None, timeout=TIMEOUT):
        """Waits for a line (among those not yet taken) matching `pattern` (a regex, from the start);
        returns [(ms, line)] of the lines up to and including it, and takes them."""
        rx = re.compile(pattern)
        found = []

        def seen():
            new = self.log(self.read)
            for i, (t, line) in enumerate(new):
                if rx.match(line):
                    found[:] = new[:i + 1]
                    self.read += i + 1
                    return True
            return False

        self.wait_for(seen, what or f"a line matching {pattern!r}", timeout)
        return found

    def close(self):
        self.d.execute_script("window.__engines[arguments[0]].end()", self.index)


def perft_total(lines):
    """The `nodes <total>` of perft output lines (strings)."""
    totals = [int(m.group(1)) for m in (re.match(r"nodes (\d+)", l) for l in lines) if m]
    check(len(totals) == 1, f"one perft total expected, got {lines[-5:]}")
    return totals[0]


def last_info(lines):
    """nodes, time (ms), nps of the last `info` line with all three, as a dict (or None)."""
    for line in reversed(lines):
        if line.startswith("info "):
            words = line.split()
            got = {}
            for key in ("depth", "nodes", "time", "nps"):
                if key in words:
                    i = words.index(key)
                    if i + 1 < len(words) and words[i + 1].isdigit():
                        got[key] = int(words[i + 1])
            if all(k in got for k in ("nodes", "time", "nps")):
                return got
    return None


def check_game_end(b, variant, moves, answer):
    """The page's account of a finished game equals the engine's: the squares lit as the winning
    line are its `query line` (none after a draw), the status holds its `query reason`.
    answer(variant, moves, query) is what the engine answers, without the word 'response'."""
    expected = answer(variant, moves, "query line").split()
    expected = [] if expected == ["none"] else sorted(expected)
    check(bool(expected) == ("wins" in b.status()), f"the engine's line {expected} and the status {b.status()!r}")
    reason = answer(variant, moves, "query reason")
    check(reason != "none" and reason in b.status(), f"the engine's reason {reason!r} and the status {b.status()!r}")
    lit = lambda: sorted(b.d.execute_script(
        "return [...document.querySelectorAll('.square .cell.line')].map((e) => e.parentNode.dataset.sq);"))
    b.wait(f"the line {expected} lit (lit: {lit()})", lambda: lit() == expected)


def run_as_script(test_file, arguments):
    """Runs the tests of `test_file` with pytest and its fixtures (conftest.py), `arguments` being
    the script's own (--bin ... --out DIR; pytest's options, such as -k NAME, may follow). Returns
    the exit status: 0 passed, 1 failed, 77 skipped (Chromium cannot run here; ctest: skipped)."""
    import pytest

    class Outcomes:
        passed = skipped = 0

        def pytest_runtest_logreport(self, report):
            if report.when == "call" and report.passed:
                Outcomes.passed += 1
            elif report.skipped:
                Outcomes.skipped += 1

    status = pytest.main([test_file, "-v", "-p", "no:cacheprovider", "-rs", *arguments], plugins=[Outcomes()])
    if status == 0 and Outcomes.skipped and not Outcomes.passed:
        return SKIP
    return 0 if status == 0 else 1
