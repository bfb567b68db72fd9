#!/usr/bin/python3
"""Measures the static site (build/wasm/site, docs/wasm.md) for the docs:

(a) its weight: the bytes of every file and of the engine's files (the
    worker, its loader and the .wasm), raw and gzip -9 (what a static host
    that compresses would send);
(b) its time to a first move, median of --loads page loads, with the
    browser's cache off (cold) and on (warm): from navigation to the page
    ready (document.body.dataset.ready), and in a fresh Web Worker made then,
    from its creation to `ugiok` and to the `bestmove` of `go depth 1`;
(c) WebAssembly against native search speed in one Chromium session: the
    same `go depth D` from the 4x4 start (fresh session, Hash 16, Threads 1)
    in a Worker of the static site, once with each build of the engine (JSPI
    and Asyncify: engine_worker.js?engine=), and over a WebSocket to the /ugi
    of `gobblet --http` from its own page; nodes, time and nps of each one's
    last info line, --runs times, each engine first in turn; medians, their
    ratios and the median of each run's ratio.

Needs Chromium, chromedriver and python3-selenium (Debian's python3).
Exit status: 0 measured, 1 failed (with the reason), 77 Chromium cannot run.

usage: measure_site.py --site build/wasm/site --bin build/release/bin/gobblet [--depth 13] [--runs 3] [--loads 5]
"""
import argparse
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "browser"))

from board_driver import (ENGINE_BUILD_FILES, WORKER_SCRIPT, Board, Failure, PageEngine, SKIP, Skipped,  # noqa: E402
                          last_info, no_proxy_for_localhost, start_browser)

ENGINE_FILES = (WORKER_SCRIPT,) + ENGINE_BUILD_FILES["jspi"] + ENGINE_BUILD_FILES["asyncify"]
# The engines of (c): the worker's two builds (web/wasm/engine_worker.js) and the native engine.
SPEED_ENGINES = (("jspi", "WebAssembly JSPI"), ("asyncify", "WebAssembly Asyncify"),
                 ("native", "native (--http /ugi)"))
SEARCH_TIMEOUT = 600  # seconds for one `go depth D` on a loaded machine

# Runs in every document before the page's scripts: the page's clock when it sets data-ready.
READY_CLOCK = """
(() => {
  new MutationObserver((changes, observer) => {
    if (document.body && document.body.dataset.ready === '1' && window.__readyAt === undefined) {
      window.__readyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
})();
"""


def weight(site):
    """[(name, raw bytes, gzip -9 bytes)] of every file of the site, sorted by name."""
    rows = []
    for root, _, files in os.walk(site):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                data = f.read()
            rows.append((os.path.relpath(path, site), len(data), len(gzip.compress(data, 9, mtime=0))))
    return sorted(rows)


def kib(n):
    return f"{n / 1024:.1f} KiB"


def print_weight(rows):
    print("(a) weight of the site (gzip -9 as a compressing static host would send it)")
    print(f"    {'file':24} {'raw':>12} {'gzip -9':>12}")
    for name, raw, packed in rows:
        print(f"    {name:24} {kib(raw):>12} {kib(packed):>12}")
    engine = [r for r in rows if r[0] in ENGINE_FILES]
    page = [r for r in rows if r[0] not in ENGINE_FILES]
    # A browser fetches one build: the worker and the JSPI build's loader and .wasm where it has JSPI.
    fetched = [r for r in engine if r[0] in (WORKER_SCRIPT,) + ENGINE_BUILD_FILES["jspi"]]
    for label, part in (("engine (both builds)", engine), ("engine a JSPI browser loads", fetched),
                        ("page (the rest)", page), ("whole site", rows)):
        raw = sum(r[1] for r in part)
        packed = sum(r[2] for r in part)
        print(f"    {label:28} {raw:>9} B raw = {kib(raw):>10}; {packed:>8} B gzip -9 = {kib(packed):>10}")


class StaticServer:
    """`python3 -m http.server` on a free port of 127.0.0.1; counts the answers it gives by status."""

    def __init__(self, site):
        self.proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                                      "-d", site], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"port (\d+)", line)
        if not m:
            self.stop()
            raise Failure(f"the static server did not announce its port: {line!r}")
        self.url = f"http://127.0.0.1:{m.group(1)}/"
        self.answers = {}  # status -> count
        threading.Thread(target=self._read_log, daemon=True).start()
        threading.Thread(target=lambda: self.proc.stdout.read(), daemon=True).start()

    def _read_log(self):
        for line in self.proc.stderr:
            m = re.search(r'"[A-Z]+ \S+ HTTP/[0-9.]+" (\d{3})', line)
            if m:
                self.answers[m.group(1)] = self.answers.get(m.group(1), 0) + 1

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def start_native(binary):
    proc = subprocess.Popen([binary, "--http", "127.0.0.1:0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True)
    line = proc.stderr.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise Failure(f"the native server did not announce its address: {line!r}")
    return proc, int(m.group(1))


def first_move(d, url, cold):
    """One page load: ms from navigation to ready; then a fresh worker's ms to ugiok and to the
    bestmove of `go depth 1` from its creation."""
    d.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": cold})
    if cold:
        d.execute_cdp_cmd("Network.clearBrowserCache", {})
    b = Board(d, url)
    b.load()
    ready = d.execute_script("return window.__readyAt")
    if ready is None:
        raise Failure("the page got ready but its ready time was not recorded")
    e = PageEngine(d, "worker", WORKER_SCRIPT, first=["ugi", "position startpos", "go depth 1"])
    ugiok = e.until(r"ugiok$", "ugiok of a fresh worker")[-1][0]
    best = e.until(r"bestmove", "the bestmove of go depth 1")[-1][0]
    made = e.state()["made"]
    e.close()
    return ready, ugiok - made, best - made


def search(d, kind, where, depth):
    """`go depth D` from the 4x4 start in a fresh session: the last info line's numbers and the wall ms."""
    e = PageEngine(d, kind, where, first=["ugi"])
    e.until(r"ugiok$", f"ugiok ({kind})")
    e.send("setoption name Threads value 1", "setoption name Hash value 16", "uginewgame", "position startpos",
           "isready")
    got = e.until(r"readyok$", f"readyok ({kind})")
    errors = [l for _, l in got if l.startswith("info string error")]
    if errors:
        raise Failure(f"{kind}: {errors}")
    sent = e.send(f"go depth {depth}")
    got = e.until(r"bestmove", f"the bestmove of go depth {depth} ({kind})", SEARCH_TIMEOUT)
    e.close()
    info = last_info([l for _, l in got])
    if not info:
        raise Failure(f"{kind}: no info line with nodes, time and nps: {got[-3:]}")
    info["wall"] = got[-1][0] - sent
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", default="build/wasm/site", help="the static site")
    ap.add_argument("--bin", default="build/release/bin/gobblet", help="the native gobblet, for --http")
    ap.add_argument("--depth", type=int, default=13, help="go depth D for the speed runs (default 13)")
    ap.add_argument("--runs", type=int, default=3, help="speed runs of each engine (default 3)")
    ap.add_argument("--loads", type=int, default=5, help="page loads for the time to a first move (default 5)")
    args = ap.parse_args()
    for name in ("index.html",) + ENGINE_FILES:
        if not os.path.isfile(os.path.join(args.site, name)):
            print(f"measure_site: {args.site} has no {name} (tools/setup.sh wasm builds the site)", file=sys.stderr)
            return 1
    if not os.access(args.bin, os.X_OK):
        print(f"measure_site: {args.bin} is not an executable (build the native engine)", file=sys.stderr)
        return 1

    print_weight(weight(args.site))
    sys.stdout.flush()

    no_proxy_for_localhost()
    server = native = None
    driver = profile = None
    try:
        server = StaticServer(os.path.abspath(args.site))
        native, port = start_native(args.bin)
        driver, profile = start_browser(READY_CLOCK)
        driver.execute_cdp_cmd("Network.enable", {})

        print(f"\n(b) time to a first move, median of {args.loads} page loads (ms, the page's clock)")
        print(f"    {'cache':6} {'nav -> ready':>13} {'worker -> ugiok':>16} {'worker -> bestmove (go depth 1)':>32}")
        for cold in (True, False):
            first_move(driver, server.url, cold)  # not counted: the mode's first load fills or skips the cache
            before = dict(server.answers)
            samples = [first_move(driver, server.url, cold) for _ in range(args.loads)]
            served = {k: v - before.get(k, 0) for k, v in server.answers.items() if v - before.get(k, 0)}
            med = [statistics.median(s[i] for s in samples) for i in range(3)]
            spread = [f"{min(s[i] for s in samples):.0f}-{max(s[i] for s in samples):.0f}" for i in range(3)]
            print(f"    {'cold' if cold else 'warm':6} {med[0]:>7.0f} ({spread[0]:>9}) {med[1]:>6.0f} ({spread[1]:>9})"
                  f" {med[2]:>12.0f} ({spread[2]:>9}); HTTP answers {served}")
            sys.stdout.flush()
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})

        print(f"\n(c) go depth {args.depth} from the 4x4 start, one Chromium session, Hash 16, Threads 1")
        print(f"    {'run':4} {'engine':22} {'nodes':>10} {'time ms':>8} {'nps':>10} {'wall ms':>8}")
        wasm_url = server.url
        native_url = f"http://127.0.0.1:{port}/"
        results = {kind: [] for kind, _ in SPEED_ENGINES}
        for run in range(1, args.runs + 1):
            shift = (run - 1) % len(SPEED_ENGINES)  # each engine first in turn
            for kind, label in SPEED_ENGINES[shift:] + SPEED_ENGINES[:shift]:
                if kind == "native":
                    Board(driver, native_url).load()
                    r = search(driver, "socket", f"ws://127.0.0.1:{port}/ugi", args.depth)
                else:
                    Board(driver, wasm_url).load()
                    r = search(driver, "worker", f"{WORKER_SCRIPT}?engine={kind}", args.depth)
                results[kind].append(r)
                print(f"    {run:<4} {label:22} {r['nodes']:>10} {r['time']:>8} {r['nps']:>10} {r['wall']:>8.0f}")
                sys.stdout.flush()
        med = {k: {key: statistics.median(r[key] for r in v) for key in ("nodes", "time", "nps", "wall")}
               for k, v in results.items()}
        for k, _ in SPEED_ENGINES:
            print(f"    med  {k:22} {med[k]['nodes']:>10.0f} {med[k]['time']:>8.0f} {med[k]['nps']:>10.0f} "
                  f"{med[k]['wall']:>8.0f}")
        same = len({r["nodes"] for v in results.values() for r in v}) == 1
        # Ratios within each run (its engines ran minutes apart, not a whole measurement): robust to
        # the machine's speed drifting between runs, which moves the medians of the columns.
        for k, label in SPEED_ENGINES[:-1]:
            ratio = med[k]["nps"] / med["native"]["nps"]
            per_run = statistics.median(a["nps"] / n["nps"] for a, n in zip(results[k], results["native"]))
            print(f"    {label} / native nps: {ratio:.2f} of the medians, {per_run:.2f} median of the runs' ratios")
        print(f"    JSPI / Asyncify nps: {med['jspi']['nps'] / med['asyncify']['nps']:.2f}; "
              f"same tree (node counts): {'yes' if same else 'no'}")
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            print(f"    console errors meanwhile: {errors}")
        return 0
    except Skipped as why:  # no Chromium here: nothing to measure
        print(f"measure_site: skipped: {why}", file=sys.stderr)
        return SKIP
    except Exception as e:  # a Failure, or the browser's or a server's trouble: said in one line
        what = "" if isinstance(e, Failure) else f"{type(e).__name__}: "
        print(f"measure_site: failed: {what}{str(e).strip()}", file=sys.stderr)
        return 1
    finally:
        if driver:
            driver.quit()
        for proc in (server.proc if server else None, native):
            if proc:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
