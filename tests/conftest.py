"""Shared fixtures: a built copy of content/, a local server, and Chromium guarded so
that any console error or request leaving the local server fails the test."""
from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each test builds what it means to build: the build cache (commands/cache.py) stays off,
# but in the tests of the cache, which give it a folder of their own.
os.environ["EXPLORABLES_CACHE"] = "off"
# On a GitHub Actions runner the commands also print their errors as workflow commands
# (site_builder/commands/github.py): the tests read the output of a machine that is not
# one, but for tests/test_github.py, which says it is one.
os.environ.pop("GITHUB_ACTIONS", None)
# The Python processes the tests start (a build's pool, serve's kept build process, the
# command line) read the tool's modules compiled, as an installed package's are, from a
# folder outside the checkout. In an environment that sets PYTHONDONTWRITEBYTECODE each
# compiled all of them again at its start (a fifth of the CPU of the tests that start them).
# The test workers pytest-xdist starts inherit it too, and keep the test modules' rewritten
# asserts there for the next run; a process that was already running (pytest without -n)
# is left as the environment started it.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    import tempfile

    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "explorables-tests-bytecode"))
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
# The tests' Chromium only: WebAssembly runs as V8's baseline compiler (Liftoff) makes it,
# without the optimising tier's compiles in the background. The same code runs, and it
# answers as fast for these pages, but each Pyodide start costs 15-20 % less CPU, which
# the browser tests of the other worker are waiting for. The benchmarks time the
# browser as readers have it, with CHROMIUM_FLAGS alone.
TEST_ONLY_FLAGS = ["--js-flags=--liftoff-only"]


# Waits for a loaded machine: two cores shared with builds, other browsers and Pyodide
# starting in the other test worker make a page many times slower than on an idle one.
# Every context the tests open (the ``page`` fixture's, browser.new_context, new_page)
# gets these defaults, and no wait gets less than WAIT_FLOOR, whatever a test asked:
# a wait that succeeds returns as soon as its condition holds, so only a failing test
# waits longer. (No test waits for something *not* to happen with a timeout.)
NAVIGATION_TIMEOUT = 120_000  # ms: goto, reload, back and forward
ACTION_TIMEOUT = 60_000  # ms: a click, typing, a wait given no timeout of its own
WAIT_FLOOR = 30_000  # ms: the least any wait gets
# What Playwright logs where a page registers a service worker in a context that blocks them
SERVICE_WORKER_BLOCKED = "Service Worker registration blocked by Playwright"


def _generous(context):
    context.set_default_timeout(ACTION_TIMEOUT)
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT)
    if os.environ.get(SUITE_LOG):
        _log_browser_work(context)
    return context


# benchmarks/bench_suite.py: where the suite's work goes. With this variable naming a file,
# each test writes a line there as it starts (with its process and the time), and each
# context the browser tests open one for itself, for each document it loads and for each
# start of Pyodide (its wasm received, from the server or the cache), with its test.
SUITE_LOG = "EXPLORABLES_SUITE_LOG"


def _log_suite(kind: str, test: str | None = None) -> None:
    test = test or os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" (", 1)[0]
    with open(os.environ[SUITE_LOG], "a", encoding="utf-8") as out:
        out.write(f"{test}\t{kind}\n")


def pytest_runtest_logstart(nodeid, location):
    if os.environ.get(SUITE_LOG):
        _log_suite(f"start {os.getpid()} {time.time()}", nodeid)


def _log_browser_work(context) -> None:
    def request(req) -> None:
        if req.resource_type == "document" and req.is_navigation_request():
            _log_suite("document")

    def delivered(req) -> None:  # (a wasm held back by a test, or cut short, is no start)
        if req.url.endswith("/pyodide.asm.wasm"):
            _log_suite("engine")

    _log_suite("context")
    context.on("request", request)
    context.on("requestfinished", delivered)


def _floored(method):
    @functools.wraps(method)
    def wait(self, *args, **kwargs):
        timeout = kwargs.get("timeout")
        if timeout is not None and 0 < timeout < WAIT_FLOOR:  # 0 is "no limit"
            kwargs["timeout"] = WAIT_FLOOR
        return method(self, *args, **kwargs)
    wait.floored = True
    return wait


def _patch_playwright() -> None:
    """Give every browser context the generous defaults and every wait WAIT_FLOOR."""
    try:
        from playwright.sync_api import Browser, Frame, Locator, Page
    except ImportError:  # the tests without a browser
        return
    if getattr(Browser.new_context, "generous", False):
        return
    new_context, new_page = Browser.new_context, Browser.new_page

    @functools.wraps(new_context)
    def generous_context(self, *args, **kwargs):
        # a published site's service worker (offline reading) would answer the page's
        # requests before page.route sees them: only tests/browser/test_offline*.py allow it
        kwargs.setdefault("service_workers", "block")
        return _generous(new_context(self, *args, **kwargs))

    @functools.wraps(new_page)
    def generous_page(self, *args, **kwargs):
        page = new_page(self, *args, **kwargs)
        _generous(page.context)
        return page
    generous_context.generous = True
    Browser.new_context, Browser.new_page = generous_context, generous_page
    for owner in (Page, Frame):
        for name in ("wait_for_function", "wait_for_selector", "wait_for_url", "wait_for_load_state",
                     "wait_for_event", "expect_event", "goto", "reload", "go_back", "go_forward"):
            if hasattr(owner, name):
                setattr(owner, name, _floored(getattr(owner, name)))
    Locator.wait_for = _floored(Locator.wait_for)


_patch_playwright()


def chromium_path() -> str | None:
    """Debian's Chromium when present (or EXPLORABLES_CHROMIUM); else Playwright's own.
    The benchmarks' browser: the whole of Chromium, as readers have it."""
    named = os.environ.get("EXPLORABLES_CHROMIUM")
    if named:
        return named
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(candidate).exists():
            return candidate
    return None


def benchmark_launch(*flags: str) -> dict:
    """Playwright's launch options for a benchmark: chromium_path() with CHROMIUM_FLAGS (and
    ``flags``)."""
    options = {"args": CHROMIUM_FLAGS + list(flags)}
    if chromium_path():
        options["executable_path"] = chromium_path()
    return options


def chromium_for_tests() -> str | None:
    """The tests' browser: Chromium's headless shell when present (Debian's
    chromium-headless-shell, the browser Playwright itself runs headless tests in), else
    chromium_path(). The same Blink and V8 without the browser's own user interface,
    which in the whole browser starts a renderer for its address bar's popup with every
    new context: about 0.3 s of JavaScript each time, beside the page under test."""
    shell = Path("/usr/bin/chromium-headless-shell")
    if shell.exists() and not os.environ.get("EXPLORABLES_CHROMIUM"):
        return str(shell)
    return chromium_path()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = {**browser_type_launch_args, "args": CHROMIUM_FLAGS + TEST_ONLY_FLAGS}
    path = chromium_for_tests()
    if path:
        args["executable_path"] = path
    return args


@pytest.fixture
def author_site(tmp_path, monkeypatch):
    """Write an author's site: ``author_site(folder="", chdir=True, **parts)`` writes
    author_site.write_site(tmp_path / folder, **parts) (site.yml, content/, figures/,
    locales/), makes it the working folder unless ``chdir`` is False, and returns it.
    After the test, every figure and exercise type a build registered from it (FIGURES,
    EXERCISES, the loaded modules) is forgotten."""
    from author_site import write_site

    from explorables.site_builder.authors import loader

    def make(folder: str = "", chdir: bool = True, **parts) -> Path:
        site = write_site(tmp_path / folder, **parts)
        if chdir:
            monkeypatch.chdir(site)
        return site
    yield make
    loader.unload()


@pytest.fixture
def one_lesson_site(tmp_path) -> tuple[Path, Path]:
    """A content folder with one good lesson (author_site.ONE_LESSON), already built once:
    (content, out). No site.yml: the build's defaults."""
    from author_site import ONE_LESSON
    from test_build import write

    from explorables.site_builder.commands.build import build_site

    content = write(tmp_path / "content", {"01-a.md": ONE_LESSON})
    out = tmp_path / "_site"
    build_site(content, out)
    return content, out


@pytest.fixture(scope="session")
def pyodide_node():
    """One Pyodide under Node for the test process (node_pyodide.NodePyodide), started at
    the first check: ``pyodide_node.run(checks_py, inputs, archive=... | engine=...)``."""
    assert shutil.which("node"), "these tests run Pyodide in Node 20 or newer; -m 'not pyodide' leaves them out"
    from node_pyodide import NodePyodide

    from explorables.site_builder.pyodide.release import ensure_pyodide

    runner = NodePyodide(ensure_pyodide())
    yield runner
    runner.close()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """content/ built once per test run."""
    from explorables.site_builder.commands.build import build_site

    out = tmp_path_factory.mktemp("site") / "_site"
    build_site(ROOT / "content", out)
    return out


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, format, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that leaves a page mid-download resets the connection: not an error."""
        import sys
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class _PolicyHandler(_QuietHandler):
    policy = ""  # the Content-Security-Policy header sent with every response

    def end_headers(self):
        self.send_header("Content-Security-Policy", self.policy)
        super().end_headers()


def serve_folder(folder: Path, policy: str | None = None):
    """Serve ``folder`` on 127.0.0.1 at a free port, in a thread of its own; with ``policy``,
    every response carries it as its Content-Security-Policy header, as a host would send
    it (unlike the page's <meta>, a header governs a worker's script too)."""
    quiet = _QuietHandler if policy is None else type("Handler", (_PolicyHandler,), {"policy": policy})
    handler = functools.partial(quiet, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture(scope="session")
def site_url(built_site):
    server = serve_folder(built_site)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def track_page(browser, site_url, browser_context_args):
    """One page on the built track for the whole test process, guarded: the modules that
    ask for it (``helpers.shared_page()``) swap their lessons into it one after another,
    so that Pyodide starts once per process rather than once per module."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    guard = Guard(page, site_url)
    yield page, guard
    context.close()


class Guard:
    """Records console errors, page errors and requests that leave the local server."""

    def __init__(self, page, base: str):
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.failed: list[str] = []
        self.allowed: list[str] = []  # substrings of console errors a test expects
        page.on("console", self._console)
        page.on("pageerror", lambda err: self.errors.append(f"pageerror: {err}"))
        # a request cut short because the page went to another document (page.goto while
        # a script or the engine's files were still coming) is no failure of the site's: one
        # asked for before a navigation started or before a new document came, or cut short
        # while a navigation was under way (the old document runs, and fetches, until the new
        # one replaces it; with every request routed, a request's event may come late)
        self._started = self._documents = 0
        self._going: set = set()  # the page's navigation requests not yet answered by a new document
        self._issued: dict = {}
        page.on("request", self._request)
        page.on("requestfailed", self._request_failed)
        page.on("framenavigated", self._navigated)

        # Only a request that leaves the local server comes here: the pattern is matched by
        # Playwright's driver, where a function would have every request of the page sent
        # to this process and back (a few ms each, thousands of them in a run).
        page.context.route(re.compile("^(?!" + re.escape(base) + "|data:|blob:)"), self._outside)

    def _outside(self, route):
        self.outside.append(route.request.url)
        route.abort()

    def _console(self, message):
        if message.text == SERVICE_WORKER_BLOCKED:
            return
        if message.type in ("error", "warning") and not any(a in message.text for a in self.allowed):
            # "Failed to load resource" does not say which: its location does
            where = message.location.get("url") if message.text.startswith("Failed to load resource") else ""
            self.errors.append(f"{message.type}: {message.text}" + (f" ({where})" if where else ""))

    def _navigated(self, frame):
        if frame.parent_frame is None:
            self._documents += 1
            self._going.clear()

    def _request(self, req):
        if req.is_navigation_request() and req.frame.parent_frame is None:
            self._started += 1
            self._going.add(req)
        self._issued[req] = (self._started, self._documents)

    def _request_failed(self, req):
        self._going.discard(req)
        started, documents = self._issued.get(req, (self._started, self._documents))
        cut = started < self._started or documents < self._documents or bool(self._going)
        if "ERR_ABORTED" in (req.failure or "") and cut:
            return
        self.failed.append(f"{req.url} ({req.failure})")

    def check(self):
        assert not self.outside, f"requests left the local server: {self.outside}"
        assert not self.errors, f"console errors: {self.errors}"
        assert not self.failed, f"failed requests: {self.failed}"


@pytest.fixture
def guard(page, site_url):
    g = Guard(page, site_url)
    yield g
    g.check()


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker more than the machine has cores. A browser test's worker spends
    part of its time waiting for Chromium (and Chromium for the test), and a third worker on
    two cores fills those gaps: the suite took 4:46 against 5:07-5:13 with one worker a core."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.nodeid.split("::")[0]:
            item.add_marker(pytest.mark.browser)
