"""A page and its engine from two builds of a site (a cache that kept files of an
earlier deploy): the page reloads itself once, then says what is wrong; a page of
another build is loaded, not swapped in. A normal load never reloads."""
from __future__ import annotations

import io
import re
import zipfile

import pytest

from explorables.site_builder.output.assets import BUILD_FILE, names_in
from helpers import fresh_lesson, open_figure, shared_page

PAGE = "one-query-row.html"
FIG = "explorer"
OTHER = "000000000000"  # a build id no build writes


shared = shared_page()


@pytest.fixture
def reader(shared):
    page, guard = shared
    loads: list[str] = []
    listener = lambda p: loads.append(p.url)  # noqa: E731 - one a document loaded, not a history entry
    page.on("domcontentloaded", listener)
    yield page, guard, loads
    page.remove_listener("domcontentloaded", listener)
    page.unroute_all()
    guard.check()


def other_build_archive(archive: bytes) -> bytes:
    """The engine archive with another build's id in it."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(archive)) as old, zipfile.ZipFile(out, "w") as new:
        for item in old.infolist():
            new.writestr(item, OTHER.encode() if item.filename == BUILD_FILE else old.read(item))
    return out.getvalue()


def test_a_normal_load_does_not_reload(reader, site_url):
    page, guard, loads = reader
    open_figure(page, site_url + PAGE, FIG)
    page.evaluate("() => window.explorables.ready")  # the engine's build was compared with the page's
    page.wait_for_load_state("load")
    assert loads == [site_url + PAGE]
    build = page.evaluate("() => window.explorables.build")
    assert re.fullmatch(r"[0-9a-f]{12}", build)
    assert page.evaluate("() => sessionStorage.getItem('explorables-reloaded-for-build')") is None


def test_a_page_of_the_same_build_is_swapped_in_with_its_asset_map(reader, site_url, built_site):
    """A later deploy of the lessons alone keeps the build id (the runtime is the same)
    but writes a new search index: the swapped-in page's map replaces the old one."""
    page, guard, loads = reader
    fresh_lesson(page, guard, site_url + PAGE, FIG)
    loads.clear()
    notices = (built_site / "notices.html").read_text()
    search = names_in(built_site)["search-index.js"]
    newer = search.replace(search.split(".")[1], "0123abcd")
    page.route("**/notices.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=notices.replace(f'"{search}"', f'"{newer}"')))
    page.evaluate("() => { window.keptFromBefore = true; }")
    page.locator("footer a", has_text="Notices").click()
    page.wait_for_url("**/notices.html")
    page.locator("main h1", has_text="Notices").wait_for()
    assert page.evaluate("() => window.keptFromBefore") is True, "the page was loaded, not swapped in"
    assert loads == []
    assert page.evaluate("() => window.explorables.assetNames.search") == newer


def test_a_page_of_another_build_is_loaded_not_swapped(reader, site_url, built_site):
    page, guard, loads = reader
    fresh_lesson(page, guard, site_url + PAGE, FIG)
    loads.clear()
    notices = (built_site / "notices.html").read_text()
    build = page.evaluate("() => window.explorables.build")
    assert f'"build": "{build}"' in notices
    page.route("**/notices.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=notices.replace(f'"build": "{build}"', f'"build": "{OTHER}"')))
    page.evaluate("() => { window.keptFromBefore = true; }")
    page.locator("footer a", has_text="Notices").click()
    page.wait_for_url("**/notices.html")
    page.wait_for_function("() => window.explorables && window.explorables.pages")
    assert page.evaluate("() => window.keptFromBefore === undefined"), "the page was swapped in, not loaded"
    assert loads == [site_url + "notices.html"]
    assert page.evaluate("() => window.explorables.build") == OTHER


def test_a_missing_engine_archive_reloads_once_then_names_it(reader, site_url, built_site):
    """A page kept by a cache from before a deploy names an engine archive the deploy
    removed (404): one reload, for a fresh page, then the figure says what is missing."""
    page, guard, loads = reader
    guard.allowed += ["could not load the engine archive (404)", "Failed to load resource"]
    engine = names_in(built_site)["engine.zip"]
    page.route(f"**/_explorables/{engine}", lambda route: route.fulfill(status=404, body="missing"))
    page.evaluate("() => sessionStorage.clear()")
    loads.clear()
    page.goto(site_url + PAGE)
    page.locator(f"figure#{FIG}.ex-failed").wait_for(timeout=60_000)
    assert "could not load the engine archive (404)" in page.locator(f"figure#{FIG} .ex-error").inner_text()
    page.wait_for_load_state("load")  # the error says no reload comes: the reloaded page's own load is in
    assert loads == [site_url + PAGE, site_url + PAGE], "not exactly one reload"
    guard.failed.clear()  # the archive refused on purpose


def test_an_engine_of_another_build_reloads_once_then_says_so(reader, site_url, built_site):
    page, guard, loads = reader
    guard.allowed += ["two versions of the site", "is not this page's (build"]
    engine = names_in(built_site)["engine.zip"]
    archive = other_build_archive((built_site / "_explorables" / engine).read_bytes())
    fetched = []

    def swap_engine(route):
        fetched.append(route.request.url)
        route.fulfill(status=200, content_type="application/zip", body=archive)

    def cut_by_the_reload(loaded):
        """The page's own reload cuts off what the first document was still fetching (its
        js/later.js, say): those requests fail by design, once that document is gone."""
        if len(loads) == 2:
            guard.failed[:] = [f for f in guard.failed if not f.endswith("(net::ERR_ABORTED)")]

    page.route(f"**/_explorables/{engine}", swap_engine)
    page.on("domcontentloaded", cut_by_the_reload)
    page.evaluate("() => sessionStorage.clear()")  # no reload tried yet (the test before tried one)
    page.goto(site_url + PAGE)
    error = page.locator(f"figure#{FIG} .ex-error")
    error.wait_for(state="visible", timeout=60_000)
    page.remove_listener("domcontentloaded", cut_by_the_reload)
    text = error.inner_text()
    assert "two versions of the site" in text and OTHER in text
    assert "reload the page" in text
    page.wait_for_load_state("load")  # (as above)
    assert loads == [site_url + PAGE, site_url + PAGE], "not exactly one reload"
    assert len(fetched) == 2  # the first load's engine and the reloaded page's
    assert page.locator(f"figure#{FIG}.ex-failed").count() == 1
    assert page.locator(f"figure#{FIG} input:not([disabled])").count() == 0

    # Once the right engine comes, the page works, and a later mismatch may reload again.
    # (Last in the module: the page it shares is handed on live, its engine kept.)
    page.unroute_all()
    loads.clear()
    page.goto(site_url + PAGE)
    page.evaluate("() => window.explorables.ready")
    page.locator(f"figure#{FIG}.ex-live").wait_for()
    assert loads == [site_url + PAGE]
    assert page.evaluate("() => sessionStorage.getItem('explorables-reloaded-for-build')") is None
