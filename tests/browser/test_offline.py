"""A published site kept offline after the first visit (issue 35, section 1): the
service worker (sw.js, static/js/serviceworker.js) and its page side (static/js/offline.js).
The site is the starter `explorables new` writes, built and served by a plain static
server; these contexts allow service workers (conftest blocks them elsewhere)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from conftest import Guard, serve_folder
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from helpers import later_loaded, whole

from explorables.site_builder.authors import loader as authors
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.serve import DevServer
from explorables.site_builder.output import serviceworker
from explorables.site_builder.structure.config import DEFAULT_CSP

STARTER = Path(__file__).resolve().parents[2] / "site_builder" / "starter"
LESSONS = {"one-query-row.html": "explorer", "softmax-of-three.html": "three"}
NEW_TEXT = "A sentence written after the first deploy."
THIRD_TEXT = "A sentence written after the second deploy."
CACHE_KEYS = "() => caches.keys()"


def write_starter(site: Path, offline: bool = True) -> Path:
    """The starter's lessons and figure (site_builder/starter/) in ``site``."""
    for part in ("content", "figures"):
        shutil.copytree(STARTER / part, site / part)
    (site / "site.yml").write_text(f'title: "Mine"\noffline: {"true" if offline else "false"}\n')
    return site


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """The starter built once for the module, as first deployed, and its next two deploys
    (a sentence added to a lesson each time): (the site's folder, the first build, the
    second, the third). The tests read these builds, and serve copies or links of them,
    never change them."""
    site = write_starter(tmp_path_factory.mktemp("starter") / "mine")
    build_site(site / "content", site / "_site")
    lesson = site / "content" / "02-softmax-of-three.md"
    for text, out in ((NEW_TEXT, "next"), (THIRD_TEXT, "third")):
        lesson.write_text(lesson.read_text().replace("\n\n", f"\n\n{text}\n\n", 1))
        build_site(site / "content", site.parent / out)
    yield site, site / "_site", site.parent / "next", site.parent / "third"
    authors.unload()


@pytest.fixture
def starter(builds):
    """The starter, built: (the site's folder, the built site)."""
    return builds[0], builds[1]


@pytest.fixture
def served(starter):
    site, out = starter
    server = serve_folder(out)
    yield site, out, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def open_reader(browser, browser_context_args, url: str):
    """A reader's browser that allows service workers, guarded: (its context, page, guard)."""
    context = browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    page = context.new_page()
    return context, page, Guard(page, url)


@pytest.fixture
def reader(browser, browser_context_args, served):
    """A reader's browser that allows service workers, guarded: its page, and the site's
    folder, built site and address."""
    site, out, url = served
    context, page, guard = open_reader(browser, browser_context_args, url)
    yield SimpleNamespace(page=page, site=site, out=out, url=url)
    context.close()
    guard.check()


def live(page, figure_id: str):
    page.evaluate("() => window.explorables.ready")
    root = page.locator(f"figure#{figure_id}")
    root.and_(page.locator(".ex-live")).wait_for()
    whole(page)
    return root


def answers_a_slider(page, figure_id: str) -> None:
    """The reader moves the figure's first slider with the keyboard: the engine answers."""
    before = page.evaluate("id => JSON.stringify(window.explorables.figures[id].state)", figure_id)
    slider = page.locator(f"figure#{figure_id} input[type=range]").first
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "([id, before]) => JSON.stringify(window.explorables.figures[id].state) !== before", arg=[figure_id, before]
    )
    page.evaluate("id => window.explorables.figures[id].idle()", figure_id)


def first_visit(page, url: str) -> None:
    """Open the first lesson, live, and wait until the footer says the site is offline."""
    page.goto(url + "one-query-row.html")
    live(page, "explorer")
    page.locator(".ex-footer .ex-offline").wait_for()
    assert page.evaluate("() => !!navigator.serviceWorker.controller")


def test_a_site_visited_once_opens_every_lesson_offline_and_live(reader):
    page, out, url = reader.page, reader.out, reader.url
    first_visit(page, url)
    assert page.locator(".ex-offline").inner_text() == "Available offline: this site is kept in your browser."
    version = serviceworker.read_data(out)["version"]
    assert page.evaluate(CACHE_KEYS) == [f"explorables {url} {version}"]
    page.context.set_offline(True)
    menu = page.locator(".ex-nav a")
    for name in [urlsplit(href).path.lstrip("/") for href in menu.evaluate_all("links => links.map(a => a.href)")]:
        # the page swapped in, even the one shown (its link swaps it in anew): until then
        # the address may already be its, and the figure read the one being replaced
        page.evaluate("() => { window.__shown = document.querySelector('main h1'); }")
        page.locator(".ex-nav a", has_text=page.locator(f'.ex-nav a[href$="{name}"]').inner_text()).first.click()
        page.wait_for_url(url + name)
        page.wait_for_function("() => document.querySelector('main h1') !== window.__shown")
        if name in LESSONS:
            live(page, LESSONS[name])
            answers_a_slider(page, LESSONS[name])
        assert page.locator(".ex-footer .ex-offline").count() == 1  # said on every page swapped in
    # a page loaded anew, offline: from the cache, and live; the site's address is its index
    page.reload()
    live(page, "three")
    answers_a_slider(page, "three")
    page.goto(url)
    assert page.locator(".ex-site-title").inner_text() == "Mine"


def test_a_site_under_a_folder_keeps_itself_there_under_a_strict_policy(browser, browser_context_args, starter,
                                                                       tmp_path):
    """As on GitHub Pages, under /REPO/: the worker's scope, its cache and its answers are
    the site's folder's, beside another site of the same origin. The site's default policy
    is sent as a header, as a host would send it, so it governs the worker's own script
    too: no violation in the page, and the worker caches and answers all the same."""
    shutil.copytree(starter[1], tmp_path / "www" / "repo")
    server = serve_folder(tmp_path / "www", DEFAULT_CSP)
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    context, page, guard = open_reader(browser, browser_context_args, origin)
    try:
        page.add_init_script(
            """window.__violations = [];
            document.addEventListener("securitypolicyviolation", e => window.__violations.push(e.effectiveDirective))"""
        )
        first_visit(page, origin + "repo/")
        scopes = "() => navigator.serviceWorker.getRegistrations().then(r => r.map(x => x.scope))"
        assert page.evaluate(scopes) == [origin + "repo/"], "the worker's scope is not the site's folder"
        assert [name.split(" ")[1] for name in page.evaluate(CACHE_KEYS)] == [origin + "repo/"], (
            "the cache is not the site's folder's"
        )
        context.set_offline(True)
        page.locator(".ex-nav a", has_text="Softmax").first.click()
        page.wait_for_url(origin + "repo/softmax-of-three.html")
        live(page, "three")
        answers_a_slider(page, "three")
        assert page.evaluate("() => window.__violations") == [], "the policy sent as a header was violated"
        guard.check()
    finally:
        context.close()
        server.shutdown()


def test_each_new_deploy_is_taken_up_whole_and_the_old_cache_goes(browser, browser_context_args, builds, tmp_path):
    """Two deploys one after the other, as a host swaps each in: the reader, back on the
    page they had, is told of each; the first is taken up with the note's button, the
    second with a plain reload."""
    _, first, *following = builds
    deployed = tmp_path / "deployed"  # what the server serves: a link to the build deployed
    deployed.symlink_to(first, target_is_directory=True)
    server = serve_folder(deployed)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context, page, guard = open_reader(browser, browser_context_args, url)
    try:
        first_visit(page, url)
        page.locator(".ex-nav a", has_text="Softmax").first.click()
        live(page, "three")
        requested: list[str] = []  # every request of the reader's browser from here on
        page.context.on("request", lambda request: requested.append(request.url))
        takes = zip(("the note's button", "a plain reload"), following, (NEW_TEXT, THIRD_TEXT))
        for n, (how, build, text) in enumerate(takes):
            old = serviceworker.read_data(deployed)
            # the next deploy, at once; its files written after those deployed (a server
            # answers the browser's If-Modified-Since for sw.js by whole seconds)
            written = max(path.stat().st_mtime for path in deployed.resolve().rglob("*")) + 2
            for path in build.rglob("*"):
                os.utime(path, (written, written))
            (tmp_path / f"next{n}").symlink_to(build, target_is_directory=True)
            os.replace(tmp_path / f"next{n}", deployed)
            new = serviceworker.read_data(deployed)
            assert new["version"] != old["version"], how
            # the reader comes back: the page they had, from the cache, says a new version is ready
            page.reload()
            note = page.get_by_role("region", name="A new version of this site is ready.")
            note.wait_for()
            assert text not in page.locator("main").inner_text(), how  # nothing swapped under the reader
            since = len(requested)
            if how == "the note's button":
                note.get_by_role("button", name="Reload").click()
            else:
                page.reload()
            try:
                page.locator("main", has_text=text).wait_for()
            except PlaywrightTimeout as err:  # what the take-over was doing, for whoever reads the failure
                loads = sum(1 for r in requested[since:] if urlsplit(r).path.endswith("softmax-of-three.html"))
                workers = [w.url.rsplit("/", 1)[-1] for w in context.service_workers]
                raise AssertionError(
                    f"{how}: the new version never showed; {loads} loads of the page since (a take-over "
                    f"answers the first with a page that waits), {len(requested) - since} requests, "
                    f"service workers {workers}"
                ) from err
            live(page, "three")
            answers_a_slider(page, "three")
            assert page.evaluate(CACHE_KEYS) == [f"explorables {url} {new['version']}"], how
            # every file the new page and its engine used is a file of the new version
            paths = {urlsplit(r).path.lstrip("/") for r in requested[since:]
                     if r.startswith(url) and not r.endswith("sw.js")}
            paths = {p or "index.html" for p in paths}
            only_old = set(old["files"]) - set(new["files"])
            assert paths and not paths & only_old, how
            assert paths <= set(new["files"]) | {"softmax-of-three.html"}, how
        guard.check()
    finally:
        context.close()
        server.shutdown()


def comes_into_the_cache(page, address: str) -> None:
    """Wait until the site's one cache holds ``address``: asked a hundred times, 50 ms
    apart, in one call to the page. (wait_for_function takes a promise for a truthy
    answer: the page awaits the cache's itself.)"""
    kept = page.evaluate("""async u => {
        for (let tries = 0; tries < 100; tries += 1) {
            const names = await caches.keys();
            const cache = names.length === 1 && await caches.open(names[0]);
            if (cache && await cache.match(u)) return true;
            await new Promise(done => setTimeout(done, 50));
        }
        return false;
    }""", address)
    assert kept, f"{address} is not kept"


def test_a_reader_who_saves_data_keeps_only_what_they_open(reader):
    page, url = reader.page, reader.url
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})})")
    page.goto(url + "index.html")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    later_loaded(page)
    page.locator(".ex-nav a", has_text="Softmax").first.click()
    page.locator("figure#three").wait_for()
    comes_into_the_cache(page, url + "softmax-of-three.html")
    kept = page.evaluate(
        "() => caches.keys().then(n => caches.open(n[0])).then(c => c.keys()).then(r => r.map(x => x.url))"
    )
    assert url + "softmax-of-three.html" in kept
    assert url + "one-query-row.html" not in kept  # never opened
    # the lesson, swapped in, ran the index's runtime: its own (its set of panel kinds) is
    # kept beside it, so that the lesson opened again offline has its script
    own = page.evaluate("""u => fetch(u).then(r => r.text())
        .then(t => /<script defer src="([^"]*js\\/explorables\\.[^"]+\\.js)"/.exec(t)[1])""",
                        url + "softmax-of-three.html")
    index = page.evaluate("() => document.querySelector('head script[defer][src*=explorables]').src")
    assert url + own != index
    comes_into_the_cache(page, url + own)
    assert not any(k.endswith(".wasm") for k in kept)  # Python waits for the reader's Start
    assert page.locator(".ex-offline").count() == 0


def registrations(page) -> int:
    return page.evaluate(
        "() => navigator.serviceWorker ? navigator.serviceWorker.getRegistrations().then(r => r.length) : 0"
    )


def settled(page) -> None:
    """The first lesson live, js/later.js run and the page idle once: where it would register."""
    live(page, "explorer")
    later_loaded(page)
    page.evaluate("() => new Promise(done => requestIdleCallback(() => setTimeout(done, 50), {timeout: 3000}))")


def test_offline_false_registers_nothing(browser, browser_context_args, tmp_path):
    site = write_starter(tmp_path / "mine", offline=False)
    build_site(site / "content", site / "_site")
    authors.unload()
    server = serve_folder(site / "_site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context, page, guard = open_reader(browser, browser_context_args, url)
    try:
        page.goto(url + "one-query-row.html")
        settled(page)
        assert registrations(page) == 0
        assert page.evaluate(CACHE_KEYS) == []
        guard.check()
    finally:
        context.close()
        server.shutdown()


def test_a_site_from_disk_registers_nothing(browser, browser_context_args, starter):
    out = starter[1]
    context = browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    try:
        page = context.new_page()  # (no Guard: its routing stops pages from disk)
        errors: list[str] = []
        said: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("console", lambda message: said.append(message.text))
        page.goto((out / "one-query-row.html").as_uri())
        page.locator("#ex-search-input").wait_for(state="attached")  # js/later.js ran (search.js, offline.js)
        page.evaluate("() => new Promise(done => requestIdleCallback(() => setTimeout(done, 50), {timeout: 3000}))")
        # a page from disk can hold no worker (the browser refuses to list them): offline.js
        # did not try one either (a refused registration would say "not kept offline")
        assert page.evaluate("() => navigator.serviceWorker.getRegistrations().then(() => 'listed', e => e.name)") == (
            "InvalidStateError"
        )
        assert errors == [] and not [text for text in said if "kept offline" in text]
    finally:
        context.close()


def test_the_preview_registers_nothing(browser, browser_context_args, tmp_path):
    site = write_starter(tmp_path / "mine")
    server = DevServer(site / "content", port=0)
    assert server.start()
    context, page, guard = open_reader(browser, browser_context_args, server.url)
    try:
        page.goto(server.url + "one-query-row.html")
        settled(page)
        assert registrations(page) == 0
        guard.check()
    finally:
        context.close()
        server.stop()
        authors.unload()
