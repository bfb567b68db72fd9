#!/usr/bin/python3
"""The static site (build/wasm/site: the board's page with the WebAssembly
engine in a Web Worker, docs/wasm.md) in headless Chromium, served by
`python3 -m http.server` on 127.0.0.1: no gobblet process is involved.

Checks: nothing but the static server serves the page (it makes no
WebSocket, starts the engine's Web Worker, asks the server for no /ugi, and
no gobblet process runs under this test while the page plays); the page
loads with no console errors, gets ready, and its variant selector lists the
variants of the worker's own handshake; switching the worker to each variant
as the page does (setoption Variant, uginewgame, position) draws no error
line (the page takes one as a refusal); a whole gobblers game and a whole
4x4 game against the engine played by clicking, their ends as the engine
tells them (`query line`, `query reason`, asked of a worker); a 4x4
analysis shows its depth growing and stops on demand; perft through the
WebAssembly engine equals gobblet-perft's numbers computed in this run (the
total and every root move's count); `isready` during a `go infinite` is
answered while the search runs and `stop` gives its bestmove promptly, from
the 4x4 start (a search that works) and from the tic-tac-toe start (one
that has finished and waits); both checks for each build of the engine (JSPI
where the browser has it, Asyncify), and the page loads only the build its
browser runs; a browser without JSPI (simulated) gets the Asyncify build by
itself and the page plays, and `?engine=jspi` there ends the worker with the
reason. A tablebase hosted beside the site (3x3:2,2,1,
built here by gobblet-tb) is read by range requests from a server that
answers them: loaded, every legal move's score from `go depth 1` with all
lines equal to the native engine's with the same file, and only the header,
the block table and a few blocks fetched (never the whole file); a plain
`python3 -m http.server` (no range requests) gets the file refused with
that reason, and the engine plays on; from a server whose block requests
stall (never answered) after the open, the engine gives the request up
(5 s), says so, answers its search without the values, answers the next
probes at once, and the page shows the position without values and its
engine answers a move. Issue 39: from the plain server, the page still
takes and plays that variant, and a note that stays says why it has no
exact values and what gives them (H1); index.html opened as a file
(file://) says how to serve the folder (L14). Puzzle mode: the site's
puzzles.txt, its first puzzle solved by clicking (a wrong move checked by
the worker's prover and taken back, the hint, the line's defence). A proof database loaded through the page's "Load proof database…" (gobblers,
made here by gobblet-prove): the engine's note (opened read-only, its entries) is said, and the
start's proved win shown at once, as on the server's board; a junk file, another variant's and one
over the worker's size limit are refused with the engine's (or the worker's) reason, and the page
plays on. Saves a screenshot of each
finished game, of the analysis and of the page opened as a file in --out.

pytest tests, in the order below, on one page of one headless Chromium
(fixtures: conftest.py), each followed by the check that no gobblet process
runs and no /ugi was asked for. Run as a script, or with pytest itself:

  static_site_test.py --site build/wasm/site --perft build/release/bin/gobblet-perft --out DIR [-k NAME]
  python3 -m pytest tests/browser/static_site_test.py --site ... --perft ... --out DIR

(gobblet, gobblet-tb and gobblet-prove are taken from gobblet-perft's folder.) As a
script, the exit status is 0 passed, 1 failed, 77 skipped (Chromium or
Selenium missing, or Chromium cannot start here).
"""
import contextlib
import http.server
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest

from board_driver import (ENGINE_BUILD_FILES, WORKER_SCRIPT, Board, By, PageEngine, TIMEOUT, analyse_4x4, check,
                          check_game_end, check_selector_lists, handshake_variants, load_without_errors, perft_total,
                          play_game_by_clicking, run_as_script)

# Runs in every document before the page's scripts: records every WebSocket and Worker the page
# makes (window.__made), so the test can tell which engine the page talks to.
RECORDER = """
(() => {
  const made = { sockets: [], workers: [] };
  Object.defineProperty(window, '__made', { value: made });
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) { made.sockets.push(String(args[0])); super(...args); }
  };
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) { made.workers.push(String(args[0])); super(...args); }
  };
})();
"""

# (variant, depth): perft through the worker against gobblet-perft. The whole tic-tac-toe tree; the
# 3x3 variants to depths that take about a second natively; the 4x4 start to depth 5.
PERFT_CASES = [("tictactoe", 9), ("gobblers", 6), ("3x3:2,2,1", 7), ("gobblet", 5)]
PERFT_TIMEOUT = 300  # seconds for one perft in the worker on a loaded machine
PROMPT = 5.0  # seconds: `isready` and `stop` answered within this while a search runs (a loaded machine)


class StaticServer:
    """`python3 -m http.server` on a free port of 127.0.0.1, serving `site`; keeps its request log."""

    def __init__(self, site):
        self.proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                                      "-d", site], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"port (\d+)", line)
        if not m:
            self.stop()
            raise RuntimeError(f"the static server did not announce its port: {line!r}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"
        self.requests = []
        threading.Thread(target=self._read_log, daemon=True).start()
        threading.Thread(target=lambda: self.proc.stdout.read(), daemon=True).start()
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(self.url + "index.html", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise
                time.sleep(0.2)

    def _read_log(self):
        for line in self.proc.stderr:
            m = re.search(r'"(GET|POST|HEAD|PUT) (\S+)', line)
            if m:
                self.requests.append(m.group(2))

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class RangeServer:
    """A static server of `site` on a free port of 127.0.0.1 that answers range requests (as nginx,
    Apache or GitHub Pages do; python's http.server does not). Keeps (method, path, range) of each
    request. `stall`: the name of a file whose range requests, but for the first two ranges asked
    of it (an open's header and block table, answered each time they are asked), are never
    answered: each is held until the server stops (a stalled site)."""

    def __init__(self, site, stall=None):
        self.requests = []
        requests = self.requests
        self.released = threading.Event()
        released = self.released
        opening = []  # the first two ranges asked of `stall`

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **kw):
                super().__init__(*a, directory=site, **kw)

            def log_message(self, *a):
                pass

            def send_head(self):
                wanted = self.headers.get("Range")
                requests.append((self.command, self.path, wanted))
                path = self.translate_path(self.path)
                m = re.fullmatch(r"bytes=(\d+)-(\d+)", wanted or "")
                if not m or not os.path.isfile(path):
                    return super().send_head()
                if stall and self.path.endswith(stall):
                    if len(opening) < 2 and wanted not in opening:
                        opening.append(wanted)
                    if wanted not in opening:
                        released.wait()
                        self.close_connection = True
                        return None
                size = os.path.getsize(path)
                first, last = int(m.group(1)), min(int(m.group(2)), size - 1)
                if first > last:
                    self.send_error(416)
                    return None
                with open(path, "rb") as f:
                    f.seek(first)
                    body = f.read(last - first + 1)
                self.send_response(206)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                return io.BytesIO(body)

            def end_headers(self):
                self.send_header("Accept-Ranges", "bytes")
                super().end_headers()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def descendants():
    """(pid, name) of every process under this one."""
    parent = {}
    names = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        parent[int(entry)] = ppid
        names[int(entry)] = name
    mine = []
    for pid in parent:
        p = pid
        while p in parent and p != os.getpid() and p > 1:
            p = parent[p]
        if p == os.getpid() and pid != os.getpid():
            mine.append((pid, names[pid]))
    return mine


def check_no_engine_process(server):
    gobblets = [(pid, name) for pid, name in descendants() if name.startswith("gobblet")]
    check(not gobblets, f"gobblet processes run under this test: {gobblets}")
    ugi = [r for r in server.requests if re.match(r"/ugi($|[/?#])", r)]
    check(not ugi, f"the page asked the static server for {ugi}")


# The engine's two builds (web/wasm/engine_worker.js, docs/wasm.md "Two engines"); their files: ENGINE_BUILD_FILES.
BUILDS = ("jspi", "asyncify")


def has_jspi(b):
    """Does the browser have JavaScript Promise Integration (Chromium 137 and later)?"""
    return b.d.execute_script("return typeof WebAssembly.Suspending === 'function' && "
                              "typeof WebAssembly.promising === 'function'")


def build_worker(b, build):
    """A fresh worker of the engine's `build` (skips 'jspi' in a browser without it), checked to run it."""
    if build == "jspi" and not has_jspi(b):
        pytest.skip("this Chromium has no JavaScript Promise Integration")
    e = PageEngine(b.d, "worker", f"{WORKER_SCRIPT}?engine={build}")
    check(e.state()["build"] == build, f"{WORKER_SCRIPT}?engine={build} runs {e.state()['build']!r}")
    return e


@pytest.fixture(scope="module")
def static_server(site):
    for name in ("index.html", "app.js", WORKER_SCRIPT, "engine_choice.js") + ENGINE_BUILD_FILES["jspi"] + \
            ENGINE_BUILD_FILES["asyncify"]:
        if not os.path.isfile(os.path.join(site, name)):
            pytest.fail(f"the site {site} has no {name} (tools/setup.sh wasm builds it)", pytrace=False)
    with open(os.path.join(site, "engine_choice.js")) as f:
        if "'worker'" not in f.read():
            pytest.fail(f"{site}/engine_choice.js does not choose the worker", pytrace=False)
    server = StaticServer(site)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def page_url(static_server):
    return static_server.url


def after_each(request):
    check_no_engine_process(request.getfixturevalue("static_server"))


def worker_handshake(d):
    e = PageEngine(d, "worker", WORKER_SCRIPT)
    e.send("ugi")
    lines = [l for _, l in e.until(r"ugiok$", "the worker's ugiok")]
    e.close()
    return lines


def worker_answer(d, variant, moves, query):
    """What the WebAssembly engine answers to `query` after `moves`, without the word 'response'."""
    e = PageEngine(d, "worker", WORKER_SCRIPT)
    e.send(f"setoption name Variant value {variant}", f"position startpos moves {' '.join(moves)}", query, "isready")
    lines = [l for _, l in e.until(r"readyok$", f"the worker's answer to {query!r}")]
    e.close()
    answers = [l[len("response "):] for l in lines if l.startswith("response ")]
    errors = [l for l in lines if l.startswith("info string error")]
    check(len(answers) == 1 and not errors, f"one answer to {query!r} after {moves} expected, got {lines}")
    return answers[0]


def test_loads(b, static_server):
    load_without_errors(b)
    made = b.d.execute_script("return window.__made")
    check(not made["sockets"], f"the static site's page opened WebSockets: {made['sockets']}")
    check(made["workers"] == [WORKER_SCRIPT], f"the page's workers: {made['workers']}")
    served = static_server.requests
    # The worker loads the JSPI build where the browser has JSPI, the Asyncify build elsewhere, never both.
    build, other = ("jspi", "asyncify") if has_jspi(b) else ("asyncify", "jspi")
    for needed in (WORKER_SCRIPT,) + ENGINE_BUILD_FILES[build]:
        check("/" + needed in served, f"the static server never served {needed} (served: {served})")
    for unneeded in ENGINE_BUILD_FILES[other]:
        check("/" + unneeded not in served, f"the {build} page also fetched {unneeded} (served: {served})")
    hello = worker_handshake(b.d)
    variants = handshake_variants(hello, "the worker's engine")
    check_selector_lists(b, variants, "the worker's engine")
    print(f"loaded: {len(served)} files served; engine: {hello[0]} ({build}); variants {variants}")


def test_variants_without_errors(b):
    """What the page sends to switch variants (setoption, uginewgame, position startpos) draws no error
    from the worker: the page takes any error line as a refusal of the variant."""
    b.load()
    variants = [v for v in b.selector_variants() if v != "custom"] + ["3x3:2,2,1"]
    complaints = []
    for variant in variants:
        e = PageEngine(b.d, "worker", WORKER_SCRIPT)
        e.send("ugi", f"setoption name Variant value {variant}", "uginewgame", "position startpos", "isready")
        lines = [l for _, l in e.until(r"readyok$", f"readyok after choosing {variant}")]
        e.close()
        errors = [l for l in lines if l.startswith("info string error")]
        print(f"variant {variant}: {errors[0] if errors else 'no error'}")
        if errors:
            complaints.append(f"{variant}: {errors}")
    check(not complaints, "the worker answers a variant switch with an error line:\n  " + "\n  ".join(complaints))


@pytest.mark.parametrize("variant, label, start_fen", [("gobblers", "3x3 gobblers", "3/3/3 1"),
                                                      ("gobblet", "4x4", "4/4/4/4 1")], ids=["gobblers", "4x4"])
def test_full_game_by_clicking(b, out_dir, variant, label, start_fen):
    b.load()
    moves = play_game_by_clicking(b, variant, label=label, start_fen=start_fen)
    b.d.save_screenshot(os.path.join(out_dir, f"static-{variant}-game.png"))
    check_game_end(b, variant, moves, lambda v, m, q: worker_answer(b.d, v, m, q))


def test_4x4_analysis_grows_and_stops(b, out_dir):
    analyse_4x4(b, os.path.join(out_dir, "static-4x4-analysis.png"))


def native_perft(binary, variant, depth):
    started = time.monotonic()
    out = subprocess.run([binary, str(depth), "--variant", variant], capture_output=True, text=True,
                         timeout=PERFT_TIMEOUT, check=True).stdout
    lines = out.splitlines()
    divide = dict((m.group(1), int(m.group(2))) for m in (re.match(r"(\S+): (\d+)$", l) for l in lines) if m)
    return perft_total(lines), divide, time.monotonic() - started


@pytest.mark.parametrize("build", BUILDS)
def test_perft(b, perft_binary, build):
    b.load()
    e = build_worker(b, build)
    for variant, depth in PERFT_CASES:
        total, divide, native_s = native_perft(perft_binary, variant, depth)
        e.send(f"setoption name Variant value {variant}", "position startpos", "isready")
        chosen = [l for _, l in e.until(r"readyok$", f"readyok after choosing {variant}")]
        errors = [l for l in chosen if l.startswith("info string error")]
        check(not errors, f"the worker refused {variant}: {errors}")
        sent = e.send(f"perft {depth}")
        got = e.until(r"(nodes \d+|info string error)", f"perft {depth} of {variant} in the worker", PERFT_TIMEOUT)
        lines = [l for _, l in got]
        check(not lines[-1].startswith("info string error"), f"the worker refused perft {depth} of {variant}: {lines}")
        wasm_total = perft_total(lines)
        wasm_divide = dict((m.group(1), int(m.group(2)))
                           for m in (re.match(r"(\S+): (\d+)$", l) for l in lines) if m)
        wasm_s = (got[-1][0] - sent) / 1000
        print(f"perft {depth} {variant}: worker {wasm_total} in {wasm_s:.2f} s, gobblet-perft {total} "
              f"in {native_s:.2f} s")
        check(wasm_total == total, f"perft {depth} of {variant}: the worker counts {wasm_total}, gobblet-perft {total}")
        check(wasm_divide == divide, f"perft {depth} of {variant}: root moves differ:\n worker {wasm_divide}\n"
                                     f" gobblet-perft {divide}")
    e.close()


def search_then_stop(b, build, variant, wait_s):
    """go infinite in a fresh worker of `build`: isready answered while it runs, stop answered at once."""
    e = build_worker(b, build)
    e.send("ugi")
    e.until(r"ugiok$")
    e.send(f"setoption name Variant value {variant}", "position startpos", "isready")
    e.until(r"readyok$")
    e.send("go infinite")
    got = e.until(r"(info depth|bestmove|info string error)", "the search's first info line")
    check(got[-1][1].startswith("info depth"), f"{variant}: go infinite: {got[-1][1]}")
    time.sleep(wait_s)
    asked = e.send("isready")
    got = e.until(r"(readyok|bestmove)", "readyok during the search", TIMEOUT * 3)
    check(got[-1][1] == "readyok", f"{variant}: the search ended before it was stopped: {got[-1][1]}")
    ready_s = (got[-1][0] - asked) / 1000
    depths = [int(m.group(1)) for m in (re.match(r"info depth (\d+)", l) for _, l in e.log()) if m]
    time.sleep(0.5)
    early = [l for _, l in e.log(e.read) if l.startswith("bestmove")]
    check(not early, f"{variant}: a bestmove before stop: {early}")
    stop = e.send("stop")
    got = e.until(r"bestmove", "the bestmove after stop", TIMEOUT * 3)
    stop_s = (got[-1][0] - stop) / 1000
    best = got[-1][1]
    e.send("isready")
    e.until(r"readyok$", "readyok after the search")
    more = [l for _, l in e.log() if l.startswith("bestmove")]
    check(len(more) == 1, f"{variant}: one bestmove expected, got {more}")
    e.close()
    print(f"go infinite {variant} ({build}): depth {max(depths)} after {wait_s:.0f} s; isready -> readyok in "
          f"{ready_s * 1000:.0f} ms; stop -> {best!r} in {stop_s * 1000:.0f} ms")
    check(re.match(r"bestmove \S+", best) and best != "bestmove (none)", f"{variant}: {best!r}")
    check(ready_s < PROMPT, f"{variant}: readyok took {ready_s:.2f} s during the search")
    check(stop_s < PROMPT, f"{variant}: bestmove took {stop_s:.2f} s after stop")


@pytest.mark.parametrize("build", BUILDS)
def test_stop_and_isready(b, build):
    b.load()
    search_then_stop(b, build, "gobblet", 2.0)    # a 4x4 search: it works until the stop
    search_then_stop(b, build, "tictactoe", 2.0)  # solved at once: it waits for the stop


def native_search(binary, script):
    """The lines of the native engine `binary` given `script` (which ends with a go), up to its bestmove
    (an engine silent for PERFT_TIMEOUT s is killed: the lines so far)."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(PERFT_TIMEOUT, proc.kill)
    watchdog.start()
    lines = []
    try:
        proc.stdin.write(script)
        proc.stdin.flush()
        for line in proc.stdout:
            lines.append(line.strip())
            if line.startswith("bestmove"):
                break
        proc.stdin.write("quit\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass  # (it ended first: its lines say how)
    finally:
        watchdog.cancel()
    proc.wait(timeout=TIMEOUT)
    return lines


def nodes_of(lines, what):
    """The nodes of the last info line with nodes among `lines`."""
    nodes = [int(m.group(1)) for m in (re.search(r"^info depth.* nodes (\d+)", l) for l in lines) if m]
    check(nodes, f"{what}: no info line with nodes in {lines}")
    return nodes[-1]


def searched_nodes(e, depth):
    """The nodes of `go depth D` from the 4x4 start in the worker `e`, from its last info line."""
    e.send("position startpos", f"go depth {depth}")
    got = [l for _, l in e.until(r"(bestmove|info string error)", f"the bestmove of go depth {depth}",
                                  TIMEOUT * 3)]
    check(got[-1].startswith("bestmove"), f"go depth {depth}: {got[-1]}")
    return nodes_of(got, f"go depth {depth}")


@pytest.mark.parametrize("build", BUILDS)
def test_the_search_is_the_native_one(b, perft_binary, build):
    """go depth 9 from the 4x4 start searches the native engine's tree (the same node count: the
    build's flags, the profile included, change how fast, never what), in a fresh worker and again
    after ucinewgame (the hash table emptied: WebAssembly's madvise does nothing, so clearing by it
    left the old entries)."""
    native = nodes_of(native_search(os.path.join(os.path.dirname(perft_binary), "gobblet"),
                                    "setoption name Hash value 16\nposition startpos\ngo depth 9\n"),
                      "the native go depth 9")
    b.load()
    e = build_worker(b, build)
    e.send("ugi", "setoption name Hash value 16", "isready")
    e.until(r"readyok$")
    fresh = searched_nodes(e, 9)
    e.send("ucinewgame")
    again = searched_nodes(e, 9)
    e.close()
    print(f"go depth 9 ({build}): {fresh} nodes fresh, {again} after ucinewgame; native {native}")
    check(fresh == native, f"go depth 9 searched {fresh} nodes in a fresh worker, {native} natively")
    check(again == native, f"after ucinewgame go depth 9 searched {again} nodes, natively {native}")


@contextlib.contextmanager
def site_whose_worker_first_runs(site, prefix):
    """A StaticServer of a copy of the site whose worker script begins with `prefix` (a browser
    without some feature, simulated)."""
    work = tempfile.mkdtemp(prefix="gobblet-site-")
    server = None
    try:
        copy = os.path.join(work, "site")
        shutil.copytree(site, copy)
        worker = os.path.join(copy, WORKER_SCRIPT)
        with open(worker) as f:
            script = f.read()
        with open(worker, "w") as f:
            f.write(prefix + "\n" + script)
        server = StaticServer(copy)
        yield server
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


def test_a_browser_without_jspi_gets_the_asyncify_build(b, site):
    """A browser without JavaScript Promise Integration (simulated: a copy of the site whose worker
    script first deletes WebAssembly.Suspending and .promising) gets the Asyncify build by itself,
    and the page plays; forcing the JSPI build there ends the worker, saying why."""
    with site_whose_worker_first_runs(site, "delete WebAssembly.Suspending; delete WebAssembly.promising;") as server:
        page = Board(b.d, server.url)
        page.load()
        check(page.body("fen") == "4/4/4/4 1", f"the page without JSPI did not start: {page.body('fen')!r}")
        fetched = [r for r in server.requests if "gobblet-engine" in r]
        check("/gobblet-engine-asyncify.wasm" in fetched and "/gobblet-engine.wasm" not in fetched,
              f"the page without JSPI fetched {fetched}")
        e = PageEngine(b.d, "worker", WORKER_SCRIPT, first=["ugi"])
        check(e.state()["build"] == "asyncify", f"without JSPI the worker runs {e.state()['build']!r}")
        e.until(r"ugiok$", "ugiok from the Asyncify build")
        e.close()
        closed = PageEngine(b.d, "worker", f"{WORKER_SCRIPT}?engine=jspi", wait_open=False).wait_closed()
        print(f"without JSPI: the page's worker fetched {fetched}; ?engine=jspi: {closed!r}")
        check(closed and "no JavaScript Promise Integration" in closed,
              f"?engine=jspi without JSPI: {closed!r}")


def test_a_browser_without_simd_is_told_so(b, site):
    """Both builds use WebAssembly SIMD: in a browser without it (simulated: the worker's
    WebAssembly.validate answers false for every module) the worker ends at once, saying what the
    browser lacks, and fetches no engine."""
    with site_whose_worker_first_runs(site, "WebAssembly.validate = () => false;") as server:
        b.d.get(server.url)  # the page (its own worker ends likewise)
        closed = PageEngine(b.d, "worker", WORKER_SCRIPT, wait_open=False).wait_closed()
        fetched = [r for r in server.requests if r.endswith(".wasm")]
        print(f"without SIMD: {closed!r}; fetched {fetched}")
        check(closed and "no WebAssembly SIMD" in closed, f"without SIMD: {closed!r}")
        check(not fetched, f"without SIMD the worker fetched {fetched}")


TB_VARIANT, TB_FILE = "3x3:2,2,1", "3x3-2-2-1.gtb"  # a moving variant of 72 blocks, built in a second
TB_POSITIONS = [[], ["S@b2", "M@a1"], ["S@b2", "M@a1", "M@b2", "S@c3"]]


def scores_of(lines):
    """{move: 'cp N' | 'mate N'} from the last iteration's lines of a MultiPV search."""
    scores = {}
    for l in lines:
        m = re.match(r"info depth \d+ .*?multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)", l)
        if m:
            scores[m.group(4)] = f"{m.group(2)} {m.group(3)}"
    return scores


def native_tb_scores(binary, tb, moves):
    lines = native_search(binary, f"setoption name Variant value {TB_VARIANT}\n"
                                  f"setoption name TablebasePath value {tb}\nsetoption name MultiPV value 64\n"
                                  f"position startpos moves {' '.join(moves)}\ngo depth 1\n")
    check(any(re.search(r"tbhits [1-9]", l) for l in lines), f"the native engine used no tablebase: {lines}")
    return scores_of(lines)


def site_with_tablebase(site, work, bin_dir):
    """A copy of `site` in `work` with TB_FILE (built here by gobblet-tb of `bin_dir`) under its
    tablebases/. Returns (the copy, the tablebase's path)."""
    copy = os.path.join(work, "site")
    shutil.copytree(site, copy)
    tb = os.path.join(copy, "tablebases", TB_FILE)
    subprocess.run([os.path.join(bin_dir, "gobblet-tb"), "build", TB_VARIANT, "--out", tb], check=True,
                   capture_output=True, timeout=PERFT_TIMEOUT)
    return copy, tb


def engine_with_tablebase(b, server, missing):
    """The page's worker engine, from `server`, with TB_VARIANT chosen and its hosted tablebase
    loaded (`missing` says what it means if not)."""
    b.d.get(server.url + "index.html")
    e = PageEngine(b.d, "worker", WORKER_SCRIPT)
    e.send(f"setoption name Variant value {TB_VARIANT}", "setoption name MultiPV value 64", "isready")
    lines = [l for _, l in e.until(r"readyok$", "readyok after choosing the variant")]
    loaded = f"info string tablebase 'tablebases/{TB_FILE}' loaded for {TB_VARIANT}"
    check(loaded in lines, f"{missing}: {lines}")
    return e


def test_hosted_tablebase(b, perft_binary, site):
    """The tablebase beside the site, read by range requests; refused (with the reason) without them."""
    bin_dir = os.path.dirname(perft_binary)
    work = tempfile.mkdtemp(prefix="gobblet-site-")
    servers = []
    try:
        copy, tb = site_with_tablebase(site, work, bin_dir)
        size = os.path.getsize(tb)
        ranged = RangeServer(copy)
        servers.append(ranged)
        e = engine_with_tablebase(b, ranged, "the hosted tablebase was not loaded")
        for moves in TB_POSITIONS:
            e.send(f"position startpos moves {' '.join(moves)}", "go depth 1")
            got = [l for _, l in e.until(r"bestmove", f"go depth 1 after {moves}", PERFT_TIMEOUT)]
            wasm = scores_of(got)
            native = native_tb_scores(os.path.join(bin_dir, "gobblet"), tb, moves)
            check(wasm == native and len(wasm) > 5, f"after {moves}: worker {wasm}\n native {native}")
            check(any(re.search(r"tbhits [1-9]", l) for l in got), f"after {moves}: no tablebase hits: {got}")
        e.close()
        reads = [r for r in ranged.requests if r[1].endswith(TB_FILE)]
        gets = [r for r in reads if r[0] == "GET"]
        check(all(r[2] for r in gets), f"a GET of the whole file: {reads}")
        spans = [tuple(map(int, re.fullmatch(r"bytes=(\d+)-(\d+)", r[2]).groups())) for r in gets]
        fetched = sum(last - first + 1 for first, last in spans)
        check(spans[:1] == [(0, 127)] and len(spans) >= 3, f"header, table, blocks expected: {spans}")
        check(fetched < size, f"fetched {fetched} bytes of a {size}-byte file")
        print(f"hosted {TB_FILE} ({size} bytes): {len(spans)} range requests, {fetched} bytes "
              f"(header, dictionary + block table {spans[1][1] - spans[1][0] + 1}, {len(spans) - 2} blocks)")

        plain = StaticServer(copy)
        servers.append(plain)
        b.d.get(plain.url + "index.html")
        e = PageEngine(b.d, "worker", WORKER_SCRIPT)
        e.send(f"setoption name Variant value {TB_VARIANT}", "isready")
        lines = [l for _, l in e.until(r"readyok$", "readyok after choosing the variant")]
        check(any("does not answer HTTP range requests" in l for l in lines),
              f"no reason given for not using the file from a plain static server: {lines}")
        e.send("position startpos", "go depth 3")
        got = [l for _, l in e.until(r"bestmove", "a move without the tablebase")]
        check(re.match(r"bestmove \S+", got[-1]) and got[-1] != "bestmove (none)", f"{got[-1]!r}")
        e.close()
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


STALLED = 20.0  # seconds: a search whose probe's block request stalls is answered within this (the
                # engine gives a request 5 s), on a loaded machine


def play_a_move_against_the_engine(page, timeout=TIMEOUT):
    """Player 1 the person, player 2 the engine (300 ms a move): the person clicks a legal drop, and
    the engine answers within `timeout` s (ply 2)."""
    page.select("p1", "human")
    page.select("p2", "engine")
    page.select("time", "movetime 300")
    page.idle()
    page.click(page.d.find_elements(By.CSS_SELECTOR, "#reserve-1 .reserve-piece.legal")[0])
    page.click(page.square(page.targets()[0]))
    page.wait("the engine's answer", lambda: int(page.body("ply") or 0) == 2, timeout)


def test_page_plays_without_a_tablebase_it_cannot_read(b, perft_binary, site):
    """Issue 39 H1: the tablebase beside the site, from a plain `python3 -m http.server` (no range
    requests): the page takes the variant (it was refused, "The link's game was refused", the
    engine's open error taken for the refusal of the variant), plays it, and says in a note that
    stays why there are no exact values and how to get them (a host that answers range requests)."""
    bin_dir = os.path.dirname(perft_binary)
    work = tempfile.mkdtemp(prefix="gobblet-site-")
    plain = None
    try:
        copy, _ = site_with_tablebase(site, work, bin_dir)
        plain = StaticServer(copy)
        page = Board(b.d, plain.url)
        page.load(f"#variant={TB_VARIANT}")
        check("refused" not in page.status(), f"the link's game was refused: {page.status()!r}")
        check(page.body("fen") == "3/3/3 1" and page.d.execute_script(
            "return document.getElementById('custom-variant').value") == TB_VARIANT,
            f"not a {TB_VARIANT} game: {page.body('fen')!r}, status {page.status()!r}")
        hint = lambda: page.d.execute_script(
            "const e = document.getElementById('tb-hint'); return e.hidden ? null : e.textContent")
        page.wait("the note about the tablebase", hint)
        note = hint()
        print(f"note: {note!r}")
        check(TB_VARIANT in note and "does not answer HTTP range requests" in note
              and "a host that answers HTTP range requests gives it" in note,
              f"the note does not say why there are no exact values and how to get them: {note!r}")
        play_a_move_against_the_engine(page)
        page.idle()
        check(hint() == note, f"the note did not stay through the moves: {hint()!r}")
        check(page.d.execute_script("return document.getElementById('tb').hidden"), "exact values shown")
    finally:
        if plain:
            plain.stop()
        shutil.rmtree(work, ignore_errors=True)


def test_stalled_block_requests(b, perft_binary, site):
    """A site whose block requests stall (never answered) after the tablebase's open: the engine
    gives the request up (it waited for it forever), says why ("did not answer within N s"), and
    answers the search without the file's values; the probes after it do not wait again (the file
    is left alone for a while), and the page shows the position, without values, and its engine
    answers a move."""
    bin_dir = os.path.dirname(perft_binary)
    work = tempfile.mkdtemp(prefix="gobblet-site-")
    stalling = None
    try:
        copy, _ = site_with_tablebase(site, work, bin_dir)
        stalling = RangeServer(copy, stall=TB_FILE)
        e = engine_with_tablebase(b, stalling, "the tablebase was not opened (its header and table are answered)")
        sent = e.send("position startpos", "go depth 1")
        got = e.until(r"bestmove", "the bestmove of a search whose block request stalls", STALLED)
        took = (got[-1][0] - sent) / 1000
        notes = [l for _, l in got if "did not answer within" in l]
        print(f"stalled block: {got[-1][1]!r} after {took:.1f} s; {notes}")
        check(re.match(r"bestmove \S+", got[-1][1]) and got[-1][1] != "bestmove (none)", f"{got[-1][1]!r}")
        check(notes and notes[0].startswith(f"info string tablebase 'tablebases/{TB_FILE}': "),
              f"no note of the stalled request: {[l for _, l in got]}")
        stalled = [r for r in stalling.requests if r[1].endswith(TB_FILE) and r[0] == "GET"][2:]
        check(stalled, f"no block was asked for: {stalling.requests}")
        # The probes after it answer at once, without the file's values.
        for moves in TB_POSITIONS[1:]:
            sent = e.send(f"position startpos moves {' '.join(moves)}", "go depth 1")
            got = e.until(r"bestmove", f"go depth 1 after {moves}", STALLED)
            took = (got[-1][0] - sent) / 1000
            check(took < PROMPT, f"after {moves}: the search waited again, {took:.1f} s: {got[-3:]}")
            sent = e.send("query values")
            got = e.until(r"response ", f"query values after {moves}", STALLED)
            took = (got[-1][0] - sent) / 1000
            print(f"after {moves}: bestmove, then {got[-1][1][:60]!r} in {took:.2f} s")
            check(took < PROMPT and "?" in got[-1][1], f"after {moves}: {got[-1][1]!r} after {took:.1f} s")
        e.close()
        # The page, with its own engine on that site: the position shown, no values, a move answered.
        page = Board(b.d, stalling.url)
        started = time.monotonic()
        page.load(f"#variant={TB_VARIANT}")
        play_a_move_against_the_engine(page, STALLED)
        page.idle()
        took = time.monotonic() - started
        shown = page.d.execute_script("return document.getElementById('tb').hidden")
        print(f"the page: {page.moves()} -> {page.status()!r} after {took:.1f} s; values hidden: {shown}")
        check(shown, "the page shows tablebase values from a site that did not send them")
        check(took < STALLED * 2, f"the page took {took:.1f} s to show the engine's answer")
    finally:
        if stalling:
            stalling.stop()
        shutil.rmtree(work, ignore_errors=True)


def test_a_puzzle_solved_on_the_static_site(b, static_server, perft_binary, out_dir):
    """Puzzle mode on the static site: its copy of puzzles.txt read, the file's first puzzle shown, a
    move that does not win judged by the worker's prover and taken back, the hint, the line played to
    the solve, each of the person's moves answered by the line's defence (board_puzzle_test.py)."""
    from board_puzzle_test import losing_move, read_puzzles, solve_by_clicking
    _, puzzles = read_puzzles(static_server.url)
    check(puzzles, "no puzzle in the site's puzzles.txt")
    p = puzzles[0]
    gobblet = os.path.join(os.path.dirname(perft_binary), "gobblet")
    solve_by_clicking(b, p, losing_move(gobblet, p))
    b.d.save_screenshot(os.path.join(out_dir, "static-puzzle.png"))


def proof_said(b):
    """The proof panel's text ('' where hidden)."""
    e = b.d.find_element(By.ID, "proof")
    return e.text if e.is_displayed() else ""


def load_proof_file(b, path):
    """Chooses `path` with the page's "Load proof database…" file chooser, as a person does; what
    the import/export panel then says."""
    check(b.d.find_element(By.ID, "proof-load").is_displayed(), "no “Load proof database…” on the static site")
    b.d.execute_script("document.getElementById('io-status').textContent = ''")
    b.d.find_element(By.ID, "proof-file").send_keys(path)
    b.wait(f"the load of {os.path.basename(path)}", lambda: b.io_status().startswith(("Loaded", "Not loaded")))
    return b.io_status()


def test_a_proof_database_loaded_into_the_page(b, perft_binary, out_dir):
    """A proof database of gobblers (gobblet-prove prove --db) loaded through the file chooser: the
    engine says it opened it read-only with its entries, and the start's proved win is shown at
    once (no search, no Prove), with its move, and is the bar's value; a junk file is refused with
    the engine's reason, the database before stays, and the page plays on; on 4x4 the gobblers file
    is refused as another variant's, and a file over the worker's limit is refused by its size.
    The file the engine took is loaded again after a reload (kept in IndexedDB), on its variant's
    page and on another's; a kept file the engine refuses, and a kept record not of the page's
    shape, are said and forgotten."""
    work = tempfile.mkdtemp(prefix="gobblet-pdb-")
    try:
        db = os.path.join(work, "gobblers.pdb")
        subprocess.run([os.path.join(os.path.dirname(perft_binary), "gobblet-prove"), "prove", "--variant",
                        "gobblers", "--db", db], check=True, capture_output=True, timeout=PERFT_TIMEOUT)
        junk = os.path.join(work, "junk.pdb")
        with open(junk, "wb") as f:
            f.write(b"GBPROVED but not a proof database\n" * 10)
        huge = os.path.join(work, "huge.pdb")
        with open(huge, "wb") as f:
            f.truncate(257 * 1024 * 1024)  # (sparse: the worker refuses it by its size, before reading it)

        b.load()  # 4x4: the gobblers file is another variant's
        said = load_proof_file(b, db)
        print(f"4x4: {said!r}")
        check(re.fullmatch(r"Not loaded: option ProofDatabase: /loaded/\d+/gobblers\.pdb is a database of gobblers, "
                           r"not of gobblet", said), f"another variant's database: {said!r}")
        said = load_proof_file(b, huge)
        print(f"257 MiB: {said!r}")
        check(said.startswith("Not loaded: the file is 257.0 MiB") and "at most 256 MiB" in said,
              f"a file over the limit: {said!r}")

        b.load("#variant=gobblers")
        check("Proved" not in proof_said(b), f"a proof before the database was loaded: {proof_said(b)!r}")
        said = load_proof_file(b, db)
        print(f"gobblers: {said!r}")
        m = re.fullmatch(r"Loaded: proof database '/loaded/\d+/gobblers\.pdb' opened read-only for gobblers: "
                         r"(\d+) entries\.", said)
        check(m and int(m.group(1)) > 1, f"the engine's note on the database: {said!r}")
        b.wait("the database's proof of the start", lambda: "Proved (proof database)" in proof_said(b))
        proved = proof_said(b)
        m = re.search(r"player 1 wins in at most (\d+) plies, starting with ([SML]@[a-c][1-3])\.", proved)
        check(m and int(m.group(1)) >= 13, f"the start's proof is not said as a win of player 1: {proved!r}")
        b.wait("the bar's proved value", lambda: b.d.find_element(By.ID, "eval-text").text == f"W≤{m.group(1)}")
        b.d.save_screenshot(os.path.join(out_dir, "static-proof-database.png"))

        said = load_proof_file(b, junk)
        print(f"junk: {said!r}")
        check(re.match(r"Not loaded: option ProofDatabase: /loaded/\d+/junk\.pdb: .{10}", said),
              f"a junk file: {said!r}")
        b.wait("the start still proved", lambda: "Proved (proof database)" in proof_said(b))
        play_a_move_against_the_engine(b)

        # Kept in this browser (IndexedDB) for a reload: the last file the engine took, loaded
        # again for its variant before the game, on gobblers or not.
        b.load("#variant=gobblers")
        said = io_note(b)
        print(f"reloaded: {said!r}")
        check(re.search(r"Loaded again \(kept in this browser\): proof database '/loaded/1/gobblers\.pdb' "
                           r"opened read-only for gobblers: (\d+) entries\.$", said), f"the kept database: {said!r}")
        b.wait("the kept database's proof of the start", lambda: "Proved (proof database)" in proof_said(b))
        b.load("#variant=gobblet")
        check("Loaded again (kept in this browser): proof database" in io_note(b),
              f"the kept database, on 4x4: {io_note(b)!r}")
        check(b.body("fen").count("/") == 3, f"not the 4x4 board after the restore: {b.body('fen')!r}")
        play_a_move_against_the_engine(b)  # (the game given after the restore is the engine's)
        check("Proved" not in proof_said(b), f"4x4 proved by the gobblers database: {proof_said(b)!r}")

        # A kept record the engine refuses (its bytes changed in storage) is said and forgotten.
        keep_record(b, "{format: 1, name: 'gobblers.pdb', variant: 'gobblers',"
                       " blob: new Blob(['GBPROVED but not a proof database'])}")
        b.load("#variant=gobblers")
        said = io_note(b)
        print(f"a forged kept file: {said!r}")
        check(re.search(r"The proof database kept in this browser was not loaded, and is forgotten: option "
                           r"ProofDatabase: /loaded/1/gobblers\.pdb: .{10,}", said), f"a forged kept file: {said!r}")
        check("Proved" not in proof_said(b), f"a proof from a refused file: {proof_said(b)!r}")
        b.load("#variant=gobblers")
        check("proof database" not in io_note(b), f"the refused file was not forgotten: {io_note(b)!r}")
        # Records not of the page's shape: refused before the engine sees them, and forgotten.
        for record, why in [
                ("{format: 1, name: 'x.pdb', variant: 'gobblers\\nquit', blob: new Blob(['x'])}",
                 "its variant is missing or not a variant's name"),
                ("{format: 1, name: 'x.pdb', variant: 'gobblers.', blob: new Blob(['x'])}",
                 "its variant is missing or not a variant's name"),
                ("{format: 1, name: 'x.pdb', variant: 7, blob: new Blob(['x'])}",
                 "its variant is missing or not a variant's name"),
                ("{format: 1, name: 'x'.repeat(300), variant: 'gobblers', blob: new Blob(['x'])}",
                 "its file name is missing or too long"),
                ("{format: 1, name: 'x.pdb', variant: 'gobblers', blob: 'GBPROVED'}", "it holds no file"),
                ("{format: 2, name: 'x.pdb', variant: 'gobblers', blob: new Blob(['x'])}", "its format is 2, not 1"),
                ("'a string'", "it is not a record of this page")]:
            keep_record(b, record)
            b.load("#variant=gobblers")
            check(io_note(b).endswith("The proof database kept in this browser was not loaded, and is forgotten: "
                                      + why), f"the kept record {record}: {io_note(b)!r}")
            b.load("#variant=gobblers")
            check("proof database" not in io_note(b), f"the kept record {record} was not forgotten: {io_note(b)!r}")
    finally:
        forget_kept_database(b)
        shutil.rmtree(work, ignore_errors=True)


def io_note(b):
    """What the import/export panel says, shown or not."""
    return b.d.execute_script("return document.getElementById('io-status').textContent").strip()


def keep_record(b, record):
    """Puts the JavaScript object `record` into the page's IndexedDB as the kept proof database."""
    b.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const open = indexedDB.open('gobblet-board', 1);"
        "open.onupgradeneeded = () => open.result.createObjectStore('files');"
        "open.onsuccess = () => { const tx = open.result.transaction('files', 'readwrite');"
        f"  tx.objectStore('files').put({record}, 'proof-database');"
        "  tx.oncomplete = () => { open.result.close(); done(); }; };")


def forget_kept_database(b):
    """Deletes the page's IndexedDB storage (the kept proof database): the tests after start without."""
    b.d.get("about:blank")
    b.d.get(b.url)
    b.d.execute_async_script("const done = arguments[arguments.length - 1];"
                             "const r = indexedDB.deleteDatabase('gobblet-board');"
                             "r.onsuccess = r.onerror = r.onblocked = () => done();")


def test_opened_as_a_file_says_how_to_serve_it(b, site, out_dir):
    """Issue 39 L14: index.html opened as a file (file://), whose module scripts the browser will
    not run: a note says how to serve the folder (it was a blank board and a console error), and
    that range requests give the tablebases' values. Served, the page shows no such note."""
    b.d.get("about:blank")
    b.d.get("file://" + os.path.join(site, "index.html"))
    note = lambda: b.d.execute_script(
        "const e = document.getElementById('not-started');"
        "return e && getComputedStyle(e).visibility === 'visible' && e.getBoundingClientRect().height > 0"
        " ? e.innerText : null")
    b.wait("the note that the board did not start", note)
    text = note()
    b.d.save_screenshot(os.path.join(out_dir, "static-opened-as-a-file.png"))
    print(f"file:// note: {text[:120]!r}...")
    check("python3 -m http.server" in text and "file://" in text and "range requests" in text,
          f"the note does not say how to serve the folder: {text!r}")
    errors = b.console_errors()  # the browser's own: it refused the module scripts
    check(all("file://" in e.get("message", "") or "origin 'null'" in e.get("message", "") for e in errors),
          f"console errors other than the refused scripts: {errors}")
    b.load()
    check(b.d.execute_script("return document.getElementById('not-started')") is None,
          "the served page keeps the note that it did not start")


if __name__ == "__main__":
    sys.exit(run_as_script(__file__, sys.argv[1:]))
