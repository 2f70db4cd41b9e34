"""A split search index (site_builder/output/search_files.py) in an offline bundle opened
from disk: the reader types a query, its parts load as classic scripts from file://
(no fetch), and Enter opens the page found. Nothing is requested but the bundle's files."""
from __future__ import annotations

import zipfile

import pytest

from explorables.site_builder.commands.bundle import bundle_site
from explorables.site_builder.output import search_files
from sections_site import make_site


@pytest.fixture(scope="module")
def split_bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("split-bundle")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_files, "SPLIT_ABOVE", 0)
        patch.setattr(search_files, "PART_SIZE", 200)
        patch.setattr(search_files, "DOCS_PER_PART", 2)
        result = bundle_site(make_site(out), out / "sections.zip")
    with zipfile.ZipFile(result.path) as archive:
        archive.extractall(out / "unzipped")
    (top,) = (out / "unzipped").iterdir()
    assert len(list((top / "_explorables" / "search").iterdir())) > 4
    return top


def test_a_split_index_answers_from_disk(browser, split_bundle):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requests, errors = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto((split_bundle / "index.html").as_uri())
        box = page.locator("#ex-search-input")
        box.wait_for(timeout=30_000)
        box.click()
        page.keyboard.type("heads")
        first = page.locator("#ex-search-results [role=option]").first
        first.wait_for(timeout=30_000)
        assert "Advanced › Heads" in first.inner_text()
        parts = [url for url in requests if "/_explorables/search/" in url]
        assert parts and all(url.startswith("file://") for url in parts)
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('main h1').textContent === 'Heads'")
        box = page.locator("#ex-search-input")
        box.click()
        page.keyboard.type("zzzqqq")
        page.locator(".ex-search-none").wait_for(timeout=30_000)
        assert not errors, errors
        outside = [url for url in requests if not url.startswith(("file://", "blob:", "data:"))]
        assert not outside, outside
    finally:
        context.close()
