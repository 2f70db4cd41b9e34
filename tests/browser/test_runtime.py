"""The generic browser runtime: coalesced drags, visible failures, pages from disk.
(That every page loads cleanly is walked in test_csp.py, under a strict policy.)"""
from __future__ import annotations

import io
import zipfile

import pytest

from explorables.site_builder.output.assets import names_in
from explorables.site_builder.pyodide.release import VERSION
from helpers import in_lesson, shared_page, state_of

from conftest import Guard


shared = shared_page()


@pytest.fixture
def row(shared, site_url):
    yield from in_lesson(shared, site_url + "one-query-row.html", "explorer")


def test_drags_are_coalesced_to_one_computation_in_flight(row):
    """A burst of drag events never has two computations in flight, skips stale
    positions, and ends exactly at the last position."""
    page = row
    stats = page.evaluate(
        """async () => {
            const ex = window.explorables, f = ex.figures.explorer, step = ex.client.step;
            let inFlight = 0, most = 0, calls = 0;
            ex.client.step = async (...args) => {
                calls++; inFlight++; most = Math.max(most, inFlight);
                try { return await step(...args); } finally { inFlight--; }
            };
            const sent = [];
            for (let i = 0; i < 40; i++) {
                sent.push(f.send({type: 'drag', mark: 'key', index: 1, x: 0.5 + i * 0.02, y: 1.0}));
                if (i % 8 == 0) await new Promise(r => setTimeout(r, 0));
            }
            await Promise.all(sent);
            await f.idle();
            ex.client.step = step;
            return { most, calls };
        }""")
    assert stats["most"] == 1
    assert stats["calls"] < 40
    assert state_of(page, "explorer")["k"][1] == [1.28, 1.0]


def test_a_page_opened_from_disk_draws_its_first_frame_and_says_why_it_is_still(page, built_site):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((built_site / "one-query-row.html").as_uri())
    error = page.locator("figure#explorer .ex-error")
    error.wait_for()
    assert "serve the folder" in error.inner_text()
    # the first frame drawn whole (a figure is made a few panels a frame, figure.js unfold)
    page.wait_for_function("() => { const f = window.explorables.figures.explorer; return f && !f.pieces; }")
    assert page.locator("figure#explorer .ex-bar").count() == 6
    assert page.locator("figure#explorer canvas").count() >= 2
    assert errors and all(e.startswith("Explorables figure 'explorer': this site was built to be served") for e in errors)
    assert "explorables bundle" in error.inner_text()  # and what to do for a site that runs from disk


# A figure never hangs: every failure to start, and a worker that dies, reach the reader.

START_FAILURES = {  # a file the engine needs -> what the figure says when it cannot be had
    "js/worker.js": "could not load the engine's worker script",
    "pyodide/pyodide.mjs": "could not load Pyodide's loader (pyodide/pyodide.mjs)",
    "pyodide/pyodide.asm.mjs": "Python could not start",
    "pyodide/pyodide.asm.wasm": "Python could not start (could not load pyodide/pyodide.asm.wasm: ",
    # the site's own (site_builder/stdlib.py): as Pyodide names it, or, when Python only exits, as the worker does
    "stdlib.zip": ("/_explorables/{built}': request failed.",
                   "could not load the standard library ({url}_explorables/{built})"),
    "pyodide/pyodide-lock.json": "Python could not start (Unexpected token",
    "engine.zip": "could not load the engine archive (404)",
}


PYODIDE_SAYS = ("is not valid JSON", "Error occurred while installing the standard library", "stdlib.",
               "Fatal Python error", "Python runtime state", "No module named 'encodings'", "Current thread 0x",
               "<no Python frame>", "wasm instantiation failed!", "Failed to execute 'compile' on 'WebAssembly'")


def test_every_failure_to_start_is_shown_once_with_the_controls_disabled(page, site_url, built_site):
    """Pins a bug: with pyodide.asm.wasm unreachable the worker logged "Failed to fetch"
    and the figure said "Starting Python…" forever, its controls live but dead."""
    guard = Guard(page, site_url)
    # a missing file of the engine first reloads the page once (a page from before a deploy)
    guard.allowed += ["Explorables figure 'explorer'", "Failed to load resource", "a file of the engine is missing"]
    page.add_init_script("window.explorables = {options: {startTimeout: 45000}}")
    for name, says in START_FAILURES.items():
        page.unroute_all()
        # the file's name in the built site: hashed, or in Pyodide's folder of its version
        built = f"pyodide/{VERSION}/{name.split('/')[1]}" if name.startswith("pyodide/") else names_in(built_site)[name]
        page.route(f"**/_explorables/{built}", lambda route: route.fulfill(status=404, body="missing"))
        page.goto(site_url + "one-query-row.html")
        figure = page.locator("figure#explorer")
        try:
            page.locator("figure#explorer.ex-failed").wait_for(timeout=60_000)
        except Exception:
            raise AssertionError(f"no failure shown without {name}: {figure.inner_text()[:300]}")
        errors = figure.locator(".ex-error:visible")
        assert errors.count() == 1, name
        text = errors.inner_text()
        says = [one.format(built=built, url=site_url) for one in ((says,) if isinstance(says, str) else says)]
        assert text.startswith("This figure could not start its engine: "), (name, text)
        assert any(one in text for one in says), (name, text)
        assert figure.locator(".ex-badge").inner_text() == "Not interactive"
        # the first frame stays: drawn whole (a figure is made a few panels a frame, figure.js
        # unfold, and a worker that is missing fails before the last of them is made)
        page.wait_for_function("() => { const f = window.explorables.figures.explorer; return f && !f.pieces; }")
        assert figure.locator(".ex-bar").count() == 6
        # every control disabled, read in one call (not one a control)
        disabled = figure.locator("input, button, select").evaluate_all("all => all.map(c => c.matches(':disabled'))")
        assert len(disabled) > 5
        assert all(disabled), name
        rejected = page.evaluate("""() => window.explorables.figures.explorer.update({temperature: 2})
                                          .then(() => 'resolved', e => e.message)""")
        assert any(one in rejected for one in says), rejected
    # What Pyodide itself logs when a file it needs is refused: the lock file's parse
    # error, and without the standard library, Python's fatal error, line by line. Those
    # lines may come before the next page is opened or not, as the worker is timed.
    guard.errors = [e for e in guard.errors
                    if e.split(": ", 1)[-1].strip() and not any(line in e for line in PYODIDE_SAYS)]
    guard.failed = []  # the files refused on purpose, and loads cut short by the next page
    guard.check()


def damaged(archive: bytes) -> bytes:
    """The archive with one entry's deflated bytes spoilt (a reserved block type): a zip
    whose directory reads, whose entry does not inflate."""
    entry = next(e for e in zipfile.ZipFile(io.BytesIO(archive)).infolist() if e.compress_size > 100)
    name_and_extra = int.from_bytes(archive[entry.header_offset + 26: entry.header_offset + 30], "little")
    start = entry.header_offset + 30 + (name_and_extra & 0xFFFF) + (name_and_extra >> 16)
    return archive[:start] + b"\xff" * 16 + archive[start + 16:]


@pytest.mark.parametrize("spoilt", [lambda whole: whole[: len(whole) // 2], damaged], ids=["cut", "damaged"])
def test_a_cut_engine_archive_is_named_and_the_figure_keeps_its_first_frame(page, site_url, built_site, spoilt):
    """The worker unpacks the engine archive itself, while Python starts: an archive cut
    short in transit (a proxy, a full disk) is no zip, one damaged does not inflate, and
    the figure says so."""
    guard = Guard(page, site_url)
    guard.allowed += ["Explorables figure 'explorer'"]
    engine = names_in(built_site)["engine.zip"]
    whole = (built_site / "_explorables" / engine).read_bytes()
    page.route(f"**/_explorables/{engine}",
               lambda route: route.fulfill(status=200, content_type="application/zip", body=spoilt(whole)))
    page.goto(site_url + "one-query-row.html")
    page.locator("figure#explorer.ex-failed").wait_for(timeout=60_000)
    text = page.locator("figure#explorer .ex-error:visible").inner_text()
    assert "could not load the engine archive (the file is cut short or damaged)" in text, text
    page.wait_for_function("() => { const f = window.explorables.figures.explorer; return f && !f.pieces; }")
    assert page.locator("figure#explorer .ex-bar").count() == 6
    guard.check()


def test_a_long_refused_input_is_quoted_short_and_the_page_does_not_widen(row):
    """Pins a bug: a refused 10,000-character input was echoed whole in a message that
    could not wrap, and the page became 86,544 px wide."""
    page = row
    figure = page.locator("figure#explorer")
    field = figure.locator('input[name="key.1.0"]')
    field.fill("9" * 5000 + "x" * 5000)
    field.press("Enter")
    error = figure.locator(".ex-field-error:visible")
    error.wait_for()
    assert error.inner_text() == f"expected a number, got '{'9' * 40}…' (10000 characters)" or \
        ("(10000 characters)" in error.inner_text() and len(error.inner_text()) < 200), error.inner_text()
    assert len(figure.locator(".ex-status").inner_text()) < 200
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
