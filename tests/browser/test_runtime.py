"""The generic browser runtime: coalesced drags, visible failures, pages from disk,
every lesson page clean."""
from __future__ import annotations

import re

from helpers import open_figure, state_of

from conftest import Guard


def test_drags_are_coalesced_to_one_computation_in_flight(page, site_url, guard):
    """A burst of drag events never has two computations in flight, skips stale
    positions, and ends exactly at the last position."""
    open_figure(page, site_url + "one-query-row.html", "explorer")
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
                sent.push(f.send({type: 'drag', mark: 'key-1', x: 0.5 + i * 0.02, y: 1.0}));
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


def test_an_engine_that_cannot_start_is_reported_on_the_figure(page, site_url):
    guard = Guard(page, site_url)
    guard.allowed.append("Explorables figure 'explorer': could not load the engine archive (404)")
    guard.allowed.append("Failed to load resource")
    page.route("**/engine.zip", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(site_url + "one-query-row.html")
    error = page.locator("figure#explorer .ex-error")
    error.wait_for(timeout=30_000)
    assert "could not start its engine" in error.inner_text()
    assert "engine archive" in error.inner_text()
    assert page.locator("figure#explorer .ex-badge").inner_text() == "Not interactive"
    assert page.locator("figure#explorer .ex-bar").count() == 6  # the first frame stays
    guard.check()


def test_a_page_opened_from_disk_draws_its_first_frame_and_says_why_it_is_still(page, built_site):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((built_site / "one-query-row.html").as_uri())
    error = page.locator("figure#explorer .ex-error")
    error.wait_for()
    assert "serve the folder" in error.inner_text()
    assert page.locator("figure#explorer .ex-bar").count() == 6
    assert page.locator("figure#explorer canvas").count() >= 2
    assert errors and all(e.startswith("Explorables figure 'explorer': this site was built to be served") for e in errors)
    assert "explorables bundle" in error.inner_text()  # and what to do for a site that runs from disk


def test_every_page_loads_cleanly_with_math_and_navigation(page, site_url, built_site, guard):
    pages = sorted(p.name for p in built_site.glob("*.html"))
    assert "index.html" in pages and len(pages) >= 2
    for name in pages:
        page.goto(site_url + name)
        page.evaluate("() => window.explorables.ready")
        lessons = [p for p in pages if p not in ("index.html", "404.html", "notices.html")]
        assert page.locator("header .ex-nav a").count() == len(lessons)
        for fig in page.locator("figure.ex-figure").all():
            fig.and_(page.locator(".ex-live")).wait_for()
        maths = page.locator("math")
        if maths.count():  # formulas are drawn with the site's own math font
            assert page.evaluate("""() => document.fonts.ready.then(() => [...document.fonts].some(
                f => f.family.includes('Explorables Math') && f.status === 'loaded'))""")
        for i in range(min(maths.count(), 5)):
            box = maths.nth(i).bounding_box()
            if box is not None:
                assert box["width"] > 0 and box["height"] > 0
        assert not re.search(r"\bNaN\b|undefined", page.locator("main").inner_text())
