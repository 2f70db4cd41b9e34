"""What every browser test of a figure needs: open a page, wait for the engine, read
what the figure shows, and recompute it with the CPython engine for comparison."""
from __future__ import annotations

import json
import math

import pytest

from explorables.engine.figures import FIGURES
from figure_helpers import ROOT


# A browser that saves data (the Network Information API's saveData): the page starts no
# Python until the reader clicks Start (js/start.js).
SAVE_DATA = """
Object.defineProperty(Navigator.prototype, "connection",
  { configurable: true, get() { return { saveData: true, effectiveType: "4g", addEventListener() {} }; } });
"""


def open_figure(page, url: str, figure_id: str):
    """Open a lesson, wait until the engine is live, return a locator of the figure."""
    page.goto(url)
    page.wait_for_function("() => window.explorables && window.explorables.figures")  # conftest's timeouts
    page.evaluate("() => window.explorables.ready")
    root = page.locator(f"figure#{figure_id}")
    root.and_(page.locator(".ex-live")).wait_for()
    page.wait_for_function(SETTLED)
    return root


# The first frame leaves the cells' arithmetic to the live engine, which gives it a second
# later: a test asks for it at once, as a reader pointing at a cell does, and starts once
# every figure has it (and has computed what it asked).
WHOLE = """() => Object.values(window.explorables.figures).every(f => {
    if (!f.live || f.failed) return true;
    f.complete(true);
    return !f.busy && !f.queue.length && !(f.scene.panels || []).some(p => p.detail_later);
})"""


def whole(page) -> None:
    page.wait_for_function(WHOLE)


# Every figure whole, and the page's fonts in: a font that comes later sets the page's text
# again, and a test that reads where things are would read two layouts. A lesson swapped
# in brings its math font (js/pages.js mathFont), which, unless the lesson was fetched
# ahead with it, comes after its figure is live: at 390 px the lab's list of steps, above
# the figure, is 55 px shorter in it than in the system's math font, and Tab seemed to go
# up the figure from one of its buttons to the next.
SETTLED = "() => (%s)() && document.fonts.status === 'loaded'" % WHOLE


def idle(page, figure_id: str) -> dict:
    """Wait until the figure has computed and drawn every event; return its values."""
    return page.evaluate("id => window.explorables.figures[id].idle()", figure_id)


def state_of(page, figure_id: str) -> dict:
    return page.evaluate("id => window.explorables.figures[id].state", figure_id)


def values_of(page, figure_id: str) -> dict:
    return page.evaluate("id => window.explorables.figures[id].values", figure_id)


def cpython_values(figure: str, state: dict) -> dict:
    """The values the CPython engine computes for the same state."""
    return FIGURES[figure].scene(state)["values"]


def assert_close(a, b, tol: float = 1e-12, path: str = "values") -> None:
    """Nested equality with a tolerance on floats."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            assert_close(a[key], b[key], tol, f"{path}.{key}")
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), f"{path}: {a} != {b}"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_close(x, y, tol, f"{path}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert math.isclose(a, b, rel_tol=tol, abs_tol=tol), f"{path}: {a} != {b}"
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def assert_matches_cpython(page, figure_id: str, figure: str) -> dict:
    """The numbers the page shows equal the CPython engine's for the page's own state."""
    values = idle(page, figure_id)
    assert_close(values, cpython_values(figure, state_of(page, figure_id)))
    return values


def mark_position(page, figure_id: str, panel: str, mark: str) -> tuple[float, float]:
    """Where a mark is on screen (scrolling its canvas into view first)."""
    page.locator(f'figure#{figure_id} [data-key="plane:{panel}"] canvas').scroll_into_view_if_needed()
    at = page.evaluate("([id, p, m]) => window.explorables.figures[id].locate(p, m)", [figure_id, panel, mark])
    assert at is not None, f"mark {mark} not found in panel {panel}"
    return at["x"], at["y"]


def past_settle(page) -> None:
    """Until every figure has computed and drawn every event, and then a page timer a half
    longer than the settle time has run. A figure's change and the live prose's numbers are
    handed to the announcer once the page has been quiet for the settle time (SETTLE_MS, set
    by js/figure-speech.js): their timers were set first, so they have run by then, however
    busy the machine is. (No fixed wait: a machine too busy to run a timer in time runs
    them late, in order.)"""
    page.evaluate(
        "() => Promise.all(Object.values(window.explorables.figures).map(f => f.idle()))"
        ".then(() => new Promise(done => setTimeout(done, 1.5 * window.explorables.SETTLE_MS)))"
    )


# What a cell's detail box says while the engine works its arithmetic out: a figure
# answers a reader's change without it (kit/marks.py ``lean``) and asks for it as soon as
# a cell is pointed at or focused.
COMING = json.loads((ROOT / "engine" / "locales" / "en.json").read_text(encoding="utf-8"))["runtime.detail_coming"]


def arithmetic(box) -> str:
    """The text of a cell's detail box (a locator) once its arithmetic has come."""
    box.filter(has_not_text=COMING).wait_for()
    return box.inner_text()


def next_frame(page) -> None:
    """Until the page has drawn its next frame."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done()))")


def touch_drag(page, x: float, y: float, dx: float, dy: float = 0, steps: int = 10) -> None:
    """A finger put down at (x, y), moved by (dx, dy) a frame at a time and lifted, as a
    touch screen sends it (the page needs a context with ``has_touch``)."""
    cdp = page.context.new_cdp_session(page)
    at = lambda i: [{"x": x + dx * i / steps, "y": y + dy * i / steps}]  # noqa: E731
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": at(0)})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": at(i)})
        next_frame(page)  # a finger moves a frame at a time
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def first_frame(page, url: str, figure_id: str) -> dict:
    """Open a page with Python held back (``hold_python``) and read what the figure shows.

    ``settled`` says whether the engine had already answered (then a test proves nothing);
    ``counts`` holds how many of each selector the figure has drawn; ``held``, what the
    test hands to ``let_python_come`` once it has read all it reads before Python. A
    figure far down the page is drawn as the reader comes near it (boot.js): the reader
    scrolls to it."""
    held = hold_python(page)
    page.goto(url, wait_until="domcontentloaded")
    return {"held": held, **page.evaluate(
        """async ([id, selectors]) => {
            const ex = window.explorables;
            const fig = document.getElementById(id);
            fig.scrollIntoView();
            // (drawn, and whole: a figure is made a few panels a frame, figure.js unfold)
            while (!fig.classList.contains('ex-drawn') || (ex.figures[id] && ex.figures[id].pieces)) {
                await new Promise(r => requestAnimationFrame(r));
            }
            const settled = await Promise.race([ex.ready.then(() => true, () => true),
                                                new Promise(r => setTimeout(() => r(false), 0))]);
            const counts = {};
            for (const sel of selectors) counts[sel] = fig.querySelectorAll(sel).length;
            return { settled, loading: fig.classList.contains('ex-loading'), counts,
                     badge: fig.querySelector('.ex-badge').textContent, values: ex.figures[id].values };
        }""", [figure_id, [".ex-bar", ".ex-cells tbody td", ".ex-plane canvas"]])}


LATER_LOADED = """() => !document.querySelector('script[src*="/js/explorables."]') || (
    performance.getEntriesByType("resource").some(e => /\\/js\\/later\\.[0-9a-f]+\\.js$/.test(e.name)) &&
    !!window.explorables.progress && (!!window.explorablesTrack || !window.explorables.assetNames.track))"""


def later_loaded(page) -> None:
    """Wait until what the runtime loads after the first frame has come, on a page that has
    the runtime: js/later.js, then the track's data its progress.js asks for (track.*.js).
    Leaving the page before would cancel that request, a failed request for the guard."""
    page.wait_for_function(LATER_LOADED)


def module_page(browser, base: str, context_args: dict | None = None):
    """One page for a whole test module, so that Pyodide starts once (a generator for a
    module-scoped fixture: yields (page, guard)). Each test then opens its lesson with
    ``fresh_lesson``, which swaps the lesson in anew on the running engine."""
    from conftest import Guard

    context = browser.new_context(**(context_args or {}))
    page = context.new_page()
    guard = Guard(page, base)
    try:
        yield page, guard
    finally:
        context.close()


def served_site(site):
    """Build the author's site laid out in ``site`` (content/, figures/, ...) and serve it
    on 127.0.0.1 (a generator for a module-scoped fixture: yields its address); then stop
    the server and forget the author's figures, which the build registered."""
    from conftest import serve_folder
    from explorables.site_builder.authors import loader as authors
    from explorables.site_builder.commands.build import build_site

    build_site(site / "content", site / "_site")
    server = serve_folder(site / "_site")
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        authors.unload()


def write_content(folder, files: dict[str, str]):
    """``files`` (a file's name -> its text: site.yml, index.md, the lessons) written into
    ``folder``/content; returns that folder."""
    content = folder / "content"
    content.mkdir(parents=True)
    for name, text in files.items():
        (content / name).write_text(text, encoding="utf-8")
    return content


def fresh_reader(browser, url: str):
    """A fresh browser profile (empty storage) at 1200 x 900 on the site at ``url``, guarded
    against console errors (a generator for a fixture: yields its page; the guard is
    checked after the test)."""
    from conftest import Guard

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    guard = Guard(page, url)
    try:
        yield page
        guard.check()
    finally:
        context.close()


def progress_shown(page) -> None:
    """The reader's progress of the page shown is read and its marks drawn (they come after
    the first frame)."""
    page.wait_for_function("""() => {
        const p = window.explorables.progress;
        return p && document.body.dataset.exProgressShown === p.key();
    }""")


def each_fresh(shared, url: str, figure_id: str):
    """The module's page (``shared``: module_page's) with ``url`` opened anew for one test
    (a generator for a fixture: yields the page); the guard is checked after it."""
    page, guard = shared
    fresh_lesson(page, guard, url, figure_id)
    yield page
    guard.check()


# A swap for fresh_lesson, in one call to the page (each call costs 3-4 ms of CPU across
# the test, Playwright's driver, the browser and the page, hundreds of swaps a run): every
# figure's computations finished, the lesson swapped in, then, a frame at a time, its
# figure live and shown, every figure whole and the page's fonts in (as SETTLED asks); the
# figure's state compared with its build-time one. A page that never gets there fails at
# the deadline.
SWAP = """async ([url, id, deadline]) => {
    const ex = window.explorables;
    await Promise.all(Object.values(ex.figures).map(f => f.idle()));
    const swapped = await ex.pages.go(url, {push: true, restore: false, scroll: 0});
    if (swapped !== true) return "the lesson was not swapped in";
    const settled = (%s);
    const until = performance.now() + deadline;
    for (;;) {
        const root = document.getElementById(id);
        const shown = root && root.classList.contains("ex-live") && root.checkVisibility({visibilityProperty: true});
        if (shown && settled()) break;
        if (performance.now() > until) return `not live, whole and set within ${deadline} ms: ${root && root.className}`;
        await new Promise(r => requestAnimationFrame(r));
    }
    const root = document.getElementById(id);
    const built = JSON.parse(root.querySelector("script.ex-data").textContent).state;
    const same = JSON.stringify(built) === JSON.stringify(ex.figures[id].state);
    return same ? "" : "the figure did not start from its build-time state";
}""" % SETTLED


def fresh_lesson(page, guard, url: str, figure_id: str):
    """Open ``url`` in a module's page as if for the first time: the first call loads it,
    later ones swap it in anew (figures from their build-time scenes, Python kept).
    Nothing of the test before carries over: its computations are finished first, the
    figure's state is checked to be the page's own, and the guard starts empty."""
    clear(guard)
    if not page.evaluate("() => !!(window.explorables && window.explorables.pages)"):
        return open_figure(page, url, figure_id)
    from conftest import ACTION_TIMEOUT

    page.mouse.move(0, 0)
    failed = page.evaluate(SWAP, [url, figure_id, ACTION_TIMEOUT])
    assert not failed, failed
    return page.locator(f"figure#{figure_id}")


def shared_page(own: bool = False):
    """A module-scoped fixture named ``shared``: one page, one Pyodide for the module.

    Use as ``shared = shared_page()`` at the top of a test module, then open lessons in it
    with ``in_lesson``. The page is the test process's ``track_page``, which the modules
    before this one used too: Pyodide starts once per process. The module gets it as a
    reader left it (a lesson, live), with nothing of the last module's routes, viewport,
    media or messages; one that left it broken (a failed engine, say) hands on a blank
    page, which the next lesson opened loads anew. ``own=True`` gives the module a page
    of its own instead, for a module that adds init scripts (they stay with a page)."""
    if own:
        @pytest.fixture(scope="module")
        def shared(browser, site_url, browser_context_args):
            yield from module_page(browser, site_url, browser_context_args)
        return shared

    @pytest.fixture(scope="module")
    def shared(track_page):
        page, guard = track_page
        viewport = page.viewport_size
        clear(guard)
        yield page, guard
        page.unroute_all()
        page.set_viewport_size(viewport)
        plain_media(page)
        if not page.evaluate(HEALTHY):
            page.goto("about:blank")
        clear(guard)
    return shared


# A page the next module can swap its lessons into: its engine is live, no figure failed.
# An engine still starting on a busy machine is waited for (20 s), not thrown away: a new
# page would start Pyodide again, which a busy machine can least afford.
HEALTHY = """async () => {
    const ex = window.explorables;
    if (!ex || !ex.pages || !ex.ready) return false;
    const live = await Promise.race([ex.ready.then(() => true, () => false),
                                     new Promise(r => setTimeout(() => r(false), 20000))]);
    return live && !document.querySelector("figure.ex-failed");
}"""


# Whether a test left the page emulating another medium than a plain screen: asked first,
# as emulating again costs a style recalculation of the whole page (10-15 ms) even unchanged
OTHER_MEDIA = """() => ["print", "(prefers-color-scheme: dark)", "(prefers-reduced-motion: reduce)"]
    .some(query => matchMedia(query).matches)"""


def plain_media(page) -> None:
    """Put back the light scheme, motion and the screen medium, if a test changed them."""
    if page.evaluate(OTHER_MEDIA):
        page.emulate_media(color_scheme="light", reduced_motion="no-preference", media="screen")


WASM = "**/pyodide.asm.wasm"


def hold_python(page) -> list:
    """Hold Pyodide's WebAssembly back: Python does not come until ``let_python_come``."""
    held: list = []
    page.route(WASM, lambda route: held.append(route))
    return held


def let_python_come(page, held: list) -> None:
    """The WebAssembly requests held so far go on, and any still to come pass: the route
    is taken away too (on a busy machine the worker may ask only after the held ones
    were let go, and would then wait for ever). Taking the route away lets go a request
    it holds by then."""
    for route in held:
        route.continue_()
    held.clear()
    page.unroute(WASM)


def held_for_good(owner, pattern) -> list:
    """Requests matching ``pattern`` (routed on ``owner``, a page or a context) never
    answered while the test runs (the engine held, never started, when only the marks are
    read); returns them. Once the context is closed each is aborted: a route left
    unanswered is a task pending for ever in Playwright's client, which, collected
    during a later test, logs "Task was destroyed but it is pending!" in that test's log.
    Aborted only then, so that the page never sees it fail while guarded."""
    held: list = []
    owner.route(pattern, lambda route: held.append(route))
    context = getattr(owner, "context", owner)
    context.once("close", lambda _: [route.abort() for route in held])
    return held


def clear(guard) -> None:
    """The guard starts empty: nothing a test before reported or allowed carries over."""
    guard.errors.clear(), guard.outside.clear(), guard.failed.clear(), guard.allowed.clear()


def in_lesson(shared, url: str, figure_id: str):
    """For a function fixture: swap ``url`` in fresh on the module's page, yield the page,
    then check the guard and put back any viewport or media the test changed."""
    page, guard = shared
    viewport = page.viewport_size
    fresh_lesson(page, guard, url, figure_id)
    try:
        yield page
        guard.check()
    finally:
        if page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        plain_media(page)


def answer_exercise(page, section, typed: str, press_enter: bool = True) -> tuple[str, str]:
    """Type an answer into an exercise as a reader does, send it with Enter (or the Check
    button), and return the engine's new verdict: (its words, data-verdict). The verdict
    of an earlier answer is taken off first, so that it is never read for this one."""
    feedback = section.locator(".ex-feedback")
    feedback.evaluate("el => el.removeAttribute('data-verdict')")
    field = section.get_by_label("Your answer")
    field.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.type(typed)
    if press_enter:
        page.keyboard.press("Enter")
    else:
        section.get_by_role("button", name="Check").click()
    section.locator(".ex-feedback[data-verdict]").wait_for()
    return feedback.inner_text(), feedback.get_attribute("data-verdict")


def type_refused(page, field, typed: str):
    """Type a value the figure refuses into a typed number ``field`` as a reader does
    (click, select all, type, Enter); the message that appears under it."""
    field.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    error = field.locator("xpath=..").locator(".ex-field-error")
    error.wait_for()
    return error
