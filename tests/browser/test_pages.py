"""The built site as GitHub Pages serves it: under a subpath (/repo/), with .nojekyll, a
404 page in the site's style and the notices page; every page goes live and no request
leaves /repo/."""
from __future__ import annotations

import re

import pytest

from conftest import serve_folder

PAGES = [("index.html", None), ("one-query-row.html", "explorer"), ("attention-heatmap.html", "table"),
         ("attention-lab.html", "lab"), ("two-heads.html", "heads"), ("positional-encoding.html", "clocks"),
         ("rotary-positions.html", "rope"), ("generating-text.html", "kv"),
         ("cross-attention.html", "cross")]
# (in reading order)


@pytest.fixture(scope="module")
def repo_url(built_site, tmp_path_factory):
    www = tmp_path_factory.mktemp("www")
    (www / "repo").symlink_to(built_site, target_is_directory=True)
    server = serve_folder(www)
    yield f"http://127.0.0.1:{server.server_address[1]}/repo/"
    server.shutdown()


def test_the_site_carries_what_pages_needs(built_site):
    assert (built_site / ".nojekyll").read_bytes() == b""
    page = (built_site / "404.html").read_text()
    assert "This page is not here" in page and 'href="one-query-row.html"' in page
    notices = (built_site / "notices.html").read_text()
    for name, licence in (("Pyodide 314.0.7", "MPL-2.0"), ("Noto Sans Math", "OFL-1.1")):
        assert re.search(rf"<td>{name}.*?</td><td>.*?</td><td>{licence}</td>", notices), name
    for lesson in built_site.glob("*.html"):
        assert 'href="notices.html">Notices</a>' in lesson.read_text(), lesson.name


def watch(page, repo_url) -> tuple[list[str], list[str]]:
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return requests, errors


def goes_live(page, figure_id: str) -> None:
    page.locator(f"figure#{figure_id}.ex-live").wait_for()
    value = page.evaluate(f"() => window.explorables.figures['{figure_id}'].update({{}}).then(() => 1)")
    assert value == 1


def test_every_page_goes_live_under_a_subpath(page, repo_url):
    """From the index, Next after Next: each lesson swapped in goes live, and nothing is
    asked of any address outside /repo/."""
    requests, errors = watch(page, repo_url)
    page.goto(repo_url + "index.html")
    page.evaluate("() => window.explorables.ready")
    for name, figure_id in PAGES[1:]:
        link = page.locator("a[rel=next]") if name != PAGES[1][0] else page.locator(f'header a[href="{name}"]')
        link.first.click()
        page.wait_for_url(repo_url + name)
        goes_live(page, figure_id)
    assert page.locator("a[rel=next]").count() == 0, "the walk reached the last lesson"
    outside = [url for url in requests if not url.startswith((repo_url, "blob:", "data:"))]
    assert not outside, outside
    assert not errors, errors


def test_a_lesson_opened_on_its_own_goes_live_under_a_subpath(page, repo_url):
    """A reader landing on a lesson from a search engine: its own document starts Python."""
    requests, errors = watch(page, repo_url)
    name, figure_id = PAGES[-1]
    page.goto(repo_url + name)
    page.evaluate("() => window.explorables.ready")
    goes_live(page, figure_id)
    outside = [url for url in requests if not url.startswith((repo_url, "blob:", "data:"))]
    assert not outside, outside
    assert not errors, errors


def test_the_404_page_is_styled_and_links_home(page, repo_url):
    page.goto(repo_url + "404.html")
    assert page.locator("h1").inner_text() == "This page is not here"
    assert page.evaluate("() => getComputedStyle(document.body).fontFamily") != ""
    page.get_by_role("link", name="Back to the start").click()
    page.wait_for_url(repo_url + "index.html")
