"""The fixtures of the browser tests (board_test.py, static_site_test.py).

Each test module says what its page needs and the conftest gives the rest:

  RECORDER        (module constant) a script Chromium runs in every document
                  before the page's own, or None
  page_url        (module fixture) the address of the page under test
  after_each(request)  (optional module function) a check run after each
                  test that passed (the static site: no engine process)

Fixtures given here: `driver` (headless Chromium with TEST_FLAGS, one per module; every test
is skipped, with the reason, when Chromium cannot start), `b` (the Board on
page_url), `out_dir` (--out: screenshots), `binary`, `tb_binary`,
`perft_binary`, `site` (--bin, --gobblet-tb, --perft, --site: what a module needs of
them). --part K/N runs the first test (the page loads) and every N-th
after it from the K-th. After each test the page must have logged no console error; a failed
test leaves a screenshot, failed-<test>.png, in --out.
"""
import os
import shutil

import pytest

from board_driver import TEST_FLAGS, Board, Skipped, check, no_proxy_for_localhost, start_browser


def pytest_addoption(parser):
    group = parser.getgroup("gobblet browser tests")
    group.addoption("--bin", help="the gobblet program (board_test.py)")
    group.addoption("--gobblet-tb", help="the gobblet-tb program (board_test.py)")
    group.addoption("--perft", help="the native gobblet-perft (static_site_test.py)")
    group.addoption("--site", help="the static site, build/wasm/site (static_site_test.py)")
    group.addoption("--out", help="where screenshots go")
    group.addoption("--part", help="K/N: run only the K-th of N parts of the tests (the first test, which "
                                   "loads the page, then every N-th from the K+1-th), so that ctest runs the "
                                   "parts of a long file side by side")


def pytest_collection_modifyitems(config, items):
    part = config.getoption("part")
    if not part:
        return
    k, _, n = part.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise pytest.UsageError(f"--part {part}: K/N with 1 <= K <= N")
    kept = items[:1] + [item for i, item in enumerate(items[1:]) if i % int(n) == int(k) - 1]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


def option(request, name):
    value = request.config.getoption(name)
    if not value:
        pytest.fail(f"{request.node.nodeid} needs --{name.replace('_', '-')}", pytrace=False)
    return os.path.abspath(value)


@pytest.fixture(scope="session")
def out_dir(request):
    path = option(request, "out")
    os.makedirs(path, exist_ok=True)
    return path


def path_fixture(name, option_name):
    """A session fixture `name`: the absolute path given with --<option_name>."""
    return pytest.fixture(scope="session", name=name)(lambda request: option(request, option_name))


binary = path_fixture("binary", "bin")
tb_binary = path_fixture("tb_binary", "gobblet_tb")
perft_binary = path_fixture("perft_binary", "perft")
site = path_fixture("site", "site")


@pytest.fixture(scope="module")
def driver(request):
    no_proxy_for_localhost()
    try:
        chromium, profile = start_browser(getattr(request.module, "RECORDER", None), TEST_FLAGS)
    except Skipped as why:
        pytest.skip(str(why))
    yield chromium
    chromium.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def b(driver, page_url):
    return Board(driver, page_url)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.call_failed = report.failed


@pytest.fixture(autouse=True)
def page_checks(request, b, out_dir):
    yield
    if getattr(request.node, "call_failed", True):
        name = "".join(c if c.isalnum() else "-" for c in request.node.name.lower())
        b.d.save_screenshot(os.path.join(out_dir, f"failed-{name}.png"))
        b.console_errors()  # read, so that they are not the next test's
        return
    errors = b.console_errors()
    check(not errors, f"console errors: {errors}")
    after_each = getattr(request.module, "after_each", None)
    if after_each:
        after_each(request)
